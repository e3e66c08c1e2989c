import type { Bill } from '../../../shared/schemas/bills.js';
import { isNoEmailPlaceholder } from '../../../shared/schemas/doctors.js';
import type { itemsOfBills, paymentsOfBills } from '../../billing/repository.js';
import type { TransferColumn } from '../entity.js';
import { paymentRecord } from './bill-payments.js';

/** The bills file as lims writes it (export): the inverse of what bills.ts reads. */

/** A doctor named by first and last name, compared without case. */
export const nameKey = (first: string, last: string | null | undefined) =>
  `${first.trim().toLowerCase()}\u0000${(last ?? '').trim().toLowerCase()}`;

export function byBill<T extends { bill_id: number }>(rows: T[]): Map<number, T[]> {
  const m = new Map<number, T[]>();
  for (const r of rows) {
    const list = m.get(r.bill_id);
    if (list) list.push(r);
    else m.set(r.bill_id, [r]);
  }
  return m;
}

/** A stored bill as a row of the bills file: its columns, lines and ledger rows (bill-payments.ts). */
export function billRecord(
  columns: readonly TransferColumn[],
  b: Bill,
  doctorEmail: string | null,
  items: Awaited<ReturnType<typeof itemsOfBills>>,
  payments: Awaited<ReturnType<typeof paymentsOfBills>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of columns) out[c.name] = (b as unknown as Record<string, unknown>)[c.name];
  // A doctor without an email is written by name alone: the address kept for it is no key the doctors file has.
  out.doctor_email = doctorEmail && !isNoEmailPlaceholder(doctorEmail) ? doctorEmail : null;
  out.items = items.map((i) => ({
    item_type: i.item_type,
    code: i.code,
    name: i.name,
    qty: i.qty,
    list_price: i.list_price_paise / 100,
    price: i.unit_price_paise / 100,
    gst_percent: i.gst_percent,
    discount_percent: i.discount_percent,
    tax_category: i.tax_category,
    sac_code: i.sac_code,
  }));
  const position = new Map(payments.map((p, i) => [p.id, i + 1]));
  out.payments = payments.map((p) => paymentRecord(p, position));
  return out;
}
