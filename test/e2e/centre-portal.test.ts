import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createCentre } from '../../src/core/centres/service.js';
import { createUser } from '../../src/core/users/service.js';
import { systemActor } from '../../src/core/context.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { centreCreateSchema } from '../../src/shared/schemas/centres.js';
import { addDays, localDate } from '../../src/shared/time.js';
import { MOBILE, RESULTS_DIR, screenshot, screenshotFailures, startApp, type Account, type E2eApp } from './harness.js';

/**
 * A collection centre's own login, walked in the browser: the lab binds the login to its centre in
 * the Users form (refused without one); the centre is listed its portal alone, registers a patient,
 * orders a test for them at its rate, prints the tube's label, and sees the hold and its reason once
 * a bill is past its credit days. At 1280 px and on a phone.
 */
let app: E2eApp;
let centreLogin: Account;
let payerId = 0;
const shot = screenshotFailures();
const WIDE = { width: 1280, height: 800 };

beforeAll(async () => {
  app = await startApp();
  const db = app.database.db;
  const actor = systemActor(app.organizationId!);
  await createTest(
    db,
    actor,
    testCreateSchema.parse({ name: 'Complete Blood Count', code: 'CBC', price: 400, category: 'Haematology' }),
  );
  const centre = await createCentre(
    db,
    actor,
    centreCreateSchema.parse({ name: 'Sunrise Clinic', credit_days: 10, credit_limit: 5000, discount_percent: 10 }),
  );
  payerId = centre.payer_id;
  await createCentre(db, actor, centreCreateSchema.parse({ name: 'Green Cross Diagnostics' }));
  // A patient of the lab's own: the centre must never see them.
  await createPatient(
    db,
    actor,
    patientCreateSchema.parse({
      first_name: 'Lakshmi',
      last_name: 'Iyer',
      date_of_birth: '1970-01-01',
      gender: 'Female',
    }),
  );
  centreLogin = {
    email: 'desk@sunrise.test',
    password: app.admin.password,
    firstName: 'Sunrise',
    lastName: 'Desk',
    role: 'centre',
  };
  await createUser(db, actor, {
    first_name: centreLogin.firstName,
    last_name: centreLogin.lastName,
    email: centreLogin.email,
    role: 'centre',
    centre_id: centre.id,
    password: centreLogin.password,
  });
});

afterAll(async () => {
  await app?.close();
});

