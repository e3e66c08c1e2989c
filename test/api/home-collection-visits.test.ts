import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, TestLab } from '../helpers.js';
import { badFields, errorBody, localDate } from './support.js';
import { DAY, homeLab, opId, visitOps, type HomeLab } from './home-visit-support.js';
import type { Booking } from '../../src/shared/schemas/home-collection.js';
import type { Bill } from '../../src/shared/schemas/bills.js';
import type { Sample } from '../../src/shared/schemas/samples.js';

/**
 * The visit on the phone, through the API: the collector's day with each tube's reserved barcode;
 * the visit started with the code the patient was texted (five wrong codes lock it); arrival with
 * the location, tubes drawn, a UPI payment with a receipt SMS, all sent as one queued batch; the
 * same batch again (or twice at once) changes nothing; a visit cancelled at the desk meanwhile is a
 * conflict on the phone and on the booking; the tubes become billed samples in transit, turnaround
 * starting at the draw (the lab's receive scan: home-collection-receive.test.ts).
 */
let lab: TestLab;
let desk: Client;
let ravi: Client;
let meena: Client;
let bench: Client;
let visitFor: HomeLab['visitFor'];
let day: HomeLab['day'];
let sync: HomeLab['sync'];

beforeAll(async () => {
  const home = await homeLab();
  ({ lab, desk, bench, visitFor, day, sync } = home);
  ravi = await home.collector();
  meena = await home.collector();
});
afterAll(() => lab.close());

