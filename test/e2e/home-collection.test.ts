import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MOBILE, screenshot, screenshotFailures, startApp, type E2eApp } from './harness.js';
import { systemActor } from '../../src/core/context.js';
import { createArea, updateCalendar } from '../../src/core/home-collection/calendar.js';
import { createBooking } from '../../src/core/home-collection/service.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createTest } from '../../src/core/catalogue/tests.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { bookingCreateSchema } from '../../src/shared/schemas/home-collection.js';
import { findUserByEmail } from '../../src/core/users/repository.js';
import { assignBooking } from '../../src/core/home-collection/dispatch.js';
import { addDays, localDate } from '../../src/shared/time.js';

/**
 * The home-collection desk: a visit booked through the dialog for a registered patient (a bad pin
 * code first), assigned to a phlebotomist, rescheduled, another marked a no-show; the day board by
 * area and by phlebotomist, at 1280 px and on a 390 px phone.
 */
let app: E2eApp;
const shot = screenshotFailures();
const WIDE = { width: 1280, height: 900 };
const stamp = Date.now() % 100000;
/** Names take letters only: the stamp spelt in letters keeps them unique. */
const tag = String(stamp).replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!);
const DAY = addDays(localDate('Asia/Kolkata'), 1);
let testName: string;

beforeAll(async () => {
  app = await startApp({ roles: ['receptionist', 'collector'] });
  const db = app.database.db;
  const actor = systemActor(app.organizationId!);
  testName = `Fasting Glucose ${stamp}`;
  const glucose = await createTest(
    db,
    actor,
    testCreateSchema.parse({ name: testName, code: `FG${stamp}`, price: 150 }),
  );
  const lipid = await createTest(
    db,
    actor,
    testCreateSchema.parse({ name: `Lipid Profile ${stamp}`, code: `LP${stamp}`, price: 600 }),
  );
  await updateCalendar(db, actor, {
    slot_minutes: 60,
    first_slot: '07:00',
    last_slot: '11:00',
    slot_capacity: 3,
    per_phlebotomist: 1,
    portal_booking: false,
    record_temperature: false,
    fasting: [{ test_id: glucose.id, hours: 10 }],
  });
  await createArea(db, actor, { name: 'Koramangala', pin_codes: ['560034', '560095'], is_active: true });
  await createArea(db, actor, { name: 'Indiranagar', pin_codes: ['560038'], is_active: true });
  const collector = await findUserByEmail(db, app.organizationId!, app.users.collector!.email);
  const people = [
    ['Lakshmi', 'Iyer', '560034', '07:00', lipid.id],
    ['Farhan', 'Sheikh', '560038', '08:00', glucose.id],
    ['Deepa', 'Nair', '560095', '09:00', lipid.id],
  ] as const;
  for (const [first, last, pin, time, test] of people) {
    const p = await createPatient(
      db,
      actor,
      patientCreateSchema.parse({
        first_name: first,
        last_name: `${last}${tag}`,
        gender: 'Female',
        date_of_birth: '1970-05-05',
        confirm_new: true,
      }),
    );
    const b = await createBooking(
      db,
      actor,
      bookingCreateSchema.parse({
        patient_id: p.id,
        address: `${first}'s flat, 2nd Main`,
        pin_code: pin,
        map_link: 'https://maps.example/?q=12.9,77.6',
        slot_date: DAY,
        slot_time: time,
        items: [{ item_type: 'test', item_id: test }],
      }),
    );
    if (first === 'Farhan') await assignBooking(db, actor, b.id, collector!.id);
  }
  await createPatient(
    db,
    actor,
    patientCreateSchema.parse({
      first_name: 'Ravi',
      last_name: `Kumar${tag}`,
      gender: 'Male',
      date_of_birth: '1980-01-01',
      confirm_new: true,
    }),
  );
});

afterAll(async () => {
  await app?.close();
});

const desk = (path: string, viewport = WIDE): Promise<Page> =>
  app.signedInPage(path, app.users.receptionist!, viewport).then(shot);

