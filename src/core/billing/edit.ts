import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { BillItemsUpdate } from '../../shared/schemas/bills.js';
import { formatInr } from '../../shared/money.js';
import { localDate } from '../../shared/time.js';
import { organizationTimezone } from '../settings/service.js';
import { assertWithinCredit, payerForBill } from '../payers/service.js';
import { testsOfLines } from '../catalogue/service.js';
import { announce } from '../events.js';
import { recordBillRefund } from '../payments/service.js';
import { priceBill } from './pricing.js';
import { deleteBillItemRows, findBillRow, insertBillItemRows, itemsOfBill, updateBillRow } from './repository.js';

const lineKey = (type: string, id: number) => `${type}:${id}`;
const itemIdOf = (l: { test_id: number | null; profile_id: number | null; package_id: number | null }) =>
  (l.test_id ?? l.profile_id ?? l.package_id)!;

/** What the audit trail keeps of a line: what was charged for what. */
function brief(l: {
  item_type: string;
  name: string;
  qty: number;
  unit_price_paise: number;
  discount_percent: number;
  total_paise: number;
}) {
  return {
    item_type: l.item_type,
    name: l.name,
    qty: l.qty,
    unit_price_paise: l.unit_price_paise,
    discount_percent: l.discount_percent,
    total_paise: l.total_paise,
  };
}

/**
 * Tests added to or taken off a saved bill (the patient asks for one more, the doctor's slip was
 * misread), until its samples are drawn. The bill is priced again with the bill rule (kept lines
 * keep their charged price; the consultation fee stays as billed), its order of samples follows,
 * and money paid beyond the new total is refunded on the ledger (the day it is handed back counts
 * it, so closed days do not move). All or nothing, audited with the old and new lines.
 */
export async function editBillItems(db: Db, actor: Actor, id: number, input: BillItemsUpdate): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const bill = await findBillRow(trx, actor.organizationId, id);
    if (!bill) throw new NotFoundError('Bill', id);
    if (bill.cancelled_at)
      throw new ConflictError(`Bill ${bill.bill_number} is cancelled and cannot be changed`, 'BILL_CANCELLED');
    await announce(trx, actor, 'bill.changing', { bill, change: 'changed' });
    const oldItems = await itemsOfBill(trx, id);
    const charged = new Map(
      oldItems.map((l) => [
        lineKey(l.item_type, itemIdOf(l)),
        { unitPricePaise: l.unit_price_paise, listPricePaise: l.list_price_paise },
      ]),
    );
    const payer = bill.payer_id ? await payerForBill(trx, actor.organizationId, bill.payer_id) : null;
    const discountPercent = input.discount_percentage ?? Number(bill.discount_percentage);
    const priced = await priceBill(trx, actor, {
      items: input.items,
      payer,
      feePaise: bill.consultation_fee_paise,
      discountPercent,
      approval: input.discount_approval,
      today: localDate(await organizationTimezone(trx, actor.organizationId)),
      confirmDuplicates: input.confirm_duplicates === true,
      keptPrice: (type, itemId) => charged.get(lineKey(type, itemId)),
    });
    const newLines = priced.lines.map((l, i) => ({
      ...l,
      discount_amount_paise: priced.amounts.lines[i]!.discountPaise,
      total_paise: priced.amounts.lines[i]!.totalPaise,
      taxable_paise: priced.tax.lines[i]!.taxablePaise,
      tax_paise: priced.tax.lines[i]!.taxPaise,
    }));
    // Saved with the same tests, a bill is still taxed again when its recipient's state has changed
    // (a payer moved, the lab's state was set): IGST and CGST + SGST may differ by a paisa.
    const same =
      discountPercent === Number(bill.discount_percentage) &&
      priced.tax.taxPaise === bill.tax_amount_paise &&
      newLines.length === oldItems.length &&
      newLines.every((l, i) => JSON.stringify(brief(l)) === JSON.stringify(brief(oldItems[i]!)));
    if (same) return;

    const before = await testsOfLines(trx, oldItems);
    const after = await testsOfLines(trx, newLines);
    const added = after.filter((t) => !before.includes(t));
    const removed = before.filter((t) => !after.includes(t));
    const gone = oldItems.filter(
      (o) => !newLines.some((n) => n.item_type === o.item_type && itemIdOf(n) === itemIdOf(o)),
    );
    const reason =
      input.reason ??
      (gone.length ? `taken off the bill: ${gone.map((g) => g.name).join(', ')}` : 'tests of the bill changed');
    await announce(trx, actor, 'bill.amended', { bill, added, removed, reason });

    const growth = priced.finalPaise - bill.final_amount_paise;
    if (payer && growth > 0) assertWithinCredit(payer, growth);
    await deleteBillItemRows(trx, id);
    await insertBillItemRows(
      trx,
      newLines.map((l, position) => ({ bill_id: id, position, ...l })),
    );
    const figures = {
      subtotal_paise: priced.amounts.subtotalPaise,
      total_before_discount_paise: priced.amounts.totalBeforeDiscountPaise,
      discount_percentage: discountPercent,
      discount_amount_paise: priced.amounts.discountPaise,
      tax_amount_paise: priced.tax.taxPaise,
      final_amount_paise: priced.finalPaise,
    };
    // Paid more than the bill now comes to: the difference goes back to the patient at the counter
    // (first, as a bill is never paid beyond its total).
    const excess = bill.paid_paise - priced.finalPaise;
    if (excess > 0)
      await recordBillRefund(trx, actor, id, {
        amountPaise: excess,
        method: input.refund_method,
        reference: null,
        reason: `Bill ${bill.bill_number} reduced to ${formatInr(priced.finalPaise)}: ${reason}`.slice(0, 300),
      });
    await updateBillRow(trx, id, { ...figures, updated_at: nowIso() });
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'bill',
      entityId: id,
      oldValues: {
        items: oldItems.map(brief),
        subtotal_paise: bill.subtotal_paise,
        discount_percentage: Number(bill.discount_percentage),
        discount_amount_paise: bill.discount_amount_paise,
        tax_amount_paise: bill.tax_amount_paise,
        final_amount_paise: bill.final_amount_paise,
      },
      newValues: {
        items: newLines.map(brief),
        ...figures,
        reason,
        ...(priced.discount.effective_percent > 0 ? { discount: priced.discount } : {}),
      },
    });
  });
}
