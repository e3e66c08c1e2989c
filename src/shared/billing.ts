/**
 * The OP bill rule (PRODUCT.md "Domain rules"), in integer paise:
 *   line discount = price × qty × discount% / 100;  line total = price × qty − line discount
 *   subtotal = Σ line totals;  before discount = subtotal + doctor's consultation fee
 *   bill discount = before discount × discount% / 100;  discounted = before discount − bill discount
 *   tax = discounted × tax% / 100;  final = discounted + tax
 * Percentages are 0-100 with at most 2 decimals. Each percentage amount is rounded half up to the paisa.
 * The line's GST % is recorded and printed per line; the tax charged is the bill's tax % (the rule above).
 */
export type Paise = number;

export interface LineInput {
  unitPricePaise: Paise;
  qty: number;
  discountPercent: number;
}

export interface LineAmounts {
  grossPaise: Paise;
  discountPaise: Paise;
  totalPaise: Paise;
}

export interface BillInput {
  lines: LineInput[];
  consultationFeePaise: Paise;
  discountPercent: number;
  taxPercent: number;
}

export interface BillAmounts {
  lines: LineAmounts[];
  subtotalPaise: Paise;
  consultationFeePaise: Paise;
  totalBeforeDiscountPaise: Paise;
  discountPaise: Paise;
  discountedPaise: Paise;
  taxPaise: Paise;
  finalPaise: Paise;
}

/** Percentage in hundredths of a percent (basis points), exact for up to 2 decimals. */
export function percentToBp(percent: number): number {
  return Math.round(percent * 100);
}

/** amount × percent / 100, rounded half up to the paisa, in integer arithmetic. */
export function percentOf(amountPaise: Paise, percent: number): Paise {
  const bp = percentToBp(percent);
  return Math.floor((amountPaise * bp + 5000) / 10000);
}

export function lineAmounts(l: LineInput): LineAmounts {
  const grossPaise = l.unitPricePaise * l.qty;
  const discountPaise = percentOf(grossPaise, l.discountPercent);
  return { grossPaise, discountPaise, totalPaise: grossPaise - discountPaise };
}

export function billAmounts(b: BillInput): BillAmounts {
  const lines = b.lines.map(lineAmounts);
  const subtotalPaise = lines.reduce((s, l) => s + l.totalPaise, 0);
  const totalBeforeDiscountPaise = subtotalPaise + b.consultationFeePaise;
  const discountPaise = percentOf(totalBeforeDiscountPaise, b.discountPercent);
  const discountedPaise = totalBeforeDiscountPaise - discountPaise;
  const taxPaise = percentOf(discountedPaise, b.taxPercent);
  return {
    lines,
    subtotalPaise,
    consultationFeePaise: b.consultationFeePaise,
    totalBeforeDiscountPaise,
    discountPaise,
    discountedPaise,
    taxPaise,
    finalPaise: discountedPaise + taxPaise,
  };
}

