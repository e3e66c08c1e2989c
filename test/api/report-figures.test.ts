import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { seedResult, seedSample } from './lab-records.js';
import { patientDemographics } from '../../src/core/reports/repository.js';
import { billedByCategory } from '../../src/core/payments/repository.js';
import { ageOn } from '../../src/shared/age.js';
import { revenueDaily } from '../../src/core/reports/revenue.js';
import { revenueAnalytics } from '../../src/core/reports/revenue-analytics.js';
import { addDays, localDate, startOfLocalDayUtc } from '../../src/shared/time.js';
import { organizationTimezone } from '../../src/core/settings/organization.js';

/**
 * Report figures summed in SQL (the /revenue screen, the Patient Register's demographics, Dues
 * Outstanding, Critical Values) equal what their rows give, after bills made, back-dated,
 * cancelled, refunded and deleted, lines edited, samples collected, re-dated and rejected, results
 * entered, verified, amended and removed. The figures read from the rollups are compared with the
 * rows in report-rollups.test.ts.
 */

let lab: TestLab;
let glucose: number;
let cbc: number;
const db = () => lab.database.db;
const org = () => lab.organizationId;

async function bill(patientId: number, tests: { test_id: number; qty?: number }[], createdAt: string, paid = 100) {
  const res = await lab.admin.post('/api/bills', {
    visit_type: 'lab_only',
    patient_id: patientId,
    items: tests.map((t) => ({ item_type: 'test', item_id: t.test_id, qty: t.qty ?? 1 })),
    ...(paid ? { amount_paid: paid } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().bill.id as number;
  await db().updateTable('bills').set({ created_at: createdAt }).where('id', '=', id).execute();
  return id;
}

const sorted = <T>(rows: T[]) =>
  rows
    .map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v)))
    .sort();

