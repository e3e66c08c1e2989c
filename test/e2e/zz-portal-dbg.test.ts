import { it } from 'vitest';
import { createPatient } from '../../src/core/patients/service.js';
import { issuePortalPin } from '../../src/core/portal/pin.js';
import { systemActor } from '../../src/core/context.js';
import { MOBILE, startApp } from './harness.js';

it('dbg', async () => {
  const app = await startApp();
  const actor = systemActor(app.organizationId!);
  const p = await createPatient(app.database.db, actor, { first_name: 'A', last_name: 'B', date_of_birth: '1980-01-01', phone: '9886012345' });
  const { pin } = await issuePortalPin(app.database.db, actor, p.id);
  const page = await app.newPage(MOBILE);
  page.on('response', async (r) => { if (r.url().includes('/api/')) console.log(r.request().method(), r.url(), r.status(), JSON.stringify(r.headers()['set-cookie'] ?? '')); });
  page.on('console', (m) => console.log('console', m.text()));
  await page.goto('/patient-portal');
  await page.getByLabel('Patient ID').fill(p.patient_id);
  await page.getByLabel('Mobile Number').fill('9886012345');
  await page.getByLabel('PIN', { exact: true }).fill(pin);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForTimeout(3000);
  console.log(await page.context().cookies());
  await app.close();
});
