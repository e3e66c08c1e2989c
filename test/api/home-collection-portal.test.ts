import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { makeLab, type TestLab } from '../helpers.js';
import { badFields, createPatient, errorBody, localDate, uniquePhone, uniqueWord } from './support.js';
import type { Booking, PortalHomeOffer, Slot } from '../../src/shared/schemas/home-collection.js';
import type { PortalPinIssued } from '../../src/shared/schemas/portal.js';

/**
 * A patient books their own home visit from the portal, only when the lab allows it (the calendar's
 * portal_booking): refused while it is off, booked for the signed-in patient (self-paid, source
 * "portal") once it is on, listed on the portal and at the desk.
 */
let lab: TestLab;
let cookie: string;
let otherCookie: string;
let testId: number;
const DAY = localDate(0, 1);

const calendar = (portal_booking: boolean, fasting: { test_id: number; hours: number }[] = []) =>
  lab.admin.put('/api/home-collection/calendar', {
    slot_minutes: 60,
    first_slot: '07:00',
    last_slot: '10:00',
    slot_capacity: 2,
    per_phlebotomist: 1,
    portal_booking,
    fasting,
  });

beforeAll(async () => {
  lab = await makeLab();
  const code = uniqueWord('HB').toUpperCase();
  testId = (await lab.admin.post('/api/tests', { name: `HbA1c ${code}`, code, price: 450 })).json().test.id;
  expect((await calendar(false)).statusCode).toBe(200);
  expect(
    (await lab.admin.post('/api/home-collection/areas', { name: 'Malleshwaram', pin_codes: ['560003'] })).statusCode,
  ).toBe(201);
  cookie = await signIn('10.77.0.1');
  otherCookie = await signIn('10.77.0.2');
});

/** A new patient with a portal PIN, signed in: their portal cookie. */
async function signIn(remoteAddress: string): Promise<string> {
  const phone = uniquePhone();
  const patient = await createPatient(lab.admin, { phone });
  const pin = (await lab.admin.post(`/api/patients/${patient.id}/portal-pin`)).json<PortalPinIssued>().pin;
  const login = await lab.app.inject({
    method: 'POST',
    url: '/api/portal/login',
    payload: { patient_id: patient.patient_id, mobile: phone, pin },
    remoteAddress,
  });
  expect(login.statusCode, login.body).toBe(200);
  return `lims_portal=${login.cookies.find((c) => c.name === 'lims_portal')!.value}`;
}
afterAll(() => lab.close());

const asPatient = (
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
  as: string = cookie,
): Promise<LightMyRequestResponse> =>
  lab.app.inject({ method, url, headers: { cookie: as }, ...(payload ? { payload } : {}) });

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
    const offer = await asPatient('GET', '/api/portal/home-collection');
    expect(offer.statusCode, offer.body).toBe(200);
    expect(offer.json<PortalHomeOffer>()).toEqual({ portal_booking: false, items: [] });
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

describe('what the portal offers for home collection', () => {
  it('lists the lab’s active tests, profiles and packages at its price, with the fasting their tests need', async () => {
    const code = uniqueWord('FP').toUpperCase();
    const fastId = (await lab.admin.post('/api/tests', { name: `Glucose F ${code}`, code, price: 120 })).json().test.id;
    const profile = await lab.admin.post('/api/test-profiles', {
      name: `Diabetes panel ${code}`,
      code: `${code}P`,
      price: 900,
      test_ids: [testId, fastId],
    });
    expect(profile.statusCode, profile.body).toBe(201);
    const off = await lab.admin.post('/api/tests', {
      name: `Retired ${code}`,
      code: `${code}R`,
      price: 50,
      status: 'inactive',
    });
    expect(off.statusCode, off.body).toBe(201);
    expect((await calendar(true, [{ test_id: fastId, hours: 10 }])).statusCode).toBe(200);

    const offer = (await asPatient('GET', '/api/portal/home-collection')).json<PortalHomeOffer>();
    expect(offer.portal_booking).toBe(true);
    const byName = new Map(offer.items.map((i) => [i.name, i]));
    expect(byName.get(`Glucose F ${code}`)).toMatchObject({ item_type: 'test', price: 120, fasting_hours: 10 });
    expect(offer.items.find((i) => i.item_type === 'test' && i.item_id === testId)).toMatchObject({
      price: 450,
      fasting_hours: null,
    });
    expect(byName.get(`Diabetes panel ${code}`)).toMatchObject({
      item_type: 'profile',
      item_id: profile.json().profile.id,
      price: 900,
      fasting_hours: 10,
    });
    expect(byName.has(`Retired ${code}`)).toBe(false);
  });

  it('answers 401 without a portal session', async () => {
    expect((await lab.app.inject({ method: 'GET', url: '/api/portal/home-collection' })).statusCode).toBe(401);
  });
});

