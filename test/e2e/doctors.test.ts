import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { login, MOBILE, screenshot, startApp, type E2eApp } from './harness.js';
import { createDoctor } from '../../src/core/doctors/service.js';
import { systemActor } from '../../src/core/context.js';

/**
 * Doctor Management as an administrator uses it: add a referring doctor through the dialog (a bad
 * value first), find them in the table and in OP Bill's doctor picker, filter by specialization,
 * deactivate; the referral panels show what the bills add up to.
 */
let app: E2eApp;
const stamp = Date.now() % 100000;
const first = 'Kavya';
const last = `Menon${stamp}`;
const name = `Dr. ${first} ${last}`;
const otherLast = `Pillai${stamp}`;

beforeAll(async () => {
  app = await startApp({ roles: ['receptionist'] });
  // Another doctor, of another specialization, for the filter to leave out.
  await createDoctor(app.database.db, systemActor(app.organizationId!), {
    first_name: 'Arjun',
    last_name: otherLast,
    specialization: 'Orthopedics',
    consultation_fee: 300,
    status: 'active',
    can_sign_in: false,
  });
});

afterAll(async () => {
  await app?.close();
});

async function signedIn(path: string, viewport?: { width: number; height: number }): Promise<Page> {
  return app.signedInPage(path, app.admin, viewport);
}

const doctorRow = (page: Page, text: string) =>
  page.getByRole('row').filter({ has: page.getByText(text, { exact: true }) });

