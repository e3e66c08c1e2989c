import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createProfile } from '../../src/core/catalogue/profiles.js';
import { createPackage } from '../../src/core/catalogue/packages.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createUser } from '../../src/core/users/service.js';
import { systemActor } from '../../src/core/context.js';
import { billAmounts } from '../../src/shared/billing.js';
import { formatInr, rupeesToPaise } from '../../src/shared/money.js';
import type { Bill } from '../../src/shared/schemas/bills.js';
import type { Patient } from '../../src/shared/schemas/patients.js';
import { MOBILE, RESULTS_DIR, login, screenshot, startApp, type E2eApp, screenshotFailures } from './harness.js';

let app: E2eApp;

const FEE = 500;
const PRICES = { cbc: 350, fbs: 120.5, lipid: 899, bhc: 1499 };

beforeAll(async () => {
  app = await startApp();
  const db = app.database.db;
  const actor = systemActor(app.organizationId!);
  const common = { first_name: 'Meera', password: 'correct-horse-9' };
  await createUser(db, actor, {
    ...common,
    last_name: 'Iyer',
    email: 'meera@lab.test',
    role: 'doctor',
    specialization: 'Internal Medicine',
    consultation_fee: FEE,
  });
  // A technician is staff but not offered as a doctor (spec 6: doctors and lab technicians only).
  await createUser(db, actor, {
    first_name: 'Tarun',
    last_name: 'Tech',
    email: 'tarun@lab.test',
    role: 'technician',
    password: 'correct-horse-9',
  });
  const cbc = await createTest(db, actor, {
    name: 'Complete Blood Count',
    code: 'CBC',
    price: PRICES.cbc,
    status: 'active',
    category: 'Haematology',
  });
  const fbs = await createTest(db, actor, {
    name: 'Fasting Blood Sugar',
    code: 'FBS',
    price: PRICES.fbs,
    status: 'active',
    category: 'Diabetes',
  });
  await createTest(db, actor, { name: 'Bleeding Time', code: 'BT', price: 90, status: 'inactive' });
  const lipid = await createProfile(db, actor, {
    name: 'Lipid Profile',
    code: 'LIPID',
    price: PRICES.lipid,
    status: 'active',
    test_ids: [fbs.id],
  });
  await createPackage(db, actor, {
    name: 'Basic Health Checkup',
    code: 'BHC',
    price: PRICES.bhc,
    status: 'active',
    test_ids: [cbc.id],
    profile_ids: [lipid.id],
  });
  await createUser(db, actor, {
    first_name: 'Kavya',
    last_name: 'Desk',
    email: 'kavya@lab.test',
    role: 'receptionist',
    password: 'correct-horse-9',
  });
  await createPatient(db, actor, {
    first_name: 'Ravi',
    last_name: 'Kumar',
    date_of_birth: '1985-06-15',
    gender: 'Male',
    phone: '9876543210',
  });
});

afterAll(async () => {
  await app?.close();
});

const track = screenshotFailures();

async function open(path: string, heading: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await app.signedInPage(path, app.admin, viewport);
  track(page);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return page;
}

/** Types into a picker and chooses the option whose text matches. */
async function pick(page: Page, picker: string, query: string, option: RegExp): Promise<void> {
  const box = page.getByRole('combobox', { name: picker });
  await box.fill(query);
  await page.getByRole('listbox', { name: picker }).getByRole('option', { name: option }).click();
}

const textOf = async (l: Locator) => (await l.innerText()).trim();

/** The bill id from the saved bill's Download PDF link (/api/bills/:id/pdf?download=1). */
async function savedBillId(scope: Locator): Promise<number> {
  const href = await scope.getByRole('link', { name: 'Download PDF' }).getAttribute('href');
  const m = /\/api\/bills\/(\d+)\/pdf/.exec(href ?? '');
  expect(m, `download link ${href}`).not.toBeNull();
  return Number(m![1]);
}

