import type { AgeParts } from './age.js';

/**
 * Result flags from reference ranges. A range is text as a report prints it: "70-110", "13.0 – 17.0",
 * "<200", "<= 5.7", ">40", "≥ 60", or a qualitative expected value ("Negative", "Non-reactive").
 * Tests may carry several ranges by sex and age; the result keeps the range that was used.
 */
export const RESULT_FLAGS = ['normal', 'low', 'high', 'abnormal'] as const;
export type ResultFlag = (typeof RESULT_FLAGS)[number];

export type ParsedRange =
  | { kind: 'between'; low: number; high: number }
  | { kind: 'below'; limit: number; inclusive: boolean }
  | { kind: 'above'; limit: number; inclusive: boolean }
  | { kind: 'text'; expected: string };

const NUM = '[-+]?\\d+(?:\\.\\d+)?';

export function parseRange(text: string | null | undefined): ParsedRange | null {
  if (!text) return null;
  const t = text.trim().replace(/[–—]/g, '-').replace(/,/g, '');
  if (!t) return null;
  let m = new RegExp(`^(${NUM})\\s*-\\s*(${NUM})$`).exec(t);
  if (m) {
    const low = Number(m[1]);
    const high = Number(m[2]);
    return low <= high ? { kind: 'between', low, high } : null;
  }
  m = new RegExp(`^(<=|≤|<)\\s*(${NUM})$`).exec(t);
  if (m) return { kind: 'below', limit: Number(m[2]), inclusive: m[1] !== '<' };
  m = new RegExp(`^(>=|≥|>)\\s*(${NUM})$`).exec(t);
  if (m) return { kind: 'above', limit: Number(m[2]), inclusive: m[1] !== '>' };
  if (new RegExp(`^${NUM}`).test(t)) return null; // numeric-looking but not a form we understand
  return { kind: 'text', expected: t };
}

/** A result value as a number, or null for text results ("Positive", "Hemolysed"). */
export function numericValue(value: string): number | null {
  const t = value.trim().replace(/,/g, '');
  return new RegExp(`^${NUM}$`).test(t) ? Number(t) : null;
}

const NEGATIVE_WORDS = new Set([
  'negative',
  'non-reactive',
  'non reactive',
  'nonreactive',
  'nil',
  'absent',
  'not detected',
  'none',
]);

function sameQualitative(a: string, b: string): boolean {
  const x = a.trim().toLowerCase();
  const y = b.trim().toLowerCase();
  return x === y || (NEGATIVE_WORDS.has(x) && NEGATIVE_WORDS.has(y));
}

/**
 * low / high / normal for numbers against numeric ranges (the limits themselves are normal for
 * "a-b", "<=x" and ">=x"; "<x" and ">x" exclude x); abnormal for a text result that differs from the
 * expected text or a text result against a numeric range; null when there is no usable range.
 */
export function computeFlag(value: string, rangeText: string | null | undefined): ResultFlag | null {
  const range = parseRange(rangeText);
  if (!range || value.trim() === '') return null;
  const n = numericValue(value);
  if (range.kind === 'text') {
    if (n !== null) return null;
    return sameQualitative(value, range.expected) ? 'normal' : 'abnormal';
  }
  if (n === null) return 'abnormal';
  if (range.kind === 'between') return n < range.low ? 'low' : n > range.high ? 'high' : 'normal';
  if (range.kind === 'below') return n < range.limit || (range.inclusive && n === range.limit) ? 'normal' : 'high';
  return n > range.limit || (range.inclusive && n === range.limit) ? 'normal' : 'low';
}

export const RANGE_AGE_UNITS = ['days', 'months', 'years'] as const;
export type RangeAgeUnit = (typeof RANGE_AGE_UNITS)[number];

export interface ReferenceRange {
  sex?: 'Male' | 'Female' | null;
  /** Age from (inclusive), in age_unit. */
  age_min?: number | null;
  /** Age up to (exclusive), in age_unit. */
  age_max?: number | null;
  /** The unit of both age bounds; years when absent (ranges stored before bands had units). */
  age_unit?: RangeAgeUnit | null;
  range: string;
  critical_low?: number | null;
  critical_high?: number | null;
}

/** A patient's completed age in the unit a band counts in. */
function ageIn(age: AgeParts, unit: RangeAgeUnit | null | undefined): number {
  return unit === 'days' ? age.days : unit === 'months' ? age.months : age.years;
}

/** True when the band fits the patient's sex and age (a band with an age bound needs a known age). */
export function bandFits(r: ReferenceRange, patient: { sex: string | null; age: AgeParts | null }): boolean {
  if (r.sex && r.sex !== patient.sex) return false;
  if (r.age_min == null && r.age_max == null) return true;
  if (!patient.age) return false;
  const age = ageIn(patient.age, r.age_unit);
  if (r.age_min != null && age < r.age_min) return false;
  if (r.age_max != null && age >= r.age_max) return false;
  return true;
}

/** The first band that fits the patient's sex and age; the test's general range otherwise. */
export function pickRange(
  ranges: readonly ReferenceRange[] | null | undefined,
  fallback: string | null,
  patient: { sex: string | null; age: AgeParts | null },
): ReferenceRange | null {
  for (const r of ranges ?? []) if (bandFits(r, patient)) return r;
  return fallback ? { range: fallback } : null;
}

/**
 * Who a band is for, as the test screen and reports say it: "Female, 1-6 years", "0-7 days",
 * "Male, from 18 years", "Everyone".
 */
export function bandLabel(r: ReferenceRange): string {
  const unit = r.age_unit ?? 'years';
  const age =
    r.age_min != null && r.age_max != null
      ? `${r.age_min}-${r.age_max} ${unit}`
      : r.age_min != null
        ? `from ${r.age_min} ${unit}`
        : r.age_max != null
          ? `under ${r.age_max} ${unit}`
          : null;
  const parts = [r.sex ?? null, age].filter(Boolean);
  return parts.length ? parts.join(', ') : 'Everyone';
}

/** Critical when a number is beyond the range's critical limits (inclusive). */
export function isCritical(value: string, range: ReferenceRange | null): boolean {
  const n = numericValue(value);
  if (n === null || !range) return false;
  return (
    (range.critical_low != null && n <= range.critical_low) || (range.critical_high != null && n >= range.critical_high)
  );
}
