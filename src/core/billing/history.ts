import type { Db } from '../db/connection.js';
import { nowIso, type Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { raiseSequence } from '../sequences.js';
import type { ResolvedLine } from './lines.js';
import { insertBillItemRows, insertBillRow } from './repository.js';
import type { BillsTable } from './tables.js';
import { insertPaymentRow } from '../payments/repository.js';

/**
 * Bills of an earlier system (an import): stored as they were, with their number, time,
 * lines and payments, as history. The caller has checked them (the amounts add up by the bill
 * rule, the payments fit the bill); nothing is recomputed from today's catalogue, no visit is
 * recorded and no sample is ordered. Each bill and payment gets its audit row, as in createBill.
 */

/** OPB + YYYYMMDDHHmm, and -2, -3 ... for later bills of the same minute. */
export const BILL_NUMBER = /^OPB(\d{12})(?:-(\d{1,4}))?$/;

export interface HistoricalLine extends ResolvedLine {
  discount_amount_paise: number;
  total_paise: number;
  /** GST per line (a bill taxed per line): the value after its share of the bill discount, and its tax. */
  taxable_paise?: number;
  tax_paise?: number;
}

/** The table's columns a historical bill brings with their stored types. */
type StoredColumns = Pick<
  BillsTable,
  | 'bill_number'
  | 'patient_id'
  | 'doctor_id'
  | 'subtotal_paise'
  | 'consultation_fee_paise'
  | 'total_before_discount_paise'
  | 'discount_percentage'
  | 'discount_amount_paise'
  | 'tax_percentage'
  | 'tax_amount_paise'
  | 'final_amount_paise'
  | 'payment_method'
  | 'due_date'
  | 'notes'
  | 'cancelled_at'
  | 'cancel_reason'
  | 'created_at'
>;

export interface HistoricalBill extends StoredColumns {
  /** The payer the bill was charged to (null: self pay). */
  payer_id: number | null;
  visit_type: 'doctor_visit' | 'lab_only';
  lines: HistoricalLine[];
  payments: HistoricalPayment[];
}

/** A ledger row of a historical bill, as the counter would have stored it (src/core/payments/ledger.ts). */
export interface HistoricalPayment {
  kind: 'payment' | 'refund' | 'advance';
  status: 'pending' | 'completed' | 'failed' | 'refunded';
  amount_paise: number;
  advance_paise: number;
  method: string;
  reference: string | null;
  bank: string | null;
  reason: string | null;
  /** The position in this bill's list of the row it returns (a refund's payment, a return's advance use). */
  refund_of: number | null;
  refunded_paise: number;
  /** The lab day the money counts on; null for a pending or bounced cheque and an advance move. */
  value_date: string | null;
  created_at: string;
  settled_at: string | null;
}

/** Inside an open transaction: stores a checked historical bill; answers its id. */
export async function insertHistoricalBill(trx: Db, actor: Actor, b: HistoricalBill): Promise<number> {
  const m = BILL_NUMBER.exec(b.bill_number);
  // The minute's counter moves past the number, so a bill made today never takes it again.
  if (m) await raiseSequence(trx, actor.organizationId, `bill:${m[1]}`, m[2] ? Number(m[2]) : 1);
  // As the ledger keeps it: what the rows moved, less the parts kept on account, bounced cheques aside.
  const paid = b.payments
    .filter((p) => p.status !== 'failed')
    .reduce((s, p) => s + p.amount_paise - p.advance_paise, 0);
  const { lines, payments, ...head } = b;
  const bill = await insertBillRow(trx, {
    ...head,
    organization_id: actor.organizationId,
    paid_paise: paid,
    created_by: actor.userId,
    updated_at: nowIso(),
  });
  await insertBillItemRows(
    trx,
    lines.map((l, position) => ({ bill_id: bill.id, position, ...l })),
  );
  await writeAudit(trx, actor, {
    action: 'create',
    entity: 'bill',
    entityId: bill.id,
    newValues: { ...bill, items: lines, imported: true },
  });
  const ids: number[] = [];
  for (const { refund_of, ...p } of payments) {
    const row = await insertPaymentRow(trx, {
      organization_id: actor.organizationId,
      bill_id: bill.id,
      patient_id: b.patient_id,
      ...p,
      refund_of: refund_of === null ? null : ids[refund_of]!,
      received_by: actor.userId,
      settled_by: p.settled_at ? actor.userId : null,
    });
    ids.push(row.id);
    await writeAudit(trx, actor, {
      action: 'create',
      entity: 'payment',
      entityId: row.id,
      newValues: { ...row, bill_number: bill.bill_number, imported: true },
    });
  }
  return bill.id;
}
