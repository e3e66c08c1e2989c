import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOBILE, screenshot, screenshotFailures, startApp, type E2eApp } from './harness.js';
import { systemActor } from '../../src/core/context.js';
import { homeSmsGateway } from './home-support.js';
import { createArea, updateCalendar } from '../../src/core/home-collection/calendar.js';
import { createBooking } from '../../src/core/home-collection/service.js';
import { assignBooking } from '../../src/core/home-collection/dispatch.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createTest } from '../../src/core/catalogue/tests.js';
import { findUserByEmail } from '../../src/core/users/repository.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { bookingCreateSchema } from '../../src/shared/schemas/home-collection.js';
import { addDays, localDate } from '../../src/shared/time.js';

/**
 * The lab's receive bench for tubes drawn at home: a collector's visit synced from the phone puts
 * its tubes on the list; a scan takes one in (with the box's temperature when the lab records it),
 * an unknown barcode and a second scan of the same tube are named and change nothing.
 */
let app: E2eApp;
const shot = screenshotFailures();
const WIDE = { width: 1280, height: 900 };
const TODAY = localDate('Asia/Kolkata');
let barcodes: string[] = [];

beforeAll(async () => {
  app = await startApp({ roles: ['collector', 'lab_technician'] });
  const db = app.database.db;
  const actor = systemActor(app.organizationId!);
  await homeSmsGateway(db, actor);
  const lipid = await createTest(
    db,
    actor,
    testCreateSchema.parse({ name: 'Lipid Home', code: 'LIPH', price: 600, container: 'serum' }),
  );
  const cbc = await createTest(
    db,
    actor,
    testCreateSchema.parse({ name: 'CBC Home', code: 'CBCH', price: 350, container: 'edta' }),
  );
  await updateCalendar(db, actor, {
    slot_minutes: 60,
    first_slot: '06:00',
    last_slot: '12:00',
    slot_capacity: 5,
    per_phlebotomist: 3,
    portal_booking: false,
    record_temperature: true,
    fasting: [],
  });
  await createArea(db, actor, { name: 'Jayanagar', pin_codes: ['560041'], is_active: true });
  const patient = await createPatient(
    db,
    actor,
    patientCreateSchema.parse({
      first_name: 'Kavya',
      last_name: 'Hegde',
      gender: 'Female',
      date_of_birth: '1988-02-11',
      phone: '9845077001',
      confirm_new: true,
    }),
  );
  const booking = await createBooking(
    db,
    actor,
    bookingCreateSchema.parse({
      patient_id: patient.id,
      address: '12, 4th Block',
      pin_code: '560041',
      slot_date: addDays(TODAY, 1),
      slot_time: '07:00',
      items: [
        { item_type: 'test', item_id: lipid.id },
        { item_type: 'test', item_id: cbc.id },
      ],
    }),
  );
  // Booked yesterday, as it were: the visit is today's, which the phone loads.
  await db.updateTable('home_bookings').set({ slot_date: TODAY }).where('id', '=', booking.id).execute();
  const collector = await findUserByEmail(db, app.organizationId!, app.users.collector!.email);
  await assignBooking(db, actor, booking.id, collector!.id);
  const sms = await db.selectFrom('outbox').select('body').where('kind', '=', 'home_booked').executeTakeFirstOrThrow();
  const otp = /Visit code (\d{6})/.exec(sms.body)![1]!;

  // The collector's phone syncs the visit: arrived, started with the code, both tubes drawn.
  const phone = await app.signedInPage('/phone/index.html', app.users.collector!, MOBILE);
  const day = (await (await phone.request.get('/api/home-visits')).json()) as {
    visits: { id: number; tubes: { barcode: string }[] }[];
  };
  const visit = day.visits.find((v) => v.id === booking.id)!;
  barcodes = visit.tubes.map((t) => t.barcode);
  expect(barcodes).toHaveLength(2);
  const at = (min: number) => new Date(Date.now() - (60 - min) * 60_000).toISOString();
  const synced = await phone.request.post('/api/home-visits/sync', {
    data: {
      ops: [
        { op_id: 'recv-arrive', booking_id: booking.id, kind: 'arrive', at: at(0) },
        { op_id: 'recv-start', booking_id: booking.id, kind: 'start', at: at(1), otp },
        {
          op_id: 'recv-collect',
          booking_id: booking.id,
          kind: 'collect',
          at: at(6),
          tubes: barcodes.map((barcode, i) => ({ barcode, collected_at: at(3 + i) })),
        },
      ],
    },
  });
  expect(synced.status(), await synced.text()).toBe(200);
  const results = ((await synced.json()) as { results: { outcome: string }[] }).results;
  expect(results.map((r) => r.outcome)).toEqual(['applied', 'applied', 'applied']);
  await phone.context().close();
});

afterAll(async () => {
  await app?.close();
});

describe('Receive Home Tubes', () => {
  it('takes in a scanned tube with the temperature, and names a bad scan without changing anything', async () => {
    const page = shot(await app.signedInPage('/samples/receive-home', app.users.lab_technician!, WIDE));
    await page.getByRole('heading', { name: 'Receive Home Tubes', level: 1 }).waitFor();
    for (const b of barcodes) await page.getByRole('row').filter({ hasText: b }).waitFor();
    await screenshot(page, 'home-receive-1280', { fullPage: true });

    const scan = page.getByLabel('Barcode', { exact: true });
    // The lab records temperatures: a scan without one is refused on its field.
    await scan.fill(barcodes[0]!);
    await scan.press('Enter');
    await page.getByText('Temperature (°C) is required').waitFor();
    await page.getByLabel(/Temperature/).fill('6');
    await scan.fill(barcodes[0]!.toLowerCase());
    await scan.press('Enter');
    await page.getByRole('row').filter({ hasText: barcodes[0]! }).waitFor({ state: 'detached' });
    await page.getByRole('row').filter({ hasText: barcodes[1]! }).waitFor();

    // The same tube again, and a barcode nobody issued: named, nothing changed.
    await scan.fill(barcodes[0]!);
    await scan.press('Enter');
    await page
      .getByText(/already/i)
      .first()
      .waitFor();
    await scan.fill('NOSUCHTUBE1');
    await scan.press('Enter');
    await page
      .getByText(/NOSUCHTUBE1|No tube|not found|unknown/i)
      .first()
      .waitFor();
    await screenshot(page, 'home-receive-refused-1280', { fullPage: true });

    const tubes = await app.database.db
      .selectFrom('home_tubes')
      .select(['barcode', 'received_at', 'received_temperature'])
      .orderBy('barcode')
      .execute();
    const got = Object.fromEntries(tubes.map((t) => [t.barcode, t]));
    expect(got[barcodes[0]!]!.received_at).not.toBeNull();
    expect(Number(got[barcodes[0]!]!.received_temperature)).toBe(6);
    expect(got[barcodes[1]!]!.received_at).toBeNull();
  });

  it('reads on a phone', async () => {
    const page = shot(await app.signedInPage('/samples/receive-home', app.users.lab_technician!, MOBILE));
    await page.getByRole('heading', { name: 'Receive Home Tubes', level: 1 }).waitFor();
    await page.getByText(barcodes[1]!).first().waitFor();
    await screenshot(page, 'home-receive-390', { always: true, fullPage: true });
  });
});
