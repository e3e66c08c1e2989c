import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { seedResult, seedSample } from './lab-records.js';
import { workloadByTest } from '../../src/core/reports/repository.js';
import { billedByTest } from '../../src/core/reports/bills-repository.js';
import { billedByTestSummed, workloadByTestSummed } from '../../src/core/reports/summary.js';
import { turnaroundByTest } from '../../src/core/reports/turnaround.js';
import { planDays, refreshRollups, restartRollups } from '../../src/core/reports/rollups/days.js';
import { analytics } from '../../src/core/analytics/service.js';
import { billedByCategory } from '../../src/core/payments/repository.js';
import { revenueAnalytics } from '../../src/core/reports/revenue-analytics.js';
import { addDays, startOfLocalDayUtc } from '../../src/shared/time.js';
import { organizationTimezone } from '../../src/core/settings/organization.js';
import type { Db } from '../../src/core/db/connection.js';
import { analyticsFromRows, sorted, tatFromRows } from './report-rollups-support.js';

/**
 * The report rollups (one row per lab day, rebuilt from that day's rows; writes only mark a minute
 * stale) give the figures the rows give: a lab with bills, cancelled bills, refunds, samples,
 * results and verifications over forty days, across the lab's day bounds, is read through every
 * report that uses a rollup and compared with the same figures computed here from the rows, fresh,
 * stale (read inside a transaction, so nothing is rebuilt), after writes to past days, and after a
 * change of time zone.
 */

let lab: TestLab;
const db = () => lab.database.db;
const org = () => lab.organizationId;
const tests: number[] = [];
/** The analytics' "now": after every row of the lab. */
const NOW = new Date('2026-10-31T06:00:00.000Z');
const FIRST_DAY = '2026-09-21';
const DAYS = 40;

/** A small deterministic generator, so every run builds the same lab. */
let seed = 7;
const rand = (n: number) => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return (seed >>> 16) % n;
};

