import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { makeLab, type TestLab } from '../helpers.js';
import { badFields, createPatient, errorBody, localDate, uniquePhone, uniqueWord } from './support.js';
import type { Booking, Slot } from '../../src/shared/schemas/home-collection.js';
import type { PortalPinIssued } from '../../src/shared/schemas/portal.js';

/**
 * A patient books their own home visit from the portal, only when the lab allows it (the calendar's
 * portal_booking): refused while it is off, booked for the signed-in patient (self-paid, source
 * "portal") once it is on, listed on the portal and at the desk.
 */
let lab: TestLab;
let cookie: string;
let testId: number;
const DAY = localDate(0, 1);

const calendar = (portal_booking: boolean) =>
  lab.admin.put('/api/home-collection/calendar', {
    slot_minutes: 60,
    first_slot: '07:00',
    last_slot: '10:00',
    slot_capacity: 2,
    per_phlebotomist: 1,
    portal_booking,
  });

beforeAll(async () => {
  lab = await makeLab();
  const code = uniqueWord('HB').toUpperCase();
  testId = (await lab.admin.post('/api/tests', { name: `HbA1c ${code}`, code, price: 450 })).json().test.id;
  expect((await calendar(false)).statusCode).toBe(200);
  expect(
    (await lab.admin.post('/api/home-collection/areas', { name: 'Malleshwaram', pin_codes: ['560003'] })).statusCode,
  ).toBe(201);
  const phone = uniquePhone();
  const patient = await createPatient(lab.admin, { phone });
  const pin = (await lab.admin.post(`/api/patients/${patient.id}/portal-pin`)).json<PortalPinIssued>().pin;
  const login = await lab.app.inject({
    method: 'POST',
    url: '/api/portal/login',
    payload: { patient_id: patient.patient_id, mobile: phone, pin },
    remoteAddress: '10.77.0.1',
  });
  expect(login.statusCode, login.body).toBe(200);
  cookie = `lims_portal=${login.cookies.find((c) => c.name === 'lims_portal')!.value}`;
});
afterAll(() => lab.close());

const asPatient = (method: 'GET' | 'POST', url: string, payload?: object): Promise<LightMyRequestResponse> =>
  lab.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

const visit = (over: Record<string, unknown> = {}) => ({
  address: '22, Sampige Road',
  pin_code: '560003',
  slot_date: DAY,
  slot_time: '08:00',
  items: [{ item_type: 'test', item_id: testId }],
  ...over,
});

describe('home collection from the portal', () => {
  it('is refused while the lab takes bookings at the desk only', async () => {
    const res = await asPatient('POST', '/api/portal/home-collection/bookings', visit());
    expect(res.statusCode, res.body).toBe(409);
    expect(errorBody(res).code).toBe('PORTAL_BOOKING_OFF');
    expect((await asPatient('GET', `/api/portal/home-collection/slots?date=${DAY}`)).statusCode).toBe(409);
  });

  it('books the signed-in patient’s own visit once the lab allows it; the desk sees it from the portal', async () => {
    expect((await calendar(true)).statusCode).toBe(200);
    const slots = (await asPatient('GET', `/api/portal/home-collection/slots?date=${DAY}`)).json<{ slots: Slot[] }>();
    expect(slots.slots.find((s) => s.time === '08:00')).toMatchObject({ available: 2 });
    expect(
      badFields(await asPatient('POST', '/api/portal/home-collection/bookings', visit({ pin_code: '110001' }))),
    ).toEqual(['pin_code']);
    const res = await asPatient('POST', '/api/portal/home-collection/bookings', visit({ payer_id: 5, patient_id: 1 }));
    expect(res.statusCode, res.body).toBe(201);
    const b = res.json<{ booking: Booking }>().booking;
    expect(b).toMatchObject({ source: 'portal', status: 'booked', payer_id: null, quoted_amount: 450 });
    const mine = (await asPatient('GET', '/api/portal/home-collection/bookings')).json<{ bookings: Booking[] }>();
    expect(mine.bookings.map((x) => x.id)).toEqual([b.id]);
    const desk = (await lab.admin.get(`/api/home-collection/bookings/${b.id}`)).json<{ booking: Booking }>().booking;
    expect(desk.source).toBe('portal');
    expect(desk.patient_id).toBe(mine.bookings[0]!.patient_id);
  });

  it('answers 401 without a portal session', async () => {
    const res = await lab.app.inject({ method: 'POST', url: '/api/portal/home-collection/bookings', payload: visit() });
    expect(res.statusCode).toBe(401);
  });
});
