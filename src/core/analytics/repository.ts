import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { chunks } from '../db/dialect.js';
import { labTable } from '../db/lab-tables.js';
import { liveBillsMadeIn } from '../db/live-bills.js';
import { resultsWithSampleAndTest } from '../db/joins.js';

/**
 * The Analytics Dashboard's and the Enhanced Dashboard's aggregations: read-only queries
 * over samples, results, bills and the catalogue, always filtered by the lab. Times are UTC ISO
 * text; `from` / `to` are UTC instants (inclusive / exclusive). Per-day series are grouped in SQL by
 * the UTC minute and put on the lab's calendar days by the caller (exact in every time zone, since
 * every zone's offset is whole minutes).
 */

/** A timestamp column's UTC minute, 'YYYY-MM-DDTHH:MM'. */
const minuteOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 16)`;

export async function samplesCollectedByMinute(db: Db, organizationId: number, from: string, to: string) {
  return db
    .selectFrom('samples as s')
    .select([minuteOf('s.collection_date').as('minute'), sql<number>`count(*)`.as('n')])
    .where('s.organization_id', '=', organizationId)
    .where('s.collection_date', '>=', from)
    .where('s.collection_date', '<', to)
    .groupBy(minuteOf('s.collection_date'))
    .execute();
}

export async function resultsVerifiedByMinute(db: Db, organizationId: number, from: string, to: string) {
  return db
    .selectFrom('test_results as r')
    .select([minuteOf('r.verified_at').as('minute'), sql<number>`count(*)`.as('n')])
    .where('r.organization_id', '=', organizationId)
    .where('r.status', '=', 'verified')
    .where('r.verified_at', '>=', from)
    .where('r.verified_at', '<', to)
    .groupBy(minuteOf('r.verified_at'))
    .execute();
}

/** Bill lines of the range's bills (cancelled excluded), by UTC minute and the line's catalogue category. */
export async function billedByMinuteAndCategory(db: Db, organizationId: number, from: string, to: string) {
  const category = sql<string | null>`coalesce(t.category, p.category, k.category)`;
  return db
    .selectFrom('bill_items as i')
    .innerJoin('bills as b', 'b.id', 'i.bill_id')
    .leftJoin('tests as t', (j) => j.onRef('t.id', '=', 'i.test_id').on('i.item_type', '=', 'test'))
    .leftJoin('test_profiles as p', (j) => j.onRef('p.id', '=', 'i.profile_id').on('i.item_type', '=', 'profile'))
    .leftJoin('test_packages as k', (j) => j.onRef('k.id', '=', 'i.package_id').on('i.item_type', '=', 'package'))
    .select([
      minuteOf('b.created_at').as('minute'),
      category.as('category'),
      sql<number>`count(*)`.as('lines'),
      sql<number>`sum(i.total_paise)`.as('paise'),
    ])
    .where(liveBillsMadeIn({ organizationId, fromUtc: from, toUtc: to }))
    .groupBy([minuteOf('b.created_at'), category])
    .execute();
}

export async function distinctPatientsCollected(db: Db, organizationId: number, from: string, to: string) {
  const r = await db
    .selectFrom('samples as s')
    .select(sql<number>`count(DISTINCT s.patient_id)`.as('n'))
    .where('s.organization_id', '=', organizationId)
    .where('s.collection_date', '>=', from)
    .where('s.collection_date', '<', to)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function rejectedCollected(db: Db, organizationId: number, from: string, to: string) {
  const r = await db
    .selectFrom('samples as s')
    .select(sql<number>`count(*)`.as('n'))
    .where('s.organization_id', '=', organizationId)
    .where('s.status', '=', 'rejected')
    .where('s.collection_date', '>=', from)
    .where('s.collection_date', '<', to)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Tests ordered on the samples collected in the range, most first. */
export async function testDistribution(db: Db, organizationId: number, from: string, to: string, limit: number) {
  return db
    .selectFrom('sample_tests as st')
    .innerJoin('samples as s', 's.id', 'st.sample_id')
    .innerJoin('tests as t', 't.id', 'st.test_id')
    .select(['t.id as test_id', 't.name as test_name', sql<number>`count(*)`.as('n')])
    .where('s.organization_id', '=', organizationId)
    .where('s.collection_date', '>=', from)
    .where('s.collection_date', '<', to)
    .groupBy(['t.id', 't.name'])
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('t.name')
    .limit(limit)
    .execute();
}

/**
 * A live list of results: how many match in all, and the oldest `limit` of them (by entry) with
 * their sample and test. The two live lists of results differ only in which results they hold.
 */
async function oldestResults(matching: ReturnType<typeof resultsWithSampleAndTest>, limit: number) {
  const total = await matching.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  const rows = await matching
    .select([
      'r.id',
      's.sample_code',
      't.name as test_name',
      'r.result_value',
      'r.unit',
      sql<string>`coalesce(r.entered_at, r.created_at)`.as('entered_at'),
      'r.is_critical',
    ])
    .orderBy(sql`coalesce(r.entered_at, r.created_at)`)
    .orderBy('r.id')
    .limit(limit)
    .execute();
  return { total: Number(total.n), rows };
}

/** Entered results not yet verified (the verification backlog), oldest first. */
export function awaitingVerification(db: Db, organizationId: number, limit: number) {
  return oldestResults(
    // A literal, so the planner can use the partial index of waiting results (migration 31).
    resultsWithSampleAndTest(db, organizationId).where(sql<boolean>`r.status = 'completed'`),
    limit,
  );
}

/** Critical results (not rejected) with no call logged: the NABL "not yet notified" list, oldest first. */
export function criticalNotCalled(db: Db, organizationId: number, limit: number) {
  return oldestResults(
    resultsWithSampleAndTest(db, organizationId)
      // A literal, so the planner can use the partial index of critical results (migration 30).
      .where(sql<boolean>`r.is_critical = 1`)
      .where('r.status', '<>', 'rejected')
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('critical_calls as c').select('c.id').whereRef('c.result_id', '=', 'r.id'))),
      ),
    limit,
  );
}

/** Samples registered or collected in [from, to), by status. */
export async function samplesByStatus(db: Db, organizationId: number, from: string, to: string) {
  return db
    .selectFrom('samples as s')
    .select(['s.status', sql<number>`count(*)`.as('n')])
    .where('s.organization_id', '=', organizationId)
    .where((eb) =>
      eb.or([
        eb.and([eb('s.created_at', '>=', from), eb('s.created_at', '<', to)]),
        eb.and([eb('s.collection_date', '>=', from), eb('s.collection_date', '<', to)]),
      ]),
    )
    .groupBy('s.status')
    .execute();
}

/** A test's turnaround target in minutes, as targetMinutesOf (src/shared/figures.ts) reads it. */
const TARGET_MINUTES = sql<number | null>`coalesce(t.target_tat_minutes, t.turnaround_hours * 60)`;

/**
 * The open ordered tests of tests with a target turnaround (migration 31's table, with its sample's
 * collection time from migration 37): no join to samples, so a lab with thousands of open tests
 * reads only this narrow table.
 */
export function openTestsWithTarget(db: Db, organizationId: number) {
  return db
    .selectFrom('live_open_tests as o')
    .innerJoin('tests as t', 't.id', 'o.test_id')
    .select(['o.sample_id', 'o.test_id', TARGET_MINUTES.as('target_tat_minutes'), 'o.collection_date'])
    .where('o.organization_id', '=', organizationId)
    .where(TARGET_MINUTES, 'is not', null)
    .where('o.collection_date', 'is not', null)
    .execute();
}

/** The results verified since `verifiedSince` of tests with a target turnaround, through their verification index. */
export function verifiedWithTarget(db: Db, organizationId: number, verifiedSince: string) {
  return resultsWithSampleAndTest(db, organizationId)
    .innerJoin('sample_tests as st', (j) =>
      j.onRef('st.sample_id', '=', 'r.sample_id').onRef('st.test_id', '=', 'r.test_id'),
    )
    .select([
      's.id as sample_id',
      's.sample_code',
      't.id as test_id',
      't.name as test_name',
      TARGET_MINUTES.as('target_tat_minutes'),
      's.collection_date',
      'r.verified_at',
    ])
    .where('r.verified_at', '>=', verifiedSince)
    .where('s.organization_id', '=', organizationId)
    .where(TARGET_MINUTES, 'is not', null)
    .where('s.collection_date', 'is not', null)
    .where('s.status', '<>', 'rejected')
    .execute();
}

/** Sample codes and test names of the given (sample, test) pairs of a lab. */
export async function namesOfOrderedTests(
  db: Db,
  organizationId: number,
  pairs: { sample_id: number; test_id: number }[],
) {
  const codes = new Map<number, string>();
  for (const ids of chunks([...new Set(pairs.map((p) => Number(p.sample_id)))]))
    for (const r of await labTable(db, 'samples', organizationId)
      .select(['id', 'sample_code'])
      .where('id', 'in', ids)
      .execute())
      codes.set(Number(r.id), r.sample_code);
  const names = new Map<number, string>();
  for (const ids of chunks([...new Set(pairs.map((p) => Number(p.test_id)))]))
    for (const r of await db.selectFrom('tests').select(['id', 'name']).where('id', 'in', ids).execute())
      names.set(Number(r.id), r.name);
  return { codes, names };
}
