import { targetMinutesOf } from '../../shared/figures.js';
import type { Db } from '../db/connection.js';
import { freshPlan } from './rollups/days.js';
import { turnaroundRollup } from './rollups/read.js';
import { turnaroundRows } from './rollups/turnaround-rows.js';
import type { Window } from './repository.js';

/**
 * Turnaround (collection -> verification) per test and for all tests, for verified results of the
 * samples of a period (collected in it). A result's turnaround is counted in whole minutes (its
 * interval rounded to the nearest minute, halves away from zero); the median and 90th percentile
 * interpolate between neighbouring values as PERCENTILE.INC does, so the figures are exact for that
 * unit. "Over target" compares the exact milliseconds.
 *
 * A period's fresh whole lab days come from the turnaround rollup (a whole-minute histogram per day
 * and test), the rest from the rows (src/core/reports/rollups/).
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
 * Calls `each(minute, count, group)` for every entry of histogram JSON text: a flat object of integer
 * keys and values (`{"91":3,"-7":1}`, as the rollups write it; spaces allowed), or several joined end
 * to end, each after the number of its group (`7{"91":3}12{"5":1}`, as turnaroundRollup reads them;
 * `group` is null for an object without one). Read by hand instead of JSON.parse: a year of the
 * turnaround rollup is about 400,000 entries, and making an object with a string key for each cost
 * more than the rest of the report. Anything else in the text (a fraction, a nested value, a
 * number outside an object but before one) is refused rather than misread.
 */
export function forEachCount(text: string, each: (minute: number, count: number, group: number | null) => void): void {
  const refuse = (why: string) => {
    throw new Error(`turnaround histogram: ${why} in ${text.slice(0, 60)}`);
  };
  let group: number | null = null;
  let before: number | null = null;
  let inside = false;
  let key: number | null = null;
  for (let i = 0; i < text.length;) {
    let c = text.charCodeAt(i);
    if (c === 45 || (c >= 48 && c <= 57)) {
      const negative = c === 45;
      if (negative) c = text.charCodeAt(++i);
      if (!(c >= 48 && c <= 57)) refuse('a lone minus sign');
      let v = 0;
      while (c >= 48 && c <= 57) {
        v = v * 10 + (c - 48);
        c = text.charCodeAt(++i);
      }
      if (negative) v = -v;
      if (!inside) {
        if (before !== null) refuse('two numbers outside an object');
        before = v;
      } else if (key === null) key = v;
      else {
        each(key, v, group);
        key = null;
      }
      continue;
    }
    if (c === 123) {
      if (inside) refuse(`unexpected "{" at ${i}`);
      inside = true;
      group = before;
      before = null;
    } else if (c === 125) {
      if (!inside) refuse(`unexpected "}" at ${i}`);
      if (key !== null) refuse('a key without a count');
      inside = false;
      // " : , and white space separate the numbers.
    } else if (!(c === 34 || c === 58 || c === 44 || c === 32 || c === 10 || c === 13 || c === 9))
      refuse(`unexpected "${text[i]}" at ${i}`);
    i++;
  }
  if (inside || key !== null) refuse('a key without a count');
  if (before !== null) refuse('a group without its object');
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
  const plan = await freshPlan(db, w.organizationId, w.fromUtc, w.toUtc);
  for (const e of plan.raw)
    for (const r of await turnaroundRows(db, w.organizationId, e.fromUtc, e.toUtc, 'collected')) {
      const h = histogramOf(r.test_id);
      h.add(r.minutes, 1);
      all.add(r.minutes, 1);
      if (r.above) h.addAbove(r.minutes, 1);
    }
  // The entries of one (day, test) come together: the last test's histogram serves the next entry.
  let last: { test: number | null; h: Histogram | null } = { test: null, h: null };
  const ofGroup = (test: number | null) => {
    if (test === null) throw new Error('turnaround histogram: an entry without its test');
    if (last.test !== test) last = { test, h: histogramOf(test) };
    return last.h!;
  };
  for (const r of await turnaroundRollup(db, w.organizationId, plan.runs)) {
    if (r.minutes)
      forEachCount(r.minutes, (minutes, n, test) => {
        ofGroup(test).add(minutes, n);
        all.add(minutes, n);
      });
    if (r.above) forEachCount(r.above, (minutes, n, test) => ofGroup(test).addAbove(minutes, n));
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
