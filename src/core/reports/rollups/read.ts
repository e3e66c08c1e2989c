import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../db/connection.js';
import { concatenated } from '../../db/dialect.js';
import type { DayPlan } from './days.js';

/**
 * Readers of the rollup tables over a plan's runs of lab days (src/core/reports/rollups/days.ts):
 * each answers in the shape of the matching reader of the rows, so the caller adds the two.
 */

export type Runs = DayPlan['runs'];

/** Rows of `query(run)` for every run, flattened. */
export async function perRun<R>(runs: Runs, query: (run: Runs[number]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (const run of runs) out.push(...(await query(run)));
  return out;
}

/** The lab's rollup rows of the run's days (of the rollup aliased `alias`, when given). */
export function ofRun(org: number, run: Runs[number], alias?: string) {
  const column = (name: string) => sql.ref(alias ? `${alias}.${name}` : name);
  return sql<SqlBool>`${column('organization_id')} = ${org} AND ${column('day')} >= ${run.from} AND ${column('day')} < ${run.to}`;
}

/**
 * Lines of live bills per catalogue item and name (test_id null for profiles, packages and lines
 * without a test): the days' rows summed per item first, in the order of the rollup's item index
 * (no sort of a year's rows), then joined to the catalogue once per item. A test billed under two
 * names answers two rows; the caller adds them up per item (billedByTestSummed).
 */
export function billedRollup(db: Db, org: number, runs: Runs) {
  return perRun(runs, (run) =>
    db
      .selectFrom((eb) =>
        eb
          .selectFrom('rollup_billed')
          .select([
            'item_type',
            'test_id',
            'name',
            sql<number>`SUM(qty)`.as('count'),
            sql<number>`SUM(total_paise)`.as('total_paise'),
          ])
          .where(ofRun(org, run))
          .groupBy(['item_type', 'test_id', 'profile_id', 'package_id', 'name'])
          .as('s'),
      )
      .leftJoin('tests as t', 't.id', 's.test_id')
      .select([
        's.item_type',
        sql<number | null>`CASE WHEN s.test_id = 0 THEN NULL ELSE s.test_id END`.as('test_id'),
        's.name',
        sql<string | null>`t.category`.as('category'),
        's.count',
        's.total_paise',
      ])
      .execute(),
  );
}

/**
 * Billed lines and paise of live bills per catalogue category (a profile's or package's own): the
 * days' rows summed per catalogue item first, so the catalogue is joined once per item, not once
 * per day and item.
 */
export function billedCategoriesRollup(db: Db, org: number, runs: Runs) {
  const category = sql<string | null>`coalesce(t.category, p.category, k.category)`;
  return perRun(runs, (run) =>
    db
      .selectFrom((eb) =>
        eb
          .selectFrom('rollup_billed')
          .select([
            'item_type',
            'test_id',
            'profile_id',
            'package_id',
            sql<number>`SUM(lines)`.as('lines'),
            sql<number>`SUM(total_paise)`.as('paise'),
          ])
          .where(ofRun(org, run))
          .groupBy(['item_type', 'test_id', 'profile_id', 'package_id'])
          .as('s'),
      )
      .leftJoin('tests as t', (j) => j.onRef('t.id', '=', 's.test_id').on('s.item_type', '=', 'test'))
      .leftJoin('test_profiles as p', (j) => j.onRef('p.id', '=', 's.profile_id').on('s.item_type', '=', 'profile'))
      .leftJoin('test_packages as k', (j) => j.onRef('k.id', '=', 's.package_id').on('s.item_type', '=', 'package'))
      .select([category.as('category'), sql<number>`SUM(s.lines)`.as('lines'), sql<number>`SUM(s.paise)`.as('paise')])
      .groupBy(category)
      .execute(),
  );
}

/** What the lines of live bills charged per lab day (after line discounts, before the bill's own). */
export function billedPerDayRollup(db: Db, org: number, runs: Runs) {
  return perRun(runs, (run) =>
    db.selectFrom('rollup_revenue').select(['day', 'lines_paise as paise']).where(ofRun(org, run)).execute(),
  );
}

/**
 * Tests ordered on the samples of the days, per test: ordered, collected, resulted, verified, on
 * rejected samples. Summed per test first, then joined to the catalogue once per test.
 */
export function workloadRollup(db: Db, org: number, runs: Runs) {
  return perRun(runs, (run) =>
    db
      .selectFrom((eb) =>
        eb
          .selectFrom('rollup_workload')
          .select([
            'test_id',
            sql<number>`SUM(ordered)`.as('ordered'),
            sql<number>`SUM(collected)`.as('collected'),
            sql<number>`SUM(resulted)`.as('resulted'),
            sql<number>`SUM(verified)`.as('verified'),
            sql<number>`SUM(rejected)`.as('rejected'),
          ])
          .where(ofRun(org, run))
          .groupBy('test_id')
          .as('s'),
      )
      .innerJoin('tests as t', 't.id', 's.test_id')
      .select([
        's.test_id',
        't.name as test_name',
        't.category',
        's.ordered',
        's.collected',
        's.resulted',
        's.verified',
        's.rejected',
      ])
      .execute(),
  );
}

/**
 * The turnaround histograms of the days, per run as two texts: every (day, test) histogram with its
 * test id before it, joined end to end (`7{"58":1,"75":2}12{"30":1}`), and the same for the counts
 * past a whole hour (only the rows that have some). A year is about 36,000 rows; one text per run
 * spares making a pair of strings for each (src/core/reports/turnaround.ts reads them).
 */
export function turnaroundRollup(db: Db, org: number, runs: Runs) {
  return perRun(runs, (run) =>
    db
      .selectFrom('rollup_turnaround')
      .select([
        concatenated(db, sql<string>`test_id || minutes`).as('minutes'),
        concatenated(db, sql<string | null>`CASE WHEN above <> '{}' THEN test_id || above END`).as('above'),
      ])
      .where(ofRun(org, run))
      .execute(),
  );
}

/** Each day's samples collected and rejected, results verified and their turnaround histogram (JSON text). */
export function dayRollup(db: Db, org: number, runs: Runs) {
  return perRun(runs, (run) =>
    db
      .selectFrom('rollup_day')
      .select(['day', 'samples_collected', 'samples_rejected', 'results_verified', 'tat_minutes'])
      .where(ofRun(org, run))
      .execute(),
  );
}
