import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { makeLab, type TestLab } from '../helpers.js';
import { seedResult, seedSample } from './lab-records.js';
import {
  billedByTest,
  discountsByUser,
  patientDemographics,
  workloadByTest,
} from '../../src/core/reports/repository.js';
import {
  billedByDoctorSummed,
  billedByTestSummed,
  collectedTestsOnDays,
  billedCategoriesOnDays,
  discountsByUserSummed,
  splitWindow,
  summaryParts,
  tatHistogramSummed,
  workloadByTestSummed,
} from '../../src/core/reports/summary.js';
import { turnaroundByTest } from '../../src/core/reports/turnaround.js';
import { foldTatPending } from '../../src/core/db/summaries.js';
import { tatHistogram } from '../../src/core/analytics/repository.js';
import { billedByCategory, billedByDoctor, ledgerTotalsByDay } from '../../src/core/payments/repository.js';
import { ageOn } from '../../src/shared/age.js';
import { revenueAnalytics, revenueDaily } from '../../src/core/payments/revenue.js';
import { addDays, localDate, startOfLocalDayUtc } from '../../src/shared/time.js';
import { organizationTimezone } from '../../src/core/settings/organization.js';

/**
 * The report summaries of migration 25 are kept by triggers in the write's transaction.
 * After bills made, back-dated, cancelled, refunded and deleted, lines edited, samples collected,
 * re-dated and rejected, results entered, verified, amended and removed, each summary equals a
 * recomputation from the rows, and the reports that read the summaries give what the rows give,
 * for periods with and without partial days at their edges.
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

/** Each summary table as the rows give it (zero rows left out). */
async function recomputed() {
  const billed = await sql<Record<string, unknown>>`
    SELECT b.organization_id, substr(b.created_at, 1, 10) AS day, i.item_type, COALESCE(i.test_id, 0) AS test_id,
      COALESCE(i.profile_id, 0) AS profile_id, COALESCE(i.package_id, 0) AS package_id, i.name,
      COUNT(*) AS lines, SUM(i.qty) AS qty, SUM(i.total_paise) AS total_paise
    FROM bill_items i JOIN bills b ON b.id = i.bill_id WHERE b.cancelled_at IS NULL
    GROUP BY b.organization_id, substr(b.created_at, 1, 10), i.item_type, COALESCE(i.test_id, 0),
      COALESCE(i.profile_id, 0), COALESCE(i.package_id, 0), i.name`.execute(db());
  const work = await sql<Record<string, unknown>>`
    SELECT sa.organization_id, substr(COALESCE(sa.collection_date, sa.created_at), 1, 10) AS day, st.test_id,
      COUNT(*) AS ordered,
      SUM(CASE WHEN sa.collection_date IS NOT NULL THEN 1 ELSE 0 END) AS collected,
      SUM(CASE WHEN r.result_value IS NOT NULL THEN 1 ELSE 0 END) AS resulted,
      SUM(CASE WHEN r.status = 'verified' THEN 1 ELSE 0 END) AS verified,
      SUM(CASE WHEN sa.status = 'rejected' THEN 1 ELSE 0 END) AS rejected
    FROM sample_tests st JOIN samples sa ON sa.id = st.sample_id
    LEFT JOIN test_results r ON r.sample_id = st.sample_id AND r.test_id = st.test_id
    GROUP BY sa.organization_id, substr(COALESCE(sa.collection_date, sa.created_at), 1, 10), st.test_id`.execute(db());
  const discounts = await sql<Record<string, unknown>>`
    SELECT x.organization_id, substr(x.created_at, 1, 10) AS day, COALESCE(x.created_by, 0) AS created_by, COUNT(*) AS bills,
      SUM(CASE WHEN x.line_paise > 0 OR x.discount_amount_paise > 0 THEN 1 ELSE 0 END) AS discounted_bills,
      SUM(x.line_paise) AS line_paise, SUM(x.discount_amount_paise) AS bill_paise, SUM(x.total_before_discount_paise) AS before_paise
    FROM (SELECT b.*, COALESCE((SELECT SUM(i.discount_amount_paise) FROM bill_items i WHERE i.bill_id = b.id), 0) AS line_paise
      FROM bills b WHERE b.cancelled_at IS NULL) x
    GROUP BY x.organization_id, substr(x.created_at, 1, 10), COALESCE(x.created_by, 0)`.execute(db());
  const slots = new Map<string, number[]>();
  const slotOf = (iso: string) =>
    `${iso.slice(0, 14)}${String(Math.floor(Number(iso.slice(14, 16)) / 15) * 15).padStart(2, '0')}`;
  const add = (o: number, iso: string, k: number, v: number) => {
    const key = `${o}|${slotOf(iso)}`;
    const e = slots.get(key) ?? [0, 0, 0, 0];
    e[k] = (e[k] ?? 0) + v;
    slots.set(key, e);
  };
  for (const s of await db().selectFrom('samples').select(['organization_id', 'collection_date', 'status']).execute())
    if (s.collection_date) {
      add(Number(s.organization_id), s.collection_date, 0, 1);
      add(Number(s.organization_id), s.collection_date, 1, s.status === 'rejected' ? 1 : 0);
    }
  for (const r of await db()
    .selectFrom('test_results')
    .select(['organization_id', 'verified_at'])
    .where('status', '=', 'verified')
    .execute())
    if (r.verified_at) add(Number(r.organization_id), r.verified_at, 2, 1);
  for (const l of await db()
    .selectFrom('bill_items as i')
    .innerJoin('bills as b', 'b.id', 'i.bill_id')
    .select(['b.organization_id', 'b.created_at', 'i.total_paise'])
    .where('b.cancelled_at', 'is', null)
    .execute())
    add(Number(l.organization_id), l.created_at, 3, Number(l.total_paise));
  const norm = (rows: Record<string, unknown>[]) =>
    rows
      .map((r) =>
        JSON.stringify(
          Object.fromEntries(
            Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && !/^\d+$/.test(v) ? v : Number(v)]),
          ),
        ),
      )
      .sort();
  return {
    billed: norm(billed.rows),
    work: norm(work.rows),
    discounts: norm(discounts.rows),
    slots: [...slots]
      .filter(([, v]) => v.some((x) => x !== 0))
      .map(([k, v]) => `${k}|${v.join(',')}`)
      .sort(),
  };
}

