import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { DB } from '../db/schema.js';
import type { PaymentsTable } from './tables.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { formatInr } from '../../shared/money.js';
import { addDays, localDate } from '../../shared/time.js';
import type { PaymentMethod } from '../../shared/billing.js';
import { labSettings, organizationTimezone } from '../settings/service.js';
import { nextSequence } from '../sequences.js';
import { announce } from '../events.js';
import {
  billForLedger,
  findClosing,
  findPaymentRow,
  insertPaymentRow,
  patientAdvancePaise,
  setBillPaid,
  updatePaymentRow,
  type PaymentRow,
} from './repository.js';

/**
 * The ledger's arithmetic, every amount integer paise, inside the caller's transaction.
 * A bill's paid_paise is the sum of its payments less refunds, not counting advances and bounced cheques:
 * - a payment adds its amount less the advance part (the part beyond the balance, kept on the
 *   patient's account when the payment says so; otherwise an over-payment is refused, 409);
 * - a cheque is pending until cleared; it counts on the bill at once and goes back when it bounces;
 * - a refund is its own row (negative), returning first the payment's advance, then the bill's part.
 */

/**
 * The lab day a payment received now by `userId` counts on: today in the lab's zone, unless that
 * user closed today: then refused (409) or the next open day, as the lab's setting says.
 */
export async function valueDateFor(
  trx: Db,
  organizationId: number,
  userId: number | null,
  mode?: 'refuse' | 'next_day',
): Promise<string> {
  const timeZone = await organizationTimezone(trx, organizationId);
  let day = localDate(timeZone);
  if (userId === null) return day;
  const rule = mode ?? (await labSettings(trx, organizationId)).closedDayPayments;
  for (let i = 0; i < 3660; i++) {
    if (!(await findClosing(trx, organizationId, userId, day))) return day;
    if (rule === 'refuse')
      throw new ConflictError(
        `The day ${day} is closed for this cashier; payments dated that day are refused (the lab's day-end setting)`,
        'DAY_CLOSED',
      );
    day = addDays(day, 1);
  }
  return day;
}

export interface PaymentInput {
  amountPaise: number;
  method: PaymentMethod;
  reference: string | null;
  bank: string | null;
  advance: boolean;
  reason: string | null;
}

async function liveBill(
  trx: Db,
  organizationId: number,
  billId: number,
  field?: string,
): Promise<Selectable<DB['bills']>> {
  const bill = await billForLedger(trx, organizationId, billId);
  if (!bill) {
    if (field) throw ValidationError.field(field, `Unknown bill ${billId}`);
    throw new NotFoundError('Bill', billId);
  }
  if (bill.cancelled_at)
    throw new ConflictError(`Bill ${bill.bill_number} is cancelled and takes no payment`, 'BILL_CANCELLED');
  return bill;
}

/** Records money received against a bill; answers the new ledger row. */
export async function recordPayment(
  trx: Db,
  actor: Actor,
  billId: number,
  p: PaymentInput,
  opts: { billField?: string } = {},
): Promise<PaymentRow> {
  if (!Number.isInteger(p.amountPaise) || p.amountPaise <= 0)
    throw ValidationError.field('amount', 'Amount must be more than zero');
  const bill = await liveBill(trx, actor.organizationId, billId, opts.billField);
  const balance = bill.final_amount_paise - bill.paid_paise;
  let advance = 0;
  if (p.amountPaise > balance) {
    if (!p.advance) {
      throw new ConflictError(
        balance <= 0
          ? `Bill ${bill.bill_number} is already fully paid; record the money as an advance on the patient's account`
          : `Amount exceeds the balance of ${formatInr(balance)}; record the rest as an advance on the patient's account`,
        'OVERPAYMENT',
      );
    }
    advance = p.amountPaise - Math.max(0, balance);
  }
  const pending = p.method === 'cheque';
  const valueDate = pending ? null : await valueDateFor(trx, actor.organizationId, actor.userId);
  // A cheque recorded on a closed day is refused too, when the lab refuses.
  if (pending) await valueDateFor(trx, actor.organizationId, actor.userId);
  const now = nowIso();
  const row = await insertLedgerRow(trx, actor, bill, now, {
    kind: 'payment',
    status: pending ? 'pending' : 'completed',
    amount_paise: p.amountPaise,
    advance_paise: advance,
    method: p.method,
    reference: p.reference,
    bank: p.bank,
    reason: p.reason,
    value_date: valueDate,
  });
  return paidOnBill(trx, actor, bill, row, bill.paid_paise + p.amountPaise - advance, now);
}

/**
 * After a new ledger row on a bill: the bill's paid figure (null: the row does not move it), and the
 * row's audit entry naming the bill, with what else the entry should say.
 */
