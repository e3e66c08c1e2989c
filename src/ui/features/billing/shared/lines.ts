import { billAmounts, type BillAmounts } from '@shared/billing';
import { billTax, taxRateOf } from '@shared/gst';
import { rupeesToPaise } from '@shared/money';
import type { BillItemInput } from '@shared/schemas/bills';

/**
 * Bill lines as the billing screens edit them. Inputs keep the text the user typed (so "12." can be
 * typed on the way to "12.5"); the figures are always computed from the parsed values with the
 * shared bill rule (src/shared/billing.ts), so the screen shows what the server will store.
 */
export type ItemType = 'test' | 'profile' | 'package';

export const ITEM_TYPE_LABEL: Record<ItemType, string> = { test: 'Test', profile: 'Profile', package: 'Package' };

export interface DraftLine {
  /** Client-side key; a bill may be edited while lines come and go. */
  key: string;
  item_type: ItemType;
  item_id: number;
  name: string;
  code: string;
  qty: string;
  price: string;
  /** The catalogue's price (rupees): what a payer's price is worked out from when the bill is charged to one. */
  lab_price: number;
  /** The line's GST rate from the test's tax category (read-only: the server decides it the same way). */
  gst: string;
  discount: string;
}

export type LineField = 'qty' | 'price' | 'discount';

/** The server refuses more (src/shared/schemas/bills.ts). */
export const MAX_QTY = 1000;

/** Spec 3: particulars are the name plus the kind in brackets, "Lipid Profile (Profile)". */
export function particulars(l: Pick<DraftLine, 'name' | 'item_type'>): string {
  return `${l.name} (${ITEM_TYPE_LABEL[l.item_type]})`;
}

let seq = 0;

/** What a picker hands to the bill: enough to draw the line and send it. */
export interface PickedItem {
  item_type: ItemType;
  id: number;
  name: string;
  code: string;
  price: number;
  /** A test's GST category (src/shared/gst.ts); profiles and packages are exempt. */
  tax_category?: string;
}

export function newLine(item: PickedItem): DraftLine {
  seq += 1;
  return {
    key: `${item.item_type}-${item.id}-${seq}`,
    item_type: item.item_type,
    item_id: item.id,
    name: item.name,
    code: item.code,
    qty: '1',
    price: String(item.price),
    lab_price: item.price,
    gst: String(item.item_type === 'test' ? taxRateOf(item.tax_category ?? 'exempt') : 0),
    discount: '0',
  };
}

const NUMBER = /^\s*\d*(\.\d*)?\s*$/;

function asNumber(raw: string): number | null {
  if (!NUMBER.test(raw) || raw.trim() === '' || raw.trim() === '.') return null;
  const n = Number(raw);
  return Number.isFinite(n) ? n : null;
}

/** Spec 5: qty is an integer, at least 1; anything non-numeric becomes 1. */
export function parseQty(raw: string): number {
  const n = asNumber(raw);
  if (n === null) return 1;
  return Math.max(1, Math.trunc(n));
}

/** Spec 5: price is a number; invalid (or negative) becomes 0. Rupees, rounded to the paisa. */
export function parsePrice(raw: string): number {
  const n = asNumber(raw);
  return n === null ? 0 : Math.round(n * 100) / 100;
}

/** A percentage for the figures: invalid text counts as 0 (spec 5) and the range is held to 0-100. */
export function parsePercent(raw: string): number {
  const n = asNumber(raw);
  return n === null ? 0 : Math.min(100, n);
}

/**
 * Why a percentage cannot be saved, or undefined. Text that is not a number is not an error: it is
 * treated as 0 and replaced by 0 when the field is left (spec 5).
 */
export function percentError(raw: string, opts: { integer?: boolean } = {}): string | undefined {
  const t = raw.trim();
  if (t.startsWith('-') && asNumber(t.slice(1)) !== null) return 'Must be between 0 and 100';
  const n = asNumber(raw);
  if (n === null) return undefined;
  if (n > 100) return 'Must be between 0 and 100';
  if (opts.integer && !Number.isInteger(n)) return 'Must be a whole number';
  if (Math.abs(n * 100 - Math.round(n * 100)) > 1e-6) return 'At most 2 decimals';
  return undefined;
}

export function qtyError(raw: string): string | undefined {
  return parseQty(raw) > MAX_QTY ? `At most ${MAX_QTY}` : undefined;
}

/** What a field shows once the user leaves it: the spec's defaults for unusable text. */
export function normalizeField(field: LineField, raw: string): string {
  if (field === 'qty') return String(parseQty(raw));
  if (field === 'price') return String(parsePrice(raw));
  // An out-of-range percentage stays as typed, with its message, rather than silently changing.
  return asNumber(raw) === null && !raw.trim().startsWith('-') ? '0' : raw.trim();
}

export function normalizePercent(raw: string): string {
  return normalizeField('discount', raw);
}

export function lineErrors(l: DraftLine): Partial<Record<LineField, string>> {
  const out: Partial<Record<LineField, string>> = {};
  const q = qtyError(l.qty);
  if (q) out.qty = q;
  const d = percentError(l.discount);
  if (d) out.discount = d;
  return out;
}

export function hasLineErrors(lines: readonly DraftLine[]): boolean {
  return lines.some((l) => Object.keys(lineErrors(l)).length > 0);
}

/**
 * The figures of the bill, in paise, by the rules the server also uses: the bill rule, then GST per
 * line from each test's category on its value after its share of the bill discount (src/shared/gst.ts).
 */
export function draftAmounts(
  lines: readonly DraftLine[],
  consultationFeeRupees: number,
  discountRaw: string,
  /** Charged to a payer in another state than the lab's: IGST, the rate applied once. */
  interState = false,
): BillAmounts {
  const a = billAmounts({
    lines: lines.map((l) => ({
      unitPricePaise: rupeesToPaise(parsePrice(l.price)),
      qty: parseQty(l.qty),
      discountPercent: parsePercent(l.discount),
    })),
    consultationFeePaise: rupeesToPaise(consultationFeeRupees),
    discountPercent: parsePercent(discountRaw),
    taxPercent: 0,
  });
  const tax = billTax(
    lines.map((l, i) => ({ totalPaise: a.lines[i]!.totalPaise, ratePercent: parsePercent(l.gst) })),
    a.consultationFeePaise,
    a.discountPaise,
    interState,
  );
  return { ...a, taxPaise: tax.taxPaise, finalPaise: a.discountedPaise + tax.taxPaise };
}

/** The API's items: the charged price is sent, so the bill keeps what the screen showed. */
export function toItems(lines: readonly DraftLine[]): BillItemInput[] {
  return lines.map((l) => ({
    item_type: l.item_type,
    item_id: l.item_id,
    qty: parseQty(l.qty),
    price: parsePrice(l.price),
    discount_percent: parsePercent(l.discount),
  }));
}

/** "items.2.qty" -> {index 2, field qty}: where the server's message belongs. */
export function lineErrorPath(path: string): { index: number; field: string } | null {
  const m = /^items\.(\d+)(?:\.(\w+))?$/.exec(path);
  return m ? { index: Number(m[1]), field: m[2] ?? '' } : null;
}
