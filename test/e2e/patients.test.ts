import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createPatient } from '../../src/core/patients/service.js';
import { systemActor } from '../../src/core/context.js';
import type { PatientCreate, PatientPage } from '../../src/shared/schemas/patients.js';
import { MOBILE, login, screenshot, startApp, type E2eApp, screenshotFailures } from './harness.js';

let app: E2eApp;

beforeAll(async () => {
  app = await startApp({ roles: ['doctor', 'collector'] });
});

afterAll(async () => {
  await app?.close();
});

const track = screenshotFailures();

async function seed(patients: PatientCreate[]): Promise<void> {
  const actor = systemActor(app.organizationId!);
  // Rows told apart by a number in the name (Pager01...) are one name to the duplicate check.
  for (const p of patients) await createPatient(app.database.db, actor, { ...p, confirm_new: true });
}

/** Opens a protected page, signs in on the in-place form and waits for the page heading. */
async function open(path: string, heading: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await app.signedInPage(path, app.admin, viewport);
  track(page);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return page;
}

const table = (page: Page, name = 'Patients') => page.getByRole('table', { name });

describe('All Patients', () => {
  it('adds a patient, finds them by phone number, edits and deletes them', async () => {
    // Same first five digits: a search that only matched "98450" would find this one too.
    await seed([{ first_name: 'Decoy', last_name: 'Nearmatch', date_of_birth: '1990-01-01', phone: '98450 00000' }]);
    const page = await open('/patients', 'All Patients');

    await page.getByRole('button', { name: 'Add Patient' }).first().click();
    const add = page.getByRole('dialog', { name: 'Add New Patient' });
    await add.getByRole('button', { name: 'Add Patient' }).click();
    await add.getByText('First name is required').waitFor();
    await add.getByLabel('First Name').fill('Meera');
    await add.getByLabel('Last Name').fill('Iyengar');
    await add.getByLabel('Date of Birth').fill('1988-03-14');
    await add.getByLabel('Gender').selectOption('Female');
    await add.getByLabel('Phone').fill('+91 98450 77123');
    await add.getByLabel('Email').fill('Meera.Iyengar@example.com');
    await screenshot(page, 'patients-add-dialog');
    await add.getByRole('button', { name: 'Add Patient' }).click();
    await page.getByText('New patient created successfully').waitFor();
    await add.waitFor({ state: 'hidden' });
    const row = table(page).getByRole('row').filter({ hasText: 'Meera Iyengar' });
    await row.waitFor();
    await expect(row.textContent()).resolves.toMatch(/PAT\d{12}/);
    await expect(row.textContent()).resolves.toContain('meera.iyengar@example.com');

    // The phone number as staff type it, with spaces, finds them in All Patients and in Patient Search.
    await page.getByRole('searchbox', { name: 'Search patients' }).fill('98450 77123');
    await page.waitForURL(/search=98450/);
    await page.getByText('Showing 1-1 of 1 patients').waitFor();
    await row.waitFor();
    await page.goto('/patient-search');
    await page.getByLabel('Search type').selectOption('mobile');
    await page.getByRole('searchbox', { name: 'Search patients' }).fill('98450-77123');
    await page.waitForURL(/search=98450-77123/);
    await page.getByText('1 shown of 1 checked on this page').waitFor();
    await table(page, 'Search results').getByRole('row').filter({ hasText: 'Meera Iyengar' }).waitFor();
    await expect(table(page, 'Search results').getByRole('row').count()).resolves.toBe(2);
    await page.getByRole('button', { name: 'View details of Meera Iyengar' }).click();
    const details = page.getByRole('dialog', { name: 'Patient Details' });
    // Stored as its 10 digits, whatever way it was typed.
    await details.getByText('9845077123').waitFor();
    await screenshot(page, 'patient-search-details');
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'hidden' });

    // Edit: every registration field is there; the change shows in the table.
    await page.goto('/patients?search=Meera');
    await page.getByRole('button', { name: 'Edit Meera Iyengar' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Patient' });
    await expect(edit.getByLabel('First Name').inputValue()).resolves.toBe('Meera');
    await edit.getByLabel('Last Name').fill('Iyengar-Rao');
    await edit.getByLabel('City').fill('Mysuru');
    await edit.getByLabel('Blood Group').selectOption('B+');
    await edit.getByLabel('Pincode').fill('5700');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await edit.getByText('Pincode must be 6 digits').waitFor();
    await edit.getByLabel('Pincode').fill('570001');
    await screenshot(page, 'patients-edit-dialog');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Patient updated successfully').waitFor();
    await table(page).getByRole('row').filter({ hasText: 'Meera Iyengar-Rao' }).waitFor();
    await page.getByRole('button', { name: 'View Meera Iyengar-Rao' }).click();
    const view = page.getByRole('dialog', { name: 'Patient Details' });
    await view.getByText('Mysuru').waitFor();
    await view.getByText('B+', { exact: true }).waitFor();
    await screenshot(page, 'patients-details-dialog');
    await view.getByRole('button', { name: 'Close' }).first().click();

    // Delete asks first, naming the patient.
    await page.getByRole('button', { name: 'Delete Meera Iyengar-Rao' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Patient' });
    await confirm.getByText(/Are you sure you want to delete Meera Iyengar-Rao \(PAT\d{12}\)\?/).waitFor();
    await screenshot(page, 'patients-delete-dialog');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Patient deleted successfully').waitFor();
    await page.getByText('No patients match your current filters').waitFor();
    const res = await page.request.get('/api/patients?search=Meera');
    expect(((await res.json()) as PatientPage).total).toBe(0);
  });

  it('pages through the server totals and changes the page size', async () => {
    await seed(
      Array.from({ length: 23 }, (_, i) => ({
        first_name: `Pager${String(i + 1).padStart(2, '0')}`,
        last_name: 'Paginski',
        date_of_birth: '1990-01-01',
        gender: 'Male' as const,
      })),
    );
    const page = await open('/patients?search=Paginski', 'All Patients');
    const nav = page.getByRole('navigation', { name: 'Pagination' });
    await nav.getByText('Showing 1-10 of 23 patients').waitFor();
    await nav.getByText('Page 1 of 3').waitFor();
    await screenshot(page, 'patients-list');
    await nav.getByRole('button', { name: 'Next page' }).click();
    await nav.getByText('Page 2 of 3').waitFor();
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    await nav.getByRole('button', { name: 'Last page' }).click();
    await nav.getByText('Showing 21-23 of 23 patients').waitFor();
    await expect.poll(() => table(page).locator('tbody tr').count()).toBe(3);
    await nav.getByLabel('Rows per page').selectOption('5');
    await nav.getByText('Page 1 of 5').waitFor();
    expect(new URL(page.url()).searchParams.get('limit')).toBe('5');
    await expect.poll(() => table(page).locator('tbody tr').count()).toBe(5);
    await nav.getByRole('button', { name: 'First page' }).isDisabled();
    // Newest first: the last one seeded leads the list.
    await expect.poll(() => table(page).locator('tbody tr').first().textContent()).toContain('Pager23');
    // A filter change goes back to page 1.
    await nav.getByRole('button', { name: 'Next page' }).click();
    await nav.getByText('Page 2 of 5').waitFor();
    await page.getByLabel('Gender').selectOption('Male');
    await nav.getByText('Page 1 of 5').waitFor();
    expect(new URL(page.url()).searchParams.get('page')).toBeNull();
  });

  it('shows No Patients Found for a filter that matches nothing, and Clear Filters brings the list back', async () => {
    await seed([{ first_name: 'Visible', last_name: 'Always', date_of_birth: '1975-06-30', membership_type: 'basic' }]);
    const page = await open('/patients?search=zzqqxx&membership=corporate', 'All Patients');
    await page.getByText('No Patients Found').waitFor();
    await page.getByText('No patients match your current filters').waitFor();
    await screenshot(page, 'patients-empty');
    await page.getByRole('button', { name: 'Clear Filters' }).last().click();
    await table(page).getByRole('row').filter({ hasText: 'Visible Always' }).waitFor();
    // The cleared search must stay cleared once the search box's 300 ms pause has passed.
    await page.waitForTimeout(600);
    expect(new URL(page.url()).search).toBe('');
    await expect(page.getByRole('searchbox', { name: 'Search patients' }).inputValue()).resolves.toBe('');
  });

  it('shows the Database Connection Error panel when the list fails, and Retry Connection reloads it', async () => {
    const page = await app.newPage();
    track(page);
    await page.goto('/patients');
    const list = /\/api\/patients\?/;
    await page.route(list, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'database is locked' }),
      }),
    );
    await login(page, app.admin.email, app.admin.password);
    await page.getByText('Database Connection Error').waitFor({ timeout: 15_000 });
    await page.getByText('database is locked').waitFor();
    await screenshot(page, 'patients-error');
    await page.unroute(list);
    await page.getByRole('button', { name: 'Retry Connection' }).click();
    await table(page).waitFor();
  });

  it('exports every patient matching the filters as a CSV file', async () => {
    await seed([
      {
        first_name: 'Csv',
        last_name: 'Exportwala',
        date_of_birth: '1969-12-31',
        address: '12, "Lake View", MG Road',
        allergies: '=HYPERLINK("x")',
        phone: '+91 90000 11111',
      },
      { first_name: 'Csv', last_name: 'Otherperson', date_of_birth: '2001-02-03' },
    ]);
    const page = await open('/patients?search=Exportwala', 'All Patients');
    await table(page).getByRole('row').filter({ hasText: 'Csv Exportwala' }).waitFor();
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    await page.getByText('Export Started').waitFor();
    await page.getByText('Export Complete').waitFor();
    expect(file.suggestedFilename()).toMatch(/^patients-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await file.path(), 'utf8').replace(/^\uFEFF/, '');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'patient_id,first_name,last_name,date_of_birth,age,gender,phone,email,address,city,state,pincode,emergency_contact,emergency_phone,emergency_relation,blood_group,allergies,medical_history,insurance_provider,insurance_number,membership_type,status,created_at,title,dob_estimated,legacy_id',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',Csv,Exportwala,1969-12-31,');
    expect(lines[1]).toContain(',+91 90000 11111,');
    expect(lines[1]).toContain(',"12, ""Lake View"", MG Road",');
    // A formula typed into a field is neutralised, not run by the spreadsheet.
    expect(lines[1]).toContain(`,"'=HYPERLINK(""x"")",`);
  });

  it('hides add, edit and delete from a role that may only view patients', async () => {
    const page = await app.newPage();
    track(page);
    await page.goto('/patients?search=Always');
    // A collector views patients (to find whose tube to draw) and changes none. A doctor would not
    // do here: he is listed only the patients whose visits or bills name him.
    const collector = app.users.collector!;
    await login(page, collector.email, collector.password);
    await table(page).getByRole('row').filter({ hasText: 'Visible Always' }).waitFor();
    expect(await page.getByRole('button', { name: 'Add Patient' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Edit Visible Always' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'View Visible Always' }).count()).toBe(1);
  });
});

describe('New Patient Registration', () => {
  it('refuses an incomplete form, then registers the patient and shows the server-assigned code', async () => {
    const page = await open('/patient-registration', 'New Patient Registration');
    await page.getByRole('button', { name: 'Register Patient' }).click();
    await page.getByText('Please fill in all required fields').waitFor();
    // A walk-in needs only name, sex, a birth date or an age, and a mobile; the toast counts the fields it shows.
    await page.getByText('Mobile number is required').waitFor();
    await page.getByText('Date of birth or age is required').waitFor();
    await page.getByText('Gender is required').waitFor();
    await page.getByText('5 fields need attention').waitFor();
    expect(await page.getByText('Relationship is required').count()).toBe(0);
    await screenshot(page, 'registration-errors');

    await page.getByLabel('First Name').fill('Farhan');
    await page.getByLabel('Last Name').fill('Qureshi');
    await page.getByLabel('Date of Birth').fill('1979-11-02');
    await page.getByLabel('Gender').selectOption('Male');
    await page.getByLabel('Mobile Number').fill('99001 22334');
    await page.getByLabel('Email').fill('farhan.q@example.com');
    await page.getByLabel('Address').fill('4th Cross, Indiranagar');
    await page.getByLabel('City').fill('Bengaluru');
    await page.getByLabel('State').fill('Karnataka');
    await page.getByLabel('Pincode').fill('560038');
    await page.getByLabel('Contact Name').fill('Sana Qureshi');
    await page.getByLabel('Emergency Contact Number').fill('99001 55667');
    await page.getByLabel('Relationship').selectOption('Spouse');
    await page.getByLabel('Blood Group').selectOption('O+');
    await page.getByLabel('Allergies').fill('Penicillin');
    await page.getByLabel('Insurance Provider').fill('Star Health');
    await page.getByLabel('Membership').selectOption('premium');
    await page.getByRole('button', { name: 'Register Patient' }).click();
    await page.getByText('Please agree to the terms and conditions').first().waitFor();

    await page.getByRole('checkbox', { name: /I confirm these details/ }).check();
    await page.getByRole('button', { name: 'Register Patient' }).click();
    const code = page.getByTestId('registered-patient-id');
    await code.waitFor();
    const patientId = (await code.textContent()) ?? '';
    expect(patientId).toMatch(/^PAT\d{8}\d{4}$/);
    await page.getByText('Patient registered successfully').first().waitFor();
    await screenshot(page, 'registration-success');
    await screenshot(page, 'registration-full', { fullPage: true });
    // The form is reset for the next patient.
    await expect(page.getByLabel('First Name').inputValue()).resolves.toBe('');
    await expect(page.getByRole('checkbox', { name: /I confirm these details/ }).isChecked()).resolves.toBe(false);

    // Saved on the server with the mapped fields.
    const res = await page.request.get(`/api/patients/search?search=${patientId}`);
    const [saved] = ((await res.json()) as PatientPage).patients;
    expect(saved).toMatchObject({
      patient_id: patientId,
      phone: '9900122334',
      emergency_contact: 'Sana Qureshi',
      emergency_phone: '99001 55667',
      emergency_relation: 'Spouse',
      blood_group: 'O+',
      membership_type: 'premium',
      city: 'Bengaluru',
      pincode: '560038',
    });

    await page.getByRole('link', { name: 'View All Patients' }).click();
    await table(page).getByRole('row').filter({ hasText: 'Farhan Qureshi' }).waitFor();
  });
});

describe('server validation errors', () => {
  it('puts the server field errors under the registration fields and keeps the form', async () => {
    const page = await open('/patient-registration', 'New Patient Registration');
    // The form checks what the server checks, so a refusal is simulated to see where its details land.
    await page.route('**/api/patients', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({
              statusCode: 400,
              error: 'Bad Request',
              message: 'phone: Phone is on the blocked list; emergency_phone: Emergency phone is unreachable',
              code: 'VALIDATION_ERROR',
              details: [
                { path: 'phone', message: 'Phone is on the blocked list' },
                { path: 'emergency_phone', message: 'Emergency phone is unreachable' },
              ],
            }),
          })
        : route.continue(),
    );
    await page.getByLabel('First Name').fill('Ravi');
    await page.getByLabel('Last Name').fill('Shankar');
    await page.getByLabel('Date of Birth').fill('1990-05-05');
    await page.getByLabel('Gender').selectOption('Male');
    await page.getByLabel('Mobile Number').fill('90000 00000');
    await page.getByLabel('Address').fill('1 Temple Street');
    await page.getByLabel('City').fill('Chennai');
    await page.getByLabel('State').fill('Tamil Nadu');
    await page.getByLabel('Pincode').fill('600001');
    await page.getByLabel('Emergency Contact Number').fill('90000 00001');
    await page.getByLabel('Relationship').selectOption('Friend');
    await page.getByRole('checkbox', { name: /I confirm these details/ }).check();
    await page.getByRole('button', { name: 'Register Patient' }).click();
    await page.getByText('Failed to register patient. Please try again.').waitFor();
    await page.getByText('Phone is on the blocked list').first().waitFor();
    await expect(page.getByLabel('Mobile Number').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.getByLabel('Emergency Contact Number').getAttribute('aria-describedby')).resolves.toBeTruthy();
    await page.getByText('Emergency phone is unreachable', { exact: true }).waitFor();
    await expect(page.getByLabel('First Name').inputValue()).resolves.toBe('Ravi');
  });
});