describe('Home Collection at the desk', () => {
  it('books a visit through the dialog after a pin code the lab does not serve, then assigns and reschedules it', async () => {
    const page = await desk(`/home-collection?date=${DAY}`);
    await page.getByRole('heading', { name: 'Home Collection', level: 1 }).waitFor();
    await page.getByText(`Lakshmi Iyer${tag}`).waitFor();
    await screenshot(page, 'home-collection-list-1280', { fullPage: true });

    await page.getByRole('button', { name: 'Book Visit' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Book Home Visit' });
    await dialog.getByRole('combobox', { name: 'Patient' }).fill(`Kumar${tag}`);
    await dialog.getByRole('option', { name: new RegExp(`Ravi Kumar${tag}`) }).click();
    await dialog.getByLabel('Address').fill('12, 4th Cross, 5th Block');
    await dialog.getByLabel('Pin Code').fill('110001');
    await dialog.getByLabel('Slot').selectOption('10:00');
    await dialog.getByRole('combobox', { name: 'Tests, profiles, packages' }).fill('Fasting');
    await dialog.getByRole('option', { name: new RegExp(testName) }).click();
    await screenshot(page, 'home-collection-book-1280');
    await dialog.getByRole('button', { name: 'Book Visit' }).click();
    await dialog.getByText('The lab does not collect at pin code 110001').waitFor();
    await dialog.getByLabel('Pin Code').fill('560038');
    await dialog.getByRole('button', { name: 'Book Visit' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // The newest row of the patient (a retried run books once more).
    const booked = page
      .getByRole('row')
      .filter({ hasText: `Ravi Kumar${tag}` })
      .last();
    await booked.getByText('Fasting 10 h').waitFor();
    const number = (await booked.getByText(/^HC\d{8}-\d+$/).textContent())!;
    const row = page.getByRole('row').filter({ hasText: number });

    await page.getByRole('button', { name: `Assign ${number}` }).click();
    const assign = page.getByRole('dialog', { name: `Assign ${number}` });
    await assign.getByLabel('Phlebotomist').selectOption({ label: 'Test collector' });
    await assign.getByRole('button', { name: 'Assign' }).click();
    await assign.waitFor({ state: 'hidden' });
    await row.getByRole('cell', { name: 'Test collector', exact: true }).waitFor();

    await page.getByRole('button', { name: `Reschedule ${number}` }).click();
    const move = page.getByRole('dialog', { name: `Reschedule ${number}` });
    await move.getByLabel('Slot').selectOption('11:00');
    await move.getByLabel('Reason').fill('Patient asked for later');
    await move.getByRole('button', { name: 'Reschedule' }).click();
    await move.waitFor({ state: 'hidden' });
    await row.getByText('11:00', { exact: true }).waitFor();

    const deepa = page.getByRole('row').filter({ hasText: `Deepa Nair${tag}` });
    const deepaNumber = (await deepa.getByText(/^HC\d{8}-\d+$/).textContent())!;
    await page.getByRole('button', { name: `Record no-show ${deepaNumber}` }).click();
    const noShow = page.getByRole('dialog', { name: `Record No-show ${deepaNumber}` });
    await noShow.getByLabel('Reason').fill('Door locked, phone off');
    await noShow.getByRole('button', { name: 'Record No-show' }).click();
    await noShow.waitFor({ state: 'hidden' });
    // The Status column's badge (phones show another under the slot).
    await deepa.getByText('No-show').last().waitFor();
    await screenshot(page, 'home-collection-after-1280', { fullPage: true });

    const rows = await app.database.db
      .selectFrom('home_bookings')
      .select(['booking_number', 'status', 'slot_time', 'phlebotomist_id', 'reason'])
      .where('slot_date', '=', DAY)
      .execute();
    expect(rows.find((r) => r.booking_number === number)).toMatchObject({ slot_time: '11:00', status: 'booked' });
    expect(rows.find((r) => r.booking_number === deepaNumber)).toMatchObject({ status: 'no_show' });
  });

  it('draws the day board by phlebotomist and by area, on a desk and on a phone', async () => {
    const page = await desk(`/home-collection/board?date=${DAY}`);
    await page.getByRole('heading', { name: 'Home Collection Day Board', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Routes by phlebotomist' }).waitFor();
    await page.getByRole('heading', { name: 'Test collector' }).waitFor();
    await page.getByRole('heading', { name: 'Koramangala' }).waitFor();
    await screenshot(page, 'home-collection-board-1280', { fullPage: true });
    const phone = await desk(`/home-collection/board?date=${DAY}`, MOBILE);
    await phone.getByRole('heading', { name: 'Indiranagar' }).waitFor();
    await screenshot(phone, 'home-collection-board-390', { fullPage: true });
    const list = await desk(`/home-collection?date=${DAY}`, MOBILE);
    await list.getByText(`Lakshmi Iyer${tag}`).waitFor();
    await screenshot(list, 'home-collection-list-390', { fullPage: true });
  });
});