async function paidOnBill(
  trx: Db,
  actor: Actor,
  bill: { id: number; bill_number: string },
  row: PaymentRow,
  paidPaise: number | null,
  now: string,
  noted: Record<string, unknown> = {},
): Promise<PaymentRow> {
  if (paidPaise !== null) await setBillPaid(trx, bill.id, paidPaise, now);
  await writeAudit(trx, actor, {
    action: 'create',
    entity: 'payment',
    entityId: row.id,
    newValues: { ...row, bill_number: bill.bill_number, ...noted },
  });
  await announce(trx, actor, 'payment.received', { billId: bill.id });
  return row;
}

/** A refund against a bill not tied to one payment (the bill screen's negative amount, as before the ledger). */
export async function recordBillRefund(
  trx: Db,
  actor: Actor,
  billId: number,
  p: { amountPaise: number; method: PaymentMethod; reference: string | null; reason: string },
): Promise<PaymentRow> {
  const bill = await liveBill(trx, actor.organizationId, billId);
  if (p.amountPaise > bill.paid_paise)
    throw ValidationError.field('amount', `A refund cannot exceed the ${formatInr(bill.paid_paise)} paid`);
  const now = nowIso();
  const row = await insertLedgerRow(trx, actor, bill, now, {
    kind: 'refund',
    amount_paise: -p.amountPaise,
    method: p.method,
    reference: p.reference,
    reason: p.reason,
    value_date: await valueDateFor(trx, actor.organizationId, actor.userId),
  });
  return paidOnBill(trx, actor, bill, row, bill.paid_paise - p.amountPaise, now);
}

export async function paymentToSettle(trx: Db, organizationId: number, id: number): Promise<PaymentRow> {
  const p = await findPaymentRow(trx, organizationId, id);
  if (!p) throw new NotFoundError('Payment', id);
  return p;
}

/** Returns up to what is left of a payment, as its own row; the payment becomes refunded once all of it is back. */
export async function refundPayment(
  trx: Db,
  actor: Actor,
  paymentId: number,
  r: { amountPaise: number; reason: string; method?: PaymentMethod },
): Promise<PaymentRow> {
  const p = await paymentToSettle(trx, actor.organizationId, paymentId);
  if (p.kind === 'advance') return returnAdvance(trx, actor, p, r);
  if (p.kind !== 'payment') throw new ConflictError('A refund cannot itself be refunded', 'NOT_A_PAYMENT');
  if (p.status === 'pending')
    throw new ConflictError(
      'This cheque has not cleared; clear it or mark it bounced before refunding',
      'CHEQUE_PENDING',
    );
  if (p.status === 'failed')
    throw new ConflictError('This payment failed (bounced); nothing was received to refund', 'PAYMENT_FAILED');
  const left = p.amount_paise - p.refunded_paise;
  if (left <= 0) throw new ConflictError('This payment has been refunded in full', 'ALREADY_REFUNDED');
  if (r.amountPaise > left)
    throw ValidationError.field('amount', `A refund cannot exceed the ${formatInr(left)} not yet refunded`);
  const bill = await billForLedger(trx, actor.organizationId, p.bill_id);
  if (!bill) throw new NotFoundError('Bill', p.bill_id);
  const advanceLeft = Math.max(0, p.advance_paise - p.refunded_paise);
  const fromAdvance = Math.min(r.amountPaise, advanceLeft);
  const fromBill = r.amountPaise - fromAdvance;
  if (fromAdvance > 0 && p.patient_id !== null) {
    // The advance may have paid a later bill since: only what is still on the account goes back.
    await lockAdvances(trx, actor.organizationId);
    const onAccount = await patientAdvancePaise(trx, actor.organizationId, p.patient_id);
    if (fromAdvance > onAccount)
      throw new ConflictError(
        `Only ${formatInr(Math.max(0, onAccount))} of this payment's advance is still on the patient's account (the rest paid a later bill); return it from that bill first`,
        'ADVANCE_SPENT',
      );
  }
  const now = nowIso();
  const row = await insertLedgerRow(trx, actor, { id: p.bill_id, patient_id: p.patient_id }, now, {
    kind: 'refund',
    amount_paise: -r.amountPaise,
    advance_paise: -fromAdvance,
    method: r.method ?? p.method,
    reason: r.reason,
    refund_of: p.id,
    value_date: await valueDateFor(trx, actor.organizationId, actor.userId),
  });
  const refunded = p.refunded_paise + r.amountPaise;
  await updatePaymentRow(trx, p.id, {
    refunded_paise: refunded,
    ...(refunded === p.amount_paise ? { status: 'refunded' as const } : {}),
  });
  const bookedOn = { id: p.bill_id, bill_number: bill.bill_number };
  return paidOnBill(trx, actor, bookedOn, row, fromBill ? bill.paid_paise - fromBill : null, now, { refund_of: p.id });
}

