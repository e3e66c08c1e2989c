import { targetMinutesOf } from '../../shared/figures.js';
import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { tableUsingIndex } from '../db/dialect.js';
import { keepsPendingTurnaround } from '../db/summaries.js';
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
 * histogram per month and test (about a hundred rows a month on a busy lab; on PostgreSQL plus the
 * changes still pending, see the migration).
 */

export interface TatFigures {
  results: number;
  median: number | null;
  p90: number | null;
}
export interface TatTest extends TatFigures {
  test_id: number;
  test_name: string;
  /** The test's target in minutes (src/shared/figures.ts). */
  target_minutes: number | null;
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
 * SQLite: a range's results as whole minutes per test, every row through the (lab, collected_at)
 * covering index, counted by the caller (grouping in SQL sorted them in a temporary table, slower).
 */
async function minuteCounts(db: Db, w: Window): Promise<MinuteCount[]> {
  return (
    await sql<MinuteCount>`SELECT test_id, minutes, 1 AS n, ms > minutes * 60000 AS above
      FROM ${tableUsingIndex(db, 'report_turnaround', 'report_turnaround_collected')}
      WHERE organization_id = ${w.organizationId} AND collected_at >= ${w.fromUtc} AND collected_at < ${w.toUtc}`.execute(
      db,
    )
  ).rows;
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
  /**
   * Results past a target in minutes: on a later minute, or on the target's own minute and past it
   * in milliseconds (known for whole hours, where the histograms keep it; another target is to
   * the nearest minute, as the figures are).
   */
  over(target: number): number {
    let over = this.above.get(target) ?? 0;
    for (const [minutes, n] of this.sorted()) if (minutes > target) over += n;
    return over;
  }
}

/**
 * Calls `each(minute, count)` for every entry of a histogram's JSON text, a flat object of integer
 * keys and values as the migration's SQL writes it (`{"91":3,"-7":1}` on SQLite,
 * `{ "91" : 3, "-7" : 1 }` on PostgreSQL). Read by hand instead of JSON.parse: a year is 230,000
 * entries, and making an object with a string key for each cost more than the rest of the report.
 * Anything else in the text (a fraction, a nested value) is refused rather than misread.
 */
export function forEachCount(text: string, each: (minute: number, count: number) => void): void {
  let key: number | null = null;
  for (let i = 0; i < text.length;) {
    let c = text.charCodeAt(i);
    if (c === 45 || (c >= 48 && c <= 57)) {
      const negative = c === 45;
      if (negative) c = text.charCodeAt(++i);
      if (!(c >= 48 && c <= 57)) throw new Error(`turnaround histogram: a lone minus sign in ${text.slice(0, 60)}`);
      let v = 0;
      while (c >= 48 && c <= 57) {
        v = v * 10 + (c - 48);
        c = text.charCodeAt(++i);
      }
      if (negative) v = -v;
      if (key === null) key = v;
      else {
        each(key, v);
        key = null;
      }
      continue;
    }
    // { } " : , and white space separate the numbers.
    if (c === 123 || c === 125 || c === 34 || c === 58 || c === 44 || c === 32 || c === 10 || c === 13 || c === 9) {
      i++;
      continue;
    }
    throw new Error(`turnaround histogram: unexpected "${text[i]}" at ${i} of ${text.slice(0, 60)}`);
  }
  if (key !== null) throw new Error(`turnaround histogram: a key without a count in ${text.slice(0, 60)}`);
}

/** A histogram per test as JSON text (minutes, above), or one (minute, n, above). */
interface MonthRow {
  test_id: number;
  minutes: string | null;
  above: string | null;
  minute: number | null;
  n: number | null;
}

/**
 * A period's histograms per test as JSON rows: its whole months from migration 35's table; on
 * PostgreSQL, in the same statement (one snapshot), its edges grouped into the same shape from the
 * rows and the months' pending changes as (minute, n, above) rows.
 */
async function histogramRows(
  db: Db,
  organizationId: number,
  months: { from: string; to: string } | null,
  edges: { fromUtc: string; toUtc: string }[],
): Promise<MonthRow[]> {
  const monthRange = months
    ? sql`organization_id = ${organizationId} AND month >= ${months.from} AND month < ${months.to}`
    : sql`false`;
  if (keepsPendingTurnaround(db)) {
    const edgeRange = edges.length
      ? sql.join(
          edges.map((e) => sql`(collected_at >= ${e.fromUtc} AND collected_at < ${e.toUtc})`),
          sql` OR `,
        )
      : sql`false`;
    return (
      await sql<MonthRow>`WITH edge AS (
          SELECT test_id, minutes, COUNT(*) AS n,
            SUM(CASE WHEN minutes % 60 = 0 AND ms > minutes * 60000 THEN 1 ELSE 0 END) AS above
          FROM report_turnaround WHERE organization_id = ${organizationId} AND (${edgeRange})
          GROUP BY test_id, minutes)
        SELECT test_id, json_object_agg(minutes, n)::text AS minutes,
          COALESCE(json_object_agg(minutes, above) FILTER (WHERE above > 0), '{}'::json)::text AS above,
          NULL::bigint AS minute, NULL::bigint AS n
        FROM edge GROUP BY test_id
        UNION ALL
        SELECT test_id, minutes::text, above::text, NULL, NULL
        FROM report_tat_test_monthly WHERE ${monthRange} AND n <> 0
        UNION ALL
        SELECT test_id, NULL, SUM(above)::text, minutes, SUM(n)::bigint
        FROM report_tat_test_pending WHERE ${monthRange} GROUP BY test_id, minutes`.execute(db)
    ).rows;
  }
  const rows: MonthRow[] = [];
  // SQLite: the edges' rows as (minute, n, above) rows, then the months' histograms.
  for (const e of edges)
    for (const r of await minuteCounts(db, { organizationId, ...e }))
      rows.push({ test_id: r.test_id, minutes: null, above: String(r.above), minute: r.minutes, n: r.n });
  if (months)
    rows.push(
      ...(
        await sql<MonthRow>`SELECT test_id, minutes, above, NULL AS minute, NULL AS n
          FROM report_tat_test_monthly WHERE ${monthRange} AND n <> 0`.execute(db)
      ).rows,
    );
  return rows;
}

export async function turnaroundByTest(db: Db, w: Window): Promise<{ tests: TatTest[]; all: TatFigures }> {
  const tests = new Map(
    (
      await db
        .selectFrom('tests')
        .select(['id', 'name', 'turnaround_hours', 'target_tat_minutes'])
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
  const { months, edges } = monthsInside(w.fromUtc, w.toUtc);
  for (const r of await histogramRows(db, w.organizationId, months, edges)) {
    const h = histogramOf(Number(r.test_id));
    if (r.minutes === null) {
      // One (minute, count) row: an edge's row on SQLite, a pending change on PostgreSQL (whose
      // counts may be negative: rows taken out).
      const minutes = Number(r.minute);
      h.add(minutes, Number(r.n));
      all.add(minutes, Number(r.n));
      // Past the minute in milliseconds matters only on a whole hour: a target is whole hours.
      if (minutes % 60 === 0 && Number(r.above) !== 0) h.addAbove(minutes, Number(r.above));
      continue;
    }
    forEachCount(r.minutes, (minutes, n) => {
      if (n === 0) return;
      h.add(minutes, n);
      all.add(minutes, n);
    });
    forEachCount(r.above!, (minutes, n) => {
      if (n !== 0) h.addAbove(minutes, n);
    });
  }
  const out: TatTest[] = [];
  for (const [id, h] of perTest) {
    const f = h.figures();
    if (f.results === 0) continue;
    const t = tests.get(id);
    const target = t ? targetMinutesOf(t) : null;
    out.push({
      test_id: id,
      test_name: t?.name ?? '',
      target_minutes: target,
      over_target: target === null ? null : h.over(target),
      ...f,
    });
  }
  return { tests: out, all: all.figures() };
}