async function bill(patientId: number, testIds: number[], createdAt: string, paid: boolean) {
  const res = await lab.admin.post('/api/bills', {
    visit_type: 'lab_only',
    patient_id: patientId,
    items: testIds.map((id) => ({ item_type: 'test', item_id: id, qty: 1 + rand(2) })),
    ...(paid ? { amount_paid: 100 } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().bill.id as number;
  await db().updateTable('bills').set({ created_at: createdAt }).where('id', '=', id).execute();
  return id;
}

const at = (day: string, minutesAfterUtcMidnight: number, ms = 0) =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + minutesAfterUtcMidnight * 60_000 + ms).toISOString();

beforeAll(async () => {
  lab = await makeLab();
  for (const [name, code, category, hours] of [
    ['Glucose Fasting', 'RGLU', 'Biochemistry', 2],
    ['Complete Blood Count', 'RCBC', 'Hematology', 4],
    ['Thyroid Profile', 'RTSH', '', null],
  ] as const) {
    const t = await lab.admin.post('/api/tests', { name, code, price: 150 + rand(300), category });
    expect(t.statusCode, t.body).toBe(201);
    tests.push(t.json().test.id as number);
    await db().updateTable('tests').set({ turnaround_hours: hours }).where('id', '=', t.json().test.id).execute();
  }
  const patient = (
    await lab.admin.post('/api/patients', {
      first_name: 'Roll',
      last_name: 'Up',
      gender: 'Female',
      date_of_birth: '1980-01-01',
    })
  ).json().patient.id as number;
  for (let k = 0; k < DAYS; k++) {
    const day = addDays(FIRST_DAY, k);
    // Around the lab's midnight (18:30 UTC in Asia/Kolkata) and New York's (04:00 or 05:00 UTC).
    for (const minute of [rand(1440), 1080 + rand(120), 240 + rand(90)]) {
      const picked = tests.filter(() => rand(3) > 0);
      const cancel = rand(6) === 0;
      const b = await bill(patient, picked.length ? picked : [tests[0]!], at(day, minute), !cancel && rand(4) > 0);
      if (cancel)
        expect(
          (await lab.admin.put(`/api/bills/${b}`, { status: 'cancelled', cancel_reason: 'Twice' })).statusCode,
        ).toBe(200);
      else if (rand(5) === 0) {
        const pay = await db().selectFrom('payments').select('id').where('bill_id', '=', b).executeTakeFirst();
        if (!pay) continue;
        const refund = await lab.admin.post(`/api/payments/${pay.id}/refund`, { amount: 40, reason: 'Overcharged' });
        expect(refund.statusCode, refund.body).toBe(201);
      }
    }
    for (let s = 0; s < 3; s++) {
      const collected = rand(5) === 0 ? null : at(day, 1050 + rand(180) + s * 200);
      const sample = await seedSample(db(), org(), {
        patientId: patient,
        testIds: tests.filter(() => rand(4) > 0),
        status: collected ? (rand(8) === 0 ? 'rejected' : 'processing') : 'pending',
        prefix: 'ROLL',
      });
      await db()
        .updateTable('samples')
        .set({ collection_date: collected, created_at: at(day, 600 + s) })
        .where('id', '=', sample.id)
        .execute();
      if (!collected) continue;
      const ordered = await db()
        .selectFrom('sample_tests')
        .select('test_id')
        .where('sample_id', '=', sample.id)
        .execute();
      for (const { test_id } of ordered) {
        const kind = rand(5);
        if (kind === 0) continue;
        const r = await seedResult(db(), org(), {
          sampleId: sample.id,
          patientId: patient,
          testId: Number(test_id),
          value: String(80 + rand(40)),
          flag: 'normal',
          status: kind === 1 ? 'completed' : 'verified',
        });
        if (kind === 1) continue;
        // Whole hours exactly, a millisecond past them, any minute, and now and then before collection.
        const after =
          kind === 2
            ? (1 + rand(5)) * 60 * 60_000 + rand(2)
            : kind === 3
              ? rand(600) * 60_000 + rand(60_000)
              : -rand(3) * 60_000;
        await db()
          .updateTable('test_results')
          .set({ verified_at: new Date(Date.parse(collected) + after).toISOString() })
          .where('id', '=', r)
          .execute();
      }
    }
  }
});

afterAll(() => lab.close());

async function windows(d: Db = db()) {
  const tz = await organizationTimezone(d, org());
  const utc = (d: string) => startOfLocalDayUtc(tz, d).toISOString();
  const last = addDays(FIRST_DAY, DAYS);
  return [
    [utc(addDays(FIRST_DAY, -1)), utc(addDays(last, 1))],
    [utc(addDays(FIRST_DAY, 5)), utc(addDays(FIRST_DAY, 12))],
    [utc(addDays(FIRST_DAY, 9)), utc(addDays(FIRST_DAY, 10))],
    // Not on lab-day bounds: partial days at both edges.
    ['2026-09-25T07:13:00.000Z', '2026-10-19T22:01:00.000Z'],
  ].map(([fromUtc, toUtc]) => ({ organizationId: org(), fromUtc: fromUtc!, toUtc: toUtc! }));
}

/** Every report that reads a rollup, against the rows, on `d` (a transaction: nothing is rebuilt). */
async function expectAsRows(d: Db, label: string) {
  for (const w of await windows(d)) {
    const where = `${label}: ${w.fromUtc} - ${w.toUtc}`;
    expect(sorted(await billedByTestSummed(d, w)), `revenue by test ${where}`).toEqual(
      sorted(await billedByTest(d, w)),
    );
    expect(sorted(await workloadByTestSummed(d, w)), `workload ${where}`).toEqual(sorted(await workloadByTest(d, w)));
    const tat = await turnaroundByTest(d, w);
    const want = await tatFromRows(d, org(), w.fromUtc, w.toUtc);
    expect(tat.all, `turnaround ${where}`).toEqual(want.all);
    expect(
      tat.tests
        .map((t) => ({
          test_id: t.test_id,
          results: t.results,
          median: t.median,
          p90: t.p90,
          over_target: t.over_target,
        }))
        .sort((a, b) => a.test_id - b.test_id),
      `turnaround by test ${where}`,
    ).toEqual(want.tests);
  }
  for (const days of [7, 30, 90] as const) {
    const got = await analytics(d, org(), { days }, NOW);
    const want = await analyticsFromRows(d, org(), days, NOW);
    const where = `${label}: analytics ${days} days`;
    expect(got.daily, where).toEqual(want.daily);
    expect(got.performance.rejected_samples, where).toBe(want.rejected);
    expect(
      {
        results: got.performance.tat_results,
        median: got.performance.tat_median_minutes,
        p90: got.performance.tat_p90_minutes,
      },
      where,
    ).toEqual(want.tat);
    expect(sorted(got.revenue_by_category), where).toEqual(want.categories);
    expect(sorted(got.test_distribution.map((t) => ({ test_id: t.test_id, count: t.count }))), where).toEqual(
      want.tests,
    );
  }
  const tz = await organizationTimezone(d, org());
  const from = FIRST_DAY;
  const to = addDays(FIRST_DAY, DAYS - 1);
  const cats = (await revenueAnalytics(d, org(), { from, to })).by_category;
  const rows = await billedByCategory(
    d,
    org(),
    startOfLocalDayUtc(tz, from).toISOString(),
    startOfLocalDayUtc(tz, addDays(to, 1)).toISOString(),
  );
  expect(sorted(cats), `${label}: revenue by category`).toEqual(
    sorted(rows.map((r) => ({ category: r.category, amount: Number(r.amount_paise) / 100, items: Number(r.items) }))),
  );
}

/** Inside a transaction: the readers rebuild nothing, so stale days are read from the rows. */
const inTransaction = (read: (trx: Db) => Promise<void>) =>
  db()
    .transaction()
    .execute((trx) => read(trx));

const count = async (
  table: 'rollup_stale' | 'rollup_billed' | 'rollup_workload' | 'rollup_turnaround' | 'rollup_day',
) =>
  Number(
    (
      await db()
        .selectFrom(table)
        .select((e) => e.fn.countAll().as('n'))
        .where('organization_id', '=', org())
        .executeTakeFirstOrThrow()
    ).n,
  );

async function wholeRange() {
  const w = (await windows())[0]!;
  return [w.fromUtc, w.toUtc] as const;
}

async function rollupRows() {
  const out: Record<string, string[]> = {};
  for (const t of ['rollup_billed', 'rollup_workload', 'rollup_turnaround', 'rollup_day'] as const)
    out[t] = sorted(await db().selectFrom(t).selectAll().where('organization_id', '=', org()).execute());
  return out;
}

describe('report rollups rebuilt per lab day', () => {
  it('writes only mark minutes stale; a stale period is read from the rows', async () => {
    expect(await count('rollup_stale')).toBeGreaterThan(100);
    expect(await count('rollup_billed')).toBe(0);
    const [fromUtc, toUtc] = await wholeRange();
    // Every day with rows is stale (the days around them have none: nothing to rebuild).
    const plan = await planDays(db(), org(), fromUtc, toUtc);
    expect(plan.runs.filter((r) => r.to > FIRST_DAY && r.from < addDays(FIRST_DAY, DAYS))).toEqual([]);
    await inTransaction((trx) => expectAsRows(trx, 'all stale'));
    expect(await count('rollup_billed')).toBe(0);
  });

  it('a reader rebuilds the stale days of its period, then reads them from the rollups', async () => {
    await expectAsRows(db(), 'refreshed');
    const [fromUtc, toUtc] = await wholeRange();
    const plan = await planDays(db(), org(), fromUtc, toUtc);
    expect(plan.runs.length).toBe(1);
    expect(plan.raw).toEqual([]);
    for (const t of ['rollup_billed', 'rollup_workload', 'rollup_turnaround', 'rollup_day'] as const)
      expect(await count(t), t).toBeGreaterThan(10);
    await inTransaction((trx) => expectAsRows(trx, 'fresh'));
  });

  it("each day's rollups are a pure function of its rows: rebuilt from scratch they are the same rows", async () => {
    const before = await rollupRows();
    const [fromUtc, toUtc] = await wholeRange();
    await restartRollups(db(), org());
    expect(await count('rollup_billed')).toBe(0);
    expect(await refreshRollups(db(), org(), fromUtc, toUtc)).toBeGreaterThan(DAYS - 2);
    expect(await rollupRows()).toEqual(before);
    expect(await refreshRollups(db(), org(), fromUtc, toUtc)).toBe(0);
  });

  it('writes to past days mark them stale, and the figures follow the rows', async () => {
    const day = (k: number) => addDays(FIRST_DAY, k);
    const someBills = await db()
      .selectFrom('bills')
      .select('id')
      .where('organization_id', '=', org())
      .where('cancelled_at', 'is', null)
      .where('paid_paise', '=', 0)
      .orderBy('id')
      .limit(4)
      .execute();
    const [b1, b2, b3, b4] = someBills.map((b) => b.id);
    expect((await lab.admin.put(`/api/bills/${b1}`, { status: 'cancelled', cancel_reason: 'Late' })).statusCode).toBe(
      200,
    );
    await db()
      .updateTable('bills')
      .set({ created_at: at(day(20), 1100) })
      .where('id', '=', b2!)
      .execute();
    await db().updateTable('bill_items').set({ total_paise: 12345, qty: 3 }).where('bill_id', '=', b3!).execute();
    const line = await db().selectFrom('bill_items').select('id').where('bill_id', '=', b4!).executeTakeFirstOrThrow();
    await db().deleteFrom('bill_items').where('id', '=', line.id).execute();
    const samples = await db()
      .selectFrom('samples')
      .select(['id', 'collection_date'])
      .where('organization_id', '=', org())
      .where('collection_date', 'is not', null)
      .orderBy('id')
      .limit(4)
      .execute();
    // Re-dated across the lab's midnight, rejected, deleted.
    await db()
      .updateTable('samples')
      .set({ collection_date: at(day(30), 1109) })
      .where('id', '=', samples[0]!.id)
      .execute();
    await db().updateTable('samples').set({ status: 'rejected' }).where('id', '=', samples[1]!.id).execute();
    await db().deleteFrom('test_results').where('sample_id', '=', samples[2]!.id).execute();
    await db().deleteFrom('samples').where('id', '=', samples[2]!.id).execute();
    const results = await db()
      .selectFrom('test_results')
      .select(['id', 'status'])
      .where('organization_id', '=', org())
      .orderBy('id')
      .execute();
    const waiting = results.find((r) => r.status === 'completed')!;
    await db()
      .updateTable('test_results')
      .set({ status: 'verified', verified_at: at(day(15), 1111) })
      .where('id', '=', waiting.id)
      .execute();
    const done = results.filter((r) => r.status === 'verified');
    await db()
      .updateTable('test_results')
      .set({ status: 'completed', verified_at: null })
      .where('id', '=', done[0]!.id)
      .execute();
    await db()
      .updateTable('test_results')
      .set({ verified_at: at(day(3), 1300) })
      .where('id', '=', done[1]!.id)
      .execute();
    await db().deleteFrom('test_results').where('id', '=', done[2]!.id).execute();

    expect(await count('rollup_stale')).toBeGreaterThan(0);
    await inTransaction((trx) => expectAsRows(trx, 'after writes, stale'));
    await expectAsRows(db(), 'after writes, refreshed');
    const [fromUtc, toUtc] = await wholeRange();
    expect((await planDays(db(), org(), fromUtc, toUtc)).runs.length).toBe(1);
  });

  it('a row moved to another bill, sample or lab marks the day it left as well as the day it joined', async () => {
    await expectAsRows(db(), 'before moves, refreshed');
    const marksBefore = await count('rollup_stale');
    const bills = await db()
      .selectFrom('bills')
      .select(['id', 'created_at'])
      .where('organization_id', '=', org())
      .where('cancelled_at', 'is', null)
      .orderBy('created_at')
      .execute();
    const [first, last] = [bills[0]!, bills[bills.length - 1]!];
    const line = await db()
      .selectFrom('bill_items')
      .select('id')
      .where('bill_id', '=', first.id)
      .executeTakeFirstOrThrow();
    await db().updateTable('bill_items').set({ bill_id: last.id }).where('id', '=', line.id).execute();

    const samples = await db()
      .selectFrom('samples')
      .select('id')
      .where('organization_id', '=', org())
      .where('collection_date', 'is not', null)
      .where('status', '!=', 'rejected')
      .orderBy('collection_date')
      .execute();
    const [early, late] = [samples[0]!.id, samples[samples.length - 1]!.id];
    const verified = await db()
      .selectFrom('test_results')
      .select('id')
      .where('sample_id', '=', early)
      .where('status', '=', 'verified')
      .executeTakeFirst();
    const result =
      verified ??
      (await db()
        .selectFrom('test_results')
        .select('id')
        .where('organization_id', '=', org())
        .where('status', '=', 'verified')
        .orderBy('id')
        .executeTakeFirstOrThrow());
    await db().updateTable('test_results').set({ sample_id: late }).where('id', '=', result.id).execute();
    // A test ordered on the early sample and not on the late one moves there.
    const onLate = (
      await db().selectFrom('sample_tests').select('test_id').where('sample_id', '=', late).execute()
    ).map((t) => Number(t.test_id));
    const moved = tests.find((t) => !onLate.includes(t));
    if (moved !== undefined)
      await db()
        .updateTable('sample_tests')
        .set({ sample_id: late })
        .where('sample_id', '=', early)
        .where('test_id', '=', moved)
        .execute();

    expect(await count('rollup_stale')).toBeGreaterThan(marksBefore);
    await inTransaction((trx) => expectAsRows(trx, 'after moves, stale'));
    await expectAsRows(db(), 'after moves, refreshed');
  });

  it('a change of time zone moves the lab days: every day is marked stale and rebuilt on its new bounds', async () => {
    const res = await lab.admin.put('/api/settings', { timezone: 'America/New_York' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await count('rollup_billed')).toBe(0);
    expect(await count('rollup_stale')).toBeGreaterThan(100);
    await inTransaction((trx) => expectAsRows(trx, 'New York, stale'));
    await expectAsRows(db(), 'New York, refreshed');
    expect(await count('rollup_billed')).toBeGreaterThan(10);
    await inTransaction((trx) => expectAsRows(trx, 'New York, fresh'));
  });

  it('rows written in bulk (as an import writes them) mark their days and are counted', async () => {
    // Lines copied onto three bills of a past day in one statement, and samples moved in one.
    const day = addDays(FIRST_DAY, 8);
    const lines = await db()
      .selectFrom('bill_items as i')
      .innerJoin('bills as b', 'b.id', 'i.bill_id')
      .selectAll('i')
      .where('b.organization_id', '=', org())
      .where('b.cancelled_at', 'is', null)
      .orderBy('i.id')
      .limit(3)
      .execute();
    await db()
      .insertInto('bill_items')
      .values(lines.map(({ id: _id, ...l }) => ({ ...l, position: Number(l.position) + 100 })))
      .execute();
    await db()
      .updateTable('samples')
      .set({ collection_date: at(day, 1105) })
      .where('organization_id', '=', org())
      .where('collection_date', '>=', at(addDays(day, 3), 0))
      .where('collection_date', '<', at(addDays(day, 5), 0))
      .execute();
    await inTransaction((trx) => expectAsRows(trx, 'bulk, stale'));
    await expectAsRows(db(), 'bulk, refreshed');
  });
});
