/**
 * Westgard multirule QC on z-scores ((value - target mean) / target SD). A QC run is the set of
 * control levels measured together for a test; runs are given newest first, each as the z-score of
 * every level (null where a level was not run). Rules look within the run (across its levels) and
 * across runs (each level's own series, and all levels in measurement order), as Westgard defines
 * them. "Beyond" is strictly greater: exactly 2 SD is not beyond 2 SD. 1-2s is a warning; every
 * other rule a lab selects rejects the run.
 */
export const WESTGARD_RULES = [
  '1-2s',
  '1-3s',
  '2-2s',
  'R-4s',
  '2of3-2s',
  '3-1s',
  '4-1s',
  '7-T',
  '8-x',
  '10-x',
  '12-x',
] as const;
export type WestgardRule = (typeof WESTGARD_RULES)[number];
export type QcStatus = 'passed' | 'warning' | 'failed';

/** The classic multirule set (1-2s warning; 1-3s, 2-2s, R-4s, 4-1s, 10-x reject): the default for every test. */
export const DEFAULT_QC_RULES: readonly WestgardRule[] = ['1-2s', '1-3s', '2-2s', 'R-4s', '4-1s', '10-x'];

export function zScore(value: number, mean: number, sd: number): number {
  return (value - mean) / sd;
}

type Side = 1 | -1;
const beyond = (z: number, limit: number, side: Side) => (side === 1 ? z > limit : z < -limit);
const bothSides: Side[] = [1, -1];

/** The first k values all beyond the limit on one side. */
const sameSide = (zs: readonly number[], k: number, limit: number) =>
  zs.length >= k && bothSides.some((s) => zs.slice(0, k).every((z) => beyond(z, limit, s)));

/** At least m of the first k values beyond the limit on one side. */
const mOfK = (zs: readonly number[], m: number, k: number, limit: number) =>
  zs.length >= m && bothSides.some((s) => zs.slice(0, k).filter((z) => beyond(z, limit, s)).length >= m);

/** The first k values rise (or fall) one after another: newest first, so a rise reads as falling. */
const trend = (zs: readonly number[], k: number) => {
  if (zs.length < k) return false;
  const w = zs.slice(0, k);
  const up = w.every((z, i) => i === 0 || w[i - 1]! > z);
  const down = w.every((z, i) => i === 0 || w[i - 1]! < z);
  return up || down;
};

export interface RunVerdict {
  status: QcStatus;
  rules: WestgardRule[];
}

/**
 * The verdict on the newest run (runs[0]) with the runs before it. Each level's series counts for
 * the across-run rules, and so does the sequence of all levels in measurement order (this run's
 * levels first, then the run before...), so 4-1s fires on two levels over two runs.
 */
export function evaluateRun(
  runs: readonly (readonly (number | null)[])[],
  selected: readonly WestgardRule[] = DEFAULT_QC_RULES,
): RunVerdict {
  const current = (runs[0] ?? []).filter((z): z is number => z !== null);
  if (!current.length) return { status: 'passed', rules: [] };
  const width = Math.max(...runs.map((r) => r.length));
  // Each level's series, newest first, only for levels measured in this run.
  const series: number[][] = [];
  for (let i = 0; i < width; i++) {
    if (runs[0]![i] == null) continue;
    series.push(runs.map((r) => r[i]).filter((z): z is number => z !== null && z !== undefined));
  }
  const combined = runs.flatMap((r) => r.filter((z): z is number => z !== null));
  const anySeries = (test: (zs: readonly number[]) => boolean) => series.some(test) || test(combined);
  const on = new Set(selected);
  const broken: WestgardRule[] = [];
  const check = (rule: WestgardRule, hit: () => boolean) => {
    if (on.has(rule) && hit()) broken.push(rule);
  };

  check('1-3s', () => current.some((z) => Math.abs(z) > 3));
  check('2-2s', () => sameSideWithin(current, 2) || series.some((zs) => sameSide(zs, 2, 2)));
  check('R-4s', () =>
    current.length > 1
      ? current.some((z) => z > 2) && current.some((z) => z < -2)
      : // One level alone: this run and the one before it on opposite sides of 2 SD.
        series.some((zs) => zs.length > 1 && ((zs[0]! > 2 && zs[1]! < -2) || (zs[0]! < -2 && zs[1]! > 2))),
  );
  check('2of3-2s', () => anySeries((zs) => mOfK(zs, 2, 3, 2)));
  check('3-1s', () => anySeries((zs) => sameSide(zs, 3, 1)));
  check('4-1s', () => anySeries((zs) => sameSide(zs, 4, 1)));
  check('7-T', () => series.some((zs) => trend(zs, 7)));
  check('8-x', () => anySeries((zs) => sameSide(zs, 8, 0)));
  check('10-x', () => anySeries((zs) => sameSide(zs, 10, 0)));
  check('12-x', () => anySeries((zs) => sameSide(zs, 12, 0)));

  const warn = on.has('1-2s') && current.some((z) => Math.abs(z) > 2);
  if (broken.length) return { status: 'failed', rules: warn ? ['1-2s', ...broken] : broken };
  if (warn) return { status: 'warning', rules: ['1-2s'] };
  return { status: 'passed', rules: [] };
}

/** Two or more levels of one run beyond the same 2 SD. */
function sameSideWithin(current: readonly number[], limit: number): boolean {
  return current.length > 1 && bothSides.some((s) => current.filter((z) => beyond(z, limit, s)).length >= 2);
}

/** One material judged alone (one level per run), newest first: the rules of the default set. */
export function westgard(zs: readonly number[]): RunVerdict {
  return evaluateRun(
    zs.map((z) => [z]),
    DEFAULT_QC_RULES,
  );
}

/** Pass rate: passed runs over all runs x 100, to one decimal (spec 001 section 9). */
export function passRate(passed: number, total: number): number {
  return total > 0 ? Math.round((passed / total) * 1000) / 10 : 0;
}
