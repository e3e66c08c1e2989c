import { createContext, useContext } from 'react';
import type { DateFormat } from '@shared/constants';
import { formatInr } from '@shared/money';

export { formatInr };

/** The lab's display settings (setup wizard: timezone, date format). Defaults are the spec's. */
export interface LabFormat {
  dateFormat: DateFormat;
  timeZone: string;
  hour12: boolean;
}

export const DEFAULT_LAB_FORMAT: LabFormat = { dateFormat: 'DD/MM/YYYY', timeZone: 'Asia/Kolkata', hour12: false };

export const LabFormatContext = createContext<LabFormat>(DEFAULT_LAB_FORMAT);

export function useLabFormat(): LabFormat {
  return useContext(LabFormatContext);
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

function arrange(y: string, m: string, d: string, format: DateFormat): string {
  if (format === 'MM/DD/YYYY') return `${m}/${d}/${y}`;
  if (format === 'YYYY-MM-DD') return `${y}-${m}-${d}`;
  return `${d}/${m}/${y}`;
}

function parts(date: Date, timeZone: string, hour12: boolean) {
  const fmt = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hour12,
  });
  const get = (type: Intl.DateTimeFormatPartTypes) => fmt.formatToParts(date).find((p) => p.type === type)?.value ?? '';
  return {
    y: get('year'),
    m: get('month'),
    d: get('day'),
    h: get('hour'),
    min: get('minute'),
    period: get('dayPeriod'),
  };
}

/**
 * A date in the lab's format. Date-only values ("1990-04-01", e.g. a date of birth) are shown as
 * written: converting them through a timezone could move them a day.
 */
export function formatDate(value: string | Date | null | undefined, f: LabFormat = DEFAULT_LAB_FORMAT): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') {
    const m = DATE_ONLY.exec(value);
    if (m) return arrange(m[1]!, m[2]!, m[3]!, f.dateFormat);
  }
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  const p = parts(date, f.timeZone, f.hour12);
  return arrange(p.y, p.m, p.d, f.dateFormat);
}

/** Date and time in the lab's format and timezone; 24-hour unless the lab chose otherwise. */
export function formatDateTime(value: string | Date | null | undefined, f: LabFormat = DEFAULT_LAB_FORMAT): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  const p = parts(date, f.timeZone, f.hour12);
  const time = f.hour12 ? `${p.h}:${p.min} ${p.period}`.trim() : `${p.h === '24' ? '00' : p.h}:${p.min}`;
  return `${arrange(p.y, p.m, p.d, f.dateFormat)} ${time}`;
}

const count = new Intl.NumberFormat('en-IN');

/** 12,34,567 (Indian grouping); null (module not available yet) shows an em dash. */
export function formatCount(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : count.format(n);
}

/** "lab_technician" -> "Lab technician" for enum values that have no label table. */
export function humanize(value: string): string {
  const s = value.replace(/[_-]+/g, ' ').trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}