describe('Doctor Management', () => {
  it('adds a doctor through the dialog after fixing a bad fee and a taken email; the table and OP Bill list them', async () => {
    const page = await signedIn('/doctor-management');
    await page.getByRole('heading', { name: 'Doctor Management', level: 1 }).waitFor();
    await page.getByRole('group', { name: 'Total Doctors' }).getByText('1', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Add Doctor' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add Doctor' });
    await dialog.getByLabel('First Name').fill(first);
    await dialog.getByLabel('Last Name').fill(last);
    await dialog.getByLabel('Specialization').fill('pediatrics');
    await dialog.getByLabel('Qualification').fill('MBBS, DCH');
    await dialog.getByLabel('Experience (years)').fill('9');
    await dialog.getByLabel('Registration No.').fill('KMC 77120');
    await dialog.getByLabel('Phone').fill('+91 98450 22110');
    await dialog.getByLabel('Consultation Fee (₹)').fill('-50');
    await dialog.getByRole('button', { name: 'Add Doctor' }).click();
    await dialog.getByText('Consultation fee cannot be negative').waitFor();
    await dialog.getByLabel('Consultation Fee (₹)').fill('600');
    // The server's 409 shows under the email field.
    await dialog.getByLabel('Email').fill(app.admin.email);
    await dialog.getByRole('button', { name: 'Add Doctor' }).click();
    await dialog.getByText(`A user with email ${app.admin.email} already exists`).waitFor();
    await screenshot(page, 'doctors-add-dialog-errors');
    await dialog.getByLabel('Email').fill('');
    await dialog.getByRole('button', { name: 'Add Doctor' }).click();
    await page.getByText('Doctor added').first().waitFor();
    await dialog.waitFor({ state: 'detached' });

    const row = doctorRow(page, name);
    await row.waitFor();
    // Stored with the common list's spelling; fee in rupees; no email, no sign-in.
    await row.getByText('Pediatrics', { exact: true }).waitFor();
    await row.getByText('₹600.00').waitFor();
    await row.getByText('No sign-in').waitFor();
    await page.getByRole('group', { name: 'Total Doctors' }).getByText('2', { exact: true }).waitFor();
    await screenshot(page, 'doctors-table');

    // OP Bill offers the new doctor.
    await page.goto('/op-bill');
    await page.getByRole('combobox', { name: 'Doctor' }).click();
    const picker = page.getByRole('listbox', { name: 'Doctor' });
    await picker.getByRole('option', { name: new RegExp(`Dr\\. ${first} ${last}`) }).waitFor();
    await screenshot(page, 'doctors-op-bill-picker');
    await page.close();
  });

  it('filters by specialization and status, and deactivates a doctor (no longer offered on bills)', async () => {
    const page = await signedIn('/doctor-management');
    await doctorRow(page, `Dr. Arjun ${otherLast}`).waitFor();
    await page.getByRole('combobox', { name: 'Specialization', exact: true }).selectOption('Pediatrics');
    await doctorRow(page, name).waitFor();
    await doctorRow(page, `Dr. Arjun ${otherLast}`).waitFor({ state: 'detached' });
    expect(page.url()).toContain('specialization=Pediatrics');

    await page.getByRole('button', { name: `Deactivate ${name}` }).click();
    await page.getByText('Doctor deactivated').first().waitFor();
    await doctorRow(page, name).getByText('Inactive', { exact: true }).waitFor();
    await page.getByRole('combobox', { name: 'Status', exact: true }).selectOption('active');
    await page.getByText('No doctors found').waitFor();
    await page.getByRole('button', { name: 'Clear Filters' }).first().click();
    await doctorRow(page, `Dr. Arjun ${otherLast}`).waitFor();

    await page.goto('/op-bill');
    await page.getByRole('combobox', { name: 'Doctor' }).click();
    const picker = page.getByRole('listbox', { name: 'Doctor' });
    await picker.getByRole('option', { name: new RegExp(`Dr\\. Arjun ${otherLast}`) }).waitFor();
    expect(await picker.getByRole('option', { name: new RegExp(`${first} ${last}`) }).count()).toBe(0);
    await page.close();
  });

  it('shows referral figures from real bills, and deleting a doctor on a bill is refused', async () => {
    const page = await signedIn('/doctor-management');
    await doctorRow(page, `Dr. Arjun ${otherLast}`).waitFor();
    // One bill naming Dr. Arjun: a test of ₹250 plus his ₹300 fee.
    const api = page.request;
    const test = await (
      await api.post('/api/tests', { data: { name: 'Serum Calcium', code: `CA${stamp}`, price: 250 } })
    ).json();
    const patient = await (
      await api.post('/api/patients', { data: { first_name: 'Lata', last_name: 'Nair', date_of_birth: '1970-05-05' } })
    ).json();
    const doctors = await (await api.get(`/api/doctors?search=${otherLast}`)).json();
    const arjun = doctors.doctors[0];
    const bill = await api.post('/api/bills', {
      data: {
        patient_id: patient.patient.id,
        doctor_id: arjun.id,
        items: [{ item_type: 'test', item_id: test.test.id }],
      },
    });
    expect(bill.status()).toBe(201);
    await page.reload();

    const top = page.getByRole('list', { name: 'Top performing doctors' });
    await top.getByText(`Dr. Arjun ${otherLast}`).waitFor();
    await top.getByText('₹550.00').waitFor();
    await page.getByRole('group', { name: 'Referrals This Month' }).getByText('1', { exact: true }).waitFor();
    await page.getByRole('list', { name: 'Specialization distribution' }).getByText('Orthopedics').waitFor();
    await doctorRow(page, `Dr. Arjun ${otherLast}`).getByRole('cell', { name: '1', exact: true }).waitFor();
    await screenshot(page, 'doctors-analytics');
    await page.getByRole('list', { name: 'Specialization distribution' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'doctors-specializations');

    await page.getByRole('button', { name: `Delete Dr. Arjun ${otherLast}` }).click();
    const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Delete Doctor' }));
    await confirm.getByText(`Are you sure you want to delete Dr. Arjun ${otherLast}?`).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Failed to delete doctor').first().waitFor();
    await page
      .getByText(/named on 1 bill and cannot be deleted/)
      .first()
      .waitFor();
    await page.close();
  });

  it('deletes a doctor nothing refers to, after confirmation', async () => {
    const page = await signedIn('/doctor-management');
    const row = doctorRow(page, name);
    await row.waitFor();
    await page.getByRole('button', { name: `Delete ${name}` }).click();
    const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Delete Doctor' }));
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Doctor deleted').first().waitFor();
    await row.waitFor({ state: 'detached' });
    await page.close();
  });

  it('is usable on a 390 px phone; a receptionist sees the list without the management actions', async () => {
    const page = await signedIn('/doctor-management', MOBILE);
    await page.getByRole('heading', { name: 'Doctor Management', level: 1 }).waitFor();
    await doctorRow(page, `Dr. Arjun ${otherLast}`).waitFor();
    await screenshot(page, 'doctors-mobile');
    await page.getByRole('list', { name: 'Top performing doctors' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'doctors-mobile-analytics');
    await page.getByRole('button', { name: 'Add Doctor' }).first().click();
    await page.getByRole('dialog', { name: 'Add Doctor' }).getByLabel('First Name').waitFor();
    await screenshot(page, 'doctors-mobile-dialog');
    await page.close();

    const rec = await app.newPage();
    await rec.goto('/doctor-management');
    await login(rec, app.users.receptionist!.email, app.users.receptionist!.password);
    await doctorRow(rec, `Dr. Arjun ${otherLast}`).waitFor();
    expect(await rec.getByRole('button', { name: 'Add Doctor' }).count()).toBe(0);
    expect(await rec.getByRole('button', { name: /^Edit / }).count()).toBe(0);
    await rec.close();
  });
});
