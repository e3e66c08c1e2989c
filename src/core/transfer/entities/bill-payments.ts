import { z } from 'zod';
import { PAYMENT_METHODS } from '../../../shared/billing.js';
import { isoDate, optionalText, strictNumber } from '../../../shared/schemas/common.js';
import { localDate } from '../../../shared/time.js';
import type { HistoricalPayment } from '../../billing/service.js';
import type { PaymentRow } from '../../payments/repository.js';
import type { EntityError, ImportContext } from '../entity.js';
import { patientAdvancePaise } from '../../payments/repository.js';
import { formatInr, rupeesToPaise } from '../../../shared/money.js';
import { pastInstant } from './common.js';

/**
 * The `payments` of a bill in the bills file: its ledger rows as the counter records them
 * (src/core/payments/ledger.ts), so an imported bill's money counts in Revenue, Daily Collection
 * and the Payments list as money taken at the counter did. One object per ledger row:
 * - kind `payment` (amount > 0): method, reference (a cheque's number), bank, status (a cheque
 *   may be pending or failed, i.e. bounced), `advance` (the part kept on the patient's account);
 * - kind `refund` (amount < 0): its reason, `advance` (minus the part returned from an advance),
 *   `refund_of` (the position, from 1, of the payment in this list it returns, when it returns one);
 * - kind `advance` (no method): money on the patient's account spent on this bill (amount > 0),
 *   or put back on the account (amount < 0, `refund_of` the use it returns).
 * The kind may be left out: a positive amount is a payment, a negative one a refund. Money counts
 * on `value_date`, else the lab day of the row's `created_at` (itself the bill's time when left
 * out); pending and bounced cheques and advance moves count on no day, as at the counter.
 */

const KINDS = ['payment', 'refund', 'advance'] as const;
const STATUSES = ['pending', 'completed', 'failed', 'refunded'] as const;

const optionalDate = (label: string) =>
  z.preprocess((v) => (v === null || v === '' ? undefined : v), isoDate(label).optional());

export const billPaymentSchema = z
  .object({
    kind: z.enum(KINDS, { error: `kind must be one of ${KINDS.join(', ')}` }).optional(),
    amount: strictNumber(
      z
        .number({ error: 'Amount must be a number' })
        .refine((n) => Number.isFinite(n) && n !== 0, 'Amount must not be zero')
        .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, 'Amount may have at most 2 decimals'),
    ),
    method: z
      .enum([...PAYMENT_METHODS, 'advance'], { error: `Method must be one of ${PAYMENT_METHODS.join(', ')}` })
      .nullish(),
    reference: optionalText(100),
    bank: optionalText(100, 'Bank'),
    reason: optionalText(300),
    status: z.enum(STATUSES, { error: `status must be one of ${STATUSES.join(', ')}` }).nullish(),
    advance: strictNumber(
      z
        .number({ error: 'advance must be a number' })
        .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, 'advance may have at most 2 decimals'),
    ).nullish(),
    refund_of: strictNumber(z.number().int('refund_of is a position in the list, from 1').min(1)).nullish(),
    value_date: optionalDate('value_date'),
    created_at: pastInstant('The payment time'),
    settled_at: pastInstant('The clearing time'),
  })
  .transform((p) => ({ ...p, kind: p.kind ?? (p.amount > 0 ? ('payment' as const) : ('refund' as const)) }));
export type BillPaymentInput = z.infer<typeof billPaymentSchema>;

