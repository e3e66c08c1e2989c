import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MOBILE, screenshot, screenshotFailures, startApp, type E2eApp } from './harness.js';
import { systemActor } from '../../src/core/context.js';
import { homeSmsGateway } from './home-support.js';
import { createArea, updateCalendar } from '../../src/core/home-collection/calendar.js';
import { cancelBooking, createBooking } from '../../src/core/home-collection/service.js';
import { assignBooking } from '../../src/core/home-collection/dispatch.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createTest } from '../../src/core/catalogue/tests.js';
import { findUserByEmail } from '../../src/core/users/repository.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { bookingCreateSchema } from '../../src/shared/schemas/home-collection.js';
import { addDays, localDate } from '../../src/shared/time.js';

/**
 * The phlebotomist's phone app at 390 px: it installs (manifest, service worker), loads the day,
 * goes offline (reloading offline too), records three visits with the visit code, tubes and a UPI
 * payment while the desk cancels a fourth, comes back online and syncs. In the lab: each visit's
 * bill, samples and payment exactly once; the cancelled visit a conflict on the phone and the desk.
 */
let app: E2eApp;
const shot = screenshotFailures();
const TODAY = localDate('Asia/Kolkata');
const names = ['Anita', 'Bhavna', 'Chitra', 'Divya'];
type Visit = { id: number; number: string; otp: string; name: string };
let cbcId = 0;
let attempt = 0;

beforeAll(async () => {
  app = await startApp({ roles: ['collector'] });
  const db = app.database.db;
  const actor = systemActor(app.organizationId!);
  await homeSmsGateway(db, actor);
  const { id } = await createTest(
    db,
    actor,
    testCreateSchema.parse({ name: 'CBC Home', code: 'CBCHOME', price: 350, container: 'edta' }),
  );
  cbcId = id;
  await updateCalendar(db, actor, {
    slot_minutes: 60,
    first_slot: '06:00',
    last_slot: '12:00',
    slot_capacity: 5,
    per_phlebotomist: 2,
    portal_booking: false,
    record_temperature: false,
    fasting: [],
  });
  await createArea(db, actor, { name: 'Basavanagudi', pin_codes: ['560004'], is_active: true });
});

/**
 * Four visits of the day assigned to the collector, booked afresh for each attempt: a retried
 * walk-through starts from open visits, not from the ones the first attempt synced or cancelled.
 */
async function bookVisits(): Promise<Visit[]> {
  attempt += 1;
  const db = app.database.db;
  const actor = systemActor(app.organizationId!);
  const collector = await findUserByEmail(db, app.organizationId!, app.users.collector!.email);
  const visits: Visit[] = [];
  for (const [i, first] of names.entries()) {
    const phone = `9845${attempt}000${10 + i}`;
    const p = await createPatient(
      db,
      actor,
      patientCreateSchema.parse({
        first_name: first,
        last_name: 'Rao',
        gender: 'Female',
        date_of_birth: '1975-01-01',
        phone,
        confirm_new: true,
      }),
    );
    const b = await createBooking(
      db,
      actor,
      bookingCreateSchema.parse({
        patient_id: p.id,
        address: `${i + 1}, Bull Temple Road`,
        pin_code: '560004',
        slot_date: addDays(TODAY, 1),
        slot_time: `0${7 + i}:00`.slice(-5),
        items: [{ item_type: 'test', item_id: cbcId }],
      }),
    );
    await assignBooking(db, actor, b.id, collector!.id);
    const sms = await db
      .selectFrom('outbox')
      .select('body')
      .where('kind', '=', 'home_booked')
      .where('recipient', '=', phone)
      .executeTakeFirstOrThrow();
    visits.push({
      id: b.id,
      number: b.booking_number,
      otp: /Visit code (\d{6})/.exec(sms.body)![1]!,
      name: `${first} Rao`,
    });
  }
  // The visits are today's (booked yesterday, as it were): the phone loads the lab's today.
  await db
    .updateTable('home_bookings')
    .set({ slot_date: TODAY })
    .where(
      'id',
      'in',
      visits.map((v) => v.id),
    )
    .execute();
  return visits;
}

afterAll(async () => {
  await app?.close();
});

