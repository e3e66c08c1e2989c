import { numericValue } from './flags.js';

/**
 * What a test's result is: a number (with decimals, unit, ranges, critical and plausible limits),
 * free text, one of a list (Positive/Negative, a blood group), calculated from other tests, or
 * structured: entered parameter by parameter from a result template (src/shared/templates).
 * The server refuses a value that does not fit; the entry screen uses the same rules.
 */
export const RESULT_TYPES = ['numeric', 'text', 'choice', 'calculated', 'structured'] as const;
export type ResultType = (typeof RESULT_TYPES)[number];

export interface ResultRules {
  name: string;
  result_type: string;
  unit: string | null;
  decimals: number | null;
  plausible_low: number | null;
  plausible_high: number | null;
  choices: readonly string[] | null;
}

export type ValueCheck = { ok: true; value: string } | { ok: false; message: string };

/** "<0.01" or ">1000": a value beyond what the method can measure, reported as such. */
const CENSORED = /^([<>]=?)\s*(.+)$/;

function fmt(n: number, decimals: number | null): string {
  return decimals == null ? String(n) : n.toFixed(decimals);
}

/**
 * A typed value checked against the test's type. A number is kept exactly as the technician or the
 * instrument gave it (`14.0`, `4.20`, `< 1.20`): its digits are the method's precision, and the
 * test's decimals only format values lims computes (formatCalculated).
 */
export function checkResultValue(test: ResultRules, raw: string): ValueCheck {
  const value = raw.trim();
  if (!value) return { ok: false, message: 'Result value is required' };
  switch (test.result_type) {
    case 'text':
      return { ok: true, value };
    case 'choice': {
      const choices = test.choices ?? [];
      const hit = choices.find((c) => c.toLowerCase() === value.toLowerCase());
      return hit
        ? { ok: true, value: hit }
        : { ok: false, message: `${test.name} must be one of: ${choices.join(', ')}` };
    }
    default: {
      const censored = CENSORED.exec(value);
      const n = numericValue(censored ? censored[2]! : value);
      if (n === null)
        return {
          ok: false,
          message: `${test.name} is a number${test.unit ? ` in ${test.unit}` : ''}; "${value.slice(0, 20)}" is not a number`,
        };
      if (
        (test.plausible_low != null && n < test.plausible_low) ||
        (test.plausible_high != null && n > test.plausible_high)
      ) {
        const unit = test.unit ? ` ${test.unit}` : '';
        return {
          ok: false,
          message: `${test.name} ${n}${unit} is outside what is possible (${test.plausible_low ?? '…'} to ${test.plausible_high ?? '…'}${unit}); check the value`,
        };
      }
      return { ok: true, value };
    }
  }
}

/** A value on the same scale as the previous one, for the delta check: censored values are not compared. */
export function deltaFailed(
  rule: { delta_limit: number | null; delta_kind: string | null },
  current: string,
  previous: string,
): boolean {
  if (rule.delta_limit == null) return false;
  const a = numericValue(current);
  const b = numericValue(previous);
  if (a === null || b === null) return false;
  const diff = Math.abs(a - b);
  if (rule.delta_kind === 'percent') return b === 0 ? diff > 0 : (diff / Math.abs(b)) * 100 > rule.delta_limit;
  return diff > rule.delta_limit;
}

export function formatCalculated(n: number, decimals: number | null): string {
  return fmt(Number(n.toFixed(decimals ?? 2)), decimals ?? null);
}
