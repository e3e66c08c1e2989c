import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createBill } from '../../src/core/billing/service.js';
import { createCentre } from '../../src/core/centres/service.js';
import { systemActor } from '../../src/core/context.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { billCreateSchema } from '../../src/shared/schemas/bills.js';
import { centreCreateSchema } from '../../src/shared/schemas/centres.js';
import { addDays, localDate } from '../../src/shared/time.js';
import { MOBILE, screenshot, screenshotFailures, startApp, type E2eApp } from './harness.js';

/**
 * Collection Centres as the lab's billing office uses it: add a centre through the form (a bad
 * GSTIN first), see a centre on hold and why, take its payment against the oldest bill, and the
 * hold lifts; the statement shows the ledger, ageing and share. At 1280 px and on a phone.
 */
let app: E2eApp;
const shot = screenshotFailures();
const WIDE = { width: 1280, height: 800 };

beforeAll(async () => {
  app = await startApp();
  const db = app.database.db;
  const actor = systemActor(app.organizationId!);
  const cbc = await createTest(
    db,
    actor,
    testCreateSchema.parse({ name: 'Complete Blood Count', code: 'CBC', price: 400, category: 'Haematology' }),
  );
  const centre = await createCentre(
    db,
    actor,
    centreCreateSchema.parse({
      name: 'Sunrise Clinic',
      contact_person: 'Ravi Kumar',
      phone: '9845022110',
      gstin: '29AAACI1111K1Z2',
      credit_days: 10,
      credit_limit: 5000,
      share_percent: 15,
    }),
  );
  for (const first of ['Meera', 'Arjun']) {
    const p = await createPatient(
      db,
      actor,
      patientCreateSchema.parse({ first_name: first, last_name: 'Rao', date_of_birth: '1990-05-01', gender: 'Female' }),
    );
    await createBill(
      db,
      actor,
      billCreateSchema.parse({
        patient_id: p.id,
        payer_id: centre.payer_id,
        items: [{ item_type: 'test', item_id: cbc.id }],
      }),
    );
  }
  // The first bill fell due three days ago: the centre is on hold.
  const first = await db
    .selectFrom('bills')
    .select('id')
    .where('payer_id', '=', centre.payer_id)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  await db
    .updateTable('bills')
    .set({ due_date: addDays(localDate('Asia/Kolkata'), -3) })
    .where('id', '=', first.id)
    .execute();
});

afterAll(async () => {
  await app?.close();
});

const centreRow = (page: Page, name: string) =>
  page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });

describe('Collection Centres', () => {
  it('adds a centre after a bad GSTIN, shows a centre on hold and lifts the hold with a payment', async () => {
    const page = shot(await app.signedInPage('/centres', app.admin, WIDE));
    await page.getByRole('heading', { name: 'Collection Centres', level: 1 }).waitFor();
    await centreRow(page, 'Sunrise Clinic').getByText('On hold').waitFor();
    await screenshot(page, 'centres-list-1280', { always: true });

    await page.getByRole('button', { name: 'Add Centre' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add Centre' });
    await dialog.getByLabel('Name').fill('Green Cross Diagnostics');
    await dialog.getByLabel('GSTIN').fill('29ABC');
    await dialog.getByLabel('Credit limit (₹)').fill('20000');
    await dialog.getByRole('button', { name: 'Add Centre' }).click();
    await dialog.getByText('GSTIN must be 15 characters', { exact: false }).waitFor();
    await screenshot(page, 'centres-form-1280', { always: true });
    await dialog.getByLabel('GSTIN').fill('27AAACM2222L1Z9');
    await dialog.getByRole('button', { name: 'Add Centre' }).click();
    await dialog.waitFor({ state: 'detached' });
    await centreRow(page, 'Green Cross Diagnostics').getByText('Active').waitFor();

    await centreRow(page, 'Sunrise Clinic').getByRole('button', { name: 'Account of Sunrise Clinic' }).click();
    const account = page.getByRole('dialog', { name: 'Sunrise Clinic' });
    await account.getByRole('alert').getByText('3 days past its 10 credit days', { exact: false }).waitFor();
    await screenshot(page, 'centres-account-1280', { always: true });
    await account.getByLabel('Amount (₹)').fill('400');
    await account.getByRole('button', { name: 'Record Payment' }).click();
    await page.getByText('Settled 1 bill', { exact: false }).first().waitFor();
    await account.getByRole('alert').waitFor({ state: 'detached' });
    await account.getByRole('tab', { name: 'Statement' }).click();
    await account.getByText('Centre’s share').waitFor();
    await screenshot(page, 'centres-statement-1280', { always: true });
    await page.close();
  });

  it('reads on a phone: the list and the account', async () => {
    const page = shot(await app.signedInPage('/centres', app.admin, MOBILE));
    await page.getByRole('heading', { name: 'Collection Centres', level: 1 }).waitFor();
    await centreRow(page, 'Sunrise Clinic').waitFor();
    await screenshot(page, 'centres-list-390', { always: true, fullPage: true });
    await centreRow(page, 'Sunrise Clinic').getByRole('button', { name: 'Account of Sunrise Clinic' }).click();
    const account = page.getByRole('dialog', { name: 'Sunrise Clinic' });
    await account.getByRole('tab', { name: 'Statement' }).click();
    await account.getByText('Centre’s share').waitFor();
    await screenshot(page, 'centres-statement-390', { always: true });
    await page.close();
  });
});
