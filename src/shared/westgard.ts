/**
 * Westgard multirule QC on z-scores ((value - target mean) / target SD) of one control material,
 * the newest run first. 1-2s is a warning; 1-3s, 2-2s, R-4s, 4-1s and 10-x reject the run.
 */
export const WESTGARD_RULES = ['1-2s', '1-3s', '2-2s', 'R-4s', '4-1s', '10-x'] as const;
export type WestgardRule = (typeof WESTGARD_RULES)[number];
export type QcStatus = 'passed' | 'warning' | 'failed';

export function zScore(value: number, mean: number, sd: number): number {
  return (value - mean) / sd;
}

const sameSide = (zs: number[], k: number, beyond: number) =>
  zs.length >= k && (zs.slice(0, k).every((z) => z > beyond) || zs.slice(0, k).every((z) => z < -beyond));

/** Rules the newest run (zs[0]) breaks, judged with the runs before it. */
export function westgard(zs: readonly number[]): { status: QcStatus; rules: WestgardRule[] } {
  const z = [...zs];
  const rules: WestgardRule[] = [];
  const z0 = z[0];
  if (z0 === undefined) return { status: 'passed', rules };
  if (Math.abs(z0) > 3) rules.push('1-3s');
  if (sameSide(z, 2, 2)) rules.push('2-2s');
  const z1 = z[1];
  if (z1 !== undefined && ((z0 > 2 && z1 < -2) || (z0 < -2 && z1 > 2))) rules.push('R-4s');
  if (sameSide(z, 4, 1)) rules.push('4-1s');
  if (sameSide(z, 10, 0)) rules.push('10-x');
  if (rules.length) {
    if (Math.abs(z0) > 2) rules.unshift('1-2s');
    return { status: 'failed', rules };
  }
  if (Math.abs(z0) > 2) return { status: 'warning', rules: ['1-2s'] };
  return { status: 'passed', rules };
}

/** Pass rate: passed runs over all runs x 100, to one decimal (spec 001 section 9). */
export function passRate(passed: number, total: number): number {
  return total > 0 ? Math.round((passed / total) * 1000) / 10 : 0;
}
