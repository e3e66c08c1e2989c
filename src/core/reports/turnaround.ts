import { CompiledQuery, sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { engineOf } from '../db/dialect.js';
import type { Window } from './repository.js';

/**
 * Turnaround (collection -> verification) per test and for all tests, for verified results of the
 * samples of a period (collected in it), computed in SQL (issue 17): percentile_cont on
 * PostgreSQL; on SQLite each test's values are ranked by a window and only the neighbours of
 * each percentile's rank come back. Both interpolate as PERCENTILE.INC on the exact minutes
 * (milliseconds / 60000), so the figures are the ones the rows give.
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

const sampleDay = sql<string>`COALESCE(s.collection_date, s.created_at)`;

function ms(db: Db) {
  return engineOf(db) === 'postgres'
    ? sql<number>`round(extract(epoch FROM r.verified_at::timestamptz - s.collection_date::timestamptz) * 1000)`
    : sql<number>`CAST(round((julianday(r.verified_at) - julianday(s.collection_date)) * 86400000) AS INTEGER)`;
}

/** The verified results' (test, milliseconds, target) of the period, as SQL text for a CTE. */
function valuesQuery(db: Db, w: Window) {
  // Samples first (their day is the period's index, samples_org_day), then each one's results: a
  // CROSS JOIN keeps SQLite from walking every verified result of the lab instead.
  return db
    .selectFrom('samples as s')
    .crossJoin('test_results as r')
    .whereRef('r.sample_id', '=', 's.id')
    .select(['r.test_id', ms(db).as('ms')])
    .where('r.organization_id', '=', w.organizationId)
    .where('r.status', '=', 'verified')
    .where('r.verified_at', 'is not', null)
    .where('s.collection_date', 'is not', null)
    .where('s.organization_id', '=', w.organizationId)
    .where(sampleDay, '>=', w.fromUtc)
    .where(sampleDay, '<', w.toUtc);
}

/** PERCENTILE.INC of sorted values given by rank (0-based): the same arithmetic as builtin's percentile(). */
function interpolate(n: number, at: Map<number, number>, p: number): number | null {
  if (n === 0) return null;
  const i = (n - 1) * p;
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  const a = at.get(lo)! / 60_000;
  const b = at.get(hi)! / 60_000;
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

  // SQLite: rank per test and over all; keep the ranks each percentile needs.
  const compiled = base.compile();
  const need = (k: string, n: string) =>
    [0.5, 0.9]
      .map((p) => {
        const i = `((${n} - 1) * ${p})`;
        return `${k} = CAST(${i} AS INTEGER) OR ${k} = CAST(${i} AS INTEGER) + (${i} > CAST(${i} AS INTEGER))`;
      })
      .join(' OR ');
  const text = `WITH v AS MATERIALIZED (${compiled.sql}),
  per AS (SELECT test_id, ms, ROW_NUMBER() OVER (PARTITION BY test_id ORDER BY ms) - 1 AS k, COUNT(*) OVER (PARTITION BY test_id) AS n FROM v),
  allv AS (SELECT ms, ROW_NUMBER() OVER (ORDER BY ms) - 1 AS k, COUNT(*) OVER () AS n FROM v)
  SELECT test_id, n, k, ms FROM per WHERE ${need('k', 'n')}
  UNION ALL SELECT NULL, n, k, ms FROM allv WHERE ${need('k', 'n')}`;
  const res = (
    await db.executeQuery<{ test_id: number | null; n: number; k: number; ms: number }>(
      CompiledQuery.raw(text, [...compiled.parameters]),
    )
  ).rows;
  const overRows = await db
    .with('v', () => base)
    .selectFrom('v')
    .innerJoin('tests as t', 't.id', 'v.test_id')
    .select([
      'v.test_id',
      sql<number>`SUM(CASE WHEN t.turnaround_hours IS NOT NULL AND v.ms > t.turnaround_hours * 3600000 THEN 1 ELSE 0 END)`.as(
        'over',
      ),
    ])
    .groupBy('v.test_id')
    .execute();
  const overBy = new Map(overRows.map((r) => [Number(r.test_id), Number(r.over)]));
  const per = new Map<number | null, { n: number; at: Map<number, number> }>();
  for (const r of res) {
    const id = r.test_id === null ? null : Number(r.test_id);
    const e = per.get(id) ?? { n: Number(r.n), at: new Map<number, number>() };
    e.at.set(Number(r.k), Number(r.ms));
    per.set(id, e);
  }
  const figures = (e: { n: number; at: Map<number, number> } | undefined): TatFigures =>
    e
      ? { results: e.n, median: interpolate(e.n, e.at, 0.5), p90: interpolate(e.n, e.at, 0.9) }
      : { results: 0, median: null, p90: null };
  const out: TatTest[] = [];
  for (const [id, e] of per) {
    if (id === null) continue;
    const t = tests.get(id);
    out.push({
      test_id: id,
      test_name: t?.name ?? '',
      target_hours: t?.turnaround_hours == null ? null : Number(t.turnaround_hours),
      over_target: over(id, overBy.get(id) ?? 0),
      ...figures(e),
    });
  }
  return { tests: out, all: figures(per.get(null)) };
}