/** A bill's payments checked against each other and the bill; `paidPaise` is what they leave paid. */
export function planPayments(
  list: readonly BillPaymentInput[],
  bill: { createdAt: string; timeZone: string },
): { payments: HistoricalPayment[]; paidPaise: number; errors: EntityError[] } {
  const errors: EntityError[] = [];
  const fail = (i: number, message: string) =>
    errors.push({ column: 'payments', message: `payment ${i + 1}: ${message}` });
  const out: HistoricalPayment[] = [];
  let paid = 0;
  list.forEach((p, i) => {
    const amount = rupeesToPaise(p.amount);
    const advance = rupeesToPaise(p.advance ?? 0);
    // Stored as the ledger stores times (UTC, Z), so they compare and sort as text.
    const created = p.created_at ? new Date(p.created_at).toISOString() : bill.createdAt;
    const settled = p.settled_at ? new Date(p.settled_at).toISOString() : null;
    if (created < bill.createdAt) fail(i, 'it is dated before the bill');
    const status = p.status === 'refunded' ? 'completed' : (p.status ?? 'completed');
    const cheque = p.method === 'cheque';
    let refundOf: number | null = null;
    if (p.refund_of != null) {
      const target = out[p.refund_of - 1];
      const wants = p.kind === 'refund' ? 'payment' : 'advance';
      if (p.kind === 'payment') fail(i, 'a payment returns nothing; refund_of is for refunds and advance returns');
      else if (!target || p.refund_of > i || target.kind !== wants || target.refund_of !== null)
        fail(i, `refund_of ${p.refund_of} is not an earlier ${wants} of this bill`);
      else refundOf = p.refund_of - 1;
    }
    if (p.kind === 'payment') {
      if (amount < 0) fail(i, 'a payment is more than zero (a refund is kind refund)');
      if (!p.method || p.method === 'advance') fail(i, 'a payment names its method');
      if (status !== 'completed' && !cheque) fail(i, `only a cheque is ${status} (${p.status})`);
      if (advance < 0 || advance > amount) fail(i, 'advance is the part of the payment kept on account (0 to amount)');
    } else if (p.kind === 'refund') {
      if (amount > 0) fail(i, 'a refund is less than zero');
      if (!p.method || p.method === 'advance') fail(i, 'a refund names how the money went back (method)');
      if (!p.reason) fail(i, 'a refund needs a reason');
      if (status !== 'completed') fail(i, 'a refund is completed');
      if (advance > 0 || advance < amount) fail(i, 'advance is minus the part returned from an advance (0 to amount)');
    } else {
      if (p.method && p.method !== 'advance') fail(i, 'an advance moves money already on account: no method');
      if (status !== 'completed') fail(i, 'an advance move is completed');
      if (p.advance != null && p.advance !== 0) fail(i, 'an advance move gives its amount only');
      if (amount < 0 && refundOf === null) fail(i, 'putting an advance back names the use it returns (refund_of)');
    }
    const counts = status === 'completed' && p.kind !== 'advance';
    if (p.value_date && !counts)
      fail(i, 'a pending or bounced cheque and an advance move count on no day: leave value_date empty');
    if (p.settled_at && !cheque) fail(i, 'only a cheque is settled (cleared or bounced)');
    if (p.settled_at && status === 'pending') fail(i, 'a pending cheque is not settled yet');
    if (settled && settled < created) fail(i, 'it is settled before it was received');
    const settledDay = cheque && p.settled_at ? localDate(bill.timeZone, new Date(p.settled_at)) : null;
    const isAdvance = p.kind === 'advance';
    const row: HistoricalPayment = {
      kind: p.kind,
      status,
      amount_paise: isAdvance ? 0 : amount,
      advance_paise: isAdvance ? -amount : advance,
      method: isAdvance ? 'advance' : (p.method ?? 'cash'),
      reference: p.reference ?? null,
      bank: p.bank ?? null,
      reason: p.reason ?? null,
      refund_of: refundOf,
      refunded_paise: 0,
      value_date: counts ? (p.value_date ?? settledDay ?? localDate(bill.timeZone, new Date(created))) : null,
      created_at: created,
      settled_at: settled,
    };
    if (refundOf !== null) {
      const target = out[refundOf]!;
      // What is returned: the money of a refund, the advance of a return; never more than is left.
      const back = -amount;
      const total = isAdvance ? -target.advance_paise : target.amount_paise;
      if (target.status === 'pending' || target.status === 'failed')
        fail(i, `payment ${refundOf + 1} was not received, so nothing returns`);
      else if (target.refunded_paise + back > total) fail(i, `more is returned than payment ${refundOf + 1} has left`);
      // A refund returns a payment's advance part first, as at the counter.
      if (!isAdvance && p.advance == null)
        row.advance_paise = -Math.min(back, Math.max(0, target.advance_paise - target.refunded_paise));
      target.refunded_paise += back;
      if (target.refunded_paise === total) target.status = 'refunded';
    }
    if (status !== 'failed') paid += row.amount_paise - row.advance_paise;
    if (paid < 0) fail(i, 'the refund is more than was paid before it');
    out.push(row);
  });
  return { payments: out, paidPaise: paid, errors };
}

/** A stored ledger row as the bills file writes it (the inverse of planPayments). */
export function paymentRecord(p: PaymentRow, position: Map<number, number>): Record<string, unknown> {
  const advance = p.kind === 'advance';
  return {
    kind: p.kind,
    amount: (advance ? -p.advance_paise : p.amount_paise) / 100,
    method: advance ? null : p.method,
    reference: p.reference,
    bank: p.bank,
    reason: p.reason,
    status: p.status,
    advance: advance ? null : p.advance_paise / 100,
    refund_of: p.refund_of === null ? null : (position.get(p.refund_of) ?? null),
    value_date: p.value_date,
    created_at: p.created_at,
    settled_at: p.settled_at,
  };
}

/** What one bill of the file moves on its patient's advance account (paise). */
export type AccountMove = { patientId: number; advance: number };

/** Patients whose advance the file overdraws, as an error on the last row that moved it. */
export async function overdrawnAccounts(ctx: ImportContext, written: boolean) {
  const byPatient = new Map<number, { row: number; advance: number }>();
  for (const { row, plan } of ctx.deferred as { row: number; plan: AccountMove }[]) {
    const seen = byPatient.get(plan.patientId);
    byPatient.set(plan.patientId, { row: Math.max(row, seen?.row ?? 0), advance: (seen?.advance ?? 0) + plan.advance });
  }
  const errors: (EntityError & { row: number })[] = [];
  for (const [patientId, m] of byPatient) {
    // Written: the account holds the file's rows already; a dry run adds them to what it held.
    const held = await patientAdvancePaise(ctx.db, ctx.organizationId, patientId);
    const left = written ? held : held + m.advance;
    if (left < 0)
      errors.push({
        row: m.row,
        column: 'payments',
        message: `the advance spent is ${formatInr(-left)} more than the patient had on account (with what the file's payments kept)`,
      });
  }
  return errors.sort((a, b) => a.row - b.row);
}