async function summaries() {
  const norm = (rows: Record<string, unknown>[]) =>
    rows
      .map((r) =>
        JSON.stringify(
          Object.fromEntries(
            Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && !/^\d+$/.test(v) ? v : Number(v)]),
          ),
        ),
      )
      .sort();
  const billed = await db()
    .selectFrom('report_billed_daily')
    .select([
      'organization_id',
      'day',
      'item_type',
      'test_id',
      'profile_id',
      'package_id',
      'name',
      'lines',
      'qty',
      'total_paise',
    ])
    .where('lines', '<>', 0)
    .execute();
  const work = await db()
    .selectFrom('report_workload_daily')
    .select(['organization_id', 'day', 'test_id', 'ordered', 'collected', 'resulted', 'verified', 'rejected'])
    .where('ordered', '<>', 0)
    .execute();
  const slots = await db().selectFrom('report_slots').selectAll().execute();
  const discounts = await db()
    .selectFrom('report_discounts_daily')
    .select([
      'organization_id',
      'day',
      'created_by',
      'bills',
      'discounted_bills',
      'line_paise',
      'bill_paise',
      'before_paise',
    ])
    .where('bills', '<>', 0)
    .execute();
  return {
    billed: norm(billed),
    work: norm(work),
    discounts: norm(discounts),
    slots: slots
      .map((s) => [
        Number(s.samples_collected),
        Number(s.samples_rejected),
        Number(s.results_verified),
        Number(s.billed_paise),
      ])
      .map((v, k) => ({ v, s: slots[k]! }))
      .filter(({ v }) => v.some((x) => x !== 0))
      .map(({ v, s }) => `${s.organization_id}|${s.slot}|${v.join(',')}`)
      .sort(),
  };
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

