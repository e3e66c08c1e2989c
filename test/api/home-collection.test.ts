import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import {
  auditRowsFor,
  badFields,
  createPatient,
  errorBody,
  localDate,
  patientBody,
  uniquePhone,
  uniqueWord,
} from './support.js';
import type { Booking, Slot } from '../../src/shared/schemas/home-collection.js';

/**
 * Home collection at the desk: the lab's slot calendar and areas by pin code; a visit booked for a
 * new or registered patient, priced as OP Bill prices it (a payer's prices with a payer), with the
 * fasting its tests need; the patient told by SMS; a slot never overbooked by bookings made at the
 * same moment; reschedule, cancel and no-show with their reasons, each freeing the place it held.
 */
let lab: TestLab;
let desk: Client;
let glucoseId: number;
let cbcId: number;
const TOMORROW = localDate(0, 1);
const DAY_AFTER = localDate(0, 2);
const PIN = '560034';

beforeAll(async () => {
  lab = await makeLab();
  desk = await lab.as('receptionist');
  const code = uniqueWord('GLU').toUpperCase();
  glucoseId = (await lab.admin.post('/api/tests', { name: `Glucose fasting ${code}`, code, price: 150 })).json().test
    .id;
  const cbc = uniqueWord('CBC').toUpperCase();
  cbcId = (await lab.admin.post('/api/tests', { name: `CBC ${cbc}`, code: cbc, price: 350 })).json().test.id;
  // A gateway saved: the patient's messages are queued in the outbox (nothing is sent by the tests).
  const sms = await lab.admin.put('/api/settings/sms', {
    method: 'GET',
    urlTemplate: 'https://sms.example/send?to={to}&text={message}&key={key}',
    apiKey: 'key-1',
  });
  expect(sms.statusCode, sms.body).toBe(200);
  const cal = await desk.put('/api/home-collection/calendar', {
    slot_minutes: 60,
    first_slot: '07:00',
    last_slot: '11:00',
    slot_capacity: 3,
    per_phlebotomist: 1,
    fasting: [{ test_id: glucoseId, hours: 10 }],
  });
  expect(cal.statusCode, cal.body).toBe(200);
  const area = await desk.post('/api/home-collection/areas', { name: 'Koramangala', pin_codes: [PIN, '560095'] });
  expect(area.statusCode, area.body).toBe(201);
});
afterAll(() => lab.close());

const visit = (over: Record<string, unknown> = {}) => ({
  address: '14, 3rd Cross, 5th Block',
  pin_code: PIN,
  map_link: 'https://maps.example/?q=12.93,77.62',
  slot_date: TOMORROW,
  slot_time: '08:00',
  items: [{ item_type: 'test', item_id: cbcId }],
  ...over,
});

