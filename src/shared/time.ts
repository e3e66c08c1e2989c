import type { DateFormat as LabDateFormat } from './constants.js';

export type { LabDateFormat };

/**
 * Lab-local calendar and display helpers, shared by server, CLI and browser: the lab's time zone
 * decides what "today", a bill date and a shown time are.
 */

/** Intl formatters are costly to build; one per zone is kept. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Year, month, day, hour, minute, second of instant d in the lab's zone (24-hour, zero-padded). */
export function localParts(timeZone: string, d: Date) {
  const o: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(d)) o[p.type] = p.value;
  return { y: o.year!, mo: o.month!, d: o.day!, h: o.hour!, mi: o.minute!, s: o.second! };
}

/** YYYY-MM-DD in the lab's zone. */
export function localDate(timeZone: string, d: Date = new Date()): string {
  const p = localParts(timeZone, d);
  return `${p.y}-${p.mo}-${p.d}`;
}

/** YYYYMMDDHHmm in the lab's zone (bill numbers). */
export function localMinuteStamp(timeZone: string, d: Date = new Date()): string {
  const p = localParts(timeZone, d);
  return `${p.y}${p.mo}${p.d}${p.h}${p.mi}`;
}

/** Offset of the zone from UTC at instant d, in ms. */
function offsetMs(timeZone: string, d: Date): number {
  const p = localParts(timeZone, d);
  const asUtc = Date.UTC(Number(p.y), Number(p.mo) - 1, Number(p.d), Number(p.h), Number(p.mi), Number(p.s));
  return asUtc - Math.floor(d.getTime() / 1000) * 1000;
}

/** The UTC instant at which the lab-local calendar day `ymd` begins. */
export function startOfLocalDayUtc(timeZone: string, ymd: string): Date {
  const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
  const guess = new Date(Date.UTC(y, m - 1, d));
  const first = new Date(guess.getTime() - offsetMs(timeZone, guess));
  return new Date(guess.getTime() - offsetMs(timeZone, first));
}

/**
 * Each consecutive lab day's UTC bounds [start, end) as ISO text: a day's end is the next day's start,
 * so each is converted once (a year of days is 366 conversions, not 730).
 */
export function labDayBounds(timeZone: string, days: readonly string[]): { day: string; start: string; end: string }[] {
  const starts = days.map((d) => startOfLocalDayUtc(timeZone, d).toISOString());
  return days.map((day, k) => ({
    day,
    start: starts[k]!,
    end:
      k + 1 < days.length && days[k + 1] === addDays(day, 1)
        ? starts[k + 1]!
        : startOfLocalDayUtc(timeZone, addDays(day, 1)).toISOString(),
  }));
}

/** The UTC instant of a lab-local wall-clock time ("2026-03-05", 14, 30, 0 in Asia/Kolkata is 09:00 UTC). */
export function localTimeUtc(timeZone: string, ymd: string, h: number, mi: number, s: number): Date {
  const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
  const guess = new Date(Date.UTC(y, m - 1, d, h, mi, s));
  const first = new Date(guess.getTime() - offsetMs(timeZone, guess));
  return new Date(guess.getTime() - offsetMs(timeZone, first));
}

/** "+05:30": the zone's offset from UTC at instant d (file names that say their zone). */
export function utcOffsetText(timeZone: string, d: Date = new Date()): string {
  const minutes = Math.round(offsetMs(timeZone, d) / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * "2026-11-25-12-19-05+0530": an instant as the lab's wall-clock time with its offset, for file
 * names (no colons, which some file systems refuse), so a backup says the time the lab saw.
 */
export function localFileStamp(timeZone: string, d: Date = new Date()): string {
  const p = localParts(timeZone, d);
  return `${p.y}-${p.mo}-${p.d}-${p.h}-${p.mi}-${p.s}${utcOffsetText(timeZone, d).replace(':', '')}`;
}

export function addDays(ymd: string, days: number): string {
  const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

export interface LabFormat {
  dateFormat: LabDateFormat;
  timeZone: string;
  hour12: boolean;
}

export const DEFAULT_LAB_FORMAT: LabFormat = { dateFormat: 'DD/MM/YYYY', timeZone: 'Asia/Kolkata', hour12: false };

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

function arrange(y: string, m: string, d: string, format: LabDateFormat): string {
  if (format === 'MM/DD/YYYY') return `${m}/${d}/${y}`;
  if (format === 'YYYY-MM-DD') return `${y}-${m}-${d}`;
  return `${d}/${m}/${y}`;
}

function toDate(value: string | Date): Date | null {
  const date = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A date in the lab's format. Date-only values ("1990-04-01", e.g. a date of birth) are shown as
 * written: converting them through a time zone could move them a day.
 */
export function formatLabDate(value: string | Date | null | undefined, f: LabFormat = DEFAULT_LAB_FORMAT): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') {
    const m = DATE_ONLY.exec(value);
    if (m) return arrange(m[1]!, m[2]!, m[3]!, f.dateFormat);
  }
  const date = toDate(value);
  if (!date) return String(value);
  const p = localParts(f.timeZone, date);
  return arrange(p.y, p.mo, p.d, f.dateFormat);
}

/** Date and time in the lab's format and time zone; 24-hour unless the lab chose otherwise. */
export function formatLabDateTime(value: string | Date | null | undefined, f: LabFormat = DEFAULT_LAB_FORMAT): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = toDate(value);
  if (!date) return String(value);
  const p = localParts(f.timeZone, date);
  const hour = Number(p.h);
  const time = f.hour12
    ? `${String(hour % 12 === 0 ? 12 : hour % 12).padStart(2, '0')}:${p.mi} ${hour < 12 ? 'am' : 'pm'}`
    : `${p.h}:${p.mi}`;
  return `${arrange(p.y, p.mo, p.d, f.dateFormat)} ${time}`;
}

/** "2025-01-31 14:05" in the lab's time zone (CLI listings); empty for never. */
export function labTimestamp(iso: string | null, timeZone: string): string {
  if (!iso) return '';
  const date = toDate(iso);
  if (!date) return iso;
  const p = localParts(timeZone, date);
  return `${p.y}-${p.mo}-${p.d} ${p.h}:${p.mi}`;
}

/**
 * A date typed in the lab's format ("05/03/1980" for DD/MM/YYYY, also with dashes or dots, and one-
 * digit day or month) as YYYY-MM-DD; null when it is not a whole date in that format. A value
 * already in YYYY-MM-DD passes through.
 */
export function parseLabDate(text: string, dateFormat: string): string | null {
  const t = text.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) return t;
  const m = /^(\d{1,4})[/.-](\d{1,2})[/.-](\d{1,4})$/.exec(t);
  if (!m) return null;
  const [a, b, c] = [m[1]!, m[2]!, m[3]!];
  const [y, mo, d] = dateFormat === 'MM/DD/YYYY' ? [c, a, b] : dateFormat === 'YYYY-MM-DD' ? [a, b, c] : [c, b, a];
  if (y.length !== 4) return null;
  const iso = `${y}-${mo.padStart(2, '0')}-${d.padStart(2, '0')}`;
  const dt = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(dt.getTime()) || dt.toISOString().slice(0, 10) !== iso ? null : iso;
}