describe('report summaries (migration 25)', () => {
  it('each summary equals a recomputation from the rows after edits, cancellations, refunds, deletions and verifications', async () => {
    const [want, got] = [await recomputed(), await summaries()];
    expect(got.billed).toEqual(want.billed);
    expect(got.work).toEqual(want.work);
    expect(got.slots).toEqual(want.slots);
    expect(got.discounts).toEqual(want.discounts);
    expect(want.discounts.length).toBeGreaterThan(2);
    expect(want.billed.length).toBeGreaterThan(3);
    expect(want.work.length).toBeGreaterThan(2);
  });

  it('the reports read from the summaries give what the rows give, whatever the edges of the period', async () => {
    const windows = [
      ['2026-10-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z'],
      ['2026-09-30T18:30:00.000Z', '2026-10-31T18:30:00.000Z'],
      ['2026-10-10T18:30:00.000Z', '2026-10-12T18:30:00.000Z'],
      ['2026-10-10T18:29:59.000Z', '2026-10-11T00:00:00.000Z'],
      ['2026-10-11T00:00:00.000Z', '2026-10-12T00:00:00.000Z'],
      ['2026-10-12T00:00:00.000Z', '2026-10-12T00:00:00.000Z'],
    ];
    for (const [fromUtc, toUtc] of windows) {
      const w = { organizationId: org(), fromUtc: fromUtc!, toUtc: toUtc! };
      expect(sorted(await billedByTestSummed(db(), w)), `billed ${fromUtc}`).toEqual(
        sorted(await billedByTest(db(), w)),
      );
      expect(sorted(await workloadByTestSummed(db(), w)), `workload ${fromUtc}`).toEqual(
        sorted(await workloadByTest(db(), w)),
      );
      expect(sorted(await discountsByUserSummed(db(), w)), `discounts ${fromUtc}`).toEqual(
        sorted(await discountsByUser(db(), w)),
      );
    }
    const all = { organizationId: org(), fromUtc: '2026-09-30T18:30:00.000Z', toUtc: '2026-10-31T18:30:00.000Z' };
    expect((await billedByTestSummed(db(), all)).length).toBeGreaterThan(1);
  });

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

  it('a period is its whole UTC days plus the partial days at its edges', () => {
    expect(splitWindow('2026-09-30T18:30:00.000Z', '2026-10-31T18:30:00.000Z')).toEqual({
      edges: [
        { fromUtc: '2026-09-30T18:30:00.000Z', toUtc: '2026-10-01T00:00:00.000Z' },
        { fromUtc: '2026-10-31T00:00:00.000Z', toUtc: '2026-10-31T18:30:00.000Z' },
      ],
      days: { from: '2026-10-01', to: '2026-10-31' },
    });
    expect(splitWindow('2026-10-01T00:00:00.000Z', '2026-10-02T00:00:00.000Z')).toEqual({
      edges: [],
      days: { from: '2026-10-01', to: '2026-10-02' },
    });
    expect(splitWindow('2026-10-01T05:00:00.000Z', '2026-10-01T09:00:00.000Z')).toEqual({
      edges: [{ fromUtc: '2026-10-01T05:00:00.000Z', toUtc: '2026-10-01T09:00:00.000Z' }],
      days: null,
    });
  });

  it('the turnaround table (migration 28) is every verified result of a collected sample, after re-dating, unverifying and deleting', async () => {
    /** What the rows give: verified results of collected samples, the interval in ms and in whole minutes. */
    const fromRows = async () =>
      (
        await db()
          .selectFrom('test_results as r')
          .innerJoin('samples as s', 's.id', 'r.sample_id')
          .select(['r.id', 'r.organization_id', 'r.test_id', 's.collection_date', 'r.verified_at'])
          .where('r.status', '=', 'verified')
          .where('r.verified_at', 'is not', null)
          .where('s.collection_date', 'is not', null)
          .execute()
      )
        .map((r) => {
          const ms = Date.parse(r.verified_at!) - Date.parse(r.collection_date!);
          // Halves away from zero, as SQL's round().
          const minutes = Math.sign(ms) * Math.round(Math.abs(ms) / 60_000);
          return `${r.id}|${r.organization_id}|${r.test_id}|${r.collection_date}|${r.verified_at}|${ms}|${minutes}`;
        })
        .sort();
    const table = async () =>
      (await db().selectFrom('report_turnaround').selectAll().execute())
        .map(
          (t) =>
            `${t.result_id}|${t.organization_id}|${t.test_id}|${t.collected_at}|${t.verified_at}|${Number(t.ms)}|${Number(t.minutes)}`,
        )
        .sort();
    const before = await fromRows();
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(await table()).toEqual(before);

    // A new verified result, its sample re-dated after verification (90.5 minutes: rounds to 91),
    // another result unverified, then a sample deleted with its results.
    const p = await newPatient('Tat', 'Row', 'Male', '1975-05-05');
    const s = await seedSample(db(), org(), { patientId: p, testIds: [glucose, cbc], prefix: 'SUMT' });
    await db()
      .updateTable('samples')
      .set({ collection_date: '2026-10-20T04:00:00.000Z' })
      .where('id', '=', s.id)
      .execute();
    const r = await seedResult(db(), org(), {
      sampleId: s.id,
      patientId: p,
      testId: glucose,
      value: '101',
      flag: 'normal',
      status: 'completed',
    });
    await db()
      .updateTable('test_results')
      .set({ status: 'verified', verified_at: '2026-10-20T06:00:30.000Z' })
      .where('id', '=', r)
      .execute();
    await db()
      .updateTable('samples')
      .set({ collection_date: '2026-10-20T04:30:00.000Z' })
      .where('id', '=', s.id)
      .execute();
    const row = (await table()).find((t) => t.startsWith(`${r}|`));
    expect(row?.split('|').slice(-2)).toEqual(['5430000', '91']);
    expect(await table()).toEqual(await fromRows());

    const other = await seedResult(db(), org(), {
      sampleId: s.id,
      patientId: p,
      testId: cbc,
      value: '13',
      flag: 'normal',
      status: 'verified',
    });
    expect((await table()).some((t) => t.startsWith(`${other}|`))).toBe(true);
    await db().updateTable('test_results').set({ status: 'completed' }).where('id', '=', other).execute();
    expect((await table()).some((t) => t.startsWith(`${other}|`))).toBe(false);
    expect(await table()).toEqual(await fromRows());

    // Turnaround by test and the Analytics histogram read the table: the new result is in both.
    const w = { organizationId: org(), fromUtc: '2026-10-20T00:00:00.000Z', toUtc: '2026-10-21T00:00:00.000Z' };
    const tat = await turnaroundByTest(db(), w);
    // Whole minutes: 90.5 minutes counts as 91 (halves away from zero), as in the Analytics histogram.
    expect(tat.all).toEqual({ results: 1, median: 91, p90: 91 });
    expect(tat.tests.map((t) => [t.test_id, t.results])).toEqual([[glucose, 1]]);
    const hist = await tatHistogram(db(), org(), w.fromUtc, w.toUtc);
    expect(hist.map((h) => [Number(h.minutes), Number(h.n)])).toEqual([[91, 1]]);

    await db().deleteFrom('test_results').where('sample_id', '=', s.id).execute();
    await db().deleteFrom('sample_tests').where('sample_id', '=', s.id).execute();
    await db().deleteFrom('samples').where('id', '=', s.id).execute();
    expect(await table()).toEqual(before);
  });

  it('turnaround by test (whole-minute histogram) equals PERCENTILE.INC over the rows in whole minutes, short and long periods', async () => {
    // More results of one test with known intervals around a 1-hour target (ms past it by 1 s,
    // exactly on it, within its minute and below), plus a long tail.
    const p = await newPatient('Tat', 'Many', 'Male', '1970-01-01');
    await db().updateTable('tests').set({ turnaround_hours: 1 }).where('id', '=', cbc).execute();
    const intervals = [
      3_601_000,
      3_600_000,
      3_629_999,
      3_570_000,
      3_540_000,
      95 * 60_000,
      30 * 60_000,
      2 * 86_400_000 + 17_000,
    ];
    for (const [k, ms] of intervals.entries()) {
      const smp = await seedSample(db(), org(), { patientId: p, testIds: [cbc], prefix: `TATM${k}` });
      const collected = Date.parse('2026-10-25T05:00:00.000Z') + k * 86_400_000;
      await db()
        .updateTable('samples')
        .set({ collection_date: new Date(collected).toISOString() })
        .where('id', '=', smp.id)
        .execute();
      await seedResult(db(), org(), {
        sampleId: smp.id,
        patientId: p,
        testId: cbc,
        value: '1',
        flag: 'normal',
        status: 'completed',
      });
      await db()
        .updateTable('test_results')
        .set({ status: 'verified', verified_at: new Date(collected + ms).toISOString() })
        .where('sample_id', '=', smp.id)
        .execute();
    }
    const windows = [
      ['2026-10-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z'],
      ['2026-09-01T18:30:00.000Z', '2026-12-01T18:30:00.000Z'], // over 62 days: the (test, minutes) index
      ['2026-10-26T00:00:00.000Z', '2026-10-29T12:00:00.000Z'],
      ['2026-11-10T00:00:00.000Z', '2026-11-11T00:00:00.000Z'],
    ];
    for (const [fromUtc, toUtc] of windows) await expectTatAsRows(fromUtc!, toUtc!);
    // The target's own minute is split by milliseconds: 3,601,000 and 3,629,999 ms are over 1 h, 3,600,000 is not.
    const long = await turnaroundByTest(db(), {
      organizationId: org(),
      fromUtc: '2026-09-01T18:30:00.000Z',
      toUtc: '2026-12-01T18:30:00.000Z',
    });
    expect(long.tests.find((t) => t.test_id === cbc)?.over_target).toBe(5);
  });

  it('turnaround by test over whole months (migration 35: a whole-minute histogram per month and test) equals the rows', async () => {
    // A few hundred results of two tests with targets over six months, turnarounds from minutes to
    // days, some exactly on or a millisecond around a whole hour, two verified before collection and
    // two months after it.
    await db().updateTable('tests').set({ turnaround_hours: 2 }).where('id', '=', glucose).execute();
    const p = await newPatient('Tat', 'Months', 'Female', '1980-01-01');
    let seed = 17;
    const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const start = Date.parse('2026-05-20T00:00:00.000Z');
    const span = Date.parse('2026-12-05T00:00:00.000Z') - start;
    const results: { collected: number; ms: number; testId: number }[] = [];
    for (let k = 0; k < 320; k++) {
      const u = rand();
      const ms =
        k < 2
          ? -(k + 1) * 7 * 60_000
          : k < 4
            ? (k === 2 ? 80 : 200) * 86_400_000 + 17_000
            : u < 0.15
              ? (1 + Math.floor(rand() * 4)) * 3_600_000 +
                [-30_001, -30_000, -1, 0, 1, 29_999, 30_000][Math.floor(rand() * 7)]!
              : u < 0.75
                ? Math.floor(30 * 60_000 + rand() * 5 * 3_600_000)
                : Math.floor(rand() * 4 * 86_400_000);
      results.push({ collected: start + Math.floor(rand() * span), ms, testId: rand() < 0.55 ? glucose : cbc });
    }
    // Inserted in bulk, already collected and verified: the rows' insert triggers fill both tables.
    const iso = (ms: number) => new Date(ms).toISOString();
    const samples = await db()
      .insertInto('samples')
      .values(
        results.map((r, k) => ({
          organization_id: org(),
          sample_code: `TATY${String(k).padStart(4, '0')}`,
          barcode: null,
          patient_id: p,
          bill_id: null,
          sample_type: 'Blood',
          collector_id: null,
          location: 'Main Lab',
          priority: 'normal',
          status: 'completed',
          notes: null,
          rejection_reason: null,
          collection_date: iso(r.collected),
          completed_at: null,
          created_by: null,
          created_at: iso(r.collected),
          updated_at: iso(r.collected),
        })),
      )
      .returning('id')
      .execute();
    await db()
      .insertInto('sample_tests')
      .values(results.map((r, k) => ({ sample_id: samples[k]!.id, test_id: r.testId, position: 0 })))
      .execute();
    await db()
      .insertInto('test_results')
      .values(
        results.map((r, k) => ({
          organization_id: org(),
          sample_id: samples[k]!.id,
          test_id: r.testId,
          patient_id: p,
          result_value: '1',
          unit: 'mg/dL',
          normal_range: '70-110',
          flag: 'normal',
          is_critical: 0,
          status: 'verified',
          review_required: 0,
          notes: null,
          rejection_reason: null,
          technician_id: null,
          entered_at: iso(r.collected + r.ms),
          verified_by: null,
          verified_at: iso(r.collected + r.ms),
          amended: 0,
          created_at: iso(r.collected),
          updated_at: iso(r.collected + r.ms),
        })),
      )
      .execute();
    // The summary is the rows' count per month, test and bucket (after re-dating and deleting too, below).
    // The histograms (on PostgreSQL with their pending changes) are the rows' counts; on PostgreSQL
    // again after folding the pending changes in, which leaves none.
    const summaryAsRows = async () => {
      const check = async () => {
        const table = await sql<Record<string, unknown>>`SELECT organization_id, month, test_id, n,
            ${sql.raw(lab.database.engine === 'postgres' ? 'minutes::text AS minutes, above::text AS above' : 'minutes, above')}
            FROM report_tat_test_monthly`.execute(db());
        const pending =
          lab.database.engine === 'postgres'
            ? (
                await sql<
                  Record<string, unknown>
                >`SELECT organization_id, month, test_id, minutes, n, above FROM report_tat_test_pending`.execute(db())
              ).rows
            : [];
        const rows = await sql<Record<string, unknown>>`SELECT organization_id, substr(collected_at, 1, 7) AS month,
            test_id, minutes, COUNT(*) AS n, SUM(CASE WHEN minutes % 60 = 0 AND ms > minutes * 60000 THEN 1 ELSE 0 END) AS above
            FROM report_turnaround GROUP BY 1, 2, 3, 4`.execute(db());
        // Both as (lab, month, test, minute) -> "count|past the whole hour", zero counts left out.
        const sums = new Map<string, [number, number]>();
        const add = (key: unknown[], n: number, above: number) => {
          const k = key.map(String).join('|');
          const e = sums.get(k) ?? [0, 0];
          sums.set(k, [e[0] + n, e[1] + above]);
        };
        for (const t of table.rows) {
          const above = JSON.parse(String(t.above)) as Record<string, number>;
          const minutes = JSON.parse(String(t.minutes)) as Record<string, number>;
          for (const [m, n] of Object.entries(minutes))
            add([t.organization_id, t.month, t.test_id, m], n, above[m] ?? 0);
          // n is each row's count.
          expect(Number(t.n)).toBe(Object.values(minutes).reduce((x, y) => x + y, 0));
        }
        for (const p of pending) add([p.organization_id, p.month, p.test_id, p.minutes], Number(p.n), Number(p.above));
        const fromSummary = [...sums].filter(([, [n]]) => n !== 0).map(([k, [n, a]]) => `${k}|${n}|${a}`);
        const fromRows = rows.rows.map((r) =>
          [r.organization_id, r.month, r.test_id, r.minutes, r.n, r.above].map((v) => String(Number(v) || v)).join('|'),
        );
        expect(fromSummary.sort()).toEqual(fromRows.sort());
        return pending.length;
      };
      if ((await check()) === 0) return;
      expect(await foldTatPending(db())).toBeGreaterThan(0);
      expect(await check()).toBe(0);
    };

    const windows: [string, string][] = [
      ['2026-05-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
      ['2026-06-01T00:00:00.000Z', '2026-09-01T00:00:00.000Z'],
      ['2026-05-31T18:30:00.000Z', '2026-11-30T18:30:00.000Z'],
      ['2026-07-01T00:00:00.000Z', '2026-08-01T00:00:00.000Z'],
    ];
    for (let k = 0; k < 12; k++) {
      const a = start + Math.floor(rand() * span);
      const b = a + Math.floor(rand() * (span - (a - start)));
      windows.push([new Date(a).toISOString(), new Date(b).toISOString()]);
    }
    // On PostgreSQL every change is still pending here: the figures read the histograms and them.
    for (const [fromUtc, toUtc] of windows) await expectTatAsRows(fromUtc, toUtc);
    await summaryAsRows();
    for (const [fromUtc, toUtc] of windows) await expectTatAsRows(fromUtc, toUtc);

    const some = await db().selectFrom('samples').select('id').where('sample_code', 'like', 'TATY01%').execute();
    await db()
      .updateTable('samples')
      .set({ collection_date: '2026-08-31T23:59:59.999Z' })
      .where(
        'id',
        'in',
        some.slice(0, 5).map((r) => r.id),
      )
      .execute();
    await db()
      .deleteFrom('test_results')
      .where(
        'sample_id',
        'in',
        some.slice(5, 10).map((r) => r.id),
      )
      .execute();
    for (const [fromUtc, toUtc] of windows.slice(0, 4)) await expectTatAsRows(fromUtc, toUtc);
    await summaryAsRows();
    for (const [fromUtc, toUtc] of windows.slice(0, 4)) await expectTatAsRows(fromUtc, toUtc);
  });
});

/** A patient made through the API; its id. */
async function newPatient(first_name: string, last_name: string, gender: string, date_of_birth: string) {
  return (await lab.admin.post('/api/patients', { first_name, last_name, gender, date_of_birth })).json().patient
    .id as number;
}

/** Turnaround by test of a period equals what the rows give. */
async function expectTatAsRows(fromUtc: string, toUtc: string) {
  const got = await turnaroundByTest(db(), { organizationId: org(), fromUtc, toUtc });
  const want = await tatFromRows(fromUtc, toUtc);
  const window = `${fromUtc} - ${toUtc}`;
  expect(got.all, window).toEqual(want.all);
  expect(
    got.tests
      .map((t) => ({
        test_id: t.test_id,
        results: t.results,
        median: t.median,
        p90: t.p90,
        over_target: t.over_target,
      }))
      .sort((a, b) => a.test_id - b.test_id),
    window,
  ).toEqual(want.tests);
}

/** Turnaround by test as the rows give it: whole minutes per test, PERCENTILE.INC, over target in milliseconds. */
async function tatFromRows(fromUtc: string, toUtc: string) {
  const rows = await db()
    .selectFrom('test_results as r')
    .innerJoin('samples as s', 's.id', 'r.sample_id')
    .innerJoin('tests as t', 't.id', 'r.test_id')
    .select(['r.test_id', 's.collection_date', 'r.verified_at', 't.turnaround_hours'])
    .where('r.organization_id', '=', org())
    .where('r.status', '=', 'verified')
    .where('r.verified_at', 'is not', null)
    .where('s.collection_date', '>=', fromUtc)
    .where('s.collection_date', '<', toUtc)
    .execute();
  const inc = (xs: number[], q: number) => {
    if (xs.length === 0) return null;
    const v = [...xs].sort((a, b) => a - b);
    const i = (v.length - 1) * q;
    return v[Math.floor(i)]! + (v[Math.ceil(i)]! - v[Math.floor(i)]!) * (i - Math.floor(i));
  };
  const per = new Map<number, { minutes: number[]; over: number; hours: number | null }>();
  const all: number[] = [];
  for (const r of rows) {
    const ms = Date.parse(r.verified_at!) - Date.parse(r.collection_date!);
    const minutes = Math.sign(ms) * Math.round(Math.abs(ms) / 60_000);
    const hours = r.turnaround_hours === null ? null : Number(r.turnaround_hours);
    const e = per.get(Number(r.test_id)) ?? { minutes: [], over: 0, hours };
    e.minutes.push(minutes);
    if (hours !== null && ms > hours * 3_600_000) e.over += 1;
    per.set(Number(r.test_id), e);
    all.push(minutes);
  }
  return {
    all: { results: all.length, median: inc(all, 0.5), p90: inc(all, 0.9) },
    tests: [...per]
      .map(([id, e]) => ({
        test_id: id,
        results: e.minutes.length,
        median: inc(e.minutes, 0.5),
        p90: inc(e.minutes, 0.9),
        over_target: e.hours === null ? null : e.over,
      }))
      .sort((a, b) => a.test_id - b.test_id),
  };
}

/** Rows as sorted JSON lines, numeric text as numbers (PostgreSQL returns BIGINT sums as text). */
const lines = (rows: Record<string, unknown>[]) =>
  rows
    .map((r) =>
      JSON.stringify(
        Object.fromEntries(
          Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && !/^-?\d+$/.test(v) ? v : Number(v)]),
        ),
      ),
    )
    .sort();

