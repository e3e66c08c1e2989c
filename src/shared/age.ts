const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Age in whole years on a day, both as YYYY-MM-DD: one year less if that year's birthday has not
 * come. Plain string arithmetic: this runs for every patient of every list and look-up. Null when
 * either is not a YYYY-MM-DD date.
 */
export function ageOn(dob: string, day: string): number | null {
  if (!ISO_DAY.test(dob) || !ISO_DAY.test(day)) return null;
  const age = Number(day.slice(0, 4)) - Number(dob.slice(0, 4));
  // Month and day compare as text: "MM-DD" strings of the same shape sort like the dates.
  return day.slice(5) < dob.slice(5) ? age - 1 : age;
}

/** True when YYYY-MM-DD is a real calendar date. */
export function isRealDate(iso: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return false;
  const dt = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return (
    dt.getUTCFullYear() === Number(m[1]) && dt.getUTCMonth() + 1 === Number(m[2]) && dt.getUTCDate() === Number(m[3])
  );
}

export const AGE_UNITS = ['years', 'months', 'days'] as const;
export type AgeUnit = (typeof AGE_UNITS)[number];

/**
 * An approximate birth date from an age told at the desk ("35 years", "8 months", "10 days"),
 * counted back from the lab's day: the patient is that old today. Month ends clamp (31 March less
 * one month is 28/29 February).
 */
export function birthDateFromAge(age: number, unit: AgeUnit, today: string): string {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  if (unit === 'days') return new Date(Date.UTC(y, m - 1, d - age)).toISOString().slice(0, 10);
  const months = unit === 'years' ? age * 12 : age;
  const target = new Date(Date.UTC(y, m - 1 - months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, last));
  return target.toISOString().slice(0, 10);
}

/** The oldest birth date accepted: 120 years before the day. */
export function earliestBirthDate(today: string): string {
  return birthDateFromAge(120, 'years', today);
}

/** A patient's age on a day in the three units a reference band may use: whole days, months and years. */
export interface AgeParts {
  days: number;
  months: number;
  years: number;
}

const DAY_MS = 86_400_000;

/**
 * Completed days, months and years from a birth date to a day (both YYYY-MM-DD). A month is
 * completed on the same day of the month (a month after 31 January is completed at the end of
 * February); null when either is not a date or the birth is after the day.
 */
export function ageParts(dob: string, day: string): AgeParts | null {
  if (!ISO_DAY.test(dob) || !ISO_DAY.test(day) || day < dob) return null;
  const [by, bm, bd] = dob.split('-').map(Number) as [number, number, number];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const days = Math.round((Date.UTC(y, m - 1, d) - Date.UTC(by, bm - 1, bd)) / DAY_MS);
  let months = (y - by) * 12 + (m - bm);
  // The month is not completed until its day of the month, or the month's last day when shorter.
  const lastOfMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d < Math.min(bd, lastOfMonth)) months -= 1;
  return { days, months, years: ageOn(dob, day)! };
}

/**
 * The one way an age is printed, on every screen, label and report: days under a month, months
 * under two years, years from then ("12 days", "8 months", "35 years"). `short` is for tight
 * places (lists, labels): "12 d", "8 mo", "35 y". Null without a usable birth date.
 */
export function formatAge(
  dob: string | null | undefined,
  day: string,
  style: 'long' | 'short' = 'long',
): string | null {
  if (!dob) return null;
  const a = ageParts(dob, day);
  if (!a) return null;
  const [n, unit] = a.months < 1 ? [a.days, 'day'] : a.months < 24 ? [a.months, 'month'] : [a.years, 'year'];
  if (style === 'short') return `${n} ${unit === 'day' ? 'd' : unit === 'month' ? 'mo' : 'y'}`;
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}
