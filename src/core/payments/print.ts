import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { newDocument, numberPages, toBuffer } from '../pdf/document.js';
import { table } from '../pdf/table.js';
import { getOrganization } from '../settings/service.js';
import { formatLabDateTime, formatLabDay } from '../pdf/format.js';
import { drawerDifferenceText, formatInr, rupeesToPaise } from '../../shared/money.js';
import type { Closing } from '../../shared/schemas/payments.js';
import { getClosingById } from './closing.js';

const inr = (rupees: number) => formatInr(rupeesToPaise(rupees));

/** The cashier's closing report for the owner: figures as saved when the day was closed. */
export async function closingPdf(db: Db, actor: Actor, id: number): Promise<{ pdf: Buffer; name: string }> {
  const c: Closing = await getClosingById(db, actor, id);
  const org = await getOrganization(db, actor.organizationId);
  const doc = newDocument({ title: `Day-end closing ${c.date} ${c.user_name}`, createdAt: c.closed_at ?? undefined });
  const day = formatLabDay(c.date, org.date_format);
  doc.font('bold').fontSize(14).text(org.name);
  doc.font('regular').fontSize(11).text(`Day-end closing report: ${day}`);
  const at = c.closed_at ? formatLabDateTime(c.closed_at, org.date_format, org.timezone) : '';
  doc.fontSize(9).text(`Cashier: ${c.user_name}    Closed by: ${c.closed_by_name ?? ''}    At: ${at}`);
  doc.moveDown();
  const lines: [string, string][] = [
    ['Opening float', inr(c.opening_float ?? 0)],
    ['Cash received', inr(c.cash)],
    ['Card', inr(c.card)],
    ['UPI', inr(c.upi)],
    ['Bank transfer', inr(c.bank_transfer)],
    ['Cheques cleared', inr(c.cheque)],
    ['Insurance', inr(c.insurance)],
    ['Collections (all methods)', inr(c.collections)],
    ['Refunds (all methods)', inr(c.refunds)],
    ['Refunds paid in cash', inr(c.cash_refunds)],
    ['Net collections', inr(c.net)],
    ['Cheques received, not yet cleared', inr(c.pending_cheques)],
    ['Expected cash (float + cash - cash refunds)', inr(c.expected_cash ?? 0)],
    ['Counted cash', inr(c.counted_cash ?? 0)],
    ['Difference (counted - expected)', drawerDifferenceText(rupeesToPaise(c.difference ?? 0))],
  ];
  table(doc, ['Item', 'Amount'], lines, [340, 175]);
  if (c.notes) {
    doc.moveDown();
    // From the left margin: the table leaves the cursor in its last column.
    doc.font('regular').fontSize(9).text(`Notes: ${c.notes}`, doc.page.margins.left, doc.y, { width: 515 });
  }
  numberPages(doc, `${org.name} · closing ${day} · ${c.payments_count} payments`);
  await writeAudit(db, actor, {
    action: 'export',
    entity: 'day_closing',
    entityId: c.id!,
    newValues: { format: 'pdf' },
  });
  return { pdf: await toBuffer(doc), name: `closing-${c.date}-${c.user_id}.pdf` };
}
