import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../helpers.js';
import { badFields, createPatient, errorBody } from './support.js';
import { homeLab, visitOps, type HomeLab } from './home-visit-support.js';
import type { Calendar, InTransit, Tube, Visit } from '../../src/shared/schemas/home-collection.js';
import type { Sample } from '../../src/shared/schemas/samples.js';

/**
 * The lab's receive bench for tubes drawn at home: the list of tubes on their way (drawn, not yet
 * scanned in), the scan that takes one in with the time (and the temperature when the lab records
 * it), and the clear refusals that change nothing: an unknown barcode, a desk sample's barcode, a
 * tube not drawn yet, a tube already in. Turnaround still counts from the draw.
 */
let home: HomeLab;
let ravi: Client;
let slot = 0;
const TIMES = ['06:00', '06:30', '07:00', '07:30', '08:00', '08:30', '09:00', '09:30'];

beforeAll(async () => {
  home = await homeLab();
  ravi = await home.collector();
});
afterAll(() => home.lab.close());

/** A visit drawn at home and synced: its tubes are samples in transit. */
async function drawnVisit(): Promise<{ visit: Visit; drawnAt: Map<string, string> }> {
  const { booking, otp } = await home.visitFor(ravi, TIMES[slot++ % TIMES.length]);
  const visit = (await home.day(ravi)).find((v) => v.id === booking.id)!;
  const ops = visitOps(visit, otp, 400);
  expect((await home.sync(ravi, ops)).map((r) => r.outcome)).toEqual(['applied', 'applied', 'applied', 'applied']);
  const tubes = ops[2]!.tubes as { barcode: string; collected_at: string }[];
  return { visit, drawnAt: new Map(tubes.map((t) => [t.barcode, t.collected_at])) };
}

const inTransit = async (who: Client = home.bench) => {
  const res = await who.get('/api/home-collection/tubes/in-transit');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<InTransit>();
};
const receive = (body: Record<string, unknown>) => home.bench.post('/api/home-collection/tubes/receive', body);
const sampleOf = async (barcode: string) =>
  (await home.bench.get(`/api/samples/by-barcode/${barcode}`)).json<{ sample: Sample }>().sample;

