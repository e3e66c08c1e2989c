import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createSample } from '../../src/core/samples/service.js';
import { createBill } from '../../src/core/billing/service.js';
import { createUser } from '../../src/core/users/service.js';
import { createResult } from '../../src/core/results/entry.js';
import { systemActor, type Actor } from '../../src/core/context.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { sampleCreateSchema } from '../../src/shared/schemas/samples.js';
import { billCreateSchema } from '../../src/shared/schemas/bills.js';
import { MOBILE, RESULTS_DIR, screenshot, startApp, type E2eApp } from './harness.js';
import { requirePoppler } from '../../scripts/find-browser.mjs';

let app: E2eApp;
let sample: { id: number; code: string; barcode: string };
let other: { id: number; code: string };

beforeAll(async () => {
  app = await startApp({ roles: ['lab_technician', 'validator'] });
  const db = app.database.db;
  const system = systemActor(app.organizationId!);
  const test = async (body: Record<string, unknown>) =>
    (await createTest(db, system, testCreateSchema.parse({ price: 150, ...body }))).id;
  const hb = await test({
    name: 'Haemoglobin',
    code: 'HB',
    unit: 'g/dL',
    normal_range: '12.0-17.0',
    reference_ranges: [
      { sex: 'Female', range: '12.0-15.5', critical_low: 7, critical_high: 20 },
      { sex: 'Male', range: '13.0-17.0', critical_low: 7, critical_high: 20 },
    ],
  });
  const fbs = await test({
    name: 'Fasting Blood Sugar',
    code: 'FBS',
    unit: 'mg/dL',
    normal_range: '70-110',
    reference_ranges: [{ range: '70-110', critical_low: 40, critical_high: 400 }],
  });
  const tsh = await test({ name: 'Thyroid Stimulating Hormone', code: 'TSH', unit: 'µIU/mL', normal_range: '0.4-4.0' });
  const doctor = await createUser(db, system, {
    first_name: 'Priya',
    last_name: 'Menon',
    email: 'priya@lab.test',
    role: 'doctor',
    password: 'a-long-password-1',
  });
  const meera = await createPatient(
    db,
    system,
    patientCreateSchema.parse({
      first_name: 'Meera',
      last_name: 'Iyer',
      date_of_birth: '1985-03-01',
      gender: 'Female',
      phone: '9876500001',
    }),
  );
  const bill = await createBill(
    db,
    system,
    billCreateSchema.parse({
      patient_id: meera.id,
      doctor_id: doctor.id,
      items: [
        { item_type: 'test', item_id: hb },
        { item_type: 'test', item_id: fbs },
      ],
    }),
  );
  const s = await createSample(
    db,
    system,
    sampleCreateSchema.parse({
      patient_id: meera.id,
      sample_type: 'Blood',
      test_ids: [hb, fbs],
      bill_id: bill.id,
      priority: 'high',
      location: 'Main Lab',
    }),
  );
  sample = { id: s.id, code: s.sample_id, barcode: s.barcode! };

  // Another patient's urgent sample with a critical value already entered by the technician.
  const rohan = await createPatient(
    db,
    system,
    patientCreateSchema.parse({ first_name: 'Rohan', last_name: 'Das', date_of_birth: '1962-11-20', gender: 'Male' }),
  );
  const o = await createSample(
    db,
    system,
    sampleCreateSchema.parse({ patient_id: rohan.id, sample_type: 'Blood', test_ids: [fbs, tsh], priority: 'urgent' }),
  );
  other = { id: o.id, code: o.sample_id };
  const techRow = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', app.users.lab_technician!.email)
    .executeTakeFirstOrThrow();
  const tech: Actor = {
    userId: techRow.id,
    email: app.users.lab_technician!.email,
    role: 'lab_technician',
    organizationId: app.organizationId!,
  };
  await createResult(db, tech, {
    sample_id: o.id,
    test_id: fbs,
    result_value: '452',
    unit: undefined,
    notes: 'Patient on insulin; repeat advised',
  });
});

afterAll(async () => {
  await app?.close();
});

async function open(
  path: string,
  who: 'lab_technician' | 'validator' | 'admin',
  viewport?: { width: number; height: number },
): Promise<Page> {
  return app.signedInPage(path, who === 'admin' ? app.admin : app.users[who]!, viewport);
}

const card = (page: Page, name: string) => page.getByRole('group', { name });