/**
 * Serialises the writes that move a lab's advances (spending one, returning one, refunding a
 * payment's advance part): the balance read next is then the latest one, on PostgreSQL too.
 */
async function lockAdvances(trx: Db, organizationId: number): Promise<void> {
  await nextSequence(trx, organizationId, 'advance_lock');
}

/**
 * Spends the patient's advance on a later bill of theirs: a ledger row of kind 'advance' with no
 * money in it (amount 0, no value date: revenue and the closing counted the money when it came),
 * advance_paise minus what is taken from the account; the bill's paid_paise goes up by as much.
 */
export async function useAdvance(
  trx: Db,
  actor: Actor,
  billId: number,
  amountPaise: number,
  note: string | null,
): Promise<PaymentRow> {
  if (!Number.isInteger(amountPaise) || amountPaise <= 0)
    throw ValidationError.field('amount', 'Amount must be more than zero');
  const bill = await liveBill(trx, actor.organizationId, billId, 'bill_id');
  const balance = bill.final_amount_paise - bill.paid_paise;
  if (amountPaise > balance)
    throw new ConflictError(
      balance <= 0
        ? `Bill ${bill.bill_number} is already fully paid`
        : `Amount exceeds the balance of ${formatInr(balance)}`,
      'OVERPAYMENT',
    );
  await lockAdvances(trx, actor.organizationId);
  const onAccount = await patientAdvancePaise(trx, actor.organizationId, bill.patient_id);
  if (amountPaise > onAccount)
    throw new ConflictError(
      `The patient has ${formatInr(Math.max(0, onAccount))} on account as advance`,
      'ADVANCE_TOO_LOW',
    );
  const now = nowIso();
  const row = await insertLedgerRow(trx, actor, bill, now, {
    kind: 'advance',
    amount_paise: 0,
    advance_paise: -amountPaise,
    method: 'advance',
    reason: note,
    value_date: null,
  });
  await setBillPaid(trx, bill.id, bill.paid_paise + amountPaise, now);
  await writeAudit(trx, actor, {
    action: 'create',
    entity: 'payment',
    entityId: row.id,
    newValues: { ...row, bill_number: bill.bill_number, advance_used: amountPaise },
  });
  await announce(trx, actor, 'payment.received', { billId: bill.id });
  return row;
}

/** Puts (part of) an advance spent on a bill back on the patient's account, e.g. before the bill is cancelled. */
async function returnAdvance(
  trx: Db,
  actor: Actor,
  p: PaymentRow,
  r: { amountPaise: number; reason: string },
): Promise<PaymentRow> {
  if (p.refund_of !== null) throw new ConflictError('A return cannot itself be returned', 'NOT_A_PAYMENT');
  const used = -p.advance_paise;
  const left = used - p.refunded_paise;
  if (left <= 0) throw new ConflictError('This advance has been returned in full', 'ALREADY_REFUNDED');
  if (r.amountPaise > left)
    throw ValidationError.field('amount', `At most ${formatInr(left)} of this advance is left to return`);
  const bill = await liveBill(trx, actor.organizationId, p.bill_id);
  await lockAdvances(trx, actor.organizationId);
  const now = nowIso();
  const row = await insertLedgerRow(trx, actor, { id: p.bill_id, patient_id: p.patient_id }, now, {
    kind: 'advance',
    amount_paise: 0,
    advance_paise: r.amountPaise,
    method: 'advance',
    reason: r.reason,
    refund_of: p.id,
    value_date: null,
  });
  const refunded = p.refunded_paise + r.amountPaise;
  await updatePaymentRow(trx, p.id, {
    refunded_paise: refunded,
    ...(refunded === used ? { status: 'refunded' as const } : {}),
  });
  return paidOnBill(trx, actor, bill, row, bill.paid_paise - r.amountPaise, now, {
    returned_to_account: r.amountPaise,
  });
}

type NewPayment = Insertable<PaymentsTable>;
type Defaulted = 'status' | 'reference' | 'bank';

/**
 * A ledger row the actor writes on a bill now: completed and without a cheque's reference or bank
 * unless `row` says otherwise.
 */
function insertLedgerRow(
  trx: Db,
  actor: Actor,
  bill: { id: number; patient_id: number | null },
  now: string,
  row: Omit<NewPayment, 'organization_id' | 'bill_id' | 'patient_id' | 'received_by' | 'created_at' | Defaulted> &
    Partial<Pick<NewPayment, Defaulted>>,
): Promise<PaymentRow> {
  return insertPaymentRow(trx, {
    organization_id: actor.organizationId,
    bill_id: bill.id,
    patient_id: bill.patient_id,
    status: 'completed',
    reference: null,
    bank: null,
    received_by: actor.userId,
    created_at: now,
    ...row,
  });
}
