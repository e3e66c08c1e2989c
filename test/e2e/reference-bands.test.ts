import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { systemActor } from '../../src/core/context.js';
import { MOBILE, screenshot, screenshotFailures, startApp, type E2eApp } from './harness.js';

/**
 * Ranges by sex and age band on the test dialog (days, months, years), and an infant's age in
 * months where staff read it.
 */
let app: E2eApp;

beforeAll(async () => {
  app = await startApp();
  await createTest(app.database.db, systemActor(app.organizationId!), {
    name: 'Haemoglobin',
    code: 'HB',
    price: 150,
    category: 'Haematology',
    status: 'active',
    unit: 'g/dL',
    normal_range: '12.0-17.0',
  });
});
afterAll(async () => {
  await app?.close();
});

const track = screenshotFailures();

async function open(path: string, heading: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = track(await app.signedInPage(path, app.admin, viewport));
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return page;
}

async function storedBands(): Promise<unknown> {
  const row = await app.database.db
    .selectFrom('tests')
    .select('reference_ranges')
    .where('organization_id', '=', app.organizationId!)
    .where('code', '=', 'HB')
    .executeTakeFirstOrThrow();
  return row.reference_ranges ? JSON.parse(row.reference_ranges) : null;
}

describe('ranges by sex and age on the test dialog', () => {
  it('adds a newborn band in days and a women’s band, refuses a band that ends before it starts', async () => {
    const page = await open('/individual-tests', 'Individual Tests');
    await page.getByRole('button', { name: 'Edit Haemoglobin' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Test: Haemoglobin' });
    const bands = dialog.getByRole('group', { name: 'Ranges by Sex and Age' });

    await bands.getByRole('button', { name: 'Add range' }).click();
    await bands.getByLabel('Age unit, range 1').selectOption('days');
    await bands.getByLabel('Age from, range 1').fill('7');
    await bands.getByLabel('Age to, range 1').fill('2');
    await bands.getByLabel('Range, range 1').fill('14.5-22.5');
    await bands.getByRole('button', { name: 'Add range' }).click();
    await bands.getByLabel('Sex, range 2').selectOption('Female');
    await bands.getByLabel('Age from, range 2').fill('18');
    await bands.getByLabel('Range, range 2').fill('12.0-15.0');
    await bands.getByLabel('Critical low, range 2').fill('7');

    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await bands.getByText('age_max must be above age_min').waitFor();
    expect(await storedBands()).toBeNull();

    await bands.getByLabel('Age from, range 1').fill('0');
    await bands.getByLabel('Age to, range 1').fill('7');
    await screenshot(page, 'reference-bands-dialog');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await storedBands()).toEqual([
      {
        sex: null,
        age_min: 0,
        age_max: 7,
        age_unit: 'days',
        range: '14.5-22.5',
        critical_low: null,
        critical_high: null,
      },
      {
        sex: 'Female',
        age_min: 18,
        age_max: null,
        age_unit: 'years',
        range: '12.0-15.0',
        critical_low: 7,
        critical_high: null,
      },
    ]);

    // The list says there are bands; the dialog opens with them as saved.
    await page.getByRole('row').filter({ hasText: 'Haemoglobin' }).getByText('+ 2 by sex and age').waitFor();
    await page.getByRole('button', { name: 'Edit Haemoglobin' }).click();
    await expect(bands.getByLabel('Sex, range 2').inputValue()).resolves.toBe('Female');
    await expect(bands.getByLabel('Age unit, range 1').inputValue()).resolves.toBe('days');
    await expect(bands.getByLabel('Critical low, range 2').inputValue()).resolves.toBe('7');
    await bands.getByRole('button', { name: 'Remove range 1' }).click();
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await storedBands()).toMatchObject([{ sex: 'Female', range: '12.0-15.0' }]);
  });

  it('fits a 390 px phone: each band is a card of labelled boxes', async () => {
    const page = await open('/individual-tests', 'Individual Tests', MOBILE);
    await page.getByRole('button', { name: 'Edit Haemoglobin' }).click();
    const bands = page.getByRole('dialog').getByRole('group', { name: 'Ranges by Sex and Age' });
    await bands.getByLabel('Range, range 1').scrollIntoViewIfNeeded();
    const box = await bands.getByLabel('Range, range 1').boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(MOBILE.width);
    await screenshot(page, 'reference-bands-dialog-phone');
  });
});

describe('an infant’s age', () => {
  it('registered as 8 months reads 8 months in the patient list, not 0 years', async () => {
    const page = await open('/patients', 'All Patients');
    await page.getByRole('button', { name: 'Add Patient' }).first().click();
    const add = page.getByRole('dialog', { name: 'Add New Patient' });
    await add.getByLabel('First Name').fill('Baby');
    await add.getByLabel('Last Name').fill('Kavya');
    await add.getByLabel('Age', { exact: true }).fill('8');
    await add.getByLabel('Age In').selectOption('months');
    await add.getByLabel('Gender').selectOption('Female');
    await add.getByLabel('Phone').fill('+91 98450 11223');
    await add.getByRole('button', { name: 'Add Patient' }).click();
    await add.waitFor({ state: 'hidden' });
    const row = page.getByRole('table', { name: 'Patients' }).getByRole('row').filter({ hasText: 'Baby Kavya' });
    await expect(row.textContent()).resolves.toContain('8 months');
  });

  it('OP Bill adds a newborn by age in days, and the picked patient reads 10 days', async () => {
    const page = await open('/op-bill', 'OP Bill');
    await page.getByRole('button', { name: 'Add New Patient' }).click();
    const form = page.getByRole('form', { name: 'Add new patient' });
    await form.getByLabel('First Name').fill('Baby');
    await form.getByLabel('Last Name').fill('Nandini');
    await form.getByLabel('Age', { exact: true }).fill('10');
    await form.getByLabel('Age In').selectOption('days');
    await form.getByLabel('Phone').fill('98450 33445');
    await screenshot(page, 'op-bill-add-patient-by-age');
    await form.getByRole('button', { name: 'Create Patient' }).click();
    await page.getByText('New patient created successfully').waitFor();
    const found = await page.request.get('/api/patients', { params: { search: 'Baby Nandini' } });
    const { patients } = (await found.json()) as { patients: { age_text: string }[] };
    expect(patients.map((p) => p.age_text)).toEqual(['10 days']);
  });
});