beforeAll(async () => {
  lab = await makeLab();
  glucose = (
    await lab.admin.post('/api/tests', { name: 'Glucose Fasting', code: 'GLUS', price: 200, category: 'Biochemistry' })
  ).json().test.id;
  cbc = (
    await lab.admin.post('/api/tests', {
      name: 'Complete Blood Count',
      code: 'CBCS',
      price: 400,
      category: 'Hematology',
    })
  ).json().test.id;
  const p = await newPatient('Sum', 'Mary', 'Female', '1980-01-01');

  // Bills across UTC and IST day bounds (IST midnight is 18:30 UTC).
  const b1 = await bill(p, [{ test_id: glucose }, { test_id: cbc }], '2026-10-10T18:29:59.000Z');
  const b2 = await bill(p, [{ test_id: glucose, qty: 2 }], '2026-10-10T18:30:00.000Z');
  const b3 = await bill(p, [{ test_id: cbc }], '2026-10-11T23:59:59.999Z', 0);
  const b4 = await bill(p, [{ test_id: glucose }], '2026-10-12T00:00:00.000Z');
  await bill(p, [{ test_id: cbc }, { test_id: glucose }], '2026-10-13T06:00:00.000Z');
  // Cancelled, then a bill back-dated again, a line edited, a refund, a bill deleted.
  expect(
    (await lab.admin.put(`/api/bills/${b3}`, { status: 'cancelled', cancel_reason: 'Entered twice' })).statusCode,
  ).toBe(200);
  await db().updateTable('bills').set({ created_at: '2026-10-09T12:00:00.000Z' }).where('id', '=', b4).execute();
  await db()
    .updateTable('bill_items')
    .set({ total_paise: 15000, discount_amount_paise: 5000 })
    .where('bill_id', '=', b1)
    .where('test_id', '=', glucose)
    .execute();
  const pay = await db().selectFrom('payments').select('id').where('bill_id', '=', b2).executeTakeFirstOrThrow();
  const refund = await lab.admin.post(`/api/payments/${pay.id}/refund`, { amount: 50, reason: 'Overcharged' });
  expect(refund.statusCode, refund.body).toBe(201);
  const spare = await bill(p, [{ test_id: cbc }], '2026-10-12T10:00:00.000Z', 0);
  await db().deleteFrom('bills').where('id', '=', spare).execute();
  // Discounts (migration 30): a bill discount given afterwards, a discounted line removed from its
  // bill, a bill's maker changed, a line's discount set on another bill.
  await db().updateTable('bills').set({ discount_amount_paise: 1000 }).where('id', '=', b2).execute();
  const b6 = await bill(p, [{ test_id: cbc }, { test_id: glucose }], '2026-10-13T09:00:00.000Z');
  await db().updateTable('bill_items').set({ discount_amount_paise: 700 }).where('bill_id', '=', b6).execute();
  await db().deleteFrom('bill_items').where('bill_id', '=', b6).where('test_id', '=', cbc).execute();
  await db().updateTable('bills').set({ created_by: null }).where('id', '=', b6).execute();

  // Samples: collected across the bounds, one re-dated, one rejected, one never collected.
  const s1 = await seedSample(db(), org(), { patientId: p, testIds: [glucose, cbc], prefix: 'SUMA' });
  await db()
    .updateTable('samples')
    .set({ collection_date: '2026-10-10T18:29:00.000Z' })
    .where('id', '=', s1.id)
    .execute();
  const s2 = await seedSample(db(), org(), { patientId: p, testIds: [glucose], prefix: 'SUMB' });
  await db()
    .updateTable('samples')
    .set({ collection_date: '2026-10-11T02:00:00.000Z' })
    .where('id', '=', s2.id)
    .execute();
  await db()
    .updateTable('samples')
    .set({ collection_date: '2026-10-12T02:07:00.000Z' })
    .where('id', '=', s2.id)
    .execute();
  const s3 = await seedSample(db(), org(), { patientId: p, testIds: [cbc], prefix: 'SUMC' });
  await db()
    .updateTable('samples')
    .set({ collection_date: '2026-10-12T20:00:00.000Z' })
    .where('id', '=', s3.id)
    .execute();
  const rej = await lab.admin.put(`/api/samples/${s3.id}/status`, { status: 'rejected', notes: 'Haemolysed' });
  expect(rej.statusCode, rej.body).toBe(200);
  await seedSample(db(), org(), { patientId: p, testIds: [glucose], status: 'pending', prefix: 'SUMD' });

  // Results: entered, verified, amended (value changed), one removed.
  const r1 = await seedResult(db(), org(), {
    sampleId: s1.id,
    patientId: p,
    testId: glucose,
    value: '90',
    flag: 'normal',
    status: 'completed',
  });
  await db()
    .updateTable('test_results')
    .set({ status: 'verified', verified_at: '2026-10-10T19:40:00.000Z' })
    .where('id', '=', r1)
    .execute();
  const r2 = await seedResult(db(), org(), {
    sampleId: s1.id,
    patientId: p,
    testId: cbc,
    value: '12',
    flag: 'normal',
    status: 'verified',
  });
  await db()
    .updateTable('test_results')
    .set({ verified_at: '2026-10-11T03:00:00.000Z', result_value: '12.5', amended: 1 })
    .where('id', '=', r2)
    .execute();
  const r3 = await seedResult(db(), org(), {
    sampleId: s2.id,
    patientId: p,
    testId: glucose,
    value: '300',
    flag: 'high',
    status: 'completed',
  });
  await db().deleteFrom('test_results').where('id', '=', r3).execute();
  await seedResult(db(), org(), {
    sampleId: s2.id,
    patientId: p,
    testId: glucose,
    value: '310',
    flag: 'high',
    status: 'completed',
  });
  // A second lab's rows stay in its own sums.
});

afterAll(() => lab.close());

