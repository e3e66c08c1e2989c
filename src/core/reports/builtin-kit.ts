import type { Db } from '../db/connection.js';
import type { Permission } from '../../shared/roles.js';
import type { BuiltInReportId, ColumnKind, ReportType } from '../../shared/reports.js';
import type { ReportChart, ReportColumn, ReportPage } from '../../shared/schemas/reports.js';
import { addDays, localDate, startOfLocalDayUtc } from '../../shared/time.js';
import { type Window } from './repository.js';

/**
 * What every built-in report is made of (builtin-lab.ts and builtin-money.ts hold the reports):
 * each turns the rows of the reports' repositories into columns, rows (money in rupees), totals
 * and one chart whose points are also shown as a table. Every figure is computed from the
 * database for the lab days from..to.
 */

export type Cell = string | number | null;
export type Row = Record<string, Cell>;
export interface Built {
  columns: ReportColumn[];
  /** Every row of the period, or only the page asked for when rowCount is given. */
  rows: Row[];
  /** The period's rows, when the builder read only the page (rows) itself. */
  rowCount?: number;
  totals: Row | null;
  chart: ReportChart | null;
  notes: string[];
}
export interface RunContext {
  db: Db;
  window: Window;
  from: string;
  to: string;
  timeZone: string;
  /** The page of rows asked for (null: all); a builder may read only it, else the service slices. */
  page: ReportPage | null;
}
export interface BuiltInReport {
  id: BuiltInReportId;
  name: string;
  type: ReportType;
  description: string;
  /** Permissions beyond view_reports that the report's rows need. */
  needs: Permission[];
  /** False when the rows name patients: a doctor limited to their own patients does not get it. */
  aggregate: boolean;
  build(ctx: RunContext): Promise<Built>;
}

export const rupees = (paise: number | string | null | undefined) => Math.round(Number(paise ?? 0)) / 100;
export const col = (key: string, label: string, kind: ColumnKind = 'text'): ReportColumn => ({ key, label, kind });
export const pct = (n: number, d: number) => (d === 0 ? 0 : Math.round((n / d) * 10000) / 100);
/** A totals row's sums of these columns of the rows, to the paisa (counts add up exactly). */
export const sums = <K extends string>(rows: readonly Record<NoInfer<K>, number>[], keys: readonly K[]): Row =>
  Object.fromEntries(keys.map((k) => [k, Math.round(rows.reduce((a, r) => a + r[k] * 100, 0)) / 100]));

/** Linear-interpolated percentile (as spreadsheets' PERCENTILE.INC) of sorted values. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const i = (sorted.length - 1) * p;
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (i - lo);
}
export const minutesRounded = (m: number | null) => (m === null ? null : Math.round(m));

/**
 * The lab day of an instant of the period from..to, found among the days' UTC starts (one time-zone
 * conversion per day instead of one per row: a year's dues are 17,000 bills).
 */
export function labDayOf(timeZone: string, from: string, to: string): (iso: string) => string {
  const days: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) days.push(d);
  const starts = days.map((d) => startOfLocalDayUtc(timeZone, d).toISOString());
  const end = startOfLocalDayUtc(timeZone, addDays(to, 1)).toISOString();
  return (iso) => {
    // Outside the period (not a row of it): the conversion itself.
    if (days.length === 0 || iso < starts[0]! || iso >= end) return localDate(timeZone, new Date(iso));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= iso) lo = mid;
      else hi = mid - 1;
    }
    return days[lo]!;
  };
}

export const chart = (
  title: string,
  label: string,
  valueLabel: string,
  valueKind: ColumnKind,
  points: { label: string; value: number }[],
  kind: 'bar' | 'line' = 'bar',
): ReportChart => ({ title, kind, label, value_label: valueLabel, value_kind: valueKind, points });

export const byDesc =
  <T>(f: (t: T) => number) =>
  (a: T, b: T) =>
    f(b) - f(a);