/** Migration 32's tables, zero rows left out, and what the rows (or the daily tables, for a month) give. */
async function year32() {
  const q = async (text: string) => lines((await sql<Record<string, unknown>>`${sql.raw(text)}`.execute(db())).rows);
  const rollup = (daily: string, monthly: string, key: string, cols: string[], nonzero: string) =>
    Promise.all([
      q(`SELECT organization_id, month, ${key}, ${cols.join(', ')} FROM ${monthly} WHERE ${nonzero} <> 0`),
      q(`SELECT organization_id, substr(day, 1, 7) AS month, ${key}, ${cols.map((c) => `SUM(${c}) AS ${c}`).join(', ')}
         FROM ${daily} GROUP BY organization_id, substr(day, 1, 7), ${key} HAVING SUM(${nonzero}) <> 0`),
    ]);
  return {
    ledger: await Promise.all([
      q(`SELECT organization_id, value_date, method, kind, amount_paise, n FROM report_ledger_daily WHERE n <> 0`),
      q(`SELECT organization_id, value_date, method, kind, SUM(amount_paise) AS amount_paise, COUNT(*) AS n FROM payments
         WHERE value_date IS NOT NULL AND status IN ('completed', 'refunded') GROUP BY organization_id, value_date, method, kind`),
    ]),
    tat: await Promise.all([
      q(`SELECT organization_id, day, minutes, n FROM report_tat_daily WHERE n <> 0`),
      q(`SELECT organization_id, substr(verified_at, 1, 10) AS day, minutes, COUNT(*) AS n FROM report_turnaround
         GROUP BY organization_id, substr(verified_at, 1, 10), minutes`),
    ]),
    doctor: await Promise.all([
      q(
        `SELECT organization_id, day, doctor_id, bills, final_paise, discount_paise FROM report_doctor_daily WHERE bills <> 0`,
      ),
      q(`SELECT organization_id, substr(created_at, 1, 10) AS day, COALESCE(doctor_id, 0) AS doctor_id, COUNT(*) AS bills,
         SUM(final_amount_paise) AS final_paise, SUM(discount_amount_paise) AS discount_paise FROM bills
         WHERE cancelled_at IS NULL GROUP BY organization_id, substr(created_at, 1, 10), COALESCE(doctor_id, 0)`),
    ]),
    billedMonths: await rollup(
      'report_billed_daily',
      'report_billed_monthly',
      'item_type, test_id, profile_id, package_id, name',
      ['lines', 'qty', 'total_paise'],
      'lines',
    ),
    workMonths: await rollup(
      'report_workload_daily',
      'report_workload_monthly',
      'test_id',
      ['ordered', 'collected', 'resulted', 'verified', 'rejected'],
      'ordered',
    ),
    tatMonths: await rollup('report_tat_daily', 'report_tat_monthly', 'minutes', ['n'], 'n'),
    doctorMonths: await rollup(
      'report_doctor_daily',
      'report_doctor_monthly',
      'doctor_id',
      ['bills', 'final_paise', 'discount_paise'],
      'bills',
    ),
  };
}