describe('Patient Search', () => {
  it('narrows by age range and membership and shows the real membership', async () => {
    const thisYear = new Date().getFullYear();
    await seed([
      {
        first_name: 'Agefilter',
        last_name: 'Young',
        date_of_birth: `${thisYear - 10}-01-01`,
        membership_type: 'corporate',
      },
      {
        first_name: 'Agefilter',
        last_name: 'Elder',
        date_of_birth: `${thisYear - 70}-01-01`,
        membership_type: 'corporate',
      },
    ]);
    const page = await open('/patient-search', 'Patient Search');
    await page.getByRole('searchbox', { name: 'Search patients' }).fill('Agefilter');
    await page.waitForURL(/search=Agefilter/);
    const results = table(page, 'Search results');
    await results.getByRole('row').filter({ hasText: 'Agefilter Elder' }).waitFor();
    await page.getByLabel('Age range').selectOption('65+');
    await page.getByText(/The server searches names, patient IDs/).waitFor();
    await results.getByRole('row').filter({ hasText: 'Agefilter Young' }).waitFor({ state: 'detached' });
    await expect(results.locator('tbody tr').count()).resolves.toBe(1);
    await expect(results.locator('tbody tr').first().textContent()).resolves.toContain('Corporate');
    await screenshot(page, 'patient-search');
    await page.getByLabel('Membership').selectOption('basic');
    await page.getByText('No patients found').waitFor();
  });
});

