import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MOBILE, screenshot, screenshotFailures, startApp, type E2eApp } from './harness.js';
import { systemActor } from '../../src/core/context.js';
import { createArea, updateCalendar } from '../../src/core/home-collection/calendar.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createTest } from '../../src/core/catalogue/tests.js';
import { issuePortalPin } from '../../src/core/portal/pin.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import type { Patient } from '../../src/shared/schemas/patients.js';
import { addDays, localDate } from '../../src/shared/time.js';

/**
 * A patient books their own home visit from the portal: on a 390 px phone (a fasting test, a pin
 * code the lab does not serve first, then a slot with its places left), and at 1280 px (a second
 * visit, then cancelled); the desk's day board shows the portal's visit.
 */
let app: E2eApp;
const shot = screenshotFailures();
const WIDE = { width: 1280, height: 900 };
const stamp = Date.now() % 100000;
const DAY = addDays(localDate('Asia/Kolkata'), 1);
let patient: Patient;
let pin: string;
const MOBILE_NUMBER = '9886055555';

beforeAll(async () => {
  app = await startApp({ roles: ['receptionist'] });
  const db = app.database.db;
  const actor = systemActor(app.organizationId!);
  const glucose = await createTest(
    db,
    actor,
    testCreateSchema.parse({ name: `Fasting Glucose ${stamp}`, code: `FG${stamp}`, price: 150 }),
  );
  await createTest(
    db,
    actor,
    testCreateSchema.parse({ name: `Lipid Profile ${stamp}`, code: `LP${stamp}`, price: 600 }),
  );
  await updateCalendar(db, actor, {
    slot_minutes: 60,
    first_slot: '07:00',
    last_slot: '10:00',
    slot_capacity: 3,
    per_phlebotomist: 1,
    portal_booking: true,
    record_temperature: false,
    fasting: [{ test_id: glucose.id, hours: 10 }],
  });
  await createArea(db, actor, { name: 'Koramangala', pin_codes: ['560034'], is_active: true });
  patient = await createPatient(
    db,
    actor,
    patientCreateSchema.parse({
      first_name: 'Meena',
      last_name: 'Raghavan',
      gender: 'Female',
      date_of_birth: '1968-03-14',
      phone: MOBILE_NUMBER,
      confirm_new: true,
    }),
  );
  pin = (await issuePortalPin(db, actor, patient.id)).pin;
});

afterAll(async () => {
  await app?.close();
});

async function signIn(viewport: { width: number; height: number }): Promise<Page> {
  const page = shot(await app.newPage(viewport));
  await page.goto('/patient-portal');
  await page.getByLabel('Patient ID').fill(patient.patient_id);
  await page.getByLabel('Mobile Number').fill(MOBILE_NUMBER);
  await page.getByLabel('PIN', { exact: true }).fill(pin);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('heading', { name: 'Home Collection' }).waitFor();
  return page;
}

describe('Home collection booked from the patient portal', () => {
  it('books a fasting test on a phone after a pin code the lab does not serve; the visit shows as booked', async () => {
    const phone = await signIn(MOBILE);
    await screenshot(phone, 'portal-home-empty-390', { fullPage: true });
    await phone.getByRole('button', { name: 'Book Home Visit' }).click();
    const dialog = phone.getByRole('dialog', { name: 'Book a Home Visit' });
    await dialog.getByRole('button', { name: 'Book Visit' }).click();
    await dialog.getByText('Please add at least one test, profile, or package').waitFor();
    await dialog.getByText('Address is required').waitFor();

    await dialog.getByLabel('Search tests').fill('glucose');
    await dialog.getByLabel(`Fasting Glucose ${stamp}`).check();
    await dialog.getByTestId('fasting-notice').getByText('10 hours').waitFor();
    await dialog.getByLabel('Address').fill('Flat 4B, 3rd Cross, 5th Block');
    await dialog.getByLabel('Pin Code').fill('110001');
    await dialog.getByLabel('Date').fill(DAY);
    await dialog.getByText('3 places left').first().waitFor();
    await dialog.getByText('08:00').click();
    await screenshot(phone, 'portal-home-book-390');
    await dialog.getByRole('button', { name: 'Book Visit' }).click();
    await dialog.getByText('The lab does not collect at pin code 110001').waitFor();
    await screenshot(phone, 'portal-home-bad-pin-390');
    await dialog.getByLabel('Pin Code').fill('560034');
    await dialog.getByRole('button', { name: 'Book Visit' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await phone.getByText('Home Visit Booked').waitFor();

    const visits = phone.getByRole('list', { name: 'My home visits' });
    const visit = visits.getByTestId('home-visit').filter({ hasText: `Fasting Glucose ${stamp}` });
    await visit.getByText('Booked', { exact: true }).waitFor();
    await visit.getByText('08:00').waitFor();
    await visit.getByTestId('fasting-notice').waitFor();
    await screenshot(phone, 'portal-home-booked-390', { fullPage: true });

    const rows = await app.database.db
      .selectFrom('home_bookings')
      .select(['status', 'source', 'slot_time', 'pin_code'])
      .where('patient_id', '=', patient.id)
      .execute();
    expect(rows).toEqual([{ status: 'booked', source: 'portal', slot_time: '08:00', pin_code: '560034' }]);
  });

  it('books and cancels a visit at 1280 px; the slot shows the place taken meanwhile', async () => {
    const page = await signIn(WIDE);
    await page.getByRole('button', { name: 'Book Home Visit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Book a Home Visit' });
    await dialog.getByLabel(`Lipid Profile ${stamp}`).check();
    await dialog.getByLabel('Address').fill('Flat 4B, 3rd Cross, 5th Block');
    await dialog.getByLabel('Pin Code').fill('560034');
    await dialog.getByLabel('Date').fill(DAY);
    // The phone's visit holds one of the 08:00 slot's three places.
    await dialog.getByText('2 places left').waitFor();
    await dialog.getByText('09:00').click();
    await screenshot(page, 'portal-home-book-1280');
    await dialog.getByRole('button', { name: 'Book Visit' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const visit = page.getByTestId('home-visit').filter({ hasText: `Lipid Profile ${stamp}` });
    await visit.getByRole('button', { name: 'Cancel Visit' }).click();
    const cancel = page.getByRole('dialog', { name: 'Cancel Home Visit' });
    await cancel.getByRole('button', { name: 'Cancel Visit' }).click();
    await cancel.getByText('Reason is required').waitFor();
    await cancel.getByLabel('Reason').fill('Travelling that day');
    await screenshot(page, 'portal-home-cancel-1280');
    await cancel.getByRole('button', { name: 'Cancel Visit' }).click();
    await cancel.waitFor({ state: 'hidden' });
    await visit.getByText('Cancelled', { exact: true }).waitFor();
    await visit.getByText('Reason: Travelling that day').waitFor();
    expect(await visit.getByText('To pay at the visit').count()).toBe(0);
    await screenshot(page, 'portal-home-visits-1280', { fullPage: true });
  });

  it('shows the portal’s visit on the desk’s day board', async () => {
    const desk = shot(await app.signedInPage(`/home-collection/board?date=${DAY}`, app.users.receptionist!, WIDE));
    await desk.getByRole('heading', { name: 'Home Collection Day Board', level: 1 }).waitFor();
    const stop = desk.getByRole('listitem').filter({ hasText: 'Meena Raghavan' }).first();
    await stop.getByText('Booked online').waitFor();
    await screenshot(desk, 'portal-home-desk-board-1280', { fullPage: true });
  });
});
