import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.js';
import { ConflictError } from '../errors.js';
import type { BillsTable } from '../billing/tables.js';
import { DEFAULT_SAC, billTax, taxRateOf } from '../../shared/gst.js';
import { itemsOfBills } from '../billing/repository.js';
import type { InvoiceLinesTable } from './tables.js';

type BillRow = Selectable<BillsTable>;

/**
 * The invoice's lines from its bills: one per bill line (its value after the bill discount, its
 * SAC and rate) and one for a consultation fee (exempt). The tax of each line is the bill's, split
 * as CGST + SGST within the lab's state or IGST across states; the totals add up to the bills'.
 */
export async function linesAndTotals(db: Db, bills: BillRow[], interState: boolean) {
  const items = await itemsOfBills(
    db,
    bills.map((b) => b.id),
  );
  const lines: Omit<InvoiceLinesTable, 'id' | 'invoice_id'>[] = [];
  for (const b of bills) {
    const its = items.filter((i) => i.bill_id === b.id);
    // Each line's taxable value and tax are worked out again from the stored line totals by the rule
    // the bill was made with (billTax, split for this invoice's place of supply): bills made before
    // migration 20 have taxable_paise 0 on every line, and reading those would put the whole bill on
    // one "Consultation fee" line. A bill whose tax does not come out the same cannot be invoiced: one
    // rate on the whole bill (before per-line GST), or taxed for a recipient in the other kind of
    // state (IGST is the rate once, CGST + SGST two rounded halves: they may differ by a paisa).
    const taxOf = (inter: boolean) =>
      billTax(
        its.map((it) => ({ totalPaise: it.total_paise, ratePercent: taxRateOf(it.tax_category) })),
        b.consultation_fee_paise,
        b.discount_amount_paise,
        inter,
      );
    const matches = (t: ReturnType<typeof taxOf>) =>
      Number(b.tax_percentage) === 0 &&
      t.taxPaise === b.tax_amount_paise &&
      t.lines.every((l, i) => its[i]!.tax_paise === l.taxPaise) &&
      t.feeTaxablePaise >= 0 &&
      t.lines.reduce((s, l) => s + l.taxablePaise + l.taxPaise, t.feeTaxablePaise) === b.final_amount_paise;
    const tax = taxOf(interState);
    if (!matches(tax)) {
      if (matches(taxOf(!interState)))
        throw new ConflictError(
          `Bill ${b.bill_number} was taxed for a recipient ${interState ? 'inside' : 'outside'} the lab’s state (${interState ? 'CGST + SGST' : 'IGST'}); this invoice’s recipient is ${interState ? 'in another state (IGST)' : 'in the lab’s state (CGST + SGST)'}, which comes to a different tax. Open the bill and save its tests again to tax it for this recipient, or invoice it to a recipient it was taxed for`,
          'BILL_TAXED_FOR_OTHER_STATE',
        );
      throw new ConflictError(
        `Bill ${b.bill_number} was made before GST was worked out per line (one tax rate on the whole bill); it cannot go on a GST invoice`,
        'BILL_NOT_GST_READY',
      );
    }
    its.forEach((it, i) => {
      const line = tax.lines[i]!;
      lines.push({
        position: lines.length,
        bill_id: b.id,
        description: `${it.name}${it.code ? ` (${it.code})` : ''} — bill ${b.bill_number}`,
        sac_code: it.sac_code || DEFAULT_SAC,
        qty: it.qty,
        rate_percent: line.ratePercent,
        taxable_paise: line.taxablePaise,
        cgst_paise: line.cgstPaise,
        sgst_paise: line.sgstPaise,
        igst_paise: line.igstPaise,
        total_paise: line.taxablePaise + line.taxPaise,
      });
    });
    if (tax.feeTaxablePaise > 0) {
      lines.push({
        position: lines.length,
        bill_id: b.id,
        description: `Consultation fee — bill ${b.bill_number}`,
        sac_code: DEFAULT_SAC,
        qty: 1,
        rate_percent: 0,
        taxable_paise: tax.feeTaxablePaise,
        cgst_paise: 0,
        sgst_paise: 0,
        igst_paise: 0,
        total_paise: tax.feeTaxablePaise,
      });
    }
  }
  const sum = (f: (l: (typeof lines)[number]) => number) => lines.reduce((s, l) => s + f(l), 0);
  return {
    lines,
    totals: {
      taxable_paise: sum((l) => (l.rate_percent > 0 ? l.taxable_paise : 0)),
      exempt_paise: sum((l) => (l.rate_percent > 0 ? 0 : l.taxable_paise)),
      cgst_paise: sum((l) => l.cgst_paise),
      sgst_paise: sum((l) => l.sgst_paise),
      igst_paise: sum((l) => l.igst_paise),
      total_paise: sum((l) => l.total_paise),
    },
  };
}