async function billOf(id: number): Promise<Bill> {
  const res = await lab.admin.get(`/api/bills/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ bill: Bill }>().bill;
}

async function samplesOfBill(billId: number): Promise<Sample[]> {
  const rows = await lab.database.db.selectFrom('samples').select('id').where('bill_id', '=', billId).execute();
  return Promise.all(
    rows.map(async (r) => (await lab.admin.get(`/api/samples/${r.id}`)).json<{ sample: Sample }>().sample),
  );
}

describe('the visit on the phone', () => {
  it('gives the collector their own day, each visit with its tubes and barcodes reserved for them', async () => {
    const mine = await visitFor(ravi, '06:00');
    const theirs = await visitFor(meena, '06:00');
    const visits = await day(ravi);
    const v = visits.find((x) => x.id === mine.booking.id)!;
    expect(visits.some((x) => x.id === theirs.booking.id)).toBe(false);
    expect(v.tubes.map((t) => t.container).sort()).toEqual(['edta', 'fluoride']);
    for (const t of v.tubes) expect(t.barcode).toMatch(/^BC[A-Z]{2}\d{11}$/);
    // No two phones, and nothing issued at the desk, share a reserved barcode.
    const other = (await day(meena)).find((x) => x.id === theirs.booking.id)!;
    const all = [...v.tubes, ...other.tubes].map((t) => t.barcode);
    expect(new Set(all).size).toBe(all.length);
    const check = await bench.get(`/api/samples/check-barcode/${v.tubes[0]!.barcode}`);
    expect(check.json<{ isUnique: boolean }>().isUnique).toBe(false);
    // Without a date, the phone gets the lab's today.
    const today = await ravi.get('/api/home-visits');
    expect(today.json<{ date: string }>().date).toBe(localDate(0, 0));
    // The desk's routes are not the phone's, and the phone's are not the desk's.
    expect((await ravi.get('/api/home-collection/bookings')).statusCode).toBe(403);
    expect((await desk.get(`/api/home-visits?date=${DAY}`)).statusCode).toBe(403);
  });

  it('records a whole visit from one queued batch: billed samples in transit, turnaround from the draw, UPI paid with a receipt', async () => {
    const { booking, otp } = await visitFor(ravi, '07:30');
    const v = (await day(ravi)).find((x) => x.id === booking.id)!;
    expect(v.amount_due).toBe(400);
    const ops = visitOps(v, otp, 400);
    const results = await sync(ravi, ops);
    expect(results.map((r) => [r.outcome, r.code])).toEqual([
      ['applied', null],
      ['applied', null],
      ['applied', null],
      ['applied', null],
    ]);
    const after = (await day(ravi)).find((x) => x.id === booking.id)!;
    expect(after).toMatchObject({ status: 'collected', paid: 400, amount_due: 400 });
    expect(after.arrived_at).toBe(ops[0]!.at);
    const bill = await billOf(after.bill_id!);
    expect(bill.final_amount).toBe(400);
    expect((bill.payments ?? []).map((p) => [p.method, p.amount, p.reference])).toEqual([
      ['upi', 400, 'UPI4471120098'],
    ]);
    const samples = await samplesOfBill(bill.id);
    expect(samples.map((s) => s.barcode).sort()).toEqual(v.tubes.map((t) => t.barcode).sort());
    const drawn = (ops[2]!.tubes as { barcode: string; collected_at: string }[]).map((t) => [
      t.barcode,
      t.collected_at,
    ]);
    for (const s of samples) {
      expect(s.status).toBe('collected');
      expect(s.location).toBe('In transit (home collection)');
      // Turnaround starts at the draw the phone recorded, not when the phone synced.
      expect(s.collection_date).toBe(drawn.find(([b]) => b === s.barcode)![1]);
    }
    const receipt = await lab.database.db
      .selectFrom('outbox')
      .select('body')
      .where('kind', '=', 'home_receipt')
      .execute();
    expect(receipt.some((r) => r.body.includes(bill.bill_number) && r.body.includes('UPI ref UPI4471120098'))).toBe(
      true,
    );

    // The same batch again (the answer was lost): the same answers, nothing recorded twice.
    expect(await sync(ravi, ops)).toEqual(results);
    const again = await billOf(after.bill_id!);
    expect(again.payments).toHaveLength(1);
    expect(await samplesOfBill(bill.id)).toHaveLength(2);
    const bills = await lab.database.db
      .selectFrom('bills')
      .select('id')
      .where('patient_id', '=', booking.patient_id)
      .execute();
    expect(bills).toHaveLength(1);
  });

  it('applies a batch sent twice at the same moment exactly once', async () => {
    const { booking, otp } = await visitFor(ravi, '08:00');
    const v = (await day(ravi)).find((x) => x.id === booking.id)!;
    const ops = visitOps(v, otp, 150);
    const [a, b] = await Promise.all([
      ravi.post('/api/home-visits/sync', { ops }),
      ravi.post('/api/home-visits/sync', { ops }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json()).toEqual(b.json());
    const after = (await day(ravi)).find((x) => x.id === booking.id)!;
    const bill = await billOf(after.bill_id!);
    expect(bill.payments).toHaveLength(1);
    expect(bill.paid_amount).toBe(150);
    expect(await samplesOfBill(bill.id)).toHaveLength(2);
  });

  it('locks the visit after five wrong codes; the right code is then refused too', async () => {
    const { booking, otp } = await visitFor(ravi, '08:30');
    const wrong = otp === '000000' ? '111111' : '000000';
    for (let i = 4; i >= 0; i--) {
      const [r] = await sync(ravi, [
        { op_id: opId('bad'), booking_id: booking.id, kind: 'start', at: new Date().toISOString(), otp: wrong },
      ]);
      expect(r).toMatchObject({ outcome: 'refused', code: 'OTP_WRONG' });
      expect(r!.message).toContain(`${i} attempt`);
    }
    const [locked] = await sync(ravi, [
      { op_id: opId('ok'), booking_id: booking.id, kind: 'start', at: new Date().toISOString(), otp },
    ]);
    expect(locked).toMatchObject({ outcome: 'refused', code: 'OTP_LOCKED' });
    expect((await day(ravi)).find((x) => x.id === booking.id)!.status).toBe('booked');
    // Tubes before the visit is started are refused.
    const v = (await day(ravi)).find((x) => x.id === booking.id)!;
    const [early] = await sync(ravi, [
      {
        op_id: opId('c'),
        booking_id: v.id,
        kind: 'collect',
        at: new Date().toISOString(),
        tubes: [{ barcode: v.tubes[0]!.barcode, collected_at: new Date().toISOString() }],
      },
    ]);
    expect(early).toMatchObject({ outcome: 'refused', code: 'NOT_STARTED' });
  });

  it('answers a conflict when the desk cancelled the visit while the phone was offline, and the desk sees it', async () => {
    const { booking, otp } = await visitFor(ravi, '09:00');
    const v = (await day(ravi)).find((x) => x.id === booking.id)!;
    expect(
      (await desk.post(`/api/home-collection/bookings/${booking.id}/cancel`, { reason: 'Patient called off' }))
        .statusCode,
    ).toBe(200);
    const results = await sync(ravi, visitOps(v, otp, 400));
    expect(results.map((r) => r.outcome)).toEqual(['conflict', 'conflict', 'conflict', 'conflict']);
    expect(results[1]).toMatchObject({ code: 'VISIT_CANCELLED', message: 'The visit was cancelled at the desk' });
    const atDesk = (await desk.get(`/api/home-collection/bookings/${booking.id}`)).json<{ booking: Booking }>().booking;
    expect(atDesk.status).toBe('cancelled');
    expect(atDesk.sync_conflict).toContain('cancelled at the desk');
    expect(
      await lab.database.db.selectFrom('bills').select('id').where('patient_id', '=', booking.patient_id).execute(),
    ).toEqual([]);
    // Another phlebotomist's visit is a conflict too, and changes nothing.
    const { booking: hers, otp: herOtp } = await visitFor(meena, '09:30');
    const [notMine] = await sync(ravi, [
      { op_id: opId('x'), booking_id: hers.id, kind: 'start', at: new Date().toISOString(), otp: herOtp },
    ]);
    expect(notMine).toMatchObject({ outcome: 'conflict', code: 'NOT_YOURS' });
  });

  it('records a refusal with its reason and frees the place', async () => {
    const { booking } = await visitFor(meena, '10:00');
    const [r] = await sync(meena, [
      {
        op_id: opId('r'),
        booking_id: booking.id,
        kind: 'refuse',
        at: new Date().toISOString(),
        reason: 'Patient not fasting, refused',
      },
    ]);
    expect(r!.outcome).toBe('applied');
    expect((await day(meena)).find((x) => x.id === booking.id)).toMatchObject({
      status: 'refused',
      reason: 'Patient not fasting, refused',
    });
  });

  it('refuses a malformed batch by field', async () => {
    const bad = await ravi.post('/api/home-visits/sync', {
      ops: [
        { op_id: 'x', booking_id: 1, kind: 'start', at: new Date().toISOString(), otp: '12' },
        { op_id: opId('p'), booking_id: 1, kind: 'pay', at: new Date().toISOString(), method: 'upi', amount: 10 },
        { op_id: opId('q'), booking_id: 1, kind: 'teleport', at: new Date().toISOString() },
      ],
    });
    expect(badFields(bad).sort()).toEqual(['ops.0.op_id', 'ops.0.otp', 'ops.1.reference', 'ops.2.kind'].sort());
  });
});

describe('the patient of a booking', () => {
  it('is not deleted while a home visit names them', async () => {
    const { booking } = await visitFor(meena, '06:30');
    const res = await lab.admin.delete(`/api/patients/${booking.patient_id}`);
    expect(res.statusCode, res.body).toBe(409);
    expect(errorBody(res).code).toBe('IN_USE');
  });
});