export const BILL_STATUSES = ['pending', 'paid', 'partial', 'overdue', 'cancelled'] as const;
export type BillStatus = (typeof BILL_STATUSES)[number];
export const PAYMENT_STATUSES = ['paid', 'unpaid', 'partial'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/**
 * One list of payment methods everywhere: the union of the spec's two lists. Bank
 * transfer covers net banking, NEFT, RTGS and IMPS; insurance is a payer's (TPA's) settlement.
 */
export const PAYMENT_METHODS = ['cash', 'card', 'upi', 'bank_transfer', 'cheque', 'insurance'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** How a method reads on screen and on paper ("Bank Transfer", never "bank_transfer"). */
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  cash: 'Cash',
  card: 'Card',
  upi: 'UPI',
  bank_transfer: 'Bank Transfer',
  cheque: 'Cheque',
  insurance: 'Insurance',
};
/** OP Bill offers cash (default), card, upi; the registration-with-bill screen adds bank transfer. */
export const OP_BILL_PAYMENT_METHODS = ['cash', 'card', 'upi'] as const;
export const DEFAULT_LINE_GST_PERCENT = 18;

export function paymentStatusOf(finalPaise: Paise, paidPaise: Paise): PaymentStatus {
  if (paidPaise <= 0) return finalPaise === 0 ? 'paid' : 'unpaid';
  return paidPaise >= finalPaise ? 'paid' : 'partial';
}

/** Bill status: cancelled wins; then paid; then overdue once the due date has passed; then partial or pending. */
export function billStatusOf(b: {
  cancelled: boolean;
  finalPaise: Paise;
  paidPaise: Paise;
  dueDate: string;
  today: string;
}): BillStatus {
  if (b.cancelled) return 'cancelled';
  const ps = paymentStatusOf(b.finalPaise, b.paidPaise);
  if (ps === 'paid') return 'paid';
  if (b.dueDate < b.today) return 'overdue';
  return ps === 'partial' ? 'partial' : 'pending';
}

const ONES = [
  '',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];

function belowHundred(n: number): string {
  if (n < 20) return ONES[n]!;
  return `${TENS[Math.floor(n / 10)]!}${n % 10 ? ` ${ONES[n % 10]!}` : ''}`;
}

function belowThousand(n: number): string {
  const h = Math.floor(n / 100);
  const r = n % 100;
  return [h ? `${ONES[h]!} Hundred` : '', r ? belowHundred(r) : ''].filter(Boolean).join(' ');
}

/** Whole number in words with Indian grouping: crore, lakh, thousand. */
export function numberToIndianWords(n: number): string {
  if (n === 0) return 'Zero';
  const parts: string[] = [];
  const crore = Math.floor(n / 10_000_000);
  const lakh = Math.floor((n % 10_000_000) / 100_000);
  const thousand = Math.floor((n % 100_000) / 1000);
  const rest = n % 1000;
  if (crore) parts.push(`${crore >= 100 ? numberToIndianWords(crore) : belowThousand(crore)} Crore`);
  if (lakh) parts.push(`${belowHundred(lakh)} Lakh`);
  if (thousand) parts.push(`${belowHundred(thousand)} Thousand`);
  if (rest) parts.push(belowThousand(rest));
  return parts.join(' ');
}

/** Whole number in words with international grouping: billion, million, thousand. */
export function numberToWords(n: number): string {
  if (n === 0) return 'Zero';
  const parts: string[] = [];
  for (const [size, name] of [
    [1_000_000_000, 'Billion'],
    [1_000_000, 'Million'],
    [1000, 'Thousand'],
  ] as const) {
    const k = Math.floor(n / size) % 1000;
    if (k) parts.push(`${belowThousand(k)} ${name}`);
  }
  if (n % 1000) parts.push(belowThousand(n % 1000));
  return parts.join(' ');
}

/** The words of each currency's unit and hundredth, and how its country groups large numbers. */
const CURRENCY_WORDS: Record<string, { unit: string; cents: string; words: (n: number) => string }> = {
  INR: { unit: 'Rupees', cents: 'Paise', words: numberToIndianWords },
  USD: { unit: 'US Dollars', cents: 'Cents', words: numberToWords },
  EUR: { unit: 'Euros', cents: 'Cents', words: numberToWords },
  GBP: { unit: 'Pounds', cents: 'Pence', words: numberToWords },
};

/** "Rupees Two Thousand Four Hundred Seventy Four and Forty Six Paise Only" (in the lab's currency). */
export function amountInWords(paise: Paise, currency = 'INR'): string {
  const c = CURRENCY_WORDS[currency] ?? CURRENCY_WORDS.INR!;
  const whole = Math.floor(paise / 100);
  const p = paise % 100;
  const r = `${c.unit} ${c.words(whole)}`;
  return p ? `${r} and ${belowHundred(p)} ${c.cents} Only` : `${r} Only`;
}

/**
 * How much below the catalogue a bill is, in percent: line prices under list price, line discounts
 * and the bill discount together, against the list-price total plus the consultation fee (before
 * tax). 0 for a bill at list price, 100 for a bill of nothing. The lab's per-role ceiling applies to it.
 */
export function effectiveDiscountPercent(
  lines: readonly { listPricePaise: Paise; unitPricePaise: Paise; qty: number; discountPercent: number }[],
  consultationFeePaise: Paise,
  billDiscountPercent: number,
): number {
  const listPaise = lines.reduce((s, l) => s + l.listPricePaise * l.qty, 0) + consultationFeePaise;
  if (listPaise <= 0) return 0;
  const charged = billAmounts({
    lines: lines.map((l) => ({ unitPricePaise: l.unitPricePaise, qty: l.qty, discountPercent: l.discountPercent })),
    consultationFeePaise,
    discountPercent: billDiscountPercent,
    taxPercent: 0,
  }).discountedPaise;
  return Math.max(0, Math.round(((listPaise - charged) * 10000) / listPaise) / 100);
}

/** The most each role may discount a bill without an approver (lab settings may change these). */
export const DEFAULT_DISCOUNT_CEILINGS: Readonly<Record<string, number>> = {
  superadmin: 100,
  admin: 100,
  lab_manager: 50,
  billing_staff: 20,
  receptionist: 10,
};
