import type { AccountsSettings } from '../../shared/schemas/accounts.js';
import { PAYMENT_METHODS, type PaymentMethod } from '../../shared/billing.js';
import type { AccountBillRow } from './repository.js';
import { billInterState } from './month.js';

/**
 * The month's day book as balanced vouchers, every amount integer paise. An entry's `paise` is
 * signed: above 0 a debit, below 0 a credit; a voucher's entries add up to 0 exactly, because each
 * credit figure is worked out as what is left of the debit (sales: the bill's final amount less its
 * tax and its taxed value is the exempt value).
 */
export type VoucherType = 'Sales' | 'Receipt' | 'Payment' | 'Credit Note';
export interface Entry {
  ledger: string;
  paise: number;
}
export interface Voucher {
  type: VoucherType;
  /** Lab day 'YYYY-MM-DD'. */
  date: string;
  number: string;
  party: string;
  narration: string;
  entries: Entry[];
}

type Ledgers = AccountsSettings['ledgers'];

/** A bill's sale split into its exempt value, taxed value and tax, which add up to its final amount. */
export function saleSplit(b: AccountBillRow): { exempt: number; taxed: number; tax: number } {
  const final = Number(b.final_amount_paise);
  const tax = Number(b.tax_amount_paise);
  let taxed = Number(b.taxed_value_paise ?? 0);
  let exempt = final - tax - taxed;
  // A bill from before per-line tax keeps no taxed value that adds up: all of its value is posted as taxed.
  if (exempt < 0) {
    taxed += exempt;
    exempt = 0;
  }
  return { exempt, taxed, tax };
}

/** A bill's sale as credits: exempt value, taxed value, and its tax as CGST + SGST or IGST. */
function saleCredits(b: AccountBillRow, ledgers: Ledgers, labState: string | null): Entry[] {
  const { exempt, taxed, tax } = saleSplit(b);
  const out: Entry[] = [
    { ledger: ledgers.sales_exempt, paise: -exempt },
    { ledger: ledgers.sales_taxable, paise: -taxed },
  ];
  if (billInterState(labState, b)) out.push({ ledger: ledgers.igst, paise: -tax });
  else {
    // Within the state each line's CGST and SGST are equal halves, so the bill's tax halves exactly.
    const cgst = Math.floor(tax / 2);
    out.push({ ledger: ledgers.cgst, paise: -cgst }, { ledger: ledgers.sgst, paise: -(tax - cgst) });
  }
  return out;
}

/** Entries of one ledger summed; ledgers whose sum is 0 dropped (Tally refuses an empty line). */
export function merged(entries: Entry[]): Entry[] {
  const by = new Map<string, number>();
  for (const e of entries) by.set(e.ledger, (by.get(e.ledger) ?? 0) + e.paise);
  return [...by].filter(([, p]) => p !== 0).map(([ledger, paise]) => ({ ledger, paise }));
}

const partyOf = (b: { payer_name: string | null }, ledgers: Ledgers) => b.payer_name ?? ledgers.patients;

/** A month's bills made into vouchers, by the lab's ledgers and state (the GST split) and its lab days. */
type BillVouchers = (
  bills: AccountBillRow[],
  settings: AccountsSettings,
  labState: string | null,
  labDay: (iso: string) => string,
) => Voucher[];

export const salesVouchers: BillVouchers = (bills, settings, labState, labDay) => {
  const { ledgers } = settings;
  const one = (b: AccountBillRow): Entry[] => [
    { ledger: partyOf(b, ledgers), paise: Number(b.final_amount_paise) },
    ...saleCredits(b, ledgers, labState),
  ];
  if (settings.sales_voucher_mode === 'bill')
    return bills
      .filter((b) => Number(b.final_amount_paise) !== 0)
      .map((b) => ({
        type: 'Sales' as const,
        date: labDay(b.created_at),
        number: b.bill_number,
        party: partyOf(b, ledgers),
        narration: `Bill ${b.bill_number}`,
        entries: merged(one(b)),
      }));
  const days = new Map<string, AccountBillRow[]>();
  for (const b of bills) {
    const d = labDay(b.created_at);
    days.set(d, [...(days.get(d) ?? []), b]);
  }
  return [...days]
    .map(([date, list]) => ({
      type: 'Sales' as const,
      date,
      number: `SALES-${date.replace(/-/g, '')}`,
      party: ledgers.patients,
      narration: `Sales of ${date}: ${list.length} bill${list.length === 1 ? '' : 's'} (${list[0]!.bill_number} to ${list[list.length - 1]!.bill_number})`,
      entries: merged(list.flatMap(one)),
    }))
    .filter((v) => v.entries.length > 0);
};

/** A bill made in an earlier month and cancelled in this one: its sale reversed. */
export const creditNoteVouchers: BillVouchers = (bills, settings, labState, labDay) => {
  const { ledgers } = settings;
  return bills
    .filter((b) => Number(b.final_amount_paise) !== 0)
    .map((b) => ({
      type: 'Credit Note' as const,
      date: labDay(b.cancelled_at!),
      number: `CN-${b.bill_number}`,
      party: partyOf(b, ledgers),
      narration: `Bill ${b.bill_number} of ${labDay(b.created_at)} cancelled${b.cancel_reason ? `: ${b.cancel_reason}` : ''}`,
      entries: merged([
        { ledger: partyOf(b, ledgers), paise: -Number(b.final_amount_paise) },
        ...saleCredits(b, ledgers, labState).map((e) => ({ ledger: e.ledger, paise: -e.paise })),
      ]),
    }));
};

export interface MoneyRow {
  id: number;
  kind: string;
  method: string;
  amount_paise: number;
  value_date: string | null;
  reference: string | null;
  bill_number: string;
  payer_name: string | null;
}

/**
 * Money received (a Receipt: the method's ledger debited, the party credited) and refunded (a
 * Payment: the other way). Only the ledger's money methods move money; an advance spent on a bill
 * moves none (its rows carry no amount).
 */
export function moneyVouchers(rows: MoneyRow[], settings: AccountsSettings): Voucher[] {
  const { ledgers } = settings;
  const out: Voucher[] = [];
  for (const r of rows) {
    if (!(PAYMENT_METHODS as readonly string[]).includes(r.method)) continue;
    const bank = ledgers[r.method as PaymentMethod];
    const party = partyOf(r, ledgers);
    const amount = Number(r.amount_paise);
    const ref = r.reference ? `, ref ${r.reference}` : '';
    if (r.kind === 'refund')
      out.push({
        type: 'Payment',
        date: r.value_date!,
        number: `RF-${r.id}`,
        party,
        narration: `Refund on bill ${r.bill_number}${ref}`,
        entries: [
          { ledger: party, paise: -amount },
          { ledger: bank, paise: amount },
        ],
      });
    else
      out.push({
        type: 'Receipt',
        date: r.value_date!,
        number: `RC-${r.id}`,
        party,
        narration: `${r.kind === 'advance' ? 'Advance' : 'Payment'} on bill ${r.bill_number}${ref}`,
        entries: [
          { ledger: bank, paise: amount },
          { ledger: party, paise: -amount },
        ],
      });
  }
  return out;
}
