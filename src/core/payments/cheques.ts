import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { billForLedger, setBillPaid, updatePaymentRow, type PaymentRow } from './repository.js';
import { valueDateFor, paymentToSettle } from './ledger.js';

/** A cheque (or any payment recorded as pending) cleared or bounced by the bank: the ledger follows. */

async function pendingCheque(trx: Db, organizationId: number, id: number): Promise<PaymentRow> {
  const p = await paymentToSettle(trx, organizationId, id);
  if (p.method !== 'cheque' || p.kind !== 'payment')
    throw new ConflictError('Only a cheque is cleared or bounced', 'NOT_A_CHEQUE');
  if (p.status !== 'pending')
    throw new ConflictError(
      `This cheque is already ${p.status === 'failed' ? 'bounced' : 'cleared'}`,
      'CHEQUE_SETTLED',
    );
  return p;
}

/**
 * The bank paid the cheque: it counts from today, on the ledger of the cashier who took it (the next
 * open day when that cashier has closed today: a clearing is never refused).
 */
export async function clearCheque(trx: Db, actor: Actor, id: number): Promise<void> {
  const p = await pendingCheque(trx, actor.organizationId, id);
  const now = nowIso();
  const valueDate = await valueDateFor(trx, actor.organizationId, p.received_by, 'next_day');
  await updatePaymentRow(trx, id, {
    status: 'completed',
    value_date: valueDate,
    settled_at: now,
    settled_by: actor.userId,
  });
  await writeAudit(trx, actor, {
    action: 'update',
    entity: 'payment',
    entityId: id,
    oldValues: { status: 'pending' },
    newValues: { status: 'completed', value_date: valueDate },
  });
}

/** The cheque bounced: the row fails and the bill's balance comes back (its advance part goes too). */
export async function bounceCheque(trx: Db, actor: Actor, id: number, reason: string): Promise<void> {
  const p = await pendingCheque(trx, actor.organizationId, id);
  const bill = await billForLedger(trx, actor.organizationId, p.bill_id);
  if (!bill) throw new NotFoundError('Bill', p.bill_id);
  const now = nowIso();
  await updatePaymentRow(trx, id, { status: 'failed', reason, settled_at: now, settled_by: actor.userId });
  await setBillPaid(trx, bill.id, bill.paid_paise - (p.amount_paise - p.advance_paise), now);
  await writeAudit(trx, actor, {
    action: 'update',
    entity: 'payment',
    entityId: id,
    oldValues: { status: 'pending' },
    newValues: { status: 'failed', reason, bill_number: bill.bill_number },
  });
}
