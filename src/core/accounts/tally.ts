import type { Db } from '../db/connection.js';
import { labSettings } from '../settings/service.js';
import { stateOfGstin } from '../../shared/gst.js';
import { getAccountsSettings } from './settings.js';
import { monthWindow } from './month.js';
import { billsCancelledIn, monthBills, monthMoneyRows } from './repository.js';
import { creditNoteVouchers, moneyVouchers, salesVouchers, type Voucher } from './vouchers.js';
import { tallyXml } from './tally-xml.js';

/** The month's day book: sales, receipts, refunds and credit notes, in date order (sales first on a day). */
export async function tallyVouchers(db: Db, organizationId: number, month: string): Promise<Voucher[]> {
  const { w, labDay } = await monthWindow(db, organizationId, month);
  const settings = await getAccountsSettings(db, organizationId);
  const lab = await labSettings(db, organizationId);
  const labState = lab.gstStateCode ?? stateOfGstin(lab.gstin);
  const all = [
    ...salesVouchers(await monthBills(db, w), settings, labState, labDay),
    ...moneyVouchers(await monthMoneyRows(db, w), settings),
    ...creditNoteVouchers(await billsCancelledIn(db, w), settings, labState, labDay),
  ];
  const order: Record<Voucher['type'], number> = { Sales: 0, Receipt: 1, Payment: 2, 'Credit Note': 3 };
  return all
    .map((v, i) => ({ v, i }))
    .sort((a, b) => a.v.date.localeCompare(b.v.date) || order[a.v.type] - order[b.v.type] || a.i - b.i)
    .map(({ v }) => v);
}

export async function tallyExport(db: Db, organizationId: number, month: string) {
  const vouchers = await tallyVouchers(db, organizationId, month);
  const { tally_company } = await getAccountsSettings(db, organizationId);
  return { vouchers, xml: tallyXml(vouchers, tally_company) };
}