describe('/revenue', () => {
  it('/revenue: the bills of each day summed in SQL and the categories from the summary give what the rows give', async () => {
    const tz = await organizationTimezone(db(), org());
    for (const [from, to] of [
      ['2026-10-09', '2026-10-14'],
      ['2026-10-11', '2026-10-11'],
      ['2026-09-01', '2026-11-30'],
    ] as const) {
      const fromUtc = startOfLocalDayUtc(tz, from).toISOString();
      const endUtc = startOfLocalDayUtc(tz, addDays(to, 1)).toISOString();
      const bills = await db()
        .selectFrom('bills')
        .select(['patient_id', 'created_at', 'discount_amount_paise', 'final_amount_paise'])
        .where('organization_id', '=', org())
        .where('cancelled_at', 'is', null)
        .where('created_at', '>=', fromUtc)
        .where('created_at', '<', endUtc)
        .execute();
      const want = new Map<string, { bills: number; patients: Set<number>; discounts: number; billed: number }>();
      for (const b of bills) {
        const day = localDate(tz, new Date(b.created_at));
        const e = want.get(day) ?? { bills: 0, patients: new Set(), discounts: 0, billed: 0 };
        e.bills += 1;
        e.patients.add(Number(b.patient_id));
        e.discounts += Number(b.discount_amount_paise);
        e.billed += Number(b.final_amount_paise);
        want.set(day, e);
      }
      const got = await revenueDaily(db(), org(), { from, to });
      for (const d of got.days) {
        const e = want.get(d.date);
        expect(d.patients, d.date).toBe(e?.patients.size ?? 0);
        expect(d.discounts, d.date).toBe((e?.discounts ?? 0) / 100);
        expect(d.average_bill, d.date).toBe(e ? Math.round(e.billed / e.bills) / 100 : 0);
      }
      expect(got.totals.bills).toBe(bills.length);
      expect(got.totals.patients).toBe(new Set(bills.map((b) => Number(b.patient_id))).size);
      const cats = (await revenueAnalytics(db(), org(), { from, to })).by_category;
      const rows = await billedByCategory(db(), org(), fromUtc, endUtc);
      expect(sorted(cats)).toEqual(
        sorted(
          rows.map((r) => ({ category: r.category, amount: Number(r.amount_paise) / 100, items: Number(r.items) })),
        ),
      );
    }
  });
});

/** A patient made through the API; its id. */
async function newPatient(first_name: string, last_name: string, gender: string, date_of_birth: string) {
  return (await lab.admin.post('/api/patients', { first_name, last_name, gender, date_of_birth })).json().patient
    .id as number;
}