describe('a patient cancels their own home visit from the portal', () => {
  const book = async (slot_time: string, as = cookie) => {
    const res = await asPatient('POST', '/api/portal/home-collection/bookings', visit({ slot_time }), as);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ booking: Booking }>().booking;
  };
  const freeAt = async (time: string) =>
    (await asPatient('GET', `/api/portal/home-collection/slots?date=${DAY}`))
      .json<{ slots: Slot[] }>()
      .slots.find((s) => s.time === time)!.available;

  it('cancels with a reason and frees the place; the desk sees the reason', async () => {
    expect((await calendar(true)).statusCode).toBe(200);
    const b = await book('09:00');
    expect(await freeAt('09:00')).toBe(1);
    const noReason = await asPatient('POST', `/api/portal/home-collection/bookings/${b.id}/cancel`, { reason: ' ' });
    expect(badFields(noReason)).toEqual(['reason']);
    const res = await asPatient('POST', `/api/portal/home-collection/bookings/${b.id}/cancel`, {
      reason: 'Travelling that day',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ booking: Booking }>().booking).toMatchObject({
      status: 'cancelled',
      reason: 'Travelling that day',
    });
    expect(await freeAt('09:00')).toBe(2);
    const desk = (await lab.admin.get(`/api/home-collection/bookings/${b.id}`)).json<{ booking: Booking }>().booking;
    expect(desk).toMatchObject({ status: 'cancelled', reason: 'Travelling that day' });
    const again = await asPatient('POST', `/api/portal/home-collection/bookings/${b.id}/cancel`, { reason: 'Again' });
    expect(again.statusCode).toBe(409);
    expect(errorBody(again).code).toBe('NOT_OPEN');
  });

  it('does not find another patient’s visit', async () => {
    const theirs = await book('10:00', otherCookie);
    const res = await asPatient('POST', `/api/portal/home-collection/bookings/${theirs.id}/cancel`, {
      reason: 'Mine?',
    });
    expect(res.statusCode).toBe(404);
    const desk = (await lab.admin.get(`/api/home-collection/bookings/${theirs.id}`)).json<{ booking: Booking }>();
    expect(desk.booking.status).toBe('booked');
  });

  it('refuses once the slot has begun: the phlebotomist may be on the way', async () => {
    const b = await book('07:00');
    // A slot cannot be booked once begun, so the visit is moved into the past as a day passing would.
    await lab.database.db
      .updateTable('home_bookings')
      .set({ slot_date: localDate(0, -1) })
      .where('id', '=', b.id)
      .execute();
    const res = await asPatient('POST', `/api/portal/home-collection/bookings/${b.id}/cancel`, { reason: 'Too late' });
    expect(res.statusCode, res.body).toBe(409);
    expect(errorBody(res).code).toBe('SLOT_BEGUN');
  });

  it('is refused while the lab takes bookings at the desk only', async () => {
    const b = await book('08:00');
    expect((await calendar(false)).statusCode).toBe(200);
    const res = await asPatient('POST', `/api/portal/home-collection/bookings/${b.id}/cancel`, { reason: 'Busy' });
    expect(res.statusCode).toBe(409);
    expect(errorBody(res).code).toBe('PORTAL_BOOKING_OFF');
  });
});
