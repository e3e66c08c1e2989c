import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { readStarterCatalogue } from '../../src/core/catalogue/starter.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createSample } from '../../src/core/samples/service.js';
import { systemActor } from '../../src/core/context.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { sampleCreateSchema } from '../../src/shared/schemas/samples.js';
import { MOBILE, screenshot, screenshotFailures, startApp, type E2eApp } from './harness.js';

let app: E2eApp;
let sample: { id: number; code: string };
const track = screenshotFailures();
const URM = 'Urine Routine & Microscopy';

beforeAll(async () => {
  app = await startApp({ roles: ['lab_technician', 'validator'] });
  const db = app.database.db;
  const system = systemActor(app.organizationId!);
  const starter = readStarterCatalogue();
  const ids = [];
  for (const code of ['URM', 'UCS'])
    ids.push(
      (
        await createTest(
          db,
          system,
          starter.tests.find((t) => t.code === code)!,
        )
      ).id,
    );
  const p = await createPatient(
    db,
    system,
    patientCreateSchema.parse({
      first_name: 'Lakshmi',
      last_name: 'Rao',
      date_of_birth: '1988-05-02',
      gender: 'Female',
    }),
  );
  const s = await createSample(
    db,
    system,
    sampleCreateSchema.parse({ patient_id: p.id, sample_type: 'Urine', test_ids: ids }),
  );
  sample = { id: s.id, code: s.sample_id };
});
afterAll(async () => {
  await app?.close();
});

async function openSheet(viewport?: { width: number; height: number }): Promise<Page> {
  const page = track(await app.signedInPage('/results', app.users.lab_technician!, viewport));
  await page.getByRole('button', { name: 'Enter Results' }).click();
  const picker = page.getByRole('dialog', { name: 'Enter Results' });
  await picker.getByLabel('Sample ID or barcode').fill(sample.code);
  await picker.getByLabel('Sample ID or barcode').press('Enter');
  const sheet = page.getByRole('dialog', { name: `Enter Results: ${sample.code}` });
  await sheet.getByText('Chemical examination').waitFor();
  return page;
}

const URINE: [string, string][] = [
  ['Colour', 'Pale yellow'],
  ['Appearance', 'Slightly turbid'],
  ['Protein', '2+'],
  ['Glucose', 'Nil'],
  ['Ketones', 'Nil'],
  ['Bilirubin', 'Nil'],
  ['Urobilinogen', 'Normal'],
  ['Blood', 'Trace'],
  ['Nitrite', 'Positive'],
  ['Leucocyte esterase', '2+'],
  ['Epithelial cells', 'Few'],
  ['Casts', 'Nil'],
  ['Crystals', 'Nil'],
  ['Bacteria', 'Many'],
  ['Yeast cells', 'Nil'],
];

