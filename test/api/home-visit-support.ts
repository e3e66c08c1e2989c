import { expect } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import { createPatient, localDate, uniquePhone, uniqueWord } from './support.js';
import type { Booking, OpResult, Visit } from '../../src/shared/schemas/home-collection.js';

/**
 * A lab set up for home visits, for the API tests of the phone and the lab's bench: a calendar, an
 * area (Jayanagar, 560041), two tests in two tubes (CBC in EDTA, FBS in fluoride), an SMS gateway so
 * the patient's visit code can be read from the outbox, and the staff who book, draw and receive.
 */
export interface HomeLab {
  lab: TestLab;
  desk: Client;
  bench: Client;
  collector: () => Promise<Client>;
  /** A visit booked for tomorrow and given to `who`, with the code the patient was texted. */
  visitFor: (who: Client, time?: string) => Promise<{ booking: Booking; otp: string }>;
  day: (who: Client, date?: string) => Promise<Visit[]>;
  sync: (who: Client, ops: Record<string, unknown>[]) => Promise<OpResult[]>;
}

export const DAY = localDate(0, 1);
let seq = 0;
export const opId = (tag: string) => `${tag}-${process.pid}-${++seq}-${Date.now()}`;

export async function homeLab(): Promise<HomeLab> {
  const lab = await makeLab();
  const desk = await lab.as('receptionist');
  const bench = await lab.as('lab_technician');
  const c = uniqueWord('CBC').toUpperCase();
  const cbcId = (
    await lab.admin.post('/api/tests', { name: `CBC ${c}`, code: c, price: 300, container: 'edta' })
  ).json().test.id;
  const g = uniqueWord('FBS').toUpperCase();
  const sugarId = (
    await lab.admin.post('/api/tests', { name: `FBS ${g}`, code: g, price: 100, container: 'fluoride' })
  ).json().test.id;
  const ok = async (res: Promise<{ statusCode: number; body: string }>, status = 200) => {
    const r = await res;
    expect(r.statusCode, r.body).toBe(status);
  };
  await ok(
    lab.admin.put('/api/settings/sms', {
      method: 'GET',
      urlTemplate: 'https://sms.example/send?to={to}&text={message}&key={key}',
      apiKey: 'key-1',
    }),
  );
  await ok(
    desk.put('/api/home-collection/calendar', {
      slot_minutes: 30,
      first_slot: '06:00',
      last_slot: '10:00',
      slot_capacity: 10,
      per_phlebotomist: 3,
    }),
  );
  await ok(desk.post('/api/home-collection/areas', { name: 'Jayanagar', pin_codes: ['560041'] }), 201);

  const visitFor = async (who: Client, time = '07:00') => {
    const phone = uniquePhone();
    const patient = await createPatient(desk, { phone });
    const res = await desk.post('/api/home-collection/bookings', {
      patient_id: patient.id,
      address: '7, 9th Main, 4th Block',
      pin_code: '560041',
      slot_date: DAY,
      slot_time: time,
      items: [
        { item_type: 'test', item_id: cbcId },
        { item_type: 'test', item_id: sugarId },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const booking = res.json<{ booking: Booking }>().booking;
    const sms = await lab.database.db
      .selectFrom('outbox')
      .select('body')
      .where('kind', '=', 'home_booked')
      .where('recipient', 'like', `%${phone}`)
      .executeTakeFirstOrThrow();
    const otp = /Visit code (\d{6})/.exec(sms.body)![1]!;
    await ok(desk.post(`/api/home-collection/bookings/${booking.id}/assign`, { phlebotomist_id: who.userId }));
    return { booking, otp };
  };
  const day = async (who: Client, date = DAY) => {
    const res = await who.get(`/api/home-visits?date=${date}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ visits: Visit[] }>().visits;
  };
  const sync = async (who: Client, ops: Record<string, unknown>[]) => {
    const res = await who.post('/api/home-visits/sync', { ops });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ results: OpResult[] }>().results;
  };
  return { lab, desk, bench, collector: () => lab.as('collector'), visitFor, day, sync };
}

/** The phone's whole visit, as it queues it offline: arrive, start with the code, tubes, UPI payment. */
export function visitOps(v: Visit, otp: string, amount: number) {
  const at = (min: number) => new Date(Date.now() - (60 - min) * 60_000).toISOString();
  return [
    { op_id: opId('arrive'), booking_id: v.id, kind: 'arrive', at: at(0), latitude: 12.925, longitude: 77.593 },
    { op_id: opId('start'), booking_id: v.id, kind: 'start', at: at(1), otp },
    {
      op_id: opId('collect'),
      booking_id: v.id,
      kind: 'collect',
      at: at(6),
      tubes: v.tubes.map((t, i) => ({ barcode: t.barcode, collected_at: at(3 + i) })),
    },
    { op_id: opId('pay'), booking_id: v.id, kind: 'pay', at: at(8), method: 'upi', amount, reference: 'UPI4471120098' },
  ];
}