async function setRecordTemperature(on: boolean): Promise<void> {
  const c = (await home.desk.get('/api/home-collection/calendar')).json<{ calendar: Calendar }>().calendar;
  const res = await home.desk.put('/api/home-collection/calendar', {
    ...c,
    fasting: c.fasting.map((f) => ({ test_id: f.test_id, hours: f.hours })),
    record_temperature: on,
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json<{ calendar: Calendar }>().calendar.record_temperature).toBe(on);
}

describe('the tubes expected at the lab', () => {
  it('lists the tubes drawn at home and not yet received, with whose they are; a visit not drawn has none there', async () => {
    const { booking } = await home.visitFor(ravi, '09:30');
    const { visit } = await drawnVisit();
    const list = await inTransit();
    const mine = list.tubes.filter((t) => t.booking_id === visit.id);
    expect(mine.map((t) => t.barcode).sort()).toEqual(visit.tubes.map((t) => t.barcode).sort());
    for (const t of mine) {
      expect(t).toMatchObject({
        booking_number: visit.booking_number,
        patient_name: visit.patient_name,
        patient_code: visit.patient_code,
        received_at: null,
      });
      expect(t.phlebotomist_name).toBeTruthy();
      expect(t.sample_code).toMatch(/^SMP/);
      expect(t.collected_at).not.toBeNull();
    }
    expect(list.tubes.some((t) => t.booking_id === booking.id)).toBe(false);
    expect(list.record_temperature).toBe(false);

    // Received, a tube leaves the list; its sibling stays until it is scanned too.
    const first = visit.tubes[0]!.barcode;
    expect((await receive({ barcode: first })).statusCode).toBe(200);
    const after = (await inTransit()).tubes.map((t) => t.barcode);
    expect(after).not.toContain(first);
    expect(after).toContain(visit.tubes[1]!.barcode);
  });

  it('is the bench’s (manage_samples): the front desk is refused', async () => {
    expect((await home.desk.get('/api/home-collection/tubes/in-transit')).statusCode).toBe(403);
    expect(
      (await home.desk.post('/api/home-collection/tubes/receive', { barcode: 'BCBL00000000001' })).statusCode,
    ).toBe(403);
  });
});

describe('the receive scan', () => {
  it('takes the tube in with the time, keeps the draw as the collection time (turnaround), and only once', async () => {
    const { visit, drawnAt } = await drawnVisit();
    const barcode = visit.tubes[0]!.barcode;
    const before = Date.now();
    // A hand-typed barcode in lower case with spaces is the same tube.
    const res = await receive({ barcode: ` ${barcode.toLowerCase()} `, temperature: 6.5 });
    expect(res.statusCode, res.body).toBe(200);
    const tube = res.json<{ tube: Tube }>().tube;
    expect(tube).toMatchObject({ barcode, received_temperature: 6.5 });
    expect(Date.parse(tube.received_at!)).toBeGreaterThanOrEqual(before - 1000);
    const sample = await sampleOf(barcode);
    expect(sample.location).toBe('Lab');
    expect(sample.status).toBe('collected');
    expect(sample.collection_date).toBe(drawnAt.get(barcode));
    const history = await home.lab.database.db
      .selectFrom('sample_status_history')
      .select('notes')
      .where('sample_id', '=', sample.id)
      .execute();
    expect(history.map((h) => h.notes)).toContain('Received at lab from home collection, 6.5 °C');

    const twice = await receive({ barcode });
    expect(twice.statusCode).toBe(409);
    expect(errorBody(twice)).toMatchObject({ code: 'ALREADY_RECEIVED' });
    expect(errorBody(twice).message).toContain(`Tube ${barcode} was already received`);
  });

  it('refuses an unknown barcode, a desk sample’s barcode and a tube not drawn yet, changing nothing', async () => {
    const unknown = await receive({ barcode: 'BCBL99999999999' });
    expect(unknown.statusCode).toBe(404);
    expect(errorBody(unknown).message).toBe('Home collection tube with barcode BCBL99999999999 not found');

    const patient = await createPatient(home.desk);
    const desk = (await home.lab.admin.post('/api/samples', { patient_id: patient.id, sample_type: 'Blood' })).json<{
      sample: Sample;
    }>().sample;
    const notHome = await receive({ barcode: desk.barcode });
    expect(notHome.statusCode).toBe(409);
    expect(errorBody(notHome)).toMatchObject({
      code: 'NOT_HOME_TUBE',
      message: `Barcode ${desk.barcode} is sample ${desk.sample_id}, not a tube drawn at home: nothing was received`,
    });
    expect((await sampleOf(desk.barcode!)).location).toBe(desk.location);

    const { booking } = await home.visitFor(ravi, '10:00');
    const reserved = (await home.day(ravi)).find((v) => v.id === booking.id)!.tubes[0]!.barcode;
    const early = await receive({ barcode: reserved });
    expect(early.statusCode).toBe(409);
    expect(errorBody(early).code).toBe('NOT_COLLECTED');
    expect((await home.day(ravi)).find((v) => v.id === booking.id)!.tubes[0]!.received_at).toBeNull();
  });

  it('asks for the temperature when the lab records it, and refuses one out of range by field', async () => {
    const { visit } = await drawnVisit();
    const [a, b] = visit.tubes.map((t) => t.barcode);
    await setRecordTemperature(true);
    try {
      expect((await inTransit()).record_temperature).toBe(true);
      const missing = await receive({ barcode: a });
      expect(badFields(missing)).toEqual(['temperature']);
      expect(errorBody(missing).details![0]!.message).toContain('Temperature (°C) is required');
      expect(badFields(await receive({ barcode: a, temperature: 95 }))).toEqual(['temperature']);
      expect(badFields(await receive({ barcode: a, temperature: 'cold' }))).toEqual(['temperature']);
      expect((await inTransit()).tubes.some((t) => t.barcode === a)).toBe(true);
      const ok = await receive({ barcode: a, temperature: 4 });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json<{ tube: Tube }>().tube.received_temperature).toBe(4);
    } finally {
      await setRecordTemperature(false);
    }
    // Not recorded: the scan alone takes the tube in.
    const plain = await receive({ barcode: b });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json<{ tube: Tube }>().tube.received_temperature).toBeNull();
  });
});
