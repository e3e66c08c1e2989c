import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { billAmounts, effectiveDiscountPercent, type BillAmounts } from '../../shared/billing.js';
import { billTax, type BillTax } from '../../shared/gst.js';
import type { BillItemInput, DiscountApproval } from '../../shared/schemas/bills.js';
import { payerUnitPrice } from '../payers/service.js';
import type { PayerRow } from '../payers/repository.js';
import { resolveLines, type ResolvedLine } from './lines.js';
import { assertNoOverlap } from './overlap.js';
import { checkDiscount, type ApprovedDiscount } from './approval.js';
import { payerState, taxParties } from '../payers/service.js';

export interface PricedBill {
  lines: ResolvedLine[];
  amounts: BillAmounts;
  tax: BillTax;
  finalPaise: number;
  discount: ApprovedDiscount;
}

/**
 * A bill's lines and figures from the catalogue and the bill rule (src/shared/billing.ts), with GST
 * per line and the discount check; the same arithmetic when a bill is saved and when its tests change.
 * `keptPrice` gives the unit price a line already on the bill was charged (an edit keeps it).
 */
export async function priceBill(
  trx: Db,
  actor: Actor,
  input: {
    items: BillItemInput[];
    payer: PayerRow | null;
    feePaise: number;
    discountPercent: number;
    approval: DiscountApproval | undefined;
    today: string;
    /** The biller saw that two lines share tests and charges them anyway. */
    confirmDuplicates: boolean;
    keptPrice?: (
      itemType: BillItemInput['item_type'],
      itemId: number,
    ) => { unitPricePaise: number; listPricePaise: number } | undefined;
  },
): Promise<PricedBill> {
  const { payer, today, feePaise } = input;
  // A bill charged to a payer takes the payer's prices (its list on this day, else the lab's less its discount).
  const payerPrice = payer
    ? (type: BillItemInput['item_type'], id: number, labPrice: number) =>
        payerUnitPrice(trx, payer, type, id, labPrice, today)
    : undefined;
  const lines = await resolveLines(trx, actor.organizationId, input.items, payerPrice);
  // A line already on the bill stays as it was charged and listed then (its discount was agreed then).
  const kept = lines.map((l, i) =>
    input.items[i]!.price === undefined
      ? input.keptPrice?.(l.item_type, (l.test_id ?? l.profile_id ?? l.package_id)!)
      : undefined,
  );
  kept.forEach((k, i) => {
    if (k) lines[i] = { ...lines[i]!, unit_price_paise: k.unitPricePaise, list_price_paise: k.listPricePaise };
  });
  // Before the discount check, so an approver is not asked for a bill that is then refused.
  await assertNoOverlap(trx, lines, input.confirmDuplicates);
  const amounts = billAmounts({
    lines: lines.map((l) => ({ unitPricePaise: l.unit_price_paise, qty: l.qty, discountPercent: l.discount_percent })),
    consultationFeePaise: feePaise,
    discountPercent: input.discountPercent,
    taxPercent: 0,
  });
  // GST per line from each test's tax category, on its value after its share of the bill discount,
  // split for the recipient's state (a payer's; a patient at the counter is in the lab's state).
  const { interState } = await taxParties(trx, actor.organizationId, payer ? payerState(payer) : null);
  const tax = billTax(
    lines.map((l, i) => ({ totalPaise: amounts.lines[i]!.totalPaise, ratePercent: l.gst_percent })),
    feePaise,
    amounts.discountPaise,
    interState,
  );
  // The payer's agreed price is its list price: only what is below it counts as a discount.
  const agreed = payer
    ? await Promise.all(
        lines.map((l, i) =>
          kept[i]
            ? kept[i].unitPricePaise
            : payerUnitPrice(
                trx,
                payer,
                l.item_type,
                (l.test_id ?? l.profile_id ?? l.package_id)!,
                l.list_price_paise,
                today,
              ),
        ),
      )
    : lines.map((l, i) => (kept[i] ? kept[i].unitPricePaise : l.list_price_paise));
  const discount = await checkDiscount(
    trx,
    actor,
    effectiveDiscountPercent(
      lines.map((l, i) => ({
        listPricePaise: agreed[i]!,
        unitPricePaise: l.unit_price_paise,
        qty: l.qty,
        discountPercent: l.discount_percent,
      })),
      feePaise,
      input.discountPercent,
    ),
    input.approval,
  );
  return { lines, amounts, tax, finalPaise: amounts.discountedPaise + tax.taxPaise, discount };
}