describe('/revenue cards and the Patient Register', () => {
  it("/revenue: the cards (totals from the summaries) equal the daily table's totals (from every bill)", async () => {
    for (const [from, to] of [
      ['2026-09-01', '2027-01-31'],
      ['2026-10-01', '2026-11-30'],
      ['2026-12-01', '2026-12-01'],
      ['2026-07-01', '2026-07-31'],
    ] as const) {
      const a = await revenueAnalytics(db(), org(), { from, to });
      const cur = (await revenueDaily(db(), org(), { from, to })).totals;
      const prev = (await revenueDaily(db(), org(), { from: a.previous_from, to: a.previous_to })).totals;
      expect(a.cards, from).toEqual({
        total: expect.objectContaining({ current: cur.total, previous: prev.total }),
        patients: expect.objectContaining({ current: cur.patients, previous: prev.patients }),
        average_bill: expect.objectContaining({ current: cur.average_bill, previous: prev.average_bill }),
        refunds: expect.objectContaining({ current: cur.refunds, previous: prev.refunds }),
      });
      const doctors = new Map<string, { amount: number; bills: number }>();
      const tz = await organizationTimezone(db(), org());
      const rows = await db()
        .selectFrom('bills')
        .select(['doctor_id', 'final_amount_paise'])
        .where('organization_id', '=', org())
        .where('cancelled_at', 'is', null)
        .where('created_at', '>=', startOfLocalDayUtc(tz, from).toISOString())
        .where('created_at', '<', startOfLocalDayUtc(tz, addDays(to, 1)).toISOString())
        .execute();
      for (const r of rows) {
        const k = String(r.doctor_id ?? 'none');
        const e = doctors.get(k) ?? { amount: 0, bills: 0 };
        e.amount += Number(r.final_amount_paise) / 100;
        e.bills += 1;
        doctors.set(k, e);
      }
      expect(
        new Map(a.by_doctor.map((d) => [String(d.doctor_id ?? 'none'), { amount: d.amount, bills: d.bills }])),
        from,
      ).toEqual(doctors);
    }
  });

  it("the Patient Register's demographics equal ageOn over the rows on the period's last day", async () => {
    // Birthdays on, just before and just after the day 18, 40 and 60 years back, 29 February, a date of
    // birth that is not YYYY-MM-DD, one in the future, no gender.
    const dobs: [string, string | null][] = [
      ['2008-12-15', 'Male'],
      ['2008-12-16', 'Female'],
      ['2008-12-14', 'Other'],
      ['1986-12-15', 'Male'],
      ['1986-12-16', null],
      ['1966-12-15', 'Female'],
      ['1966-12-16', 'Female'],
      ['1966-12-14', 'Male'],
      ['2000-02-29', 'Female'],
      ['1990-1-5', 'Male'],
      ['', 'Other'],
      ['2030-01-01', 'Male'],
      ['1900-07-07', 'Female'],
    ];
    for (const [k, [dob, gender]] of dobs.entries()) {
      const id = (
        await lab.admin.post('/api/patients', {
          first_name: 'Demo',
          last_name: `Graphic ${'ABCDEFGHIJKLMNOP'[k]}`,
          gender: 'Male',
          date_of_birth: '1990-01-01',
        })
      ).json().patient.id as number;
      // Stored as given (older imports kept odd dates), registered on both sides of the lab's midnight.
      await db()
        .updateTable('patients')
        .set({
          date_of_birth: dob,
          gender: gender as 'Male',
          created_at: k % 2 ? '2026-12-15T18:29:59.999Z' : '2026-12-15T18:30:00.000Z',
        })
        .where('id', '=', id)
        .execute();
    }
    for (const [fromUtc, toUtc, day] of [
      ['2026-11-30T18:30:00.000Z', '2026-12-15T18:30:00.000Z', '2026-12-15'],
      ['2026-12-15T18:30:00.000Z', '2026-12-16T18:30:00.000Z', '2026-12-16'],
      ['2026-11-30T18:30:00.000Z', '2026-12-31T18:30:00.000Z', '2026-12-14'],
      ['2026-11-30T18:30:00.000Z', '2026-12-31T18:30:00.000Z', '2028-02-29'],
    ] as const) {
      const w = { organizationId: org(), fromUtc, toUtc };
      const rows = await db()
        .selectFrom('patients')
        .select(['gender', 'date_of_birth'])
        .where('organization_id', '=', org())
        .where('created_at', '>=', fromUtc)
        .where('created_at', '<', toUtc)
        .execute();
      const bands: Record<string, number> = { '0-17': 0, '18-39': 0, '40-59': 0, '60+': 0, Unknown: 0 };
      for (const r of rows) {
        const age = r.date_of_birth ? ageOn(r.date_of_birth, day) : null;
        bands[age === null ? 'Unknown' : age < 18 ? '0-17' : age < 40 ? '18-39' : age < 60 ? '40-59' : '60+']! += 1;
      }
      const got = await patientDemographics(db(), w, day);
      expect(got, `${fromUtc} on ${day}`).toEqual({
        patients: rows.length,
        male: rows.filter((r) => r.gender === 'Male').length,
        female: rows.filter((r) => r.gender === 'Female').length,
        other: rows.filter((r) => r.gender === 'Other').length,
        bands,
      });
    }
    const one = await patientDemographics(
      db(),
      { organizationId: org(), fromUtc: '2026-12-15T18:30:00.000Z', toUtc: '2026-12-16T18:30:00.000Z' },
      '2026-12-15',
    );
    // Registered after the lab's midnight: 2008-12-15 turns 18 that day and 2008-12-14 the day before
    // (18-39), 1986-12-16 is 39 until the next day, 2000-02-29 is 26; 1966-12-16 is 59 (40-59);
    // 1900-07-07 is 60+; the empty date of birth is unknown.
    expect(one.bands).toEqual({ '0-17': 0, '18-39': 4, '40-59': 1, '60+': 1, Unknown: 1 });
  });
});

