import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MOBILE, screenshot, screenshotFailures, startApp, type E2eApp } from './harness.js';
import { systemActor } from '../../src/core/context.js';
import { homeSmsGateway } from './home-support.js';
import { createArea, updateCalendar } from '../../src/core/home-collection/calendar.js';
import { createBooking } from '../../src/core/home-collection/service.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createTest } from '../../src/core/catalogue/tests.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { bookingCreateSchema } from '../../src/shared/schemas/home-collection.js';
import { addDays, localDate } from '../../src/shared/time.js';

/**
 * The desk's Book Visit for a patient not yet registered (OP Bill's fields in the dialog), and Unlock on a visit five wrong
 * codes locked, with a new code texted to the patient: at 1280 px and on a 390 px phone.
 */
let app: E2eApp;
const shot = screenshotFailures();
const WIDE = { width: 1280, height: 900 };
const stamp = Date.now() % 100000;
/** Names take letters only: the stamp spelt in letters keeps them unique. */
const tag = String(stamp).replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!);
const DAY = addDays(localDate('Asia/Kolkata'), 1);
let testName: string;
let lockedNumber: string;
let lockedId: number;
let lockedPhone: string;

beforeAll(async () => {
  app = await startApp({ roles: ['receptionist'] });
  const db = app.database.db;
  const actor = systemActor(app.organizationId!);
  await homeSmsGateway(db, actor);
  testName = `Thyroid Profile ${stamp}`;
  const test = await createTest(db, actor, testCreateSchema.parse({ name: testName, code: `TP${stamp}`, price: 450 }));
  await updateCalendar(db, actor, {
    slot_minutes: 60,
    first_slot: '07:00',
    last_slot: '11:00',
    slot_capacity: 5,
    per_phlebotomist: 1,
    portal_booking: false,
    record_temperature: false,
    fasting: [],
  });
  await createArea(db, actor, { name: 'Whitefield', pin_codes: ['560066'], is_active: true });
  await createPatient(
    db,
    actor,
    patientCreateSchema.parse({
      first_name: 'Meera',
      last_name: `Pillai${tag}`,
      gender: 'Female',
      date_of_birth: '1962-03-14',
      confirm_new: true,
    }),
  );
  lockedPhone = `98${String(stamp).padStart(8, '0')}`;
  const anand = await createPatient(
    db,
    actor,
    patientCreateSchema.parse({
      first_name: 'Anand',
      last_name: `Rao${tag}`,
      gender: 'Male',
      date_of_birth: '1975-08-20',
      phone: lockedPhone,
      confirm_new: true,
    }),
  );
  const locked = await createBooking(
    db,
    actor,
    bookingCreateSchema.parse({
      patient_id: anand.id,
      address: '3, Palm Meadows',
      pin_code: '560066',
      slot_date: DAY,
      slot_time: '07:00',
      items: [{ item_type: 'test', item_id: test.id }],
    }),
  );
  lockedNumber = locked.booking_number;
  lockedId = locked.id;
  // Five wrong codes at the door, as the phone's sync leaves them.
  await db.updateTable('home_bookings').set({ otp_attempts: 5 }).where('id', '=', locked.id).execute();
});

afterAll(async () => {
  await app?.close();
});

const desk = (path: string, viewport = WIDE): Promise<Page> =>
  app.signedInPage(path, app.users.receptionist!, viewport).then(shot);

async function fillVisit(page: Page, time: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Book Home Visit' });
  await dialog.getByLabel('Address', { exact: true }).last().fill('21, Lake View Road');
  await dialog.getByLabel('Pin Code').fill('560066');
  await dialog.getByLabel('Slot').selectOption(time);
  await dialog.getByRole('combobox', { name: 'Tests, profiles, packages' }).fill('Thyroid');
  await dialog.getByRole('option', { name: new RegExp(testName) }).click();
}

