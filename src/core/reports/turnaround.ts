import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { engineOf } from '../db/dialect.js';
import type { Window } from './repository.js';

/**
 * Turnaround (collection -> verification) per test and for all tests, for verified results of the
 * samples of a period (collected in it), from the turnaround table of migration 28 (kept by
 * triggers; indexed by lab, collection time, test and milliseconds): percentile_cont on
 * PostgreSQL; on SQLite the period's values are read through the covering index and sorted here.
 * Both interpolate as PERCENTILE.INC on the exact minutes (milliseconds / 60000), so the figures
 * are the ones the rows give.
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
    .select(['v.test_id', 'v.ms'])
    .where('v.organization_id', '=', w.organizationId)
    .where('v.collected_at', '>=', w.fromUtc)
    .where('v.collected_at', '<', w.toUtc);
}

/** PERCENTILE.INC of sorted milliseconds, in minutes: the same arithmetic as builtin's percentile(). */
function percentileInc(sorted: Float64Array, p: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const i = (n - 1) * p;
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  const a = sorted[lo]! / 60_000;
  const b = sorted[hi]! / 60_000;
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
    const minutes = sql`(v.ms::float8 / 60000)`;
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

  // SQLite: the period's values through the covering index, sorted and read here (no window
  // functions over a temporary table: on a year that took seconds).
  const rows = await base.execute();
  const byTest = new Map<number, number[]>();
  const all = new Float64Array(rows.length);
  rows.forEach((r, i) => {
    const id = Number(r.test_id);
    const v = Number(r.ms);
    all[i] = v;
    const list = byTest.get(id);
    if (list) list.push(v);
    else byTest.set(id, [v]);
  });
  const figures = (values: Float64Array): TatFigures => {
    values.sort();
    return { results: values.length, median: percentileInc(values, 0.5), p90: percentileInc(values, 0.9) };
  };
  const out: TatTest[] = [];
  for (const [id, list] of byTest) {
    const t = tests.get(id);
    const targetMs = t?.turnaround_hours == null ? null : Number(t.turnaround_hours) * 3_600_000;
    out.push({
      test_id: id,
      test_name: t?.name ?? '',
      target_hours: t?.turnaround_hours == null ? null : Number(t.turnaround_hours),
      over_target: targetMs === null ? null : list.filter((v) => v > targetMs).length,
      ...figures(Float64Array.from(list)),
    });
  }
  return { tests: out, all: figures(all) };
}
