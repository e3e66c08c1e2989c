import type { DateFormat } from '@shared/constants';
import type { QcMaterial } from '@shared/schemas/qc';
import { QC_EXPIRY_WARNING_DAYS } from '@shared/schemas/qc';

/** Lab values as measured: up to 3 decimals, no thousands grouping, no trailing zeros. */
const value = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 3, useGrouping: false });

export function formatQcValue(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : value.format(n);
}

/** "100 ± 2" */
export function targetText(m: Pick<QcMaterial, 'target_mean' | 'target_sd'>): string {
  return `${formatQcValue(m.target_mean)} ± ${formatQcValue(m.target_sd)}`;
}

/** "96 – 104": mean ± 2SD, the range a run stays inside to pass 1-2s. */
export function rangeText(m: Pick<QcMaterial, 'acceptable_low' | 'acceptable_high'>): string {
  return `${formatQcValue(m.acceptable_low)} – ${formatQcValue(m.acceptable_high)}`;
}

/** A date already in the lab's format, without its year, for chart ticks: 12/03, 03/12 or 03-12. */
export function shortDate(formatted: string, dateFormat: DateFormat): string {
  return dateFormat === 'YYYY-MM-DD' ? formatted.slice(5) : formatted.slice(0, 5);
}

export type ExpiryTone = 'expired' | 'soon' | 'ok';

/** Red once past the expiry date, amber within 30 days of it. */
export function expiryTone(m: Pick<QcMaterial, 'days_to_expiry'>): ExpiryTone {
  if (m.days_to_expiry < 0) return 'expired';
  return m.days_to_expiry <= QC_EXPIRY_WARNING_DAYS ? 'soon' : 'ok';
}

export function expiryHint(m: Pick<QcMaterial, 'days_to_expiry'>): string {
  const d = m.days_to_expiry;
  if (d < 0) return `Expired ${-d} day${d === -1 ? '' : 's'} ago`;
  if (d === 0) return 'Expires today';
  return `Expires in ${d} day${d === 1 ? '' : 's'}`;
}

/** The spec's status filter: the outcome of each material's latest run. */
export const RUN_STATUS_OPTIONS = [
  { value: 'all', label: 'All Status' },
  { value: 'passed', label: 'Passed' },
  { value: 'warning', label: 'Warning' },
  { value: 'failed', label: 'Failed' },
  { value: 'none', label: 'No runs yet' },
] as const;

/** Badge text of a run outcome: "failed" reads as rejected in QC. */
export const RUN_STATUS_LABEL: Record<string, string> = { passed: 'Passed', warning: 'Warning', failed: 'Rejected' };