async function book(over: Record<string, unknown> = {}, as: Client = desk): Promise<Booking> {
  const res = await as.post('/api/home-collection/bookings', visit(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ booking: Booking }>().booking;
}

async function slot(date: string, time: string): Promise<Slot> {
  const res = await desk.get(`/api/home-collection/slots?date=${date}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ slots: Slot[] }>().slots.find((s) => s.time === time)!;
}

function outbox(kind: string) {
  return lab.database.db
    .selectFrom('outbox')
    .selectAll()
    .where('organization_id', '=', lab.organizationId)
    .where('kind', '=', kind)
    .orderBy('id')
    .execute();
}

describe('home collection bookings', () => {
  it('books a new patient with a fasting test; the patient is texted the slot, the fasting and a visit code', async () => {
    const phone = uniquePhone();
    const b = await book({
      patient: patientBody({ phone }),
      slot_time: '07:00',
      items: [
        { item_type: 'test', item_id: glucoseId },
        { item_type: 'test', item_id: cbcId },
      ],
    });
    expect(b).toMatchObject({
      status: 'booked',
      area_name: 'Koramangala',
      slot_date: TOMORROW,
      slot_time: '07:00',
      quoted_amount: 500,
      fasting_hours: 10,
      source: 'desk',
      phlebotomist_id: null,
    });
    expect(b.booking_number).toMatch(/^HC\d{8}-\d+$/);
    expect(b.items.map((i) => i.item_id)).toEqual([glucoseId, cbcId]);
    const sms = (await outbox('home_booked')).filter((r) => r.recipient.endsWith(phone));
    expect(sms).toHaveLength(1);
    expect(sms[0]!.body).toContain(b.booking_number);
    expect(sms[0]!.body).toContain('07:00');
    expect(sms[0]!.body).toContain('10 hours');
    expect(sms[0]!.body).toMatch(/Visit code \d{6}/);
    // The code is the patient's to give at the door: not in the audit trail.
    const code = /Visit code (\d{6})/.exec(sms[0]!.body)![1]!;
    expect(JSON.stringify(await auditRowsFor(lab, 'home_booking', b.id))).not.toContain(code);
  });

  it('prices a booking charged to a payer at the payer’s prices, as OP Bill would', async () => {
    const payer = await lab.admin.post('/api/payers', {
      name: uniqueWord('Acme '),
      type: 'corporate',
      discount_percent: 20,
    });
    expect(payer.statusCode, payer.body).toBe(201);
    const patient = await createPatient(desk);
    const b = await book({ patient_id: patient.id, payer_id: payer.json().payer.id, slot_time: '09:00' });
    expect(b.quoted_amount).toBe(280);
    expect(b.fasting_hours).toBeNull();
  });

  it('refuses what cannot be booked, naming the field', async () => {
    const patient = await createPatient(desk);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ patient_id: patient.id, pin_code: '110001' }, ['pin_code']],
      [{ patient_id: patient.id, pin_code: '0123' }, ['pin_code']],
      [{ patient_id: patient.id, slot_time: '08:30' }, ['slot_time']],
      [{ patient_id: patient.id, slot_time: '12:00' }, ['slot_time']],
      [{ patient_id: patient.id, slot_date: localDate(0, -1) }, ['slot_date']],
      [{ patient_id: patient.id, map_link: 'javascript:alert(1)' }, ['map_link']],
      [{ patient_id: patient.id, items: [] }, ['items']],
      [{}, ['patient']],
      [{ patient_id: 999999 }, ['patient_id']],
    ];
    for (const [over, fields] of cases)
      expect(badFields(await desk.post('/api/home-collection/bookings', visit(over))), JSON.stringify(over)).toEqual(
        fields,
      );
  });

  it('never overbooks a slot when the desks book its last places at the same moment', async () => {
    const patients = await Promise.all(Array.from({ length: 8 }, () => createPatient(desk)));
    const results = await Promise.all(
      patients.map((p) =>
        desk.post(
          '/api/home-collection/bookings',
          visit({ patient_id: p.id, slot_date: DAY_AFTER, slot_time: '10:00' }),
        ),
      ),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(errorBody(r).code).toBe('SLOT_FULL');
    expect(await slot(DAY_AFTER, '10:00')).toEqual({ time: '10:00', capacity: 3, booked: 3, available: 0 });
    const listed = await desk.get(`/api/home-collection/bookings?date=${DAY_AFTER}&limit=50`);
    expect(listed.json<{ bookings: Booking[] }>().bookings.filter((b) => b.slot_time === '10:00')).toHaveLength(3);
  });

  it('reschedules with a reason into a free slot, frees the old place, and tells the patient', async () => {
    const phone = uniquePhone();
    const patient = await createPatient(desk, { phone });
    const b = await book({ patient_id: patient.id, slot_time: '11:00' });
    const before = await slot(TOMORROW, '11:00');
    expect(
      badFields(
        await desk.post(`/api/home-collection/bookings/${b.id}/reschedule`, {
          slot_date: DAY_AFTER,
          slot_time: '07:00',
        }),
      ),
    ).toEqual(['reason']);
    // Into a full slot: refused, the booking as it was.
    const full = await desk.post(`/api/home-collection/bookings/${b.id}/reschedule`, {
      slot_date: DAY_AFTER,
      slot_time: '10:00',
      reason: 'Patient asked',
    });
    expect(full.statusCode, full.body).toBe(409);
    expect((await slot(TOMORROW, '11:00')).booked).toBe(before.booked);
    const moved = await desk.post(`/api/home-collection/bookings/${b.id}/reschedule`, {
      slot_date: DAY_AFTER,
      slot_time: '07:00',
      reason: 'Patient travelling',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<{ booking: Booking }>().booking).toMatchObject({
      slot_date: DAY_AFTER,
      slot_time: '07:00',
      reason: 'Patient travelling',
      status: 'booked',
    });
    expect((await slot(TOMORROW, '11:00')).booked).toBe(before.booked - 1);
    expect((await slot(DAY_AFTER, '07:00')).booked).toBe(1);
    const sms = (await outbox('home_rescheduled')).filter((r) => r.recipient.endsWith(phone));
    expect(sms).toHaveLength(1);
    expect(sms[0]!.body).toContain('07:00');
  });

  it('cancels with a reason and frees the place; a closed booking cannot be cancelled again or moved', async () => {
    const phone = uniquePhone();
    const patient = await createPatient(desk, { phone });
    const b = await book({ patient_id: patient.id, slot_time: '11:00' });
    const held = (await slot(TOMORROW, '11:00')).booked;
    expect(badFields(await desk.post(`/api/home-collection/bookings/${b.id}/cancel`, { reason: ' ' }))).toEqual([
      'reason',
    ]);
    const res = await desk.post(`/api/home-collection/bookings/${b.id}/cancel`, { reason: 'Patient unwell' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ booking: Booking }>().booking).toMatchObject({ status: 'cancelled', reason: 'Patient unwell' });
    expect((await slot(TOMORROW, '11:00')).booked).toBe(held - 1);
    expect((await outbox('home_cancelled')).filter((r) => r.recipient.endsWith(phone))).toHaveLength(1);
    const again = await desk.post(`/api/home-collection/bookings/${b.id}/cancel`, { reason: 'Twice' });
    expect(again.statusCode).toBe(409);
    expect(errorBody(again).code).toBe('NOT_OPEN');
    const move = await desk.post(`/api/home-collection/bookings/${b.id}/reschedule`, {
      slot_date: DAY_AFTER,
      slot_time: '08:00',
      reason: 'x',
    });
    expect(move.statusCode).toBe(409);
    expect((await slot(DAY_AFTER, '08:00')).booked).toBe(0);
  });

  it('records a no-show, audited, and frees the place', async () => {
    const patient = await createPatient(desk);
    const b = await book({ patient_id: patient.id, slot_date: DAY_AFTER, slot_time: '09:00' });
    const res = await desk.post(`/api/home-collection/bookings/${b.id}/no-show`, { reason: 'Door locked, phone off' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ booking: Booking }>().booking).toMatchObject({
      status: 'no_show',
      reason: 'Door locked, phone off',
    });
    expect((await slot(DAY_AFTER, '09:00')).booked).toBe(0);
    const audit = await auditRowsFor(lab, 'home_booking', b.id);
    expect(audit.map((a) => a.action)).toEqual(['create', 'update']);
  });

  it('keeps a pin code in one area and refuses a bad calendar by field', async () => {
    const dup = await desk.post('/api/home-collection/areas', { name: 'HSR Layout', pin_codes: ['560102', PIN] });
    expect(badFields(dup)).toEqual(['pin_codes']);
    const bad = await desk.put('/api/home-collection/calendar', {
      slot_minutes: 60,
      first_slot: '11:00',
      last_slot: '07:00',
      slot_capacity: 0,
      per_phlebotomist: 1,
      fasting: [{ test_id: 999999, hours: 8 }],
    });
    expect(badFields(bad).sort()).toEqual(['last_slot', 'slot_capacity']);
    const unknownTest = await desk.put('/api/home-collection/calendar', {
      slot_minutes: 60,
      first_slot: '07:00',
      last_slot: '11:00',
      slot_capacity: 3,
      per_phlebotomist: 1,
      fasting: [{ test_id: 999999, hours: 8 }],
    });
    expect(badFields(unknownTest)).toEqual(['fasting.0.test_id']);
  });

  it('is the desk’s: billing staff and collectors may not book', async () => {
    for (const role of ['billing_staff', 'collector'] as const) {
      const c = await lab.as(role);
      expect((await c.get('/api/home-collection/bookings')).statusCode).toBe(403);
      expect((await c.post('/api/home-collection/bookings', visit())).statusCode).toBe(403);
    }
  });
});
