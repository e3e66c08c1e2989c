import type { Db } from '../db/connection.js';
import type { AccountsSummary } from '../../shared/schemas/accounts.js';
import { getAccountsSettings } from './settings.js';
import { monthWindow } from './month.js';
import { invoicesIssuedIn, monthBills } from './repository.js';
import { tallyVouchers } from './tally.js';
import { saleSplit, type Voucher } from './vouchers.js';

const r2 = (paise: number) => Math.round(paise) / 100;
const debits = (v: Voucher) => v.entries.reduce((s, e) => s + Math.max(0, e.paise), 0);

/**
 * The month's figures as its files have them: sales, receipts, refunds and credit notes are the
 * Tally vouchers' totals (so the screen cannot disagree with the download), the exempt / taxable /
 * tax split is each bill's, as its Sales voucher posts it.
 */
export async function accountsSummary(db: Db, organizationId: number, month: string): Promise<AccountsSummary> {
  const { w } = await monthWindow(db, organizationId, month);
  const vouchers = await tallyVouchers(db, organizationId, month);
  const total = (type: Voucher['type']) => vouchers.filter((v) => v.type === type).reduce((s, v) => s + debits(v), 0);
  const split = { exempt: 0, taxed: 0, tax: 0 };
  const bills = await monthBills(db, w);
  for (const b of bills) {
    const s = saleSplit(b);
    split.exempt += s.exempt;
    split.taxed += s.taxed;
    split.tax += s.tax;
  }
  const invoices = (await invoicesIssuedIn(db, w)).filter((i) => i.recipient_gstin);
  return {
    month,
    from: w.firstDay,
    to: w.lastDay,
    bills: bills.length,
    sales: r2(total('Sales')),
    exempt: r2(split.exempt),
    taxable: r2(split.taxed),
    tax: r2(split.tax),
    receipts: r2(total('Receipt')),
    refunds: r2(total('Payment')),
    credit_notes: r2(total('Credit Note')),
    vouchers: vouchers.length,
    b2b_invoices: invoices.length,
    einvoicing: (await getAccountsSettings(db, organizationId)).einvoicing,
  };
}
