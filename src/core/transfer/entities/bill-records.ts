import type { Bill } from '../../../shared/schemas/bills.js';
import { isNoEmailPlaceholder } from '../../../shared/schemas/doctors.js';
import type { itemsOfBills, paymentsOfBills } from '../../billing/repository.js';
import type { ImportContext, TransferColumn } from '../entity.js';
import { DOCTOR_ROLES, type Role } from '../../../shared/roles.js';
import { doctorRowsFirstNamed } from '../../doctors/repository.js';
import { usersByEmails } from '../../users/repository.js';
import { paymentRecord } from './bill-payments.js';

/** The bills file as lims writes it (export), and how its doctors are found again (import). */

/**
 * The doctors a batch of bills names: by email (a doctor or lab technician), else by first and
 * last name (a doctor without an email), each name with every doctor it matches.
 */
export async function billDoctors(
  ctx: ImportContext,
  bills: { doctor_email?: string | null; doctor_first_name?: string | null }[],
) {
  const emails = [...new Set(bills.map((b) => b.doctor_email).filter((e): e is string => !!e))];
  const doctors = new Map(
    (await usersByEmails(ctx.db, ctx.organizationId, emails))
      .filter((u) => DOCTOR_ROLES.includes(u.role as Role))
      .map((u) => [u.email.toLowerCase(), u]),
  );
  const firstNames = bills.filter((b) => !b.doctor_email && b.doctor_first_name).map((b) => b.doctor_first_name!);
  const doctorsByName = new Map<string, { id: number }[]>();
  for (const d of await doctorRowsFirstNamed(ctx.db, ctx.organizationId, firstNames)) {
    const k = nameKey(d.first_name, d.last_name);
    doctorsByName.set(k, [...(doctorsByName.get(k) ?? []), d]);
  }
  return { doctors, doctorsByName };
}

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
