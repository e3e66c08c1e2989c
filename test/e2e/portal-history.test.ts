import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createPatient } from '../../src/core/patients/service.js';
import { createUser } from '../../src/core/users/service.js';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createBill } from '../../src/core/billing/service.js';
import { systemActor } from '../../src/core/context.js';
import { issuePortalPin } from '../../src/core/portal/pin.js';
import type { Bill } from '../../src/shared/schemas/bills.js';
import type { Patient } from '../../src/shared/schemas/patients.js';
import { DESKTOP, MOBILE, login, screenshot, startApp, type E2eApp, screenshotFailures } from './harness.js';

let app: E2eApp;
let patient: Patient;
let bill: Bill;
let sampleId: number;

/** A sample with one verified (high) and one unverified result, straight into the tables the results module owns. */
async function seedResults(testIds: [number, number]): Promise<void> {
  const db = app.database.db;
  const now = new Date().toISOString();
  const sample = await db
    .insertInto('samples')
    .values({
      organization_id: app.organizationId!,
      sample_code: 'SMPE2E0001',
      barcode: null,
      patient_id: patient.id,
      bill_id: bill.id,
      sample_type: 'Blood',
      collector_id: null,
      location: 'Main Lab',
      priority: 'normal',
      status: 'completed',
      notes: null,
      rejection_reason: null,
      collection_date: now,
      completed_at: now,
      created_by: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  sampleId = sample.id;
  await db
    .insertInto('sample_tests')
    .values(testIds.map((test_id, position) => ({ sample_id: sample.id, test_id, position })))
    .execute();
  const result = (test_id: number, value: string, flag: string, status: string) => ({
    organization_id: app.organizationId!,
    sample_id: sample.id,
    test_id,
    patient_id: patient.id,
    result_value: value,
    unit: 'mg/dL',
    normal_range: '70-110',
    flag,
    is_critical: 0,
    status,
    review_required: 0,
    notes: null,
    rejection_reason: null,
    technician_id: null,
    entered_at: now,
    verified_by: null,
    verified_at: status === 'verified' ? now : null,
    amended: 0,
    created_at: now,
    updated_at: now,
  });
  await db
    .insertInto('test_results')
    .values([result(testIds[0], '182', 'high', 'verified'), result(testIds[1], '7.9', 'high', 'completed')])
    .execute();
}

beforeAll(async () => {
  app = await startApp();
  const actor = systemActor(app.organizationId!);
  const doctor = await createUser(app.database.db, actor, {
    first_name: 'Sunita',
    last_name: 'Reddy',
    email: 'sunita@lab.test',
    role: 'doctor',
    password: 'longpassword1',
    specialization: 'Internal Medicine',
    consultation_fee: 350,
  });
  const glucose = await createTest(app.database.db, actor, {
    name: 'Fasting Glucose',
    code: 'FBS',
    price: 150,
    unit: 'mg/dL',
    normal_range: '70-110',
    status: 'active',
  });
  const hba1c = await createTest(app.database.db, actor, {
    name: 'HbA1c',
    code: 'HBA1C',
    price: 500,
    status: 'active',
  });
  patient = await createPatient(app.database.db, actor, {
    first_name: 'Lakshmi',
    last_name: 'Venkatesan',
    date_of_birth: '1979-08-21',
    gender: 'Female',
    phone: '+91 98860 12345',
    email: 'lakshmi@example.com',
    blood_group: 'O+',
  });
  bill = await createBill(app.database.db, actor, {
    patient_id: patient.id,
    doctor_id: doctor.id,
    items: [{ item_type: 'test', item_id: glucose.id, qty: 1, discount_percent: 0 }],
    discount_percentage: 0,
    tax_percentage: 0,
    payment_method: 'upi',
    amount_paid: 200,
  });
  await seedResults([glucose.id, hba1c.id]);
});

afterAll(async () => {
  await app?.close();
});

const track = screenshotFailures();

async function staffPage(viewport: { width: number; height: number } = DESKTOP): Promise<Page> {
  const page = await app.newPage(viewport);
  track(page);
  await page.goto('/patient-history');
  await login(page, app.admin.email, app.admin.password);
  await page.getByRole('heading', { name: 'Patient History', level: 1 }).waitFor();
  return page;
}

describe('Patient History and the patient portal', () => {
  it('staff issue a PIN in Patient History; the patient signs in and sees their verified result and bill', async () => {
    const staff = await staffPage();
    await staff.getByRole('searchbox', { name: 'Search patients' }).fill('Venkatesan');
    await staff.waitForURL(/search=Venkatesan/);
    const row = staff
      .getByRole('table', { name: 'Patients' })
      .getByRole('row')
      .filter({ hasText: 'Lakshmi Venkatesan' });
    await row.waitFor();
    await expect(staff.getByRole('table', { name: 'Patients' }).getByRole('row').count()).resolves.toBe(2);

    await staff.getByRole('button', { name: 'View details of Lakshmi Venkatesan' }).click();
    const details = staff.getByRole('dialog', { name: 'Patient Details' });
    await details.getByText('+91 98860 12345').waitFor();
    await details.getByRole('button', { name: 'View Full History' }).click();
    await details.waitFor({ state: 'hidden' });

    await staff.getByRole('heading', { name: 'Medical History — Lakshmi Venkatesan' }).waitFor();
    await expect(staff.getByRole('group', { name: 'Visits' }).textContent()).resolves.toContain('1');
    await expect(staff.getByRole('group', { name: 'Test Results' }).textContent()).resolves.toContain('2');
    await expect(staff.getByRole('group', { name: 'Samples Collected' }).textContent()).resolves.toContain('1');
    await expect(staff.getByRole('group', { name: 'Total Amount' }).textContent()).resolves.toContain(
      `₹${bill.final_amount.toFixed(2)}`,
    );

    await staff.getByRole('button', { name: 'Issue PIN' }).click();
    const pinDialog = staff.getByRole('dialog', { name: 'Portal PIN for Lakshmi Venkatesan' });
    await pinDialog.getByText('This PIN will not be shown again').waitFor();
    const pin = (await pinDialog.getByLabel('Portal PIN').textContent())?.trim() ?? '';
    expect(pin).toMatch(/^\d{6}$/);
    await screenshot(staff, 'history-pin-dialog');
    await pinDialog.getByRole('button', { name: 'Done' }).click();
    await staff.getByText('PIN issued', { exact: true }).waitFor();
    await staff.getByRole('button', { name: 'Reset PIN' }).waitFor();
    await screenshot(staff, 'history-overview-desktop');

    await staff.getByRole('tab', { name: /Test Results/ }).click();
    const results = staff.getByRole('table', { name: 'Test results' });
    await results.getByRole('row').filter({ hasText: 'Fasting Glucose' }).getByText('High').waitFor();
    await staff.getByRole('tab', { name: /Visits/ }).click();
    await staff.getByRole('table', { name: 'Visits' }).getByText('Sunita Reddy').waitFor();
    await staff.getByRole('tab', { name: /Bills/ }).click();
    await staff.getByRole('table', { name: 'Bills' }).getByText(bill.bill_number).waitFor();
    await screenshot(staff, 'history-bills-desktop');

    // The patient, on a phone, with no staff session in their browser.
    const phone = await app.newPage(MOBILE);
    track(phone);
    await phone.goto('/patient-portal');
    await phone.getByRole('heading', { name: 'Sign in to your patient portal' }).waitFor();
    await screenshot(phone, 'portal-login-mobile');
    await phone.getByLabel('Patient ID').fill(patient.patient_id.toLowerCase());
    await phone.getByLabel('Mobile Number').fill('9886012345');
    await phone.getByLabel('PIN', { exact: true }).fill(pin === '000000' ? '000001' : '000000');
    await phone.getByRole('button', { name: 'Sign In' }).click();
    await phone.getByText('Login Failed').waitFor();
    await phone.getByText('Invalid patient ID, mobile number or PIN').waitFor();

    await phone.getByLabel('PIN', { exact: true }).fill(pin);
    await phone.getByRole('button', { name: 'Sign In' }).click();
    await phone.getByText('Welcome to your patient portal!').waitFor();
    await phone.getByRole('heading', { name: 'Welcome, Lakshmi Venkatesan' }).waitFor();
    await phone.getByText('O+', { exact: true }).waitFor();
    await phone.getByText('Internal Medicine').first().waitFor();
    await screenshot(phone, 'portal-appointments-mobile');

    await phone.getByRole('tab', { name: /Test Results/ }).click();
    const sample = phone.getByRole('region', { name: 'Sample SMPE2E0001' });
    await sample.getByText('Fasting Glucose').waitFor();
    await sample.getByText('182').waitFor();
    await expect(phone.getByText('HbA1c').count()).resolves.toBe(0);
    const report = sample.getByRole('link', { name: 'View report' });
    await expect(report.getAttribute('href')).resolves.toBe(`/api/portal/samples/${sampleId}/report.pdf`);
    await screenshot(phone, 'portal-results-mobile');
    const pdf = await phone.request.get(`/api/portal/samples/${sampleId}/report.pdf`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');

    await phone.getByRole('tab', { name: /Bills/ }).click();
    const billCard = phone.getByRole('region', { name: `Bill ${bill.bill_number}` });
    await billCard.getByText('Fasting Glucose').waitFor();
    await billCard.getByText('Partial').waitFor();
    const download = billCard.getByRole('link', { name: `Download bill ${bill.bill_number} (PDF)` });
    await expect(download.getAttribute('href')).resolves.toBe(`/api/portal/bills/${bill.id}/pdf?download=1`);
    const billPdf = await phone.request.get(`/api/portal/bills/${bill.id}/pdf`);
    expect(billPdf.status()).toBe(200);
    await screenshot(phone, 'portal-bills-mobile');
    await expect(phone.evaluate<number>('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(
      MOBILE.width,
    );

    // The portal cookie opens nothing on the staff side.
    expect((await phone.request.get('/api/patients')).status()).toBe(401);

    await phone.getByRole('button', { name: 'Notifications: 1 new' }).click();
    await phone.getByRole('dialog', { name: 'Notifications' }).getByText('Fasting Glucose').waitFor();
    await phone.keyboard.press('Escape');

    await phone.getByRole('button', { name: 'Logout' }).click();
    await phone.getByText('Logged Out').waitFor();
    await phone.getByRole('heading', { name: 'Sign in to your patient portal' }).waitFor();
    await expect(phone.getByText('Fasting Glucose').count()).resolves.toBe(0);
    expect((await phone.request.get('/api/portal/me')).status()).toBe(401);
  });

  it('looks right at both sizes: Patient History on a phone, the portal on a desktop', async () => {
    const staff = await staffPage(MOBILE);
    await staff.goto(`/patient-history?patient=${patient.id}`);
    await staff.getByRole('heading', { name: 'Medical History — Lakshmi Venkatesan' }).waitFor();
    await screenshot(staff, 'history-mobile');
    await staff.getByRole('group', { name: 'Total Amount' }).scrollIntoViewIfNeeded();
    await screenshot(staff, 'history-mobile-overview');
    await staff.getByRole('tab', { name: /Test Results/ }).click();
    await staff.getByRole('table', { name: 'Test results' }).scrollIntoViewIfNeeded();
    await screenshot(staff, 'history-mobile-results');
    // Nothing wider than the phone: the page never scrolls sideways.
    await expect(staff.evaluate<number>('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(
      MOBILE.width,
    );

    const desk = await staffPage(DESKTOP);
    await screenshot(desk, 'history-list-desktop');
    await desk.getByRole('button', { name: 'Select Lakshmi Venkatesan' }).click();
    await desk.getByRole('tab', { name: /Visits/ }).click();
    await desk.getByRole('button', { name: 'Book Appointment' }).click();
    const book = desk.getByRole('dialog', { name: 'Book Appointment' });
    await book.getByLabel('Doctor').selectOption({ label: 'Sunita Reddy (Internal Medicine)' });
    await book.getByLabel('Time').fill('11:15');
    await book.getByLabel('Chief complaint').fill('Review of sugar levels');
    await book.getByRole('button', { name: 'Book Appointment' }).click();
    await desk.getByText('Appointment booked').waitFor();
    await desk.getByRole('table', { name: 'Visits' }).getByText('Review of sugar levels').waitFor();
    await screenshot(desk, 'history-visits-desktop');

    // The staff session does not sign anyone in to the portal; the portal works at desktop size too.
    await desk.goto('/patient-portal');
    await desk.getByRole('heading', { name: 'Sign in to your patient portal' }).waitFor();
    await screenshot(desk, 'portal-login-desktop');
    const { pin } = await issuePortalPin(app.database.db, systemActor(app.organizationId!), patient.id);
    await desk.getByLabel('Patient ID').fill(patient.patient_id);
    await desk.getByLabel('Mobile Number').fill('+91 98860 12345');
    await desk.getByLabel('PIN', { exact: true }).fill(pin);
    await desk.getByRole('button', { name: 'Sign In' }).click();
    await desk.getByRole('heading', { name: 'Welcome, Lakshmi Venkatesan' }).waitFor();
    await desk.getByText('Review of sugar levels').waitFor();
    await screenshot(desk, 'portal-appointments-desktop');
    await desk.getByRole('tab', { name: /Bills/ }).click();
    await desk.getByText('Consultation fee').waitFor();
    await screenshot(desk, 'portal-bills-desktop');
  });
});
