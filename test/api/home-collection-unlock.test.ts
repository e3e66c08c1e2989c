import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import { auditRowsFor, badFields, createPatient, errorBody, localDate, uniquePhone, uniqueWord } from './support.js';
import type { Booking, OpResult } from '../../src/shared/schemas/home-collection.js';

/**
 * A visit locked by five wrong visit codes, unlocked at the desk: the tries start again; with a new
 * code (the default) the patient is texted it and the old code is refused; without one the old code
 * works again. Audited without the code; the desk's permission only; never for a visit not locked.
 */
let lab: TestLab;
let desk: Client;
let ravi: Client;
let cbcId: number;
const DAY = localDate(0, 1);
let seq = 0;
const opId = (tag: string) => `${tag}-${process.pid}-${++seq}-${Date.now()}`;

beforeAll(async () => {
  lab = await makeLab();
  desk = await lab.as('receptionist');
  ravi = await lab.as('collector');
  const c = uniqueWord('CBC').toUpperCase();
  cbcId = (await lab.admin.post('/api/tests', { name: `CBC ${c}`, code: c, price: 300 })).json().test.id;
  const sms = await lab.admin.put('/api/settings/sms', {
    method: 'GET',
    urlTemplate: 'https://sms.example/send?to={to}&text={message}&key={key}',
    apiKey: 'key-1',
  });
  expect(sms.statusCode, sms.body).toBe(200);
  const cal = await desk.put('/api/home-collection/calendar', {
    slot_minutes: 30,
    first_slot: '06:00',
    last_slot: '10:00',
    slot_capacity: 10,
    per_phlebotomist: 5,
  });
  expect(cal.statusCode, cal.body).toBe(200);
  const area = await desk.post('/api/home-collection/areas', { name: 'Jayanagar', pin_codes: ['560041'] });
  expect(area.statusCode, area.body).toBe(201);
});
afterAll(() => lab.close());

/** The visit codes texted to the phone, oldest first. */
async function codesSentTo(phone: string): Promise<string[]> {
  const rows = await lab.database.db
    .selectFrom('outbox')
    .select('body')
    .where('organization_id', '=', lab.organizationId)
    .where('recipient', 'like', `%${phone}`)
    .where('kind', 'in', ['home_booked', 'home_new_code'])
    .orderBy('id')
    .execute();
  return rows.map((r) => /code (?:for home collection \S+ on .+ is )?(\d{6})/.exec(r.body)![1]!);
}

/** A visit given to Ravi and locked by five wrong codes; answers it and the patient's phone. */
async function lockedVisit(time: string, phone: string | null = uniquePhone()) {
  const patient = await createPatient(desk, phone ? { phone } : {});
  const res = await desk.post('/api/home-collection/bookings', {
    patient_id: patient.id,
    address: '7, 9th Main, 4th Block',
    pin_code: '560041',
    slot_date: DAY,
    slot_time: time,
    items: [{ item_type: 'test', item_id: cbcId }],
  });
  expect(res.statusCode, res.body).toBe(201);
  const booking = res.json<{ booking: Booking }>().booking;
  expect(booking.otp_locked).toBe(false);
  const a = await desk.post(`/api/home-collection/bookings/${booking.id}/assign`, { phlebotomist_id: ravi.userId });
  expect(a.statusCode, a.body).toBe(200);
  const wrong = phone && (await codesSentTo(phone))[0] === '000000' ? '111111' : '000000';
  for (let i = 0; i < 5; i++) expect((await start(booking.id, wrong)).code).toBe('OTP_WRONG');
  return { booking, phone };
}

async function start(bookingId: number, otp: string): Promise<OpResult> {
  const res = await ravi.post('/api/home-visits/sync', {
    ops: [{ op_id: opId('start'), booking_id: bookingId, kind: 'start', at: new Date().toISOString(), otp }],
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ results: OpResult[] }>().results[0]!;
}

const unlock = (id: number, body: Record<string, unknown> = {}, as: Client = desk) =>
  as.post(`/api/home-collection/bookings/${id}/unlock`, body);

describe('unlocking a visit locked by wrong codes', () => {
  it('sends the patient a new code: the new code starts the visit, the old one is refused', async () => {
    const { booking, phone } = await lockedVisit('07:00');
    const [oldCode] = await codesSentTo(phone!);
    expect((await start(booking.id, oldCode!)).code).toBe('OTP_LOCKED');
    const listed = await desk.get(`/api/home-collection/bookings/${booking.id}`);
    expect(listed.json<{ booking: Booking }>().booking.otp_locked).toBe(true);

    const res = await unlock(booking.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ booking: Booking }>().booking).toMatchObject({ otp_locked: false, status: 'booked' });
    const codes = await codesSentTo(phone!);
    expect(codes).toHaveLength(2);
    const newCode = codes[1]!;
    if (newCode !== oldCode) expect(await start(booking.id, oldCode!)).toMatchObject({ code: 'OTP_WRONG' });
    expect(await start(booking.id, newCode)).toMatchObject({ outcome: 'applied' });

    const audit = await auditRowsFor(lab, 'home_booking', booking.id);
    const unlocked = audit.filter((a) => String(a.new_values).includes('new_code_sent'));
    expect(unlocked).toHaveLength(1);
    expect(unlocked[0]).toMatchObject({ action: 'update' });
    // The code is the patient's to give at the door: in no audit row's values.
    for (const a of audit) expect(`${String(a.old_values)}${String(a.new_values)}`).not.toContain(newCode);
  });

  it('without a new code, the old code works again', async () => {
    const { booking, phone } = await lockedVisit('07:30');
    const res = await unlock(booking.id, { new_code: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(await codesSentTo(phone!)).toHaveLength(1);
    expect(await start(booking.id, (await codesSentTo(phone!))[0]!)).toMatchObject({ outcome: 'applied' });
  });

  it('refuses a new code no message can carry, and a visit that is not locked', async () => {
    const { booking } = await lockedVisit('08:00', null);
    expect(badFields(await unlock(booking.id))).toEqual(['new_code']);
    const still = await desk.get(`/api/home-collection/bookings/${booking.id}`);
    expect(still.json<{ booking: Booking }>().booking.otp_locked).toBe(true);
    expect(badFields(await unlock(booking.id, { new_code: 'yes' }))).toEqual(['new_code']);
    expect((await unlock(booking.id, { new_code: false })).statusCode).toBe(200);
    const again = await unlock(booking.id, { new_code: false });
    expect(again.statusCode).toBe(409);
    expect(errorBody(again).code).toBe('NOT_LOCKED');
  });

  it('is the desk’s: a collector or billing staff may not unlock', async () => {
    const { booking } = await lockedVisit('08:30');
    for (const role of ['collector', 'billing_staff'] as const) {
      const res = await unlock(booking.id, {}, await lab.as(role));
      expect(res.statusCode).toBe(403);
    }
    const still = await desk.get(`/api/home-collection/bookings/${booking.id}`);
    expect(still.json<{ booking: Booking }>().booking.otp_locked).toBe(true);
  });
});