describe('Result Entry and Result Validation', () => {
  it('a technician enters the results of a scanned sample; the server flags the high one', async () => {
    const page = await open('/results', 'lab_technician');
    await page.getByRole('heading', { name: 'Result Entry', level: 1 }).waitFor();
    await expect.poll(async () => card(page, 'Pending').innerText()).toContain('3');
    expect(await card(page, 'Total Results').innerText()).toContain('4');
    expect(await card(page, 'Abnormal').innerText()).toContain('1');
    // The worklist: Meera's two tests await a result.
    await page.getByRole('button', { name: `Enter result for Haemoglobin on ${sample.code}` }).waitFor();
    await screenshot(page, 'results-entry-desktop');

    await page.getByRole('button', { name: 'Enter Results' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enter Results' });
    await dialog.getByRole('button', { name: `Enter results for ${sample.code}, Meera Iyer` }).waitFor();
    // A hand scanner types the barcode and presses Enter.
    await dialog.getByLabel('Sample ID or barcode').fill(sample.barcode);
    await dialog.getByLabel('Sample ID or barcode').press('Enter');
    const sheet = page.getByRole('dialog', { name: `Enter Results: ${sample.code}` });
    await sheet.getByText('12.0-15.5').waitFor();
    expect(await sheet.getByLabel('Unit').first().inputValue()).toBe('g/dL');
    await sheet.getByLabel('Haemoglobin result').fill('16.4');
    await sheet.getByLabel('Fasting Blood Sugar result').fill('92');
    await sheet.getByLabel('Notes').nth(1).fill('Fasting 10 h');
    await sheet.getByRole('listitem').filter({ hasText: 'Haemoglobin' }).getByText('High', { exact: true }).waitFor();
    await screenshot(page, 'results-entry-dialog-desktop');
    await sheet.getByRole('button', { name: 'Save Results' }).click();
    await sheet.waitFor({ state: 'detached' });
    await page.getByText(`2 results saved for ${sample.code}`).waitFor();

    const row = page.getByRole('row').filter({ hasText: 'Haemoglobin' }).filter({ hasText: sample.code });
    await row.getByText('16.4').waitFor();
    expect(await row.innerText()).toContain('High');
    expect(await row.innerText()).toContain('Completed');
    // A technician cannot verify: no Verify button.
    expect(await page.getByRole('button', { name: /^Verify R-/ }).count()).toBe(0);
    // Result Details lists the values with range and notes.
    const details = page.getByRole('heading', { name: 'Result Details' });
    await details.scrollIntoViewIfNeeded();
    await page.getByText('Fasting 10 h').waitFor();
    await screenshot(page, 'results-entry-after-save');

    // The sample moved to processing on the first result.
    const moved = await app.database.db
      .selectFrom('samples')
      .select('status')
      .where('id', '=', sample.id)
      .executeTakeFirstOrThrow();
    expect(moved.status).toBe('processing');
  });

  it('a validator sees the critical value and the queue, bulk-validates, and prints the report', async () => {
    const page = await open('/result-validation', 'validator');
    await page.getByRole('heading', { name: 'Result Validation', level: 1 }).waitFor();
    const alert = page.getByRole('region', { name: /Critical Values Alert/ });
    await alert.getByText('Rohan Das').waitFor();
    await expect.poll(async () => card(page, 'Review Required').innerText()).toContain('2');
    expect(await card(page, 'Pending Validation').innerText()).toContain('1');
    await screenshot(page, 'results-validation-desktop');

    // The critical value is reviewed from the alert: the call is logged there, then it is validated.
    await alert.getByRole('button', { name: 'Review Fasting Blood Sugar of Rohan Das and log the call' }).click();
    const review = page.getByRole('dialog', { name: /^Review Result R-\d{6}$/ });
    await review.getByText('Held back from Bulk Validate:').waitFor();
    await review.getByText('Critical value', { exact: true }).waitFor();
    await review.getByRole('button', { name: 'Log Call' }).click();
    await review
      .getByText(/is required/)
      .first()
      .waitFor();
    await review.getByLabel('Called (name and role)').fill('Dr. Rao, referring doctor');
    await review.getByLabel('The person called read the value back correctly').check();
    await review.getByRole('button', { name: 'Log Call' }).click();
    await review.getByText(/Called Dr\. Rao, referring doctor on .*value read back/).waitFor();
    await screenshot(page, 'results-review-critical');
    await review.getByRole('button', { name: 'I have reviewed it: Validate' }).click();
    await review.waitFor({ state: 'detached' });
    await alert.waitFor({ state: 'detached' });

    // Bulk Validate takes only the normal result; the high haemoglobin is held back for review.
    await page.getByLabel(/^R-\d{6} needs review on its own: Outside the reference range/).waitFor();
    await page.getByLabel('Select all results awaiting validation on this page').check();
    await page.getByRole('button', { name: 'Bulk Validate (1)' }).click();
    // It asks first, naming how many and by whom; nothing is verified until confirmed.
    const confirm = page.getByRole('dialog', { name: 'Bulk Validate' });
    await confirm.getByText(/^Validate 1 result\? Each will be released as verified by you, Test validator/).waitFor();
    await screenshot(page, 'results-bulk-confirm');
    await confirm.getByRole('button', { name: 'Validate 1 result' }).click();
    const outcome = page.getByRole('dialog', { name: 'Bulk Validate' });
    await outcome.getByText('1 result verified, 0 refused.').waitFor();
    await outcome.getByRole('button', { name: 'Close' }).last().click();
    await page.getByRole('button', { name: /^Review R-\d{6} \(Haemoglobin\)/ }).click();
    const hbReview = page.getByRole('dialog', { name: /^Review Result R-\d{6}$/ });
    await hbReview.getByText('Outside the reference range').waitFor();
    await hbReview.getByRole('button', { name: 'I have reviewed it: Validate' }).click();
    await hbReview.waitFor({ state: 'detached' });
    await page.getByLabel('Status').selectOption('validated');
    const hbRow = page.getByRole('row').filter({ hasText: 'Haemoglobin' });
    await hbRow.getByText('Validated', { exact: true }).waitFor();
    expect(await hbRow.innerText()).toContain('Test validator');
    await screenshot(page, 'results-validation-after');

    // Print opens the report PDF in a new window.
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      hbRow.getByRole('button', { name: `Print report of ${sample.code}` }).click(),
    ]);
    // The window opens blank at the click and is pointed at the PDF once the server says it may
    // leave the lab: on two busy cores that takes longer than expect.poll's default second.
    await expect.poll(() => popup.url(), { timeout: 15_000 }).toContain(`/api/samples/${sample.id}/report.pdf`);

    const pdf = await page.request.get(`/api/samples/${sample.id}/report.pdf`);
    expect(pdf.status()).toBe(200);
    mkdirSync(RESULTS_DIR, { recursive: true });
    const file = join(RESULTS_DIR, 'results-report.pdf');
    writeFileSync(file, await pdf.body());
    const text = execFileSync(requirePoppler('pdftotext'), ['-layout', file, '-']).toString();
    expect(text).toMatch(/Haemoglobin\s+16\.4\s+g\/dL\s+12\.0-15\.5\s+H/);
    expect(text).toMatch(/Fasting Blood Sugar\s+92\s+mg\/dL\s+70-110/);
    expect(text).toContain('Verified by Test validator');
    expect(text).toContain('Dr. Priya Menon');
    expect(text).toContain(sample.barcode);
    expect(text).not.toContain('PARTIAL');
    // The PNG is looked at by a person (test-results/results-report-1.png).
    execFileSync(requirePoppler('pdftoppm'), ['-png', '-r', '70', file, join(RESULTS_DIR, 'results-report')]);
  });

  it("the user's own entry is not offered for validation, with the server's reason", async () => {
    const page = await open('/results', 'admin');
    await page.getByRole('button', { name: `Enter result for Thyroid Stimulating Hormone on ${other.code}` }).click();
    const sheet = page.getByRole('dialog', { name: `Enter Results: ${other.code}` });
    await sheet.getByLabel('Thyroid Stimulating Hormone result').fill('2.1');
    await sheet.getByRole('button', { name: 'Save Results' }).click();
    await sheet.waitFor({ state: 'detached' });
    await page.goto('/result-validation?status=pending');
    await page.getByRole('row').filter({ hasText: 'Thyroid Stimulating Hormone' }).waitFor();
    const tsh = page.getByRole('row').filter({ hasText: 'Thyroid Stimulating Hormone' });
    await tsh
      .getByLabel(/^R-\d{6} cannot be validated by you: You entered R-\d{6}, so another user must verify it/)
      .waitFor();
    expect(await tsh.getByRole('checkbox').count()).toBe(0);
    expect(await tsh.getByRole('button', { name: /^Validate R-\d{6}/ }).count()).toBe(0);
    expect(await tsh.getByRole('button', { name: /^Validate sample / }).count()).toBe(0);
    await screenshot(page, 'results-own-entry-locked');
  });

  it('works on a phone: both screens and the entry dialog', async () => {
    const page = await open('/results', 'lab_technician', MOBILE);
    await page.getByRole('heading', { name: 'Result Entry', level: 1 }).waitFor();
    await page.getByRole('row').filter({ hasText: '16.4' }).waitFor();
    await screenshot(page, 'results-entry-mobile');
    await page.getByRole('button', { name: 'Enter Results' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enter Results' });
    await dialog.getByLabel('Sample ID or barcode').waitFor();
    await screenshot(page, 'results-entry-picker-mobile');
    await dialog.getByLabel('Sample ID or barcode').fill(other.code);
    await dialog.getByRole('button', { name: 'Find Sample' }).click();
    const sheet = page.getByRole('dialog', { name: `Enter Results: ${other.code}` });
    await sheet.getByLabel('Thyroid Stimulating Hormone result').waitFor();
    expect(await sheet.getByLabel('Thyroid Stimulating Hormone result').inputValue()).toBe('2.1');
    await sheet.getByRole('button', { name: 'Save Results' }).waitFor();
    await screenshot(page, 'results-entry-dialog-mobile');
    await page.keyboard.press('Escape');
    // All Status: the Haemoglobin of this file is validated by now, and the queue opens on what awaits.
    await page.goto('/result-validation?status=all');
    await page.getByRole('heading', { name: 'Result Validation', level: 1 }).waitFor();
    await page.getByRole('row').filter({ hasText: 'Haemoglobin' }).waitFor();
    await screenshot(page, 'results-validation-mobile');
  });
});
