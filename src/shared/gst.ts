/**
 * GST on a lab's bills and invoices (docs/decisions.md "GST"). One rule, used by the
 * server (bills, invoices, PDFs) and by the Tax Calculator on screen:
 *   - every catalogue test carries a tax category; diagnostic services of a clinical establishment
 *     are exempt (SAC 9993, notification 12/2017-Central Tax (Rate) entry 74), so `exempt` is the
 *     default; profiles, packages and the doctor's consultation fee are exempt;
 *   - a line's taxable value is its total less its share of the bill discount (shared in proportion,
 *     the paise left over by rounding go to the largest lines first), so the shares add up exactly;
 *   - inside the lab's state the tax is CGST and SGST, each half the rate on the taxable value,
 *     each rounded half up to the paisa; across states (the recipient's state differs) it is IGST,
 *     the whole rate applied once and rounded once (308.74 at 12%: 37.05, not 2 x 18.52 = 37.04).
 *     So a line's tax may differ by a paisa between the two; a bill is taxed for its recipient's
 *     state when it is made (a payer's, else the lab's), and an invoice splits it the same way.
 */
import { percentOf, type Paise } from './billing.js';

export const TAX_CATEGORIES = ['exempt', 'gst_5', 'gst_12', 'gst_18'] as const;
export type TaxCategory = (typeof TAX_CATEGORIES)[number];

export const TAX_CATEGORY_RATES: Record<TaxCategory, number> = { exempt: 0, gst_5: 5, gst_12: 12, gst_18: 18 };
export const TAX_CATEGORY_LABELS: Record<TaxCategory, string> = {
  exempt: 'Exempt (healthcare, SAC 9993)',
  gst_5: 'GST 5%',
  gst_12: 'GST 12%',
  gst_18: 'GST 18%',
};
/** Human health services (the SAC of diagnostic tests) when the test names no other. */
export const DEFAULT_SAC = '9993';

export function taxRateOf(category: string): number {
  return TAX_CATEGORY_RATES[category as TaxCategory] ?? 0;
}

/** India's GST state codes (the first two digits of a GSTIN) and names: the place of supply. */
export const GST_STATES: Record<string, string> = {
  '01': 'Jammu and Kashmir',
  '02': 'Himachal Pradesh',
  '03': 'Punjab',
  '04': 'Chandigarh',
  '05': 'Uttarakhand',
  '06': 'Haryana',
  '07': 'Delhi',
  '08': 'Rajasthan',
  '09': 'Uttar Pradesh',
  '10': 'Bihar',
  '11': 'Sikkim',
  '12': 'Arunachal Pradesh',
  '13': 'Nagaland',
  '14': 'Manipur',
  '15': 'Mizoram',
  '16': 'Tripura',
  '17': 'Meghalaya',
  '18': 'Assam',
  '19': 'West Bengal',
  '20': 'Jharkhand',
  '21': 'Odisha',
  '22': 'Chhattisgarh',
  '23': 'Madhya Pradesh',
  '24': 'Gujarat',
  '26': 'Dadra and Nagar Haveli and Daman and Diu',
  '27': 'Maharashtra',
  '29': 'Karnataka',
  '30': 'Goa',
  '31': 'Lakshadweep',
  '32': 'Kerala',
  '33': 'Tamil Nadu',
  '34': 'Puducherry',
  '35': 'Andaman and Nicobar Islands',
  '36': 'Telangana',
  '37': 'Andhra Pradesh',
  '38': 'Ladakh',
};

/** A GSTIN: 2-digit state code, 10-character PAN, entity digit, Z, check character. */
export const GSTIN_PATTERN = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

export function stateOfGstin(gstin: string | null | undefined): string | null {
  if (!gstin) return null;
  const code = gstin.slice(0, 2);
  return GST_STATES[code] ? code : null;
}

/** What a form, a payer or the lab is told when its state is not the one its GSTIN begins with. */
export const GSTIN_STATE_MISMATCH = 'State must match the first two digits of the GSTIN';

/** A GSTIN begins with its state's code: a state and a GSTIN given together must agree. */
export function gstinFitsState(gstin: string | null | undefined, stateCode: string | null | undefined): boolean {
  return !gstin || !stateCode || gstin.slice(0, 2) === stateCode;
}

export interface TaxSplit {
  ratePercent: number;
  taxablePaise: Paise;
  cgstPaise: Paise;
  sgstPaise: Paise;
  igstPaise: Paise;
  taxPaise: Paise;
}

/**
 * The tax of one taxable value at one rate, the one place GST is worked out: CGST + SGST inside the
 * state (each rounded), IGST across states (the rate applied once).
 */
