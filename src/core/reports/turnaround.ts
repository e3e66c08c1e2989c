import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { engineOf } from '../db/dialect.js';
import type { Window } from './repository.js';

/**
 * Turnaround (collection -> verification) per test and for all tests, for verified results of the
 * samples of a period (collected in it), from the turnaround table of migration 28 (kept by
 * triggers). A result's turnaround is counted in whole minutes (its interval rounded to the nearest
 * minute, halves away from zero: the table's `minutes`, also the Analytics histogram's unit); the
 * median and 90th percentile interpolate between neighbouring values as PERCENTILE.INC does, so
 * the figures are exact for that unit. "Over target" compares the exact milliseconds.
 *
 * A period is its whole UTC months plus the partial months at its edges. The edges' results are
 * read from the rows as whole minutes per test; the months from migration 35's whole-minute
 * histogram per month and test (about a hundred rows a month on a busy lab). PostgreSQL has no such
 * histogram (see the migration) and groups the period's rows.
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

/** Results of one test on one whole minute: how many, and how many of them past it in milliseconds. */
interface MinuteCount {
  test_id: number;
  minutes: number;
  n: number;
  above: number;
}

/**
 * A range's results as whole minutes per test, from migration 28's rows. SQLite: every row through
 * the (lab, collected_at) covering index, counted by the caller (grouping in SQL sorted them in a
 * temporary table, slower); PostgreSQL groups them.
 */
async function minuteCounts(db: Db, w: Window): Promise<MinuteCount[]> {
  const range = sql`organization_id = ${w.organizationId} AND collected_at >= ${w.fromUtc} AND collected_at < ${w.toUtc}`;
  const rows =
    engineOf(db) === 'postgres'
      ? await sql<MinuteCount>`SELECT test_id, minutes, COUNT(*) AS n,
          SUM(CASE WHEN ms > minutes * 60000 THEN 1 ELSE 0 END) AS above
          FROM report_turnaround WHERE ${range} GROUP BY test_id, minutes`.execute(db)
      : await sql<MinuteCount>`SELECT test_id, minutes, 1 AS n, ms > minutes * 60000 AS above
          FROM report_turnaround INDEXED BY report_turnaround_collected WHERE ${range}`.execute(db);
  return rows.rows;
}

/** A period's whole UTC months ('YYYY-MM', [from, to)) and the rest at its edges, as [fromUtc, toUtc) ranges. */
export function monthsInside(fromUtc: string, toUtc: string) {
  const f = Date.parse(fromUtc);
  const t = Date.parse(toUtc);
  const monthStart = (ms: number, next: boolean) => {
    const d = new Date(ms);
    const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    return next && start < ms ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) : start;
  };
  const m0 = monthStart(f, true);
  const m1 = monthStart(t, false);
  const iso = (ms: number) => new Date(ms).toISOString();
  if (!(m1 > m0)) return { months: null, edges: t > f ? [{ fromUtc, toUtc }] : [] };
  const edges: { fromUtc: string; toUtc: string }[] = [];
  if (f < m0) edges.push({ fromUtc, toUtc: iso(m0) });
  if (m1 < t) edges.push({ fromUtc: iso(m1), toUtc });
  return { months: { from: iso(m0).slice(0, 7), to: iso(m1).slice(0, 7) }, edges };
}

/** Minutes counted in the dense array; rarer values (negative, or over ten weeks) go to a map. */
const DENSE_MINUTES = 100_800;

/**
 * Whole-minute counts of one test (or all tests) in a period: a typed array indexed by the minute (a
 * year's hundreds of thousands of additions stay cheap), a map for the rare minutes outside it (a
 * result verified before its collection time, or months after it: a mistyped date must not make
 * an array of millions), and for whole hours the results past them.
 */