describe('structured result entry', () => {
  it('a technician enters a urine routine parameter by parameter and a culture with its antibiogram', async () => {
    const page = await openSheet({ width: 1280, height: 900 });
    const sheet = page.getByRole('dialog', { name: `Enter Results: ${sample.code}` });
    for (const [label, value] of URINE) await sheet.getByLabel(`${URM}: ${label}`, { exact: true }).selectOption(value);
    await sheet.getByLabel(`${URM}: Specific gravity`).fill('1.025');
    await sheet.getByLabel(`${URM}: pH`).fill('6.5');
    await sheet.getByLabel(`${URM}: Pus cells`).fill('25-30');
    await sheet.getByLabel(`${URM}: Red blood cells`).fill('3-5');
    // Flagged as typed: protein 2+ is abnormal, pus cells above 5 /hpf high.
    const protein = sheet.getByRole('group', { name: 'Chemical examination' });
    await protein.getByText('Abnormal').first().waitFor();
    await sheet.getByRole('group', { name: 'Microscopic examination' }).getByText('High').first().waitFor();
    await sheet.getByText('Chemical examination').scrollIntoViewIfNeeded();
    await screenshot(page, 'structured-entry-desktop-urine');

    await sheet.getByLabel('Culture result').selectOption('growth');
    await sheet.getByLabel('Organism isolated').fill('Escherichia coli');
    await sheet.getByLabel('Colony count (CFU/mL)').fill('100000');
    const row = (k: number, name: string, sir: string, mic: string, zone: string) => async () => {
      await sheet.getByLabel(`Urine Culture & Sensitivity: organism 1 antibiotic ${k}`).fill(name);
      await sheet.getByLabel(`Organism 1 antibiotic ${k} interpretation`).selectOption(sir);
      await sheet.getByLabel(`Organism 1 antibiotic ${k} MIC (mg/L)`).fill(mic);
      await sheet.getByLabel(`Organism 1 antibiotic ${k} zone (mm)`).fill(zone);
    };
    await row(1, 'Ampicillin', 'R', '', '6')();
    await sheet.getByRole('button', { name: 'Add antibiotic' }).click();
    await row(2, 'Nitrofurantoin', 'S', '16', '')();
    await sheet.getByRole('button', { name: 'Add antibiotic' }).click();
    await row(3, 'Ciprofloxacin', 'I', '0.5', '19')();
    await screenshot(page, 'structured-entry-desktop', { fullPage: true });
    await sheet.getByRole('button', { name: 'Save Results' }).click();
    await sheet.waitFor({ state: 'detached' });
    await page.getByText(`2 results saved for ${sample.code}`).waitFor();

    const stored = await app.database.db
      .selectFrom('test_results')
      .select(['flag', 'result_value', 'structured_value'])
      .where('sample_id', '=', sample.id)
      .orderBy('id')
      .execute();
    expect(stored.map((r) => r.flag)).toEqual(['abnormal', 'abnormal']);
    expect(JSON.parse(stored[0]!.structured_value!).values).toMatchObject({ protein: '2+', pus_cells: '25-30' });
    expect(JSON.parse(stored[1]!.structured_value!).culture.organisms[0].antibiotics).toHaveLength(3);
  });

  it('works on a phone: the saved parameters come back, the antibiogram rows fit 390 px', async () => {
    const page = await openSheet(MOBILE);
    const sheet = page.getByRole('dialog', { name: `Enter Results: ${sample.code}` });
    expect(await sheet.getByLabel(`${URM}: Protein`, { exact: true }).inputValue()).toBe('2+');
    expect(await sheet.getByLabel('Organism 1 antibiotic 3 MIC (mg/L)').inputValue()).toBe('0.5');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await sheet.getByText('Chemical examination').scrollIntoViewIfNeeded();
    await screenshot(page, 'structured-entry-mobile');
    await sheet.getByText('Antibiogram').scrollIntoViewIfNeeded();
    await screenshot(page, 'structured-entry-mobile-antibiogram');
  });

  it('a validator reviews every parameter and the antibiogram before validating; Bulk Validate holds them back', async () => {
    const page = track(
      await app.signedInPage('/result-validation', app.users.validator!, { width: 1280, height: 900 }),
    );
    await page
      .getByLabel(/^R-\d{6} needs review on its own: Outside the reference range/)
      .first()
      .waitFor();
    await page.getByRole('button', { name: new RegExp(`^Review R-\\d{6} \\(${URM.replace('&', '\\&')}\\)`) }).click();
    const review = page.getByRole('dialog', { name: /^Review Result R-\d{6}$/ });
    await review.getByText('Chemical examination').waitFor();
    await review.getByText('Leucocyte esterase', { exact: true }).waitFor();
    await screenshot(page, 'structured-review-urine');
    await review.getByRole('button', { name: 'I have reviewed it: Validate' }).click();
    await review.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /^Review R-\d{6} \(Urine Culture & Sensitivity\)/ }).click();
    const culture = page.getByRole('dialog', { name: /^Review Result R-\d{6}$/ });
    await culture.getByRole('cell', { name: 'Resistant' }).waitFor();
    await screenshot(page, 'structured-review-culture');
  });

  it('a verified urine routine is amended parameter by parameter with a reason', async () => {
    const page = track(await app.signedInPage('/results', app.users.lab_technician!, { width: 1280, height: 900 }));
    await page.getByRole('button', { name: new RegExp(`^Amend R-\\d{6} \\(${URM.replace('&', '\\&')}\\)`) }).click();
    const dialog = page.getByRole('dialog', { name: /^Amend Result R-\d{6}$/ });
    await dialog.getByLabel(`${URM}: Protein`, { exact: true }).selectOption('3+');
    await dialog.getByLabel('Reason for the change').fill('Dipstick read again against the chart');
    await screenshot(page, 'structured-amend-urine');
    await dialog.getByRole('button', { name: 'Save Amendment' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = await app.database.db
      .selectFrom('test_results')
      .select(['status', 'amended', 'structured_value'])
      .where('sample_id', '=', sample.id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'completed', amended: 1 });
    expect(JSON.parse(row.structured_value!).values.protein).toBe('3+');
  });
});
