import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { engineOf } from '../db/dialect.js';
import type { Window } from './repository.js';

/**
 * Turnaround (collection -> verification) per test and for all tests, for verified results of the
 * samples of a period (collected in it), from the turnaround table of migration 28 (kept by
 * triggers). A result's turnaround is counted in whole minutes (its interval rounded to the nearest
 * minute, halves away from zero: the table's `minutes`, also the Analytics histogram's unit); the
 * median and 90th percentile interpolate between neighbouring values as PERCENTILE.INC does.
 * Whole minutes make the period's values a histogram of (test, minute, count): on a year of a busy
 * lab about a sixth of the rows, read in index order without sorting (migration 30's index), and
 * the figures are exact for that unit. "Over target" compares the exact milliseconds.
 */

export interface TatFigures {
  results: number;
  median: number | null;
  p90: number | null;
}
export interface TatTest extends TatFigures {
  test_id: number;
  test_name: string;
  target_hours: number | null;
  over_target: number | null;
}

/** The verified results' turnaround of the period (samples collected in it), from migration 28's table. */
function valuesQuery(db: Db, w: Window) {
  return db
    .selectFrom('report_turnaround as v')
    .select(['v.test_id', 'v.ms', 'v.minutes'])
    .where('v.organization_id', '=', w.organizationId)
    .where('v.collected_at', '>=', w.fromUtc)
    .where('v.collected_at', '<', w.toUtc);
}

/** One (test, whole minute) of the period: how many results, and how many of them above minutes x 60000 ms. */
interface Bucket {
  test_id: number;
  minutes: number;
  n: number;
  above: number;
}

/** Periods longer than this read the (test, minutes) index whole rather than the period's rows by collection time. */
const LONG_PERIOD_MS = 62 * 86_400_000;

/** The period's histogram of whole minutes per test (SQLite), read through a covering index. */
async function histogram(db: Db, w: Window): Promise<Bucket[]> {
  const long = Date.parse(w.toUtc) - Date.parse(w.fromUtc) > LONG_PERIOD_MS;
  if (long) {
    // Most of the table: walk (lab, test, minutes, collected_at, ms) in order; each group is
    // complete as the index is read, nothing is sorted.
    const rows = await sql<Bucket>`SELECT test_id, minutes, count(*) AS n, sum(ms > minutes * 60000) AS above
      FROM report_turnaround INDEXED BY report_turnaround_test_minutes
      WHERE organization_id = ${w.organizationId} AND collected_at >= ${w.fromUtc} AND collected_at < ${w.toUtc}
      GROUP BY test_id, minutes`.execute(db);
    return rows.rows.map((r) => ({
      test_id: Number(r.test_id),
      minutes: Number(r.minutes),
      n: Number(r.n),
      above: Number(r.above),
    }));
  }
  // A shorter period: its rows by collection time, counted here (grouping them in SQL sorted them
  // in a temporary table, slower than this).
  const rows = await sql<{ test_id: number; minutes: number; above: number }>`
    SELECT test_id, minutes, ms > minutes * 60000 AS above
    FROM report_turnaround INDEXED BY report_turnaround_collected
    WHERE organization_id = ${w.organizationId} AND collected_at >= ${w.fromUtc} AND collected_at < ${w.toUtc}`.execute(
    db,
  );
  const out = new Map<string, Bucket>();
  for (const r of rows.rows) {
    const key = `${r.test_id}|${r.minutes}`;
    const b = out.get(key);
    if (b) {
      b.n += 1;
      b.above += Number(r.above);
    } else out.set(key, { test_id: Number(r.test_id), minutes: Number(r.minutes), n: 1, above: Number(r.above) });
  }
  return [...out.values()];
}

/** PERCENTILE.INC of the values a histogram stands for (buckets sorted by minutes; total = their count). */
export function percentileOfBuckets(
  buckets: readonly { minutes: number; n: number }[],
  total: number,
  p: number,
): number | null {
  if (total === 0) return null;
  const i = (total - 1) * p;
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  const at = (k: number) => {
    let seen = 0;
    for (const b of buckets) {
      seen += b.n;
      if (seen > k) return b.minutes;
    }
    return buckets[buckets.length - 1]!.minutes;
  };
  const a = at(lo);
  const b = hi === lo ? a : at(hi);
  return a + (b - a) * (i - lo);
}