class Histogram {
  private n = new Float64Array(1024);
  private readonly sparse = new Map<number, number>();
  private readonly above = new Map<number, number>();
  add(minutes: number, n: number) {
    if (minutes < 0 || minutes >= DENSE_MINUTES) {
      this.sparse.set(minutes, (this.sparse.get(minutes) ?? 0) + n);
      return;
    }
    if (minutes >= this.n.length) {
      const grown = new Float64Array(Math.min(DENSE_MINUTES, Math.max(minutes + 1, this.n.length * 2)));
      grown.set(this.n);
      this.n = grown;
    }
    this.n[minutes]! += n;
  }
  addAbove(minutes: number, n: number) {
    this.above.set(minutes, (this.above.get(minutes) ?? 0) + n);
  }
  /** (minute, count) in ascending minutes, counts above zero. */
  private *sorted(): Generator<[number, number]> {
    const sparse = [...this.sparse].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
    yield* sparse.filter(([m]) => m < 0);
    for (let m = 0; m < this.n.length; m++) if (this.n[m]! > 0) yield [m, this.n[m]!];
    yield* sparse.filter(([m]) => m >= 0);
  }
  figures(): TatFigures {
    const sorted = [...this.sorted()];
    const total = sorted.reduce((sum, [, n]) => sum + n, 0);
    const at = (k: number) => {
      let seen = 0;
      for (const [minutes, n] of sorted) {
        seen += n;
        if (seen > k) return minutes;
      }
      return sorted[sorted.length - 1]![0];
    };
    const percentile = (p: number) => {
      if (total === 0) return null;
      const i = (total - 1) * p;
      const lo = Math.floor(i);
      const a = at(lo);
      const b = Math.ceil(i) === lo ? a : at(Math.ceil(i));
      return a + (b - a) * (i - lo);
    };
    return { results: total, median: percentile(0.5), p90: percentile(0.9) };
  }
  /** Results past a whole-hour target: on a later minute, or on the target's own minute and past it in milliseconds. */
  over(hours: number): number {
    const target = hours * 60;
    let over = this.above.get(target) ?? 0;
    for (const [minutes, n] of this.sorted()) if (minutes > target) over += n;
    return over;
  }
}

/** A JSON object of counts per minute. */
const parsed = (v: string): Record<string, number> => JSON.parse(v) as Record<string, number>;

export async function turnaroundByTest(db: Db, w: Window): Promise<{ tests: TatTest[]; all: TatFigures }> {
  const tests = new Map(
    (
      await db
        .selectFrom('tests')
        .select(['id', 'name', 'turnaround_hours'])
        .where('organization_id', '=', w.organizationId)
        .execute()
    ).map((t) => [Number(t.id), t]),
  );
  const perTest = new Map<number, Histogram>();
  const all = new Histogram();
  const histogramOf = (id: number) => {
    let h = perTest.get(id);
    if (!h) perTest.set(id, (h = new Histogram()));
    return h;
  };
  // PostgreSQL keeps no monthly histogram (migration 35): the whole period from the rows there.
  const { months, edges } =
    engineOf(db) === 'postgres' ? { months: null, edges: [w] } : monthsInside(w.fromUtc, w.toUtc);
  // The partial months at the edges: the rows, whole minutes per test.
  for (const e of edges)
    for (const r of await minuteCounts(db, { ...w, ...e })) {
      const minutes = Number(r.minutes);
      const n = Number(r.n);
      const h = histogramOf(Number(r.test_id));
      h.add(minutes, n);
      all.add(minutes, n);
      // Past the minute in milliseconds matters only on a whole hour: a target is whole hours.
      if (minutes % 60 === 0 && Number(r.above) > 0) h.addAbove(minutes, Number(r.above));
    }
  // The whole months (SQLite): migration 35's histogram per month and test.
  if (months) {
    const rows = await db
      .selectFrom('report_tat_test_monthly')
      .select(['test_id', 'minutes', 'above'])
      .where('organization_id', '=', w.organizationId)
      .where('month', '>=', months.from)
      .where('month', '<', months.to)
      .where('n', '<>', 0)
      .execute();
    for (const r of rows) {
      const h = histogramOf(Number(r.test_id));
      const counts = parsed(r.minutes);
      for (const key in counts) {
        const n = counts[key]!;
        if (n === 0) continue;
        h.add(+key, n);
        all.add(+key, n);
      }
      const above = parsed(r.above);
      for (const key in above) if (above[key] !== 0) h.addAbove(+key, above[key]!);
    }
  }
  const out: TatTest[] = [];
  for (const [id, h] of perTest) {
    const f = h.figures();
    if (f.results === 0) continue;
    const t = tests.get(id);
    const hours = t?.turnaround_hours == null ? null : Number(t.turnaround_hours);
    out.push({
      test_id: id,
      test_name: t?.name ?? '',
      target_hours: hours,
      over_target: hours === null ? null : h.over(hours),
      ...f,
    });
  }
  return { tests: out, all: all.figures() };
}
