import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import { badFields, createPatient, errorBody, localDate, uniquePhone, uniqueWord } from './support.js';
import type { Booking, DayBoard, Phlebotomist } from '../../src/shared/schemas/home-collection.js';

/**
 * Dispatch: visits assigned and reassigned to phlebotomists (users whose role holds
 * collect_at_home), one phlebotomist's share of a slot held to the calendar, the patient told the
 * name; the day board by area and by phlebotomist, each route in slot order.
 */
let lab: TestLab;
let desk: Client;
let ravi: Client;
let meena: Client;
let testId: number;
const DAY = localDate(0, 1);

beforeAll(async () => {
  lab = await makeLab();
  desk = await lab.as('receptionist');
  ravi = await lab.as('collector');
  meena = await lab.as('collector');
  const code = uniqueWord('TSH').toUpperCase();
  testId = (await lab.admin.post('/api/tests', { name: `TSH ${code}`, code, price: 400 })).json().test.id;
  expect(
    (
      await lab.admin.put('/api/settings/sms', {
        method: 'GET',
        urlTemplate: 'https://sms.example/send?to={to}&text={message}&key={key}',
        apiKey: 'key-1',
      })
    ).statusCode,
  ).toBe(200);
  expect(
    (
      await desk.put('/api/home-collection/calendar', {
        slot_minutes: 30,
        first_slot: '07:00',
        last_slot: '09:00',
        slot_capacity: 5,
        per_phlebotomist: 1,
      })
    ).statusCode,
  ).toBe(200);
  for (const [name, pins] of [
    ['Indiranagar', ['560038']],
    ['Whitefield', ['560066']],
  ] as const)
    expect((await desk.post('/api/home-collection/areas', { name, pin_codes: pins })).statusCode).toBe(201);
});
afterAll(() => lab.close());

async function book(time: string, pin: string, phone = uniquePhone()): Promise<Booking> {
  const patient = await createPatient(desk, { phone });
  const res = await desk.post('/api/home-collection/bookings', {
    patient_id: patient.id,
    address: `${uniqueWord('No. ')} Main Road`,
    pin_code: pin,
    slot_date: DAY,
    slot_time: time,
    items: [{ item_type: 'test', item_id: testId }],
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ booking: Booking }>().booking;
}

const assign = (id: number, who: number) =>
  desk.post(`/api/home-collection/bookings/${id}/assign`, { phlebotomist_id: who });

describe('dispatch', () => {
  it('lists the collectors as phlebotomists, not the desk', async () => {
    const list = (await desk.get('/api/home-collection/phlebotomists')).json<{ phlebotomists: Phlebotomist[] }>();
    const ids = list.phlebotomists.map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining([ravi.userId, meena.userId]));
    expect(ids).not.toContain(desk.userId);
  });

  it('assigns, tells the patient the name, holds one visit per phlebotomist per slot, and reassigns', async () => {
    const phone = uniquePhone();
    const a = await book('07:00', '560038', phone);
    const b = await book('07:00', '560066');
    const res = await assign(a.id, ravi.userId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ booking: Booking }>().booking.phlebotomist_id).toBe(ravi.userId);
    const sms = await lab.database.db
      .selectFrom('outbox')
      .selectAll()
      .where('kind', '=', 'home_assigned')
      .where('recipient', 'like', `%${phone}`)
      .execute();
    expect(sms).toHaveLength(1);
    expect(sms[0]!.body).toContain('collector User');
    // Ravi has his one visit of the 07:00 slot.
    const full = await assign(b.id, ravi.userId);
    expect(full.statusCode, full.body).toBe(409);
    expect(errorBody(full).code).toBe('PHLEBOTOMIST_FULL');
    expect((await assign(b.id, meena.userId)).statusCode).toBe(200);
    // Reassigning a to Meena is refused while she holds b; moving b back frees her.
    expect((await assign(a.id, meena.userId)).statusCode).toBe(409);
    const back = await desk.post(`/api/home-collection/bookings/${b.id}/cancel`, { reason: 'Patient travelling' });
    expect(back.statusCode).toBe(200);
    expect((await assign(a.id, meena.userId)).statusCode).toBe(200);
    // Ravi's share was freed by the reassignment.
    const c = await book('07:00', '560066');
    expect((await assign(c.id, ravi.userId)).statusCode).toBe(200);
  });

  it('refuses someone who is not a phlebotomist, by field', async () => {
    const v = await book('08:00', '560038');
    expect(badFields(await assign(v.id, desk.userId))).toEqual(['phlebotomist_id']);
    expect(badFields(await assign(v.id, 999999))).toEqual(['phlebotomist_id']);
    expect(badFields(await desk.post(`/api/home-collection/bookings/${v.id}/assign`, {}))).toEqual(['phlebotomist_id']);
  });

  it('draws the day by area and by phlebotomist, each route in slot order', async () => {
    const late = await book('09:00', '560038');
    const early = await book('07:30', '560066');
    expect((await assign(late.id, meena.userId)).statusCode).toBe(200);
    expect((await assign(early.id, meena.userId)).statusCode).toBe(200);
    const res = await desk.get(`/api/home-collection/board?date=${DAY}`);
    expect(res.statusCode, res.body).toBe(200);
    const board = res.json<{ board: DayBoard }>().board;
    expect(board.areas.map((a) => a.area_name)).toEqual(['Indiranagar', 'Whitefield']);
    const route = board.routes.find((r) => r.phlebotomist_id === meena.userId)!;
    const times = route.visits.map((v) => v.slot_time);
    expect(times).toEqual([...times].sort());
    expect(times).toEqual(expect.arrayContaining(['07:00', '07:30', '09:00']));
    // The cancelled visit is not on the board; the one nobody has yet is listed as unassigned.
    const all = board.areas.flatMap((a) => a.visits);
    expect(all.every((v) => v.status !== 'cancelled')).toBe(true);
    expect(board.unassigned.map((v) => v.slot_time)).toContain('08:00');
    for (const a of board.areas)
      expect(a.visits.map((v) => v.slot_time)).toEqual(a.visits.map((v) => v.slot_time).sort());
  });
});
