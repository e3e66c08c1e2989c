import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createPatient } from '../../src/core/patients/service.js';
import { systemActor } from '../../src/core/context.js';
import type { PatientCreate } from '../../src/shared/schemas/patients.js';
import { MOBILE, screenshot, startApp, type E2eApp, screenshotFailures } from './harness.js';

let app: E2eApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.close();
});

const track = screenshotFailures();

async function seed(p: PatientCreate) {
  return createPatient(app.database.db, systemActor(app.organizationId!), { ...p, confirm_new: true });
}

async function open(path: string, heading: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await app.signedInPage(path, app.admin, viewport);
  track(page);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return page;
}

describe('one patient, one record', () => {
  it('New Patient Registration offers the patient already registered; the desk uses them, or registers a new one', async () => {
    const sunita = await seed({
      first_name: 'Sunita',
      last_name: 'Sharma',
      age: 42,
      gender: 'Female',
      phone: '9876501234',
    });
    const page = await open('/patient-registration', 'New Patient Registration');
    const fill = async () => {
      await page.getByLabel('First Name').fill('सुनीता');
      await page.getByLabel('Last Name').fill('शर्मा');
      await page.getByLabel('Age', { exact: true }).fill('43');
      await page.getByLabel('Gender').selectOption('Female');
      await page.getByLabel('Mobile Number').fill('98765 01234');
      await page.getByRole('checkbox', { name: /I confirm these details/ }).check();
      await page.getByRole('button', { name: 'Register Patient' }).click();
    };
    await fill();
    const dialog = page.getByRole('dialog', { name: 'This patient may already be registered' });
    await dialog.getByText(sunita.patient_id).waitFor();
    await dialog.getByText('Same mobile', { exact: true }).waitFor();
    await screenshot(page, 'patients-duplicate-prompt');
    await dialog.getByRole('button', { name: 'Use this patient' }).click();
    await page.getByText('Existing patient selected').waitFor();
    await expect(page.getByTestId('registered-patient-id').textContent()).resolves.toBe(sunita.patient_id);

    await fill();
    await dialog.getByRole('button', { name: 'Register as New Patient' }).click();
    await page.getByText('Patient registered successfully').first().waitFor();
    const code = await page.getByTestId('registered-patient-id').textContent();
    expect(code).not.toBe(sunita.patient_id);
  });

  it('merges a duplicate into the record kept from All Patients, on a phone too', async () => {
    const kept = await seed({ first_name: 'Kavya', last_name: 'Rao', age: 30, gender: 'Female', phone: '9000011111' });
    const dup = await seed({ first_name: 'Kavyaa', last_name: 'Rao', age: 30, gender: 'Female', phone: '9000011111' });
    const page = await open('/patients?search=9000011111', 'All Patients', MOBILE);
    await page.getByRole('button', { name: 'Merge Kavyaa Rao into another record' }).click();
    const dialog = page.getByRole('dialog', { name: 'Merge Patient' });
    await dialog.getByRole('button', { name: 'Merge Patients' }).click();
    await dialog.getByText('Search for the patient to keep, then pick them').waitFor();
    await dialog.getByPlaceholder(/Search by name/).fill(kept.patient_id);
    await dialog.getByRole('option').first().click();
    await dialog.getByLabel('Merge summary').getByText(kept.patient_id).waitFor();
    await screenshot(page, 'patients-merge-dialog');
    await dialog.getByRole('button', { name: 'Merge Patients' }).click();
    await page.getByText('Patients merged').first().waitFor();
    await dialog.waitFor({ state: 'hidden' });
    // The merged code now finds the kept patient, and only them.
    await page.goto(`${app.url}/patients?search=${dup.patient_id}`);
    await page.getByText('Kavya Rao').first().waitFor();
    await expect(page.getByText('Kavyaa Rao').count()).resolves.toBe(0);
  });
});