const card = (page: Page, number: string) => page.getByRole('article', { name: `Visit ${number}` });

describe('the phone app', () => {
  it('records three visits offline, syncs them exactly once, and shows the desk’s cancellation as a conflict', async () => {
    const visits = await bookVisits();
    // The clock: an hour offline passes in a moment (below).
    const page = shot(await app.signedInPage('/phone/index.html', app.users.collector!, MOBILE, { clock: true }));
    const manifest = await page.request.get('/phone/manifest.webmanifest');
    expect((await manifest.json()) as { scope: string }).toMatchObject({ scope: '/phone/', display: 'standalone' });
    for (const v of visits) await card(page, v.number).waitFor();
    expect(await page.evaluate(async () => Boolean(await navigator.serviceWorker.ready))).toBe(true);
    await screenshot(page, 'home-phone-day-390', { always: true, fullPage: true });

    await page.context().setOffline(true);
    await page.reload();
    await page.getByRole('status').getByText('Offline').waitFor();
    for (const v of visits) await card(page, v.number).waitFor();
    // Meanwhile the desk cancels the fourth visit.
    await cancelBooking(app.database.db, systemActor(app.organizationId!), visits[3]!.id, 'Patient travelling');

    for (const v of visits.slice(0, 3)) {
      const c = card(page, v.number);
      await c.getByRole('button', { name: 'I have arrived' }).click();
      await c.getByLabel('Visit code').fill(v.otp);
      await c.getByRole('button', { name: 'Start visit' }).click();
      if (v === visits[0]) {
        // Offline, the tube's label prints from the day the phone keeps: its barcode as lims draws it.
        await c
          .getByRole('img', { name: /^Barcode BC/ })
          .first()
          .waitFor();
        // The tube by its name, as the phlebotomist knows it, not lims' id for it.
        expect(await c.locator('.tube').first().innerText()).toContain('EDTA (lavender top)');
        const [labels] = await Promise.all([
          page.waitForEvent('popup'),
          c.getByRole('button', { name: 'Print labels' }).click(),
        ]);
        await labels.locator('.label').first().waitFor();
        const printed = await labels.locator('.label').evaluateAll((ls) =>
          ls.map((l) => ({
            text: l.textContent ?? '',
            drawn: (l.querySelector('img') as HTMLImageElement | null)?.naturalWidth ?? 0,
          })),
        );
        expect(printed.length).toBeGreaterThan(0);
        for (const l of printed) {
          expect(l.text).toContain(v.name);
          expect(l.text).toContain(v.number);
          expect(l.drawn).toBeGreaterThan(0);
          expect(l.text).toContain('EDTA (lavender top)');
        }
        await screenshot(labels, 'home-phone-labels', { always: true });
        await labels.close();
      }
      await c.getByRole('button', { name: 'Tubes collected' }).click();
      await c.getByLabel('Method').selectOption('upi');
      await c.getByLabel('UPI reference').fill(`UPI${v.id}77`);
      await c.getByRole('button', { name: 'Take payment' }).click();
      await c.getByText('Paid in full.').waitFor();
    }
    const d = card(page, visits[3]!.number);
    await d.getByLabel('Visit code').fill(visits[3]!.otp);
    await d.getByRole('button', { name: 'Start visit' }).click();
    await page.getByText('13 waiting').waitFor();
    await screenshot(page, 'home-phone-offline-390', { always: true, fullPage: true });

    // The phone is closed and opened again in the basement, and an hour goes by: the queue is kept,
    // and nothing is tried while the phone knows it has no network.
    await page.reload();
    await page.getByText('13 waiting').waitFor();
    await page.getByText('Sent when the network returns.').waitFor();
    for (let i = 0; i < 6; i++) {
      await page.clock.fastForward('10:00');
      // Whatever the hour's timers start in the page (IndexedDB, a render) runs between the jumps.
      await page.waitForTimeout(200);
    }
    // The 'online' event comes before requests get through (a weak signal, or the browser's network
    // not yet told): the first sync fails, and the phone tries again within seconds, not after a
    // wait grown during the hour without network.
    let refused = 0;
    await page.route('**/api/home-visits/sync', (route) =>
      refused++ ? route.fallback() : route.abort('internetdisconnected'),
    );
    await page.context().setOffline(false);
    await page.getByText('The lab could not be reached; trying again at').waitFor();
    await page.getByText('0 waiting').waitFor({ timeout: 20_000 });
    expect(refused).toBe(2);
    await d.getByRole('alert').getByText('Conflict: The visit was cancelled at the desk').waitFor();
    await screenshot(page, 'home-phone-synced-390', { always: true, fullPage: true });

    const db = app.database.db;
    for (const v of visits.slice(0, 3)) {
      const b = await db.selectFrom('home_bookings').selectAll().where('id', '=', v.id).executeTakeFirstOrThrow();
      expect(b.status).toBe('collected');
      const bills = await db.selectFrom('bills').selectAll().where('id', '=', b.bill_id!).execute();
      expect(bills).toHaveLength(1);
      const payments = await db.selectFrom('payments').selectAll().where('bill_id', '=', b.bill_id!).execute();
      expect(payments.map((p) => [p.method, p.reference])).toEqual([['upi', `UPI${v.id}77`]]);
      const samples = await db.selectFrom('samples').selectAll().where('bill_id', '=', b.bill_id!).execute();
      expect(samples.map((s) => s.status)).toEqual(['collected']);
      const billsOfPatient = await db.selectFrom('bills').select('id').where('patient_id', '=', b.patient_id).execute();
      expect(billsOfPatient).toHaveLength(1);
    }
    const cancelled = await db
      .selectFrom('home_bookings')
      .selectAll()
      .where('id', '=', visits[3]!.id)
      .executeTakeFirstOrThrow();
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.sync_conflict).toContain('cancelled at the desk');
  });

  it('keeps a code being typed through a redraw, refuses a short code on the phone, and lets go of an operation the lab refuses', async () => {
    const visits = await bookVisits();
    const page = shot(await app.signedInPage('/phone/index.html', app.users.collector!, MOBILE));
    const c = card(page, visits[0]!.number);
    await c.waitFor();

    // A redraw (here a sync asked for by hand) while the code is half typed keeps what was typed.
    await c.getByLabel('Visit code').fill('12');
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await page.getByText('0 waiting').waitFor();
    expect(await c.getByLabel('Visit code').inputValue()).toBe('12');
    await c.getByRole('button', { name: 'Start visit' }).click();
    await c.getByRole('alert').getByText('Enter the 6-digit visit code').waitFor();
    await page.getByText('0 waiting').waitFor();

    // The lab refuses the shape of the operation once: it leaves the queue with the lab's reason
    // instead of holding every later operation on the phone.
    let refusals = 0;
    await page.route('**/api/home-visits/sync', (route) =>
      refusals++
        ? route.fallback()
        : route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({
              statusCode: 400,
              code: 'VALIDATION_ERROR',
              message: 'ops.0.otp: The visit code is 6 digits',
              details: [{ path: 'ops.0.otp', message: 'The visit code is 6 digits' }],
            }),
          }),
    );
    await c.getByLabel('Visit code').fill(visits[0]!.otp);
    await c.getByRole('button', { name: 'Start visit' }).click();
    await c.getByRole('alert').getByText('Refused: The visit code is 6 digits').waitFor();
    await page.getByText('0 waiting').waitFor();
    await screenshot(page, 'home-phone-refused-390', { always: true, fullPage: true });
    const refused = await app.database.db
      .selectFrom('home_bookings')
      .select('status')
      .where('id', '=', visits[0]!.id)
      .executeTakeFirstOrThrow();
    expect(refused.status).toBe('booked');

    // The next try goes through.
    await c.getByLabel('Visit code').fill(visits[0]!.otp);
    await c.getByRole('button', { name: 'Start visit' }).click();
    await c.getByRole('button', { name: 'Tubes collected' }).waitFor();
    await page.getByText('0 waiting').waitFor();
    expect(await c.getByRole('alert').count()).toBe(0);
    const started = await app.database.db
      .selectFrom('home_bookings')
      .select('status')
      .where('id', '=', visits[0]!.id)
      .executeTakeFirstOrThrow();
    expect(started.status).toBe('started');
  });
});
