import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError } from '../errors.js';
import { nextSequence } from '../sequences.js';
import { recordBillPayment } from '../billing/service.js';
import { financialYearOf, invoiceNumberOf } from '../../shared/gst.js';
import type { InvoiceDetail, InvoiceMarkPaid } from '../../shared/schemas/invoices.js';
import { billsOfInvoice, clearInvoiceFromBills, deleteInvoiceRow, updateInvoiceRow } from './repository.js';
import { labToday, mustFind, getInvoice } from './service.js';

/** An invoice after it is made: paid (its bills paid with it), cancelled by a credit note, or a draft deleted. */

/** Records what is still due on each of the invoice's bills as a payment, then marks it paid. */
export async function markInvoicePaid(
  db: Db,
  actor: Actor,
  id: number,
  input: InvoiceMarkPaid,
): Promise<InvoiceDetail> {
  await db.transaction().execute(async (trx) => {
    const org = actor.organizationId;
    const inv = await mustFind(trx, org, id);
    if (inv.status === 'draft') throw new ConflictError('Issue the invoice before marking it paid', 'INVOICE_DRAFT');
    if (inv.status === 'paid') throw new ConflictError(`Invoice ${inv.invoice_number} is already paid`, 'INVOICE_PAID');
    if (inv.status === 'cancelled')
      throw new ConflictError(`Invoice ${inv.invoice_number} is cancelled`, 'INVOICE_CANCELLED');
    const bills = await billsOfInvoice(trx, org, id);
    let received = 0;
    for (const b of bills) {
      const due = b.final_amount_paise - b.paid_paise;
      if (due <= 0) continue;
      await recordBillPayment(trx, actor, b.id, {
        amount: due / 100,
        method: input.method,
        reference: input.reference ?? `Invoice ${inv.invoice_number}`,
        bank: input.bank ?? null,
        reason: null,
      });
      received += due;
    }
    const now = nowIso();
    await updateInvoiceRow(trx, org, id, {
      status: 'paid',
      paid_at: now,
      payment_method: input.method,
      payment_reference: input.reference ?? null,
      updated_at: now,
    });
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'invoice',
      entityId: id,
      oldValues: { status: inv.status },
      newValues: { status: 'paid', received_paise: received, method: input.method, reference: input.reference ?? null },
    });
  });
  return getInvoice(db, actor.organizationId, id);
}

/** pending -> cancelled with a credit note (CN2627-000001) for the full amount; the bills may be invoiced again. */
export async function cancelInvoice(db: Db, actor: Actor, id: number, reason: string): Promise<InvoiceDetail> {
  await db.transaction().execute(async (trx) => {
    const org = actor.organizationId;
    const inv = await mustFind(trx, org, id);
    if (inv.status === 'draft') throw new ConflictError('A draft has no number: delete it instead', 'INVOICE_DRAFT');
    if (inv.status === 'cancelled')
      throw new ConflictError(`Invoice ${inv.invoice_number} is already cancelled`, 'INVOICE_CANCELLED');
    if (inv.status === 'paid')
      throw new ConflictError(
        `Invoice ${inv.invoice_number} is paid; refund the payments on its bills first`,
        'INVOICE_PAID',
      );
    const { today } = await labToday(trx, org);
    const fy = financialYearOf(today);
    const cn = invoiceNumberOf('CN', fy, await nextSequence(trx, org, `credit_note:${fy}`));
    const now = nowIso();
    await updateInvoiceRow(trx, org, id, {
      status: 'cancelled',
      cancelled_at: now,
      cancel_reason: reason,
      credit_note_number: cn,
      updated_at: now,
    });
    await clearInvoiceFromBills(trx, org, id);
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'invoice',
      entityId: id,
      oldValues: { status: inv.status },
      newValues: { status: 'cancelled', credit_note_number: cn, reason, total_paise: inv.total_paise },
    });
  });
  return getInvoice(db, actor.organizationId, id);
}

/** Only a draft may be deleted (its bills are freed); an issued invoice is cancelled with a credit note. */
export async function deleteInvoice(db: Db, actor: Actor, id: number): Promise<InvoiceDetail> {
  const before = await getInvoice(db, actor.organizationId, id);
  await db.transaction().execute(async (trx) => {
    const inv = await mustFind(trx, actor.organizationId, id);
    if (inv.invoice_number !== null)
      throw new ConflictError(
        `Invoice ${inv.invoice_number} has been issued and is never deleted; cancel it with a credit note`,
        'INVOICE_ISSUED',
      );
    await clearInvoiceFromBills(trx, actor.organizationId, id);
    await deleteInvoiceRow(trx, actor.organizationId, id);
    await writeAudit(trx, actor, {
      action: 'delete',
      entity: 'invoice',
      entityId: id,
      oldValues: { status: 'draft', total_paise: inv.total_paise },
    });
  });
  return before;
}