export async function turnaroundByTest(db: Db, w: Window): Promise<{ tests: TatTest[]; all: TatFigures }> {
  const base = valuesQuery(db, w);
  const tests = new Map(
    (
      await db
        .selectFrom('tests')
        .select(['id', 'name', 'turnaround_hours'])
        .where('organization_id', '=', w.organizationId)
        .execute()
    ).map((t) => [Number(t.id), t]),
  );
  const over = (testId: number, values: number) => (tests.get(testId)?.turnaround_hours == null ? null : values);

  if (engineOf(db) === 'postgres') {
    const minutes = sql`v.minutes::float8`;
    const rows = await db
      .with('v', () => base)
      .selectFrom('v')
      .leftJoin('tests as t', 't.id', 'v.test_id')
      .select([
        sql<number | null>`GROUPING(v.test_id)`.as('g'),
        'v.test_id',
        sql<number>`COUNT(*)`.as('n'),
        sql<number | null>`percentile_cont(0.5) WITHIN GROUP (ORDER BY ${minutes})`.as('median'),
        sql<number | null>`percentile_cont(0.9) WITHIN GROUP (ORDER BY ${minutes})`.as('p90'),
        sql<number>`SUM(CASE WHEN t.turnaround_hours IS NOT NULL AND v.ms > t.turnaround_hours * 3600000 THEN 1 ELSE 0 END)`.as(
          'over',
        ),
      ])
      .groupBy(sql`GROUPING SETS ((v.test_id), ())`)
      .execute();
    let all: TatFigures = { results: 0, median: null, p90: null };
    const out: TatTest[] = [];
    for (const r of rows) {
      const f = {
        results: Number(r.n),
        median: r.median === null ? null : Number(r.median),
        p90: r.p90 === null ? null : Number(r.p90),
      };
      if (Number(r.g) === 1) {
        all = f;
        continue;
      }
      const id = Number(r.test_id);
      const t = tests.get(id);
      out.push({
        test_id: id,
        test_name: t?.name ?? '',
        target_hours: t?.turnaround_hours == null ? null : Number(t.turnaround_hours),
        over_target: over(id, Number(r.over)),
        ...f,
      });
    }
    return { tests: out, all };
  }

  // SQLite: the period's histogram (a row per test and minute), the percentiles read from it here.
  const byTest = new Map<number, Bucket[]>();
  const allMinutes = new Map<number, number>();
  for (const b of await histogram(db, w)) {
    const list = byTest.get(b.test_id);
    if (list) list.push(b);
    else byTest.set(b.test_id, [b]);
    allMinutes.set(b.minutes, (allMinutes.get(b.minutes) ?? 0) + b.n);
  }
  const figures = (buckets: { minutes: number; n: number }[]): TatFigures => {
    buckets.sort((a, b) => a.minutes - b.minutes);
    const total = buckets.reduce((s, b) => s + b.n, 0);
    return {
      results: total,
      median: percentileOfBuckets(buckets, total, 0.5),
      p90: percentileOfBuckets(buckets, total, 0.9),
    };
  };
  const out: TatTest[] = [];
  for (const [id, list] of byTest) {
    const t = tests.get(id);
    const hours = t?.turnaround_hours == null ? null : Number(t.turnaround_hours);
    // Whole hours: a bucket above the target's minute is over it entirely, one below not at all; in
    // the target's own minute, `above` counts the milliseconds past it.
    let overTarget: number | null = null;
    if (hours !== null) {
      overTarget = 0;
      for (const b of list) overTarget += b.minutes > hours * 60 ? b.n : b.minutes === hours * 60 ? b.above : 0;
    }
    out.push({ test_id: id, test_name: t?.name ?? '', target_hours: hours, over_target: overTarget, ...figures(list) });
  }
  return { tests: out, all: figures([...allMinutes].map(([minutes, n]) => ({ minutes, n }))) };
}