describe('on a 390 px phone', () => {
  it('fits All Patients, the registration form and Patient Search without sideways scrolling', async () => {
    for (const [path, heading, shot] of [
      ['/patients', 'All Patients', 'patients-list-mobile'],
      ['/patient-registration', 'New Patient Registration', 'registration-mobile'],
      ['/patient-search', 'Patient Search', 'patient-search-mobile'],
    ] as const) {
      const page = await open(path, heading, MOBILE);
      await page.waitForLoadState('networkidle');
      await screenshot(page, shot);
      const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'));
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
      if (path === '/patients') {
        await page.getByRole('button', { name: 'Add Patient' }).first().click();
        await page.getByRole('dialog', { name: 'Add New Patient' }).waitFor();
        await screenshot(page, 'patients-add-dialog-mobile');
        await page.keyboard.press('Escape');
        await page
          .getByRole('button', { name: /^View / })
          .first()
          .click();
        await page.getByRole('dialog', { name: 'Patient Details' }).waitFor();
        await screenshot(page, 'patients-details-dialog-mobile');
        await page.keyboard.press('Escape');
        await page
          .getByRole('button', { name: /^Edit / })
          .first()
          .click();
        await page.getByRole('dialog', { name: 'Edit Patient' }).waitFor();
        await screenshot(page, 'patients-edit-dialog-mobile');
        await page.keyboard.press('Escape');
        await page
          .getByRole('button', { name: /^Delete / })
          .first()
          .click();
        await page.getByRole('dialog', { name: 'Delete Patient' }).waitFor();
        await screenshot(page, 'patients-delete-dialog-mobile');
      }
    }
  });
});
