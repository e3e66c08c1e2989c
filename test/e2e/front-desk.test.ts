import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createUser } from '../../src/core/users/service.js';
import { createBill } from '../../src/core/billing/service.js';
import { collectSamples } from '../../src/core/samples/service.js';
import { listSamples } from '../../src/core/samples/service.js';
import { createResult } from '../../src/core/results/entry.js';
import { verifyResult } from '../../src/core/results/verification.js';
import { systemActor, type Actor } from '../../src/core/context.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { billCreateSchema, type Bill } from '../../src/shared/schemas/bills.js';
import { sampleListQuery } from '../../src/shared/schemas/samples.js';
import { formatInr } from '../../src/shared/money.js';
import { MOBILE, screenshot, startApp, type E2eApp, screenshotFailures } from './harness.js';

/** The front desk on a bill: tests added and taken off (with the refund), and the released report printed. */
let app: E2eApp;
let bill: Bill;

beforeAll(async () => {
  app = await startApp({ roles: ['receptionist'] });
  const db = app.database.db;
  const system = systemActor(app.organizationId!);
  const staff = async (role: 'lab_technician' | 'validator'): Promise<Actor> => {
    const u = await createUser(db, system, {
      first_name: 'Test',
      last_name: role,
      email: `${role}@lab.test`,
      role,
      password: 'correct-horse-9',
    });
    return { ...system, userId: u.id, email: u.email, role };
  };
  const test = (name: string, code: string, price: number, container: string) =>
    createTest(db, system, testCreateSchema.parse({ name, code, price, category: 'General', container }));
  const hb = await test('Haemoglobin', 'HB', 150, 'edta');
  await test('ESR', 'ESR', 100, 'edta');
  const tsh = await test('TSH', 'TSH', 400, 'serum');
  const patient = await createPatient(
    db,
    system,
    patientCreateSchema.parse({
      first_name: 'Lakshmi',
      last_name: 'Rao',
      date_of_birth: '1970-04-04',
      gender: 'Female',
    }),
  );
  bill = await createBill(
    db,
    system,
    billCreateSchema.parse({
      patient_id: patient.id,
      items: [
        { item_type: 'test', item_id: hb.id },
        { item_type: 'test', item_id: tsh.id },
      ],
      amount_paid: 550,
    }),
  );
  // The serum tube is drawn and its TSH verified: released; the EDTA tube still waits.
  const { samples } = await listSamples(db, app.organizationId!, sampleListQuery.parse({ patient_id: patient.id }));
  const serum = samples.find((s) => s.container === 'serum')!;
  const tech = await staff('lab_technician');
  await collectSamples(db, tech, { ids: [serum.id] });
  const r = await createResult(db, tech, { sample_id: serum.id, test_id: tsh.id, result_value: '2.5' });
  await verifyResult(db, await staff('validator'), r.id!);
});

afterAll(async () => {
  await app?.close();
});

const track = screenshotFailures();

async function details(): Promise<Page> {
  const page = await app.signedInPage('/bills-list', app.users.receptionist!);
  track(page);
  await page.getByRole('heading', { name: 'Bills List', level: 1 }).waitFor();
  await page
    .getByRole('table', { name: 'Bills' })
    .getByRole('button', { name: `View bill ${bill.bill_number}`, exact: true })
    .click();
  return page;
}

describe('the front desk on a saved bill', () => {
  it('prints the released report, adds ESR and takes Haemoglobin off with the refund; a drawn test stays', async () => {
    const page = await details();
    const dialog = page.getByRole('dialog', { name: `Bill Details: ${bill.bill_number}` });
    // The reports: TSH released (Print), the EDTA tube not ready; no values.
    const reports = dialog.getByRole('list', { name: 'Reports' });
    await reports.getByRole('button', { name: 'Print report' }).waitFor();
    await reports.getByText('Not ready').waitFor();
    expect(await reports.getByText('2.5').count()).toBe(0);
    const href = await reports.getByRole('link').getAttribute('href');
    const pdf = await page.request.get(href!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    await reports.scrollIntoViewIfNeeded();
    await screenshot(page, 'front-desk-bill-reports');
    await page.setViewportSize(MOBILE);
    await reports.scrollIntoViewIfNeeded();
    await screenshot(page, 'front-desk-bill-reports-mobile');
    await page.setViewportSize({ width: 1280, height: 800 });

    await dialog.getByRole('button', { name: 'Edit Tests' }).click();
    const edit = page.getByRole('dialog', { name: `Edit Tests: ${bill.bill_number}` });
    const box = edit.getByRole('combobox', { name: 'Individual Tests' });
    await box.fill('ESR');
    await edit.getByRole('listbox', { name: 'Individual Tests' }).getByRole('option', { name: /ESR/ }).click();
    await edit.getByRole('button', { name: 'Remove Haemoglobin' }).click();
    await expect.poll(() => edit.getByTestId('edit-new-total').innerText()).toBe(formatInr(50000));
    await expect.poll(() => edit.getByTestId('edit-balance').innerText()).toBe(formatInr(5000));
    await edit.getByText('To refund').waitFor();
    await screenshot(page, 'front-desk-edit-tests');
    await page.setViewportSize(MOBILE);
    await screenshot(page, 'front-desk-edit-tests-mobile');
    await page.setViewportSize({ width: 1280, height: 800 });
    // Taking TSH off is refused: its sample is drawn.
    await edit.getByRole('button', { name: 'Remove TSH' }).click();
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await edit.getByText(/TSH cannot be taken off bill .* its sample SMP\d+ is already \w+/).waitFor();
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await dialog.getByRole('button', { name: 'Edit Tests' }).click();
    await edit.getByRole('combobox', { name: 'Individual Tests' }).fill('ESR');
    await edit.getByRole('listbox', { name: 'Individual Tests' }).getByRole('option', { name: /ESR/ }).click();
    await edit.getByRole('button', { name: 'Remove Haemoglobin' }).click();
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await edit.waitFor({ state: 'hidden' });
    await expect.poll(() => dialog.getByTestId('detail-final').innerText()).toBe(formatInr(50000));
    await expect.poll(() => dialog.getByTestId('detail-paid').innerText()).toBe(formatInr(50000));
    await dialog.getByText(/Reason: Bill .* reduced to/).waitFor();
    await screenshot(page, 'front-desk-bill-after-edit');
    await page.setViewportSize(MOBILE);
    await screenshot(page, 'front-desk-bill-after-edit-mobile');
  });
});