export function splitTax(taxablePaise: Paise, ratePercent: number, interState: boolean): TaxSplit {
  if (interState) {
    const igstPaise = percentOf(taxablePaise, ratePercent);
    return { ratePercent, taxablePaise, cgstPaise: 0, sgstPaise: 0, igstPaise, taxPaise: igstPaise };
  }
  const half = percentOf(taxablePaise, ratePercent / 2);
  return { ratePercent, taxablePaise, cgstPaise: half, sgstPaise: half, igstPaise: 0, taxPaise: half * 2 };
}

/**
 * Shares a discount out over amounts in proportion, exactly: the shares add up to the discount;
 * paise left over by rounding down go to the largest amounts first (ties: the earlier line).
 */
export function shareDiscount(amounts: readonly Paise[], discountPaise: Paise): Paise[] {
  const total = amounts.reduce((s, a) => s + a, 0);
  if (total <= 0 || discountPaise <= 0) return amounts.map(() => 0);
  const shares = amounts.map((a) => Math.floor((a * discountPaise) / total));
  let left = discountPaise - shares.reduce((s, a) => s + a, 0);
  const order = amounts.map((a, i) => ({ a, i })).sort((x, y) => y.a - x.a || x.i - y.i);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left -= 1) shares[order[k]!.i]! += 1;
  return shares;
}

export interface TaxLineInput {
  /** The line's total after its own discount. */
  totalPaise: Paise;
  ratePercent: number;
}

export interface BillTax {
  /** Per line: taxable value after its share of the bill discount, and its tax. */
  lines: TaxSplit[];
  /** The consultation fee's taxable value (exempt). */
  feeTaxablePaise: Paise;
  taxPaise: Paise;
  exemptPaise: Paise;
  taxablePaise: Paise;
}

/** The tax of a bill: lines (and the exempt consultation fee) after the bill discount, each at its rate. */
export function billTax(
  lines: readonly TaxLineInput[],
  consultationFeePaise: Paise,
  billDiscountPaise: Paise,
  interState = false,
): BillTax {
  const shares = shareDiscount([...lines.map((l) => l.totalPaise), consultationFeePaise], billDiscountPaise);
  const split = lines.map((l, i) => splitTax(l.totalPaise - shares[i]!, l.ratePercent, interState));
  const feeTaxablePaise = consultationFeePaise - shares[lines.length]!;
  return {
    lines: split,
    feeTaxablePaise,
    taxPaise: split.reduce((s, l) => s + l.taxPaise, 0),
    exemptPaise: feeTaxablePaise + split.filter((l) => l.ratePercent === 0).reduce((s, l) => s + l.taxablePaise, 0),
    taxablePaise: split.filter((l) => l.ratePercent > 0).reduce((s, l) => s + l.taxablePaise, 0),
  };
}

/**
 * The financial year (1 April to 31 March) of a date, as invoice series name it: 2026-03-31 ->
 * "2526", 2026-04-01 -> "2627".
 */
export function financialYearOf(date: string): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const start = m >= 4 ? y : y - 1;
  return `${String(start % 100).padStart(2, '0')}${String((start + 1) % 100).padStart(2, '0')}`;
}

/** "INV2627-000001": at most 16 characters as GST rule 46 requires, consecutive within the year. */
export function invoiceNumberOf(prefix: 'INV' | 'CN', financialYear: string, n: number): string {
  return `${prefix}${financialYear}-${String(n).padStart(6, '0')}`;
}

/**
 * The document a supply is printed as (CGST rule 46 and 49): a supply with no taxable line is a Bill
 * of Supply, never a Tax Invoice (an exempt supply carries no tax to invoice); one taxable line
 * makes it a Tax Invoice (rule 46A lets the exempt lines ride on it).
 */
export type GstDocumentKind = 'bill_of_supply' | 'tax_invoice';
export function gstDocumentKind(ratesPercent: readonly number[]): GstDocumentKind {
  return ratesPercent.some((r) => r > 0) ? 'tax_invoice' : 'bill_of_supply';
}
export const GST_DOCUMENT_TITLES: Record<GstDocumentKind, string> = {
  bill_of_supply: 'BILL OF SUPPLY',
  tax_invoice: 'TAX INVOICE',
};
/** The declaration rule 49 asks of a bill of supply. */
export const EXEMPT_DECLARATION =
  'Exempt supply: diagnostic services of a clinical establishment are exempt from GST (notification 12/2017-Central Tax (Rate), entry 74). No tax is charged.';