async function expectYear32Exact(when: string) {
  const y = await year32();
  for (const [name, [table, rows]] of Object.entries(y)) expect(table, `${name} ${when}`).toEqual(rows);
  return y;
}

describe('summaries of migration 32', () => {
  it('a period of whole UTC days is its whole months plus the days outside them', () => {
    const cases: [string, string, ReturnType<typeof summaryParts>][] = [
      ['2026-10-05', '2026-10-20', [{ monthly: false, column: 'day', from: '2026-10-05', to: '2026-10-20' }]],
      ['2026-10-01', '2026-10-31', [{ monthly: false, column: 'day', from: '2026-10-01', to: '2026-10-31' }]],
      ['2026-10-01', '2026-11-01', [{ monthly: true, column: 'month', from: '2026-10', to: '2026-11' }]],
      [
        '2025-11-27',
        '2026-11-26',
        [
          { monthly: true, column: 'month', from: '2025-12', to: '2026-11' },
          { monthly: false, column: 'day', from: '2025-11-27', to: '2025-12-01' },
          { monthly: false, column: 'day', from: '2026-11-01', to: '2026-11-26' },
        ],
      ],
      [
        '2026-12-31',
        '2027-02-02',
        [
          { monthly: true, column: 'month', from: '2027-01', to: '2027-02' },
          { monthly: false, column: 'day', from: '2026-12-31', to: '2027-01-01' },
          { monthly: false, column: 'day', from: '2027-02-01', to: '2027-02-02' },
        ],
      ],
    ];
    for (const [from, to, want] of cases) expect(summaryParts({ from, to }), `${from}..${to}`).toEqual(want);
  });

  it('each table equals the rows (each month the sum of its days) after bills, payments, results and samples change, across month and lab-day bounds', async () => {
    await expectYear32Exact('after the shared data');
    const doctors = await db().selectFrom('users').select('id').where('organization_id', '=', org()).limit(2).execute();
    expect(doctors.length).toBeGreaterThan(0);
    const doctor = Number(doctors[0]!.id);
    const p = await newPatient('Year', 'Summary', 'Male', '1990-06-15');
    // Bills across month ends at the lab's midnight (18:30 UTC) and the UTC midnight, with a doctor.
    const made = [
      await bill(p, [{ test_id: glucose }], '2026-09-30T18:29:59.999Z'),
      await bill(p, [{ test_id: cbc }, { test_id: glucose }], '2026-09-30T18:30:00.000Z'),
      await bill(p, [{ test_id: cbc }], '2026-11-30T23:59:59.999Z', 0),
      await bill(p, [{ test_id: glucose, qty: 3 }], '2026-12-01T00:00:00.000Z'),
      await bill(p, [{ test_id: cbc }], '2026-12-31T20:00:00.000Z', 0),
      await bill(p, [{ test_id: glucose }], '2027-01-02T10:00:00.000Z'),
    ];
    await db().updateTable('bills').set({ doctor_id: doctor }).where('id', 'in', made.slice(0, 4)).execute();
    await expectYear32Exact('after bills with a doctor');
    // A bill's doctor taken away, a discount given, a bill moved to another month, one cancelled
    // through the API, one deleted, a payment received through the API, a refund.
    await db().updateTable('bills').set({ doctor_id: null }).where('id', '=', made[1]!).execute();
    await db()
      .updateTable('bills')
      .set({ discount_amount_paise: 2500, final_amount_paise: 17500 })
      .where('id', '=', made[0]!)
      .execute();
    await db()
      .updateTable('bills')
      .set({ created_at: '2027-01-01T00:00:00.000Z' })
      .where('id', '=', made[3]!)
      .execute();
    expect(
      (await lab.admin.put(`/api/bills/${made[4]}`, { status: 'cancelled', cancel_reason: 'Wrong patient' }))
        .statusCode,
    ).toBe(200);
    const paid = await lab.admin.post('/api/payments', { bill_id: made[2], amount: 100, method: 'cash' });
    expect(paid.statusCode, paid.body).toBe(201);
    const pay = await db()
      .selectFrom('payments')
      .select('id')
      .where('bill_id', '=', made[5]!)
      .executeTakeFirstOrThrow();
    const refund = await lab.admin.post(`/api/payments/${pay.id}/refund`, { amount: 40, reason: 'Overcharged' });
    expect(refund.statusCode, refund.body).toBe(201);
    await expectYear32Exact('after bill edits, a cancellation, a payment and a refund');
    // Payments: a cheque bounced (failed), a value date moved, an amount and method changed, a payment removed.
    const pays = await db()
      .selectFrom('payments')
      .select(['id', 'bill_id', 'kind'])
      .where('bill_id', 'in', made)
      .where('kind', '=', 'payment')
      .orderBy('id')
      .execute();
    expect(pays.length).toBeGreaterThan(3);
    await db().updateTable('payments').set({ status: 'failed' }).where('id', '=', pays[0]!.id).execute();
    await db().updateTable('payments').set({ value_date: '2026-12-01' }).where('id', '=', pays[1]!.id).execute();
    await db()
      .updateTable('payments')
      .set({ amount_paise: 12345, method: 'upi' })
      .where('id', '=', pays[2]!.id)
      .execute();
    const spare = await bill(p, [{ test_id: cbc }], '2026-11-15T09:00:00.000Z');
    await db().deleteFrom('payments').where('bill_id', '=', spare).execute();
    await db().deleteFrom('bills').where('id', '=', spare).execute();
    await expectYear32Exact('after payments changed');

    // Results verified across month ends and lab-day bounds, re-dated, unverified, deleted; a sample rejected.
    const s = await seedSample(db(), org(), { patientId: p, testIds: [glucose, cbc], prefix: 'SUMY' });
    await db()
      .updateTable('samples')
      .set({ collection_date: '2026-11-30T17:00:00.000Z' })
      .where('id', '=', s.id)
      .execute();
    const r1 = await seedResult(db(), org(), {
      sampleId: s.id,
      patientId: p,
      testId: glucose,
      value: '99',
      flag: 'normal',
      status: 'completed',
    });
    const r2 = await seedResult(db(), org(), {
      sampleId: s.id,
      patientId: p,
      testId: cbc,
      value: '11',
      flag: 'normal',
      status: 'completed',
    });
    await db()
      .updateTable('test_results')
      .set({ status: 'verified', verified_at: '2026-11-30T18:30:00.000Z' })
      .where('id', '=', r1)
      .execute();
    await db()
      .updateTable('test_results')
      .set({ status: 'verified', verified_at: '2026-12-01T00:00:30.000Z' })
      .where('id', '=', r2)
      .execute();
    await expectYear32Exact('after verifications');
    await db()
      .updateTable('samples')
      .set({ collection_date: '2026-11-29T05:00:00.000Z' })
      .where('id', '=', s.id)
      .execute();
    await db()
      .updateTable('test_results')
      .set({ verified_at: '2027-01-01T01:00:00.000Z' })
      .where('id', '=', r1)
      .execute();
    await expectYear32Exact('after re-dating');
    await db()
      .updateTable('test_results')
      .set({ status: 'completed', verified_at: null })
      .where('id', '=', r2)
      .execute();
    await db().deleteFrom('test_results').where('id', '=', r1).execute();
    const rej = await lab.admin.put(`/api/samples/${s.id}/status`, { status: 'rejected', notes: 'Clotted' });
    expect(rej.statusCode, rej.body).toBe(200);
    const y = await expectYear32Exact('after unverifying, deleting and rejecting');
    expect(y.ledger[0].length).toBeGreaterThan(3);
    expect(y.doctor[0].length).toBeGreaterThan(3);
    expect(y.tatMonths[0].length).toBeGreaterThan(1);
    expect(y.billedMonths[0].length).toBeGreaterThan(3);
    expect(y.doctorMonths[0].length).toBeGreaterThan(3);
  });

  it('the readers give what the rows give for periods of whole months, whole days and partial days', async () => {
    const windows = [
      ['2026-09-15T00:00:00.000Z', '2026-11-15T00:00:00.000Z'],
      ['2026-08-31T18:30:00.000Z', '2027-01-31T18:30:00.000Z'],
      ['2026-09-30T18:30:00.000Z', '2026-12-31T18:30:00.000Z'],
      ['2026-10-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
      ['2026-11-30T18:29:59.999Z', '2026-12-01T00:00:00.000Z'],
      ['2025-12-31T18:30:00.000Z', '2027-12-31T18:30:00.000Z'],
    ];
    for (const [fromUtc, toUtc] of windows) {
      const w = { organizationId: org(), fromUtc: fromUtc!, toUtc: toUtc! };
      expect(sorted(await billedByTestSummed(db(), w)), `billed ${fromUtc}`).toEqual(
        sorted(await billedByTest(db(), w)),
      );
      expect(sorted(await workloadByTestSummed(db(), w)), `workload ${fromUtc}`).toEqual(
        sorted(await workloadByTest(db(), w)),
      );
      expect(await tatHistogramSummed(db(), org(), w.fromUtc, w.toUtc), `tat ${fromUtc}`).toEqual(
        (await tatHistogram(db(), org(), w.fromUtc, w.toUtc)).map((h) => ({
          minutes: Number(h.minutes),
          n: Number(h.n),
        })),
      );
      expect(sorted(await billedByDoctorSummed(db(), w)), `doctor ${fromUtc}`).toEqual(
        sorted(await billedByDoctor(db(), org(), w.fromUtc, w.toUtc)),
      );
      const days = splitWindow(w.fromUtc, w.toUtc).days;
      if (days) {
        const categories = await billedCategoriesOnDays(db(), org(), days);
        const collected = await collectedTestsOnDays(db(), org(), days);
        const whole = { ...w, fromUtc: `${days.from}T00:00:00.000Z`, toUtc: `${days.to}T00:00:00.000Z` };
        const byTest = await billedByTest(db(), whole);
        const byCategory = new Map<string, number>();
        for (const r of byTest) {
          const c = r.item_type === 'test' ? r.category : null;
          byCategory.set(String(c), (byCategory.get(String(c)) ?? 0) + Number(r.total_paise));
        }
        expect(new Map(categories.map((c) => [String(c.category), c.paise])), `categories ${fromUtc}`).toEqual(
          byCategory,
        );
        const ordered = await db()
          .selectFrom('sample_tests as st')
          .innerJoin('samples as sa', 'sa.id', 'st.sample_id')
          .select(['st.test_id', sql<number>`COUNT(*)`.as('n')])
          .where('sa.organization_id', '=', org())
          .where('sa.collection_date', '>=', whole.fromUtc)
          .where('sa.collection_date', '<', whole.toUtc)
          .groupBy('st.test_id')
          .execute();
        expect(sorted(collected.map((c) => ({ test_id: Number(c.test_id), n: c.n }))), `collected ${fromUtc}`).toEqual(
          sorted(ordered.map((r) => ({ test_id: Number(r.test_id), n: Number(r.n) }))),
        );
      }
    }
    // The whole ledger's per-day totals equal the rows'.
    const ledgerRows = await sql<
      Record<string, unknown>
    >`SELECT value_date, method, kind, SUM(amount_paise) AS amount_paise,
      COUNT(*) AS n FROM payments WHERE organization_id = ${org()} AND value_date >= '2026-09-01' AND value_date <= '2027-01-31'
      AND status IN ('completed', 'refunded') GROUP BY value_date, method, kind`.execute(db());
    expect(lines(await ledgerTotalsByDay(db(), org(), '2026-09-01', '2027-01-31'))).toEqual(lines(ledgerRows.rows));
    expect(ledgerRows.rows.length).toBeGreaterThan(1);
  });

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
