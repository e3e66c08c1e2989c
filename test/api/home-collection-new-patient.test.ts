import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import { badFields, createPatient, errorBody, localDate, patientBody, uniquePhone, uniqueWord } from './support.js';
import type { Booking } from '../../src/shared/schemas/home-collection.js';

/**
 * Book Visit for a patient not yet registered: the patient is registered in the booking's own
 * transaction, so a booking refused (a full slot, a pin code the lab does not serve, a likely
 * duplicate) leaves no new patient behind; a likely duplicate is offered back to the desk, which
 * books the patient already registered or confirms someone new (confirm_new), as OP Bill does.
 */
let lab: TestLab;
let desk: Client;
let cbcId: number;
const TOMORROW = localDate(0, 1);
const PIN = '560034';

beforeAll(async () => {
  lab = await makeLab();
  desk = await lab.as('receptionist');
  const cbc = uniqueWord('CBC').toUpperCase();
  cbcId = (await lab.admin.post('/api/tests', { name: `CBC ${cbc}`, code: cbc, price: 350 })).json().test.id;
  const cal = await desk.put('/api/home-collection/calendar', {
    slot_minutes: 60,
    first_slot: '07:00',
    last_slot: '09:00',
    slot_capacity: 1,
    per_phlebotomist: 1,
  });
  expect(cal.statusCode, cal.body).toBe(200);
  const area = await desk.post('/api/home-collection/areas', { name: 'Koramangala', pin_codes: [PIN] });
  expect(area.statusCode, area.body).toBe(201);
});
afterAll(() => lab.close());

const visit = (over: Record<string, unknown>) => ({
  address: '14, 3rd Cross, 5th Block',
  pin_code: PIN,
  slot_date: TOMORROW,
  slot_time: '08:00',
  items: [{ item_type: 'test', item_id: cbcId }],
  ...over,
});

const patientsWithPhone = (phone: string) =>
  lab.database.db
    .selectFrom('patients')
    .select(['id', 'first_name'])
    .where('organization_id', '=', lab.organizationId)
    .where('phone', '=', phone)
    .execute();

describe('booking a home visit for a new patient', () => {
  it('registers the patient and books the visit in one request', async () => {
    const phone = uniquePhone();
    const res = await desk.post('/api/home-collection/bookings', visit({ patient: patientBody({ phone }) }));
    expect(res.statusCode, res.body).toBe(201);
    const b = res.json<{ booking: Booking }>().booking;
    const [p] = await patientsWithPhone(phone);
    expect(b).toMatchObject({ patient_id: p!.id, patient_phone: phone, status: 'booked' });
    expect(b.patient_code).toMatch(/^PAT\d{8}\d{4}$/);
  });

  it('leaves no new patient behind when the booking is refused', async () => {
    const first = await desk.post(
      '/api/home-collection/bookings',
      visit({ patient_id: (await createPatient(desk)).id, slot_time: '09:00' }),
    );
    expect(first.statusCode, first.body).toBe(201);
    const phone = uniquePhone();
    const full = await desk.post(
      '/api/home-collection/bookings',
      visit({ patient: patientBody({ phone }), slot_time: '09:00' }),
    );
    expect(full.statusCode, full.body).toBe(409);
    expect(errorBody(full).code).toBe('SLOT_FULL');
    const outside = await desk.post(
      '/api/home-collection/bookings',
      visit({ patient: patientBody({ phone }), pin_code: '110001' }),
    );
    expect(badFields(outside)).toEqual(['pin_code']);
    expect(await patientsWithPhone(phone)).toEqual([]);
  });

  it('names the new patient’s bad fields under patient', async () => {
    const res = await desk.post(
      '/api/home-collection/bookings',
      visit({ patient: { first_name: '', last_name: 'Rao', phone: '12' } }),
    );
    expect(badFields(res).sort()).toEqual(['patient.date_of_birth', 'patient.first_name', 'patient.phone'].sort());
  });

  it('offers a likely duplicate back instead of registering it; confirm_new books someone new', async () => {
    const phone = uniquePhone();
    const known = await createPatient(desk, { phone, first_name: 'Lakshmi', last_name: 'Narayan' });
    const same = patientBody({ phone, first_name: 'Lakshmi', last_name: 'Narayan' });
    const dup = await desk.post('/api/home-collection/bookings', visit({ patient: same, slot_time: '07:00' }));
    expect(dup.statusCode, dup.body).toBe(409);
    const body = dup.json<{ code: string; candidates: { id: number }[] }>();
    expect(body.code).toBe('POSSIBLE_DUPLICATE');
    expect(body.candidates.map((c) => c.id)).toContain(known.id);
    expect(await patientsWithPhone(phone)).toHaveLength(1);
    // The desk looked: this is someone else with the family's mobile.
    const confirmed = await desk.post(
      '/api/home-collection/bookings',
      visit({ patient: { ...same, confirm_new: true }, slot_time: '07:00' }),
    );
    expect(confirmed.statusCode, confirmed.body).toBe(201);
    const b = confirmed.json<{ booking: Booking }>().booking;
    expect(b.patient_id).not.toBe(known.id);
    expect(await patientsWithPhone(phone)).toHaveLength(2);
  });

  it('needs the right to register patients for a new one, not for a patient already registered', async () => {
    const set = await lab.admin.put('/api/permissions', {
      roles: [{ role: 'user', permissions: ['manage_home_collection', 'view_patients'] }],
    });
    expect(set.statusCode, set.body).toBe(200);
    const booker = await lab.as('user');
    const phone = uniquePhone();
    const res = await booker.post('/api/home-collection/bookings', visit({ patient: patientBody({ phone }) }));
    expect(res.statusCode, res.body).toBe(403);
    expect(errorBody(res).message).toContain('manage_patients');
    expect(await patientsWithPhone(phone)).toEqual([]);
    const known = await booker.post(
      '/api/home-collection/bookings',
      visit({ patient_id: (await createPatient(desk)).id, slot_time: '08:00', slot_date: localDate(0, 2) }),
    );
    expect(known.statusCode, known.body).toBe(201);
  });
});