describe('Book Visit with a new patient, and Unlock', () => {
  it('registers a new patient with the booking', async () => {
    const page = await desk(`/home-collection?date=${DAY}`);
    await page.getByRole('heading', { name: 'Home Collection', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Book Visit' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Book Home Visit' });
    await dialog.getByRole('button', { name: 'Add New Patient' }).click();
    const fresh = dialog.getByRole('region', { name: 'New patient' });
    // Nothing typed: the patient's fields and the visit's are named at once.
    await dialog.getByRole('button', { name: 'Book Visit' }).click();
    await fresh.getByText('First name is required').waitFor();
    await dialog.getByText('Address is required').waitFor();
    await fresh.getByLabel('First Name').fill('Sunita');
    await fresh.getByLabel('Last Name').fill(`Desai${tag}`);
    await fresh.getByLabel('Age', { exact: true }).fill('58');
    await fresh.getByLabel('Gender').selectOption('female');
    await fresh.getByLabel('Phone').fill('9876501234');
    await fillVisit(page, '08:00');
    await screenshot(page, 'home-book-new-patient-1280', { fullPage: true });
    await dialog.getByRole('button', { name: 'Book Visit' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page
      .getByRole('row')
      .filter({ hasText: `Sunita Desai${tag}` })
      .waitFor();

    const patients = await app.database.db
      .selectFrom('patients')
      .select(['first_name', 'last_name'])
      .where('last_name', 'in', [`Desai${tag}`, `Pillai${tag}`])
      .execute();
    expect(patients.map((p) => p.first_name).sort()).toEqual(['Meera', 'Sunita']);
    const booked = await app.database.db
      .selectFrom('home_bookings as b')
      .innerJoin('patients as p', 'p.id', 'b.patient_id')
      .select(['p.last_name', 'b.slot_time'])
      .where('b.slot_date', '=', DAY)
      .where('p.last_name', 'in', [`Desai${tag}`, `Pillai${tag}`])
      .execute();
    expect(booked.map((b) => `${b.last_name} ${b.slot_time}`)).toEqual([`Desai${tag} 08:00`]);

    // A "new" patient with a registered one's mobile and age: the desk is asked, books the registered
    // one, and no second patient is made.
    await page.getByRole('button', { name: 'Book Visit' }).first().click();
    await dialog.getByRole('button', { name: 'Add New Patient' }).click();
    await fresh.getByLabel('First Name').fill('Anand');
    await fresh.getByLabel('Last Name').fill(`Rao${tag}`);
    await fresh.getByLabel('Age', { exact: true }).fill('51');
    await fresh.getByLabel('Gender').selectOption('male');
    await fresh.getByLabel('Phone').fill(lockedPhone);
    await fillVisit(page, '09:00');
    await dialog.getByRole('button', { name: 'Book Visit' }).click();
    const prompt = page.getByRole('dialog', { name: 'This patient may already be registered' });
    await prompt.waitFor();
    await screenshot(page, 'home-book-duplicate-1280');
    await prompt.getByRole('button', { name: 'Book for this patient' }).first().click();
    await dialog.waitFor({ state: 'hidden' });
    const raos = await app.database.db
      .selectFrom('patients')
      .select('id')
      .where('last_name', '=', `Rao${tag}`)
      .execute();
    expect(raos).toHaveLength(1);
    const anands = await app.database.db
      .selectFrom('home_bookings')
      .select('slot_time')
      .where('patient_id', '=', raos[0]!.id)
      .orderBy('slot_time')
      .execute();
    expect(anands.map((b) => b.slot_time)).toEqual(['07:00', '09:00']);
  });

  it('shows the new-patient fields on a phone', async () => {
    const page = await desk(`/home-collection?date=${DAY}`, MOBILE);
    await page.getByRole('button', { name: 'Book Visit' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Book Home Visit' });
    await dialog.getByRole('button', { name: 'Add New Patient' }).click();
    await dialog.getByRole('region', { name: 'New patient' }).getByLabel('First Name').waitFor();
    await screenshot(page, 'home-book-new-patient-390');
  });

  it('unlocks a visit locked by wrong codes and texts the patient a new code', async () => {
    const phone = await desk(`/home-collection?date=${DAY}`, MOBILE);
    const phoneRow = phone.getByRole('row').filter({ hasText: lockedNumber });
    await phoneRow.getByText('Locked: 5 wrong visit codes').first().waitFor();
    await screenshot(phone, 'home-locked-390', { fullPage: true });

    const page = await desk(`/home-collection?date=${DAY}`);
    const row = page.getByRole('row').filter({ hasText: lockedNumber });
    await row.getByText('Locked: 5 wrong visit codes').last().waitFor();
    await page.getByRole('button', { name: `Unlock ${lockedNumber}` }).click();
    const dialog = page.getByRole('dialog', { name: `Unlock Visit ${lockedNumber}` });
    await expect(dialog.getByLabel('Send the patient a new visit code').isChecked()).resolves.toBe(true);
    await screenshot(page, 'home-unlock-1280');
    await dialog.getByRole('button', { name: 'Unlock Visit' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Visit unlocked').first().waitFor();
    await row.getByText('Locked: 5 wrong visit codes').waitFor({ state: 'detached' });
    await expect(page.getByRole('button', { name: `Unlock ${lockedNumber}` }).count()).resolves.toBe(0);
    await screenshot(page, 'home-unlocked-1280', { fullPage: true });

    const b = await app.database.db
      .selectFrom('home_bookings')
      .select('otp_attempts')
      .where('id', '=', lockedId)
      .executeTakeFirstOrThrow();
    expect(b.otp_attempts).toBe(0);
    const sms = await app.database.db
      .selectFrom('outbox')
      .select('body')
      .where('kind', '=', 'home_new_code')
      .where('recipient', 'like', `%${lockedPhone}`)
      .execute();
    expect(sms).toHaveLength(1);
    expect(sms[0]!.body).toMatch(/new visit code .* is \d{6}/);
  });
});
