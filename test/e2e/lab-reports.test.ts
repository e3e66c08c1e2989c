import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MOBILE, screenshot, startApp, type E2eApp } from './harness.js';
import { verificationToken } from '../../src/core/lab-reports/verification.js';

/**
 * Lab Reports as a lab manager uses it: the register shows each sample's report with the status its
 * results give it, the Critical Values Alert's Review Now opens Result Validation on that sample, a
 * department's template names its signatory, and the report's verification page (no sign-in) tells a
 * genuine link from a changed one.
 */
let app: E2eApp;
const stamp = Date.now() % 100000;
// Names take letters only: the stamp in base 26 letters.
const tag = [...String(stamp)].map((d) => String.fromCharCode(97 + Number(d))).join('');
const names = { critical: `Crit${tag}`, done: `Done${tag}`, draft: `Draft${tag}` };
const samples: Record<string, { id: number; code: string }> = {};

async function post(page: Page, url: string, data: unknown) {
  const res = await page.request.post(url, { data });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

beforeAll(async () => {
  app = await startApp({ roles: ['lab_technician', 'validator'] });
  const tech = await app.signedInPage('/', app.users.lab_technician);
  const validator = await app.signedInPage('/', app.users.validator);
  const admin = await app.signedInPage('/');
  const hb = (
    await post(admin, '/api/tests', {
      name: 'Haemoglobin',
      code: `HB${stamp}`,
      price: 150,
      category: 'Haematology',
      unit: 'g/dL',
      normal_range: '13-17',
      critical_low: 7,
    })
  ).test.id;
  const glu = (
    await post(admin, '/api/tests', { name: 'Glucose Fasting', code: `GL${stamp}`, price: 90, category: 'Diabetes' })
  ).test.id;
  for (const [key, first] of Object.entries(names)) {
    const p = (await post(admin, '/api/patients', { first_name: first, last_name: 'Rao', date_of_birth: '1980-01-01' }))
      .patient.id;
    const s = (
      await post(tech, '/api/samples', {
        patient_id: p,
        sample_type: 'Blood',
        test_ids: key === 'critical' ? [hb] : [glu],
      })
    ).sample;
    samples[key] = { id: s.id, code: s.sample_id };
  }
  await post(tech, '/api/test-results', { sample_id: samples.critical!.id, test_id: hb, result_value: '5.2' });
  const r = (await post(tech, '/api/test-results', { sample_id: samples.done!.id, test_id: glu, result_value: '96' }))
    .result;
  const v = await validator.request.put(`/api/test-results/${r.id}/verify`, { data: {} });
  expect(v.status()).toBe(200);
  await Promise.all([tech.context().close(), validator.context().close(), admin.context().close()]);
});

afterAll(async () => {
  await app?.close();
});

const rowOf = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

describe('Lab Reports', () => {
  it('register, critical values with Review Now, templates and the verification page', async () => {
    const page = await app.signedInPage('/lab-reports');
    await page.getByRole('heading', { name: 'Lab Reports', level: 1 }).waitFor();
    await page.getByRole('group', { name: 'Total Reports' }).getByText('3', { exact: true }).waitFor();
    await page.getByRole('group', { name: 'Completed' }).getByText('1', { exact: true }).waitFor();

    await rowOf(page, names.done).getByText('Completed', { exact: true }).waitFor();
    await rowOf(page, names.critical).getByText('Pending Review', { exact: true }).waitFor();
    await rowOf(page, names.draft).getByText('Draft', { exact: true }).waitFor();

    // The status filter asks the server: only the completed report is left.
    await page.getByLabel('Status').selectOption('completed');
    await page.waitForURL(/status=completed/);
    await rowOf(page, names.critical).waitFor({ state: 'detached' });
    expect(await rowOf(page, names.done).count()).toBe(1);

    await page.getByRole('heading', { name: 'Report Analytics' }).waitFor();
    await page.getByRole('heading', { name: 'Quality Metrics' }).waitFor();
    await page.getByRole('button', { name: 'Show table' }).click();
    await page.getByRole('table', { name: 'Samples registered and reports completed per day' }).waitFor();
    await screenshot(page, 'desktop-lab-reports');

    // Critical Values Alert: Review Now opens Result Validation on that sample's critical results.
    const alert = page.getByRole('region', { name: /Critical Values Alert/ });
    await alert.getByText(names.critical, { exact: false }).waitFor();
    await alert.getByRole('link', { name: `Review Now: critical values of ${samples.critical!.code}` }).click();
    await page.waitForURL(/\/result-validation\?/);
    expect(page.url()).toContain('call=pending');
    await page.getByRole('heading', { name: 'Result Validation', level: 1 }).waitFor();
    await page.getByRole('row').filter({ hasText: 'Haemoglobin' }).first().waitFor();
    await page.getByRole('heading', { name: 'Recent Activity' }).waitFor();
    await page.goBack();

    // A template names the Hematology signatory.
    await page.getByRole('button', { name: 'Edit the Hematology template' }).click();
    const dialog = page.getByRole('dialog', { name: 'Hematology report template' });
    await dialog.getByLabel('Authorised signatory').fill('Dr. Kavya Nair');
    await dialog.getByRole('button', { name: 'Save Template' }).click();
    await dialog.getByText('Required when a signatory is named').first().waitFor();
    await dialog.getByLabel('Qualification').fill('MD (Pathology)');
    await dialog.getByLabel('Registration number').fill('KMC 77881');
    await dialog.getByRole('button', { name: 'Save Template' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Dr. Kavya Nair, MD (Pathology) (Reg. KMC 77881)').waitFor();

    const phone = await app.signedInPage('/lab-reports', app.admin, MOBILE);
    await phone.getByRole('heading', { name: 'Lab Reports', level: 1 }).waitFor();
    await rowOf(phone, names.done).waitFor();
    await screenshot(phone, 'mobile-lab-reports');

    // The QR code's page, without signing in.
    const token = await verificationToken(app.database.db, app.organizationId!, samples.done!.id);
    const visitor = await app.newPage(MOBILE);
    await visitor.goto(`/verify-report#${token}`);
    await visitor.getByText(/Genuine report of/).waitFor();
    await visitor.getByText(samples.done!.code).waitFor();
    await visitor.getByText('Glucose Fasting').waitFor();
    expect(await visitor.getByText(names.done).count()).toBe(0);
    await screenshot(visitor, 'mobile-verify-report');
    const changed = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    const other = await app.newPage(MOBILE);
    await other.goto(`/verify-report#${changed}`);
    await other.getByText('This report could not be verified').waitFor();
  });
});
