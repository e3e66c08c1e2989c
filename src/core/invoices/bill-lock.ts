import type { Db } from '../db/connection.js';
import { ConflictError } from '../errors.js';
import { invoiceStateRow } from './repository.js';
import type { Listeners } from '../events.js';

/**
 * A bill on an invoice is what the invoice says it is. Once the invoice is issued (pending, paid)
 * the bill is never cancelled, deleted, re-priced or re-discounted: the tax document is corrected
 * by a credit note (cancelling the invoice issues one and frees its bills), never by changing what
 * it was made from. On a draft the bill is only held: delete the draft, change the bill, draft again.
 * Payments, refunds and cheque outcomes stay open: they are money received, not what was billed.
 */
export async function assertBillNotInvoiced(
  trx: Db,
  organizationId: number,
  bill: { bill_number: string; invoice_id: number | null },
  change: string,
): Promise<void> {
  if (bill.invoice_id === null) return;
  const inv = await invoiceStateRow(trx, organizationId, bill.invoice_id);
  if (!inv || inv.status === 'cancelled') return;
  if (inv.status === 'draft' || inv.invoice_number === null)
    throw new ConflictError(
      `Bill ${bill.bill_number} is on a draft invoice and cannot be ${change}; delete the draft invoice first`,
      'BILL_INVOICED',
    );
  throw new ConflictError(
    `Bill ${bill.bill_number} is on issued invoice ${inv.invoice_number} and cannot be ${change}: an issued invoice is corrected by a credit note (cancel invoice ${inv.invoice_number} in Invoices, which issues one and frees the bill), then change the bill`,
    'BILL_ON_ISSUED_INVOICE',
  );
}

/** A bill about to be cancelled, deleted or re-priced is refused while an invoice holds it. */
export const invoicesListeners: Listeners = {
  'bill.changing': (trx, actor, { bill, change }) => assertBillNotInvoiced(trx, actor.organizationId, bill, change),
};
