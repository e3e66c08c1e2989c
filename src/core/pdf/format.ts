import { localParts } from '../../shared/time.js';

/** Dates on printed documents follow the lab's date format and time zone; times are 24-hour. */
function pick(iso: string, timeZone: string) {
  const p = localParts(timeZone, new Date(iso));
  return { year: p.y, month: p.mo, day: p.d, hour: p.h, minute: p.mi };
}

export function formatLabDate(iso: string, dateFormat: string, timeZone: string): string {
  const p = pick(iso, timeZone);
  if (dateFormat === 'MM/DD/YYYY') return `${p.month}/${p.day}/${p.year}`;
  if (dateFormat === 'YYYY-MM-DD') return `${p.year}-${p.month}-${p.day}`;
  return `${p.day}/${p.month}/${p.year}`;
}

export function formatLabDateTime(iso: string, dateFormat: string, timeZone: string): string {
  const p = pick(iso, timeZone);
  return `${formatLabDate(iso, dateFormat, timeZone)} ${p.hour}:${p.minute}`;
}

/** A lab calendar day ("2026-11-26") in the lab's date format, with no time-zone shift. */
export function formatLabDay(day: string, dateFormat: string): string {
  return formatLabDate(`${day}T12:00:00Z`, dateFormat, 'UTC');
}