describe('Dues Outstanding from SQL figures', () => {
  it('the totals and the age chart equal what its rows give, with bills on both sides of each age cut-off', async () => {
    const tz = await organizationTimezone(db(), org());
    const today = localDate(tz);
    const patient = await newPatient('Due', 'Ages', 'Female', '1990-05-05');
    // A bill made as the lab day N days ago began is N days old; one made a millisecond earlier is N + 1.
    for (const days of [0, 7, 30, 90]) {
      const start = startOfLocalDayUtc(tz, addDays(today, -days)).getTime();
      await bill(patient, [{ test_id: glucose }], new Date(start).toISOString(), 50);
      if (days > 0) await bill(patient, [{ test_id: cbc }], new Date(start - 1).toISOString(), 30);
    }
    type Dues = {
      rows: { due: number; days_due: number; amount: number; paid: number }[];
      row_count: number;
      totals: Record<string, number | string>;
      chart: { points: { label: string; value: number }[] };
    };
    const all = (await lab.admin.get('/api/reports/dues?range=365')).json<{ report: Dues }>().report;
    const bucket = (d: number) =>
      d <= 7 ? '0-7 days' : d <= 30 ? '8-30 days' : d <= 90 ? '31-90 days' : 'Over 90 days';
    const paise = (k: 'due' | 'amount' | 'paid', rows = all.rows) =>
      rows.reduce((s, r) => s + Math.round(r[k] * 100), 0);
    const ages = ['0-7 days', '8-30 days', '31-90 days', 'Over 90 days'].map((label) => ({
      label,
      value:
        paise(
          'due',
          all.rows.filter((r) => bucket(r.days_due) === label),
        ) / 100,
    }));
    expect(all.chart.points).toEqual(ages);
    // Every bucket has a bill, and the cut-off days sit on both sides of their bounds.
    expect(ages.every((a) => a.value > 0)).toBe(true);
    expect(all.rows.map((r) => r.days_due)).toEqual(expect.arrayContaining([0, 7, 8, 30, 31, 90, 91]));
    expect(all.totals).toMatchObject({
      bills: all.rows.length,
      amount: paise('amount') / 100,
      paid: paise('paid') / 100,
      due: paise('due') / 100,
    });
    expect(all.row_count).toBe(all.rows.length);
    // The first page: its rows, the same totals and chart.
    const page = (await lab.admin.get('/api/reports/dues?range=365&page=1&limit=3')).json<{ report: Dues }>().report;
    expect(page.rows).toEqual(all.rows.slice(0, 3));
    expect(page.row_count).toBe(all.rows.length);
    expect(page.totals).toEqual(all.totals);
    expect(page.chart).toEqual(all.chart);
  });

  it('Critical Values: the figures come from every critical result, the rows of a page alone', async () => {
    const patient = await newPatient('Crit', 'Calls', 'Male', '1970-03-03');
    const base = Date.now() - 3 * 3600_000;
    const iso = (ms: number) => new Date(ms).toISOString();
    // Called after 10 min, 45 min (and again later), 2 h; two never called.
    const calls: (number[] | null)[] = [[10], [45, 50], [120], null, null];
    for (const [k, after] of calls.entries()) {
      const sample = await seedSample(db(), org(), { patientId: patient, testIds: [glucose], prefix: 'CRIT' });
      const id = await seedResult(db(), org(), {
        sampleId: sample.id,
        patientId: patient,
        testId: glucose,
        value: String(400 + k),
        flag: 'high',
        status: 'completed',
      });
      const entered = base + k * 60_000;
      await db()
        .updateTable('test_results')
        .set({ is_critical: 1, entered_at: iso(entered) })
        .where('id', '=', id)
        .execute();
      for (const m of after ?? [])
        await db()
          .insertInto('critical_calls')
          .values({
            organization_id: org(),
            result_id: id,
            called_to: 'Dr Rao',
            called_at: iso(entered + m * 60_000),
            read_back: 1,
            notes: null,
            recorded_by: null,
            recorded_by_name: 'Asha Admin',
            created_at: iso(entered + m * 60_000),
          })
          .execute();
    }
    type Critical = {
      rows: { minutes_to_call: number | null }[];
      row_count: number;
      totals: Record<string, number | string | null>;
      chart: unknown;
    };
    const get = async (q: string) =>
      (await lab.admin.get(`/api/reports/critical-values?range=7${q}`)).json<{ report: Critical }>().report;
    const all = await get('');
    expect(all.rows.map((r) => r.minutes_to_call)).toEqual([10, 45, 120, null, null]);
    expect(all.totals).toMatchObject({ critical: 5, called: 3, not_called: 2, median_minutes_to_call: 45 });
    expect(all.chart).toMatchObject({
      points: [
        { label: '≤ 30 min', value: 1 },
        { label: '31-60 min', value: 1 },
        { label: 'Over 60 min', value: 1 },
        { label: 'Not called', value: 2 },
      ],
    });
    const pages = [];
    for (let page = 1; page <= 3; page++) {
      const r = await get(`&page=${page}&limit=2`);
      expect(r.row_count).toBe(5);
      expect(r.totals).toEqual(all.totals);
      expect(r.chart).toEqual(all.chart);
      pages.push(...r.rows);
    }
    expect(pages).toEqual(all.rows);
  });
});
