import { PAYMENT_METHODS, PAYMENT_METHOD_LABELS, type PaymentMethod } from '@shared/billing';
import type { Bill } from '@shared/schemas/bills';
import { rupeesToPaise } from '@shared/money';
import { humanize } from './format';
import { choiceOptions } from './usePagedList';

export const METHOD_LABEL: Record<PaymentMethod, string> = PAYMENT_METHOD_LABELS;

export const METHOD_OPTIONS = PAYMENT_METHODS.map((m) => ({ value: m, label: METHOD_LABEL[m] }));

export function isPaymentMethod(v: string): v is PaymentMethod {
  return (PAYMENT_METHODS as readonly string[]).includes(v);
}

export function methodLabel(m: string): string {
  // 'advance': a ledger row paying a bill from the patient's advance on account (no money moved).
  if (m === 'advance') return 'From advance';
  return isPaymentMethod(m) ? METHOD_LABEL[m] : m;
}

export type BillNames = Pick<
  Bill,
  'patient_first_name' | 'patient_last_name' | 'doctor_first_name' | 'doctor_last_name'
>;

/** Spec 8 fallback: Unknown Patient when the bill's patient has no name. */
export function patientName(b: BillNames): string {
  return `${b.patient_first_name ?? ''} ${b.patient_last_name ?? ''}`.trim() || 'Unknown Patient';
}

/** Spec 2.16: "No doctor" for a lab-only bill. */
export function doctorName(b: BillNames): string {
  if (!b.doctor_first_name && !b.doctor_last_name) return 'No doctor';
  return `${b.doctor_first_name ?? ''} ${b.doctor_last_name ?? ''}`.trim();
}

/** API amounts are rupees; the UI's Money and formatMoney take paise. */
export const paiseOf = (rupees: number) => rupeesToPaise(rupees);

/** The statuses each screen filters by. Bills List: the spec's three plus paid and partial. */
export const BILLS_LIST_STATUS_OPTIONS = choiceOptions(
  'All Statuses',
  ['pending', 'partial', 'paid', 'overdue', 'cancelled'],
  humanize,
);

/** Billing Management (spec 2.16): All Statuses, Pending, Paid, Overdue. */
export const MANAGEMENT_STATUS_OPTIONS = choiceOptions('All Statuses', ['pending', 'paid', 'overdue'], humanize);

export const PAYMENT_STATUS_OPTIONS = choiceOptions('All Payments', ['paid', 'partial', 'unpaid'], humanize);

/** Spec 5: today = same calendar day; week, month, quarter = last 7, 30, 90 days. */
export const DATE_RANGE_OPTIONS = [
  { value: 'all', label: 'All Dates' },
  { value: 'today', label: 'Today' },
  { value: 'week', label: 'This Week' },
  { value: 'month', label: 'This Month' },
  { value: 'quarter', label: 'This Quarter' },
] as const;

/** A value from the address bar if the screen offers it, else the default. */
export function oneOf(value: string, options: readonly { value: string }[], fallback = 'all'): string {
  return options.some((o) => o.value === value) ? value : fallback;
}