describe('Centre portal', () => {
  it('the Users form binds a centre login to a centre, and will not save one without it', async () => {
    const page = shot(await app.signedInPage('/users', app.admin, WIDE));
    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await dialog.getByLabel('First Name').fill('Green');
    await dialog.getByLabel('Last Name').fill('Desk');
    await dialog.getByLabel('Email').fill('desk@greencross.test');
    expect(await dialog.getByLabel('Centre').count()).toBe(0);
    await dialog.getByLabel('Role').selectOption('centre');
    await dialog.getByLabel('Password', { exact: true }).fill('centre-pass-42');
    await dialog.getByLabel('Confirm Password').fill('centre-pass-42');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await dialog.getByText('Choose the centre this login belongs to').waitFor();
    await screenshot(page, 'centre-portal-user-form-1280', { always: true });
    await dialog.getByLabel('Centre').selectOption({ label: 'Green Cross Diagnostics' });
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('row').filter({ hasText: 'desk@greencross.test' }).waitFor();
    await page.close();
  });

  it('a centre registers a patient, orders a test, prints the label and sees its hold', async () => {
    const page = shot(await app.signedInPage('/home', centreLogin, WIDE));
    await page.waitForURL('**/centre-portal');
    await page.getByRole('heading', { name: 'Sunrise Clinic', level: 1 }).waitFor();
    const menu = page.getByRole('navigation', { name: 'Main' });
    expect(await menu.getByRole('link').allTextContents()).toEqual([
      'Centre Account',
      'Centre Patients',
      'Order Tests',
      'Bills and Reports',
      'Centre Statement',
    ]);

    await menu.getByRole('link', { name: 'Centre Patients' }).click();
    await page.getByText('No patients yet').waitFor();
    await page.getByRole('button', { name: 'Register Patient' }).click();
    const reg = page.getByRole('dialog', { name: 'Register Patient' });
    await reg.getByLabel('First Name').fill('Kiran');
    await reg.getByLabel('Last Name').fill('Shah');
    await reg.getByLabel('Age', { exact: true }).fill('34');
    await reg.getByLabel('Gender').selectOption('Male');
    await reg.getByRole('button', { name: 'Register Patient' }).click();
    await reg.waitFor({ state: 'detached' });
    const row = page.getByRole('row').filter({ hasText: 'Kiran Shah' });
    await row.waitFor();
    expect(await page.getByText('Lakshmi').count()).toBe(0);
    await screenshot(page, 'centre-portal-patients-1280', { always: true });

    await row.getByRole('button', { name: 'Order tests for Kiran Shah' }).click();
    await page.waitForURL('**/centre-portal/order?patient=*');
    await page.getByRole('combobox', { name: 'Add a test' }).fill('CBC');
    await page.getByRole('option', { name: /Complete Blood Count/ }).click();
    // The centre's rate: the lab's ₹400 less its 10%.
    await page.getByRole('region', { name: 'Tests on this order' }).getByText('₹360.00').first().waitFor();
    await screenshot(page, 'centre-portal-order-1280', { always: true });
    await page.getByRole('button', { name: 'Order Tests' }).click();

    await page.waitForURL('**/centre-portal/bills?bill=*');
    const bill = page.getByRole('dialog', { name: /^Bill / });
    await bill.getByRole('button', { name: 'Tube label' }).first().waitFor();
    await bill.getByText('Awaiting results').first().waitFor();
    await screenshot(page, 'centre-portal-bill-1280', { always: true });
    const labelPdf = page.waitForEvent('popup');
    await bill.getByRole('button', { name: 'Tube label' }).first().click();
    await (await labelPdf).close();
    await page.keyboard.press('Escape');

    // The bill falls past the centre's credit days: the lab holds its orders and reports.
    await app.database.db
      .updateTable('bills')
      .set({ due_date: addDays(localDate('Asia/Kolkata'), -3) })
      .where('payer_id', '=', payerId)
      .execute();
    await menu.getByRole('link', { name: 'Centre Account' }).click();
    await page.reload();
    await page.getByRole('alert').getByText('3 days past its 10 credit days', { exact: false }).waitFor();
    await screenshot(page, 'centre-portal-account-held-1280', { always: true });

    await menu.getByRole('link', { name: 'Order Tests' }).click();
    await page.getByLabel('Patient').selectOption({ index: 1 });
    await page.getByRole('combobox', { name: 'Add a test' }).fill('CBC');
    await page.getByRole('option', { name: /Complete Blood Count/ }).click();
    await page.getByRole('button', { name: 'Order Tests' }).click();
    await page.getByText('credit days', { exact: false }).nth(1).waitFor();
    await screenshot(page, 'centre-portal-order-refused-1280', { always: true });

    await menu.getByRole('link', { name: 'Centre Statement' }).click();
    await page.getByText('Centre’s share').waitFor();
    await screenshot(page, 'centre-portal-statement-1280', { always: true, fullPage: true });
    const href = await page.getByRole('link', { name: 'Statement PDF' }).getAttribute('href');
    const pdf = await page.request.get(href!);
    expect(pdf.status()).toBe(200);
    writeFileSync(join(RESULTS_DIR, 'centre-portal-statement.pdf'), await pdf.body());
    await page.close();
  });

  it('reads on a phone: the menu, the account with its hold, the bills', async () => {
    const page = shot(await app.signedInPage('/centre-portal', centreLogin, MOBILE));
    await page.getByRole('alert').getByText('credit days', { exact: false }).waitFor();
    await screenshot(page, 'centre-portal-account-390', { always: true, fullPage: true });
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    const drawer = page.getByRole('dialog', { name: 'Navigation' });
    await drawer.getByRole('link', { name: 'Centre Statement' }).waitFor();
    expect(await drawer.getByRole('link').count()).toBe(5);
    await screenshot(page, 'centre-portal-menu-390', { always: true });
    await drawer.getByRole('link', { name: 'Bills and Reports' }).click();
    await page.getByRole('row').filter({ hasText: 'Kiran Shah' }).first().waitFor();
    await screenshot(page, 'centre-portal-bills-390', { always: true, fullPage: true });
    await page.getByRole('row').filter({ hasText: 'Kiran Shah' }).first().click();
    await page
      .getByRole('dialog', { name: /^Bill / })
      .getByRole('button', { name: 'Tube label' })
      .first()
      .waitFor();
    await screenshot(page, 'centre-portal-bill-390', { always: true });
    await page.close();
  });
});