describe('OP Bill', () => {
  it('bills a patient for a test, a profile and a package; the Final Total shown is what the server stores', async () => {
    const page = await open('/op-bill', 'OP Bill');
    await page.getByText('Create and manage outpatient bills with real data').waitFor();
    await screenshot(page, 'op-bill-empty');
    const save = page.getByRole('button', { name: 'Save', exact: true });
    const print = page.getByRole('button', { name: 'Print', exact: true });
    expect(await save.isDisabled()).toBe(true);
    expect(await print.isDisabled()).toBe(true);

    await pick(page, 'Patient', 'Ravi', /Ravi Kumar/);
    await expect.poll(() => textOf(page.getByTestId('selected-patient'))).toBe('Ravi Kumar');

    await pick(page, 'Individual Tests', 'cbc', /Complete Blood Count/);
    await page.getByText('Complete Blood Count added to bill').waitFor();
    // Inactive items are not offered.
    await page.getByRole('combobox', { name: 'Individual Tests' }).fill('Bleeding');
    await page.getByText('No active tests match "Bleeding"').waitFor();
    await pick(page, 'Test Profiles', 'lipid', /Lipid Profile/);
    // Keyboard: type the code, Enter picks the highlighted match.
    const packages = page.getByRole('combobox', { name: 'Test Packages' });
    await packages.fill('BHC');
    await page
      .getByRole('listbox', { name: 'Test Packages' })
      .getByRole('option', { name: /Basic Health Checkup/ })
      .waitFor();
    await packages.press('Enter');
    await page.getByRole('table', { name: 'Bill items' }).getByText('Lipid Profile (Profile)').waitFor();
    // The package holds CBC and the Lipid Profile: the screen says so before anything is charged twice.
    const overlap = page.getByTestId('overlap-warning');
    await overlap.getByText('Complete Blood Count is already in the package Basic Health Checkup').waitFor();
    await overlap.getByText('Lipid Profile is already in the package Basic Health Checkup').waitFor();
    await screenshot(page, 'op-bill-overlap-warning');

    // Without a doctor the bill cannot be saved or printed.
    expect(await save.isDisabled()).toBe(true);
    await page.getByRole('combobox', { name: 'Doctor' }).click();
    const doctors = page.getByRole('listbox', { name: 'Doctor' });
    await doctors.getByRole('option', { name: /Dr\. Meera Iyer/ }).waitFor();
    expect(await doctors.getByRole('option', { name: /Tarun/ }).count()).toBe(0);
    await screenshot(page, 'op-bill-doctor-picker');
    await doctors.getByRole('option', { name: /Dr\. Meera Iyer/ }).click();
    expect(await save.isDisabled()).toBe(false);

    // Lines edit in place: a non-numeric quantity becomes 1; percentages outside 0-100 are flagged.
    const qty = page.getByLabel('Qty for Complete Blood Count (Test)');
    await qty.fill('abc');
    await qty.blur();
    expect(await qty.inputValue()).toBe('1');
    await qty.fill('2');
    await page.getByLabel('Discount % for Lipid Profile (Profile)').fill('10');
    const billDiscount = page.getByLabel('Discount %', { exact: true });
    await billDiscount.fill('150');
    await page.getByText('Must be between 0 and 100').waitFor();
    await save.click();
    await page.getByText('Please correct the highlighted values').waitFor();
    await billDiscount.fill('5');
    // GST is per line from each test's category: the catalogue's tests are exempt diagnostics.
    expect(await page.getByLabel('Tax %', { exact: true }).count()).toBe(0);
    await page.getByLabel('Payment Method').selectOption('upi');
    // Saving waits for the biller to say the patient wants both.
    await save.click();
    await page.getByText('Charged twice on this bill', { exact: true }).first().waitFor();
    await overlap.getByLabel('Charge them anyway (the patient wants both)').check();

    const expected = billAmounts({
      lines: [
        { unitPricePaise: rupeesToPaise(PRICES.cbc), qty: 2, discountPercent: 0 },
        { unitPricePaise: rupeesToPaise(PRICES.lipid), qty: 1, discountPercent: 10 },
        { unitPricePaise: rupeesToPaise(PRICES.bhc), qty: 1, discountPercent: 0 },
      ],
      consultationFeePaise: rupeesToPaise(FEE),
      discountPercent: 5,
      taxPercent: 0,
    });
    const shownFinal = page.getByTestId('bill-final-total');
    await expect.poll(() => textOf(shownFinal)).toBe(formatInr(expected.finalPaise));
    expect(await textOf(page.getByTestId('bill-consultation'))).toBe(formatInr(rupeesToPaise(FEE)));
    const finalBeforeSave = await textOf(shownFinal);
    await screenshot(page, 'op-bill-filled');
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot(page, 'op-bill-filled-top');
    await page.setViewportSize(MOBILE);
    await page.getByRole('heading', { name: 'Bill Items' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'op-bill-filled-mobile');
    await page.getByRole('heading', { name: 'Bill Summary' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'op-bill-summary-mobile');
    await page.setViewportSize({ width: 1366, height: 768 });

    await save.click();
    const panel = page.getByRole('status', { name: 'Last saved bill' });
    const number = await textOf(panel.getByTestId('saved-bill-number'));
    expect(number).toMatch(/^OPB\d{12}(-\d+)?$/);
    await page.getByText(`Bill ${number} saved successfully`).waitFor();

    // The server's stored bill has the very figures the screen showed.
    const id = await savedBillId(panel);
    const res = await page.request.get(`/api/bills/${id}`);
    expect(res.status()).toBe(200);
    const { bill } = (await res.json()) as { bill: Bill };
    expect(formatInr(rupeesToPaise(bill.final_amount))).toBe(finalBeforeSave);
    expect(bill.final_amount).toBe(expected.finalPaise / 100);
    expect(bill.consultation_fee).toBe(FEE);
    expect(bill.payment_method).toBe('upi');
    expect(bill.items?.map((i) => [i.particulars, i.qty, i.discount_percent])).toEqual([
      ['Complete Blood Count (Test)', 2, 0],
      ['Lipid Profile (Profile)', 1, 10],
      ['Basic Health Checkup (Package)', 1, 0],
    ]);
    expect(await textOf(panel.getByTestId('saved-bill-final'))).toBe(finalBeforeSave);

    // The form clears: patient, doctor, items, discount and tax.
    await page.getByText('No items added yet').waitFor();
    expect(await page.getByTestId('selected-patient').count()).toBe(0);
    expect(await page.getByTestId('selected-doctor').count()).toBe(0);
    expect(await page.getByLabel('Discount %', { exact: true }).inputValue()).toBe('0');
    expect(await save.isDisabled()).toBe(true);
    await screenshot(page, 'op-bill-saved');

    // The PDF is real; Print opens it in a new window.
    const pdf = await page.request.get(`/api/bills/${id}/pdf`);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    const bytes = await pdf.body();
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    writeFileSync(join(RESULTS_DIR, 'op-bill.pdf'), bytes);
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      panel.getByRole('button', { name: `Print bill ${number}` }).click(),
    ]);
    await expect.poll(() => popup.locator('iframe').getAttribute('src')).toContain(`/api/bills/${id}/pdf`);
    await popup.close();

    // Print from the form saves the bill, then opens its PDF; with popups blocked nothing is saved.
    await pick(page, 'Patient', '9876543210', /Ravi Kumar/);
    await page.getByRole('combobox', { name: 'Doctor' }).click();
    await page
      .getByRole('listbox', { name: 'Doctor' })
      .getByRole('option', { name: /Meera Iyer/ })
      .click();
    await pick(page, 'Individual Tests', 'FBS', /Fasting Blood Sugar/);
    // The page's own window.open, replaced by what a popup blocker answers.
    await page.evaluate('window.realOpen = window.open; window.open = () => null;');
    await print.click();
    await page.getByText('Please allow popups to print the bill').waitFor();
    expect(await textOf(page.getByTestId('selected-patient'))).toBe('Ravi Kumar');
    await page.evaluate('window.open = window.realOpen;');
    const [printed] = await Promise.all([page.waitForEvent('popup'), print.click()]);
    await expect.poll(() => textOf(panel.getByTestId('saved-bill-number'))).not.toBe(number);
    await page.getByText(`Bill ${await textOf(panel.getByTestId('saved-bill-number'))} saved successfully`).waitFor();
    const secondId = await savedBillId(panel);
    expect(secondId).not.toBe(id);
    await expect
      .poll(() => printed.locator('iframe').getAttribute('src'), { timeout: 15_000 })
      .toContain(`/api/bills/${secondId}/pdf`);
    await page.getByText('No items added yet').waitFor();
  });

  it('a receptionist giving 50% off is asked for an approver; a wrong password is refused, the admin approves', async () => {
    const page = await app.newPage();
    track(page);
    await page.goto('/op-bill');
    await login(page, 'kavya@lab.test', 'correct-horse-9');
    await page.getByRole('heading', { name: 'OP Bill', level: 1 }).waitFor();
    await pick(page, 'Patient', 'Ravi', /Ravi Kumar/);
    await pick(page, 'Individual Tests', 'cbc', /Complete Blood Count/);
    await page.getByRole('combobox', { name: 'Doctor' }).click();
    await page
      .getByRole('listbox', { name: 'Doctor' })
      .getByRole('option', { name: /Dr\. Meera Iyer/ })
      .click();
    await page.getByLabel('Discount %', { exact: true }).fill('50');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Discount needs approval' });
    await dialog.getByText(/below the catalogue prices; your role may give up to 10%/).waitFor();
    await dialog.getByLabel('Approver email').fill(app.admin.email);
    await dialog.getByLabel('Approver password').fill('wrong-password-1');
    await dialog.getByRole('button', { name: 'Approve and Save' }).click();
    await dialog.getByText('The approver email or password is wrong').waitFor();
    await screenshot(page, 'op-bill-discount-approval');
    await dialog.getByLabel('Approver password').fill(app.admin.password);
    await dialog.getByRole('button', { name: 'Approve and Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const panel = page.getByRole('status', { name: 'Last saved bill' });
    const id = await savedBillId(panel);
    const { bill } = (await (await page.request.get(`/api/bills/${id}`)).json()) as { bill: Bill };
    expect(bill.discount_percentage).toBe(50);
  });

  it('bills a walk-in with no referring doctor as Self: a lab-only bill, no fee', async () => {
    const page = await open('/op-bill', 'OP Bill');
    await pick(page, 'Patient', 'Ravi', /Ravi Kumar/);
    await pick(page, 'Individual Tests', 'FBS', /Fasting Blood Sugar/);
    const save = page.getByRole('button', { name: 'Save', exact: true });
    expect(await save.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Self (no referring doctor)' }).click();
    await expect.poll(() => textOf(page.getByTestId('selected-doctor'))).toBe('Self');
    expect(await page.getByTestId('bill-consultation').count()).toBe(0);
    await screenshot(page, 'op-bill-self');
    await page.setViewportSize(MOBILE);
    await page.getByTestId('selected-doctor').scrollIntoViewIfNeeded();
    await screenshot(page, 'op-bill-self-mobile');
    await page.setViewportSize({ width: 1280, height: 800 });
    await save.click();
    const panel = page.getByRole('status', { name: 'Last saved bill' });
    const id = await savedBillId(panel);
    const { bill } = (await (await page.request.get(`/api/bills/${id}`)).json()) as { bill: Bill };
    expect(bill).toMatchObject({ doctor_id: null, consultation_fee: 0, final_amount: PRICES.fbs });
  });

  it('adds a new patient inline and selects them; on a phone the screen still works', async () => {
    const page = await open('/op-bill', 'OP Bill', MOBILE);
    await screenshot(page, 'op-bill-empty-mobile');
    await page.getByRole('combobox', { name: 'Patient' }).fill('ravi');
    await page
      .getByRole('listbox', { name: 'Patient' })
      .getByRole('option', { name: /Ravi Kumar/ })
      .waitFor();
    await screenshot(page, 'op-bill-patient-picker-mobile');
    await page.getByRole('combobox', { name: 'Patient' }).press('Escape');
    await page.getByRole('button', { name: 'Add New Patient' }).click();
    const form = page.getByRole('form', { name: 'Add new patient' });
    expect(await form.getByLabel('Gender').inputValue()).toBe('male');
    await form.getByRole('button', { name: 'Create Patient' }).click();
    await form.getByText('First name is required').waitFor();
    await form.getByLabel('First Name').fill('Anita');
    await form.getByLabel('Last Name').fill('Desai');
    await form.getByLabel('Date of Birth').fill('1990-02-20');
    await form.getByLabel('Gender').selectOption('female');
    await form.getByLabel('Phone').fill('98450 11223');
    await form.getByRole('button', { name: 'Create Patient' }).click();
    await page.getByText('New patient created successfully').waitFor();
    await expect.poll(() => textOf(page.getByTestId('selected-patient'))).toBe('Anita Desai');
    const found = await page.request.get('/api/patients', { params: { search: 'Anita Desai' } });
    const { patients } = (await found.json()) as { patients: Patient[] };
    expect(patients.map((p) => [p.first_name, p.gender])).toEqual([['Anita', 'Female']]);
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
  });
});

describe('Register Patient with Bill', () => {
  it('registers a patient with a lab-only bill in one step: no doctor, no consultation fee', async () => {
    const page = await open('/patient-registration-billing', 'Register Patient with Bill');
    await screenshot(page, 'registration-billing-empty');
    await page.setViewportSize(MOBILE);
    await screenshot(page, 'registration-billing-empty-mobile');
    await page.setViewportSize({ width: 1366, height: 768 });
    const submit = page.getByRole('button', { name: 'Register Patient & Create Bill' });

    await page.getByLabel('First Name', { exact: true }).fill('Sunita');
    await page.getByLabel('Last Name', { exact: true }).fill('Rao');
    await page.getByLabel('Date of Birth', { exact: true }).fill('1979-11-02');
    await page.getByLabel('Gender', { exact: true }).selectOption('Female');
    await page.getByLabel('Mobile Number', { exact: true }).fill('98860 12345');
    await page.getByLabel('Address', { exact: true }).fill('12 MG Road');
    await page.getByLabel('City', { exact: true }).fill('Bengaluru');
    await page.getByLabel('State', { exact: true }).fill('Karnataka');
    await page.getByLabel('Pincode', { exact: true }).fill('560001');
    await page.getByLabel('Emergency Contact Number', { exact: true }).fill('98860 54321');
    await page.getByLabel('Relationship', { exact: true }).selectOption('Spouse');
    await page.getByLabel(/agrees to the terms and conditions/).check();

    // Lab tests only is the default (a walk-in); a doctor visit requires a doctor.
    expect(await page.getByRole('radio', { name: 'Lab Tests Only' }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: 'Doctor Visit + Lab Tests' }).check();
    await pick(page, 'Individual Tests', 'FBS', /Fasting Blood Sugar/);
    await submit.click();
    await page.getByText('Please select a doctor for consultation').first().waitFor();

    await page.getByRole('radio', { name: 'Lab Tests Only' }).check();
    await page.getByText('Lab tests only: no consultation fee. A referring doctor is printed on the report.').waitFor();
    await page.getByRole('button', { name: 'Remove Fasting Blood Sugar' }).click();
    await submit.click();
    await page.getByText('Please add at least one test, profile, or package').waitFor();

    await pick(page, 'Individual Tests', 'fasting', /Fasting Blood Sugar/);
    await pick(page, 'Test Packages', 'health', /Basic Health Checkup/);
    await page.getByLabel('Quantity for Fasting Blood Sugar').fill('3');
    await page.getByLabel('Discount %', { exact: true }).fill('12.5');
    await page.getByText('Must be a whole number').waitFor();
    await page.getByLabel('Discount %', { exact: true }).fill('10');
    await page.getByLabel('Payment Method').selectOption('bank_transfer');
    // FBS is in the package's Lipid Profile: charged again only when the desk confirms it.
    const overlap = page.getByTestId('overlap-warning');
    await overlap.getByText('Fasting Blood Sugar is already in the package Basic Health Checkup').waitFor();
    await overlap.getByLabel('Charge them anyway (the patient wants both)').check();
    expect(await page.getByTestId('bill-consultation').count()).toBe(0);
    const expected = billAmounts({
      lines: [
        { unitPricePaise: rupeesToPaise(PRICES.fbs), qty: 3, discountPercent: 0 },
        { unitPricePaise: rupeesToPaise(PRICES.bhc), qty: 1, discountPercent: 0 },
      ],
      consultationFeePaise: 0,
      discountPercent: 10,
      taxPercent: 0,
    });
    await expect.poll(() => textOf(page.getByTestId('bill-final-total'))).toBe(formatInr(expected.finalPaise));
    await page.getByRole('heading', { name: 'Lab Tests and Services' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'registration-billing-filled');
    await page.setViewportSize(MOBILE);
    await page.getByRole('heading', { name: 'Lab Tests and Services' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'registration-billing-filled-mobile');
    await page.getByRole('table', { name: 'Selected tests and services' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'registration-billing-lines-mobile');
    await page.setViewportSize({ width: 1366, height: 768 });

    await submit.click();
    const result = page.getByRole('status', { name: 'Registration result' });
    const code = await textOf(result.getByTestId('registered-patient-id'));
    const number = await textOf(result.getByTestId('registered-bill-number'));
    expect(number).toMatch(/^OPB\d{12}(-\d+)?$/);
    await screenshot(page, 'registration-billing-done');

    const id = await savedBillId(result);
    const { bill } = (await (await page.request.get(`/api/bills/${id}`)).json()) as { bill: Bill };
    expect(bill.patient_patient_id).toBe(code);
    expect(bill.doctor_id).toBeNull();
    expect(bill.visit_type).toBe('lab_only');
    expect(bill.consultation_fee).toBe(0);
    expect(bill.final_amount).toBe(expected.finalPaise / 100);
    expect(bill.payment_method).toBe('bank_transfer');
    expect(await textOf(result.getByTestId('registered-bill-final'))).toBe(formatInr(expected.finalPaise));

    // The form resets.
    expect(await page.getByLabel('First Name', { exact: true }).inputValue()).toBe('');
    await page.getByText('No tests added yet').waitFor();
    expect(await page.getByRole('radio', { name: 'Lab Tests Only' }).isChecked()).toBe(true);
  });
});
