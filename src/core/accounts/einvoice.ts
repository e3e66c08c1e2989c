import type { Db } from '../db/connection.js';
import { ConflictError } from '../errors.js';
import { formatInr } from '../../shared/money.js';
import { gstDocumentKind } from '../../shared/gst.js';
import { getAccountsSettings } from './settings.js';
import { monthWindow } from './month.js';
import { invoicesIssuedIn, linesOfInvoices } from './repository.js';

/**
 * IRN-ready JSON (the e-invoice schema, version 1.1) of the month's B2B invoices, for a lab whose
 * turnover is above the e-invoicing threshold (its accounts settings). A bill of supply (no taxed
 * line) never gets an IRN, nor does an invoice to an unregistered recipient.
 */
const r2 = (paise: number) => Math.round(paise) / 100;
const einvDate = (ymd: string) => `${ymd.slice(8, 10)}/${ymd.slice(5, 7)}/${ymd.slice(0, 4)}`;
const pinOf = (address: string | null) => Number(/\b(\d{6})\b/.exec(address ?? '')?.[1] ?? 0) || null;

export async function einvoiceDocuments(db: Db, organizationId: number, month: string) {
  const settings = await getAccountsSettings(db, organizationId);
  if (!settings.einvoicing)
    throw new ConflictError(
      settings.annual_turnover === null
        ? 'E-invoicing is not set up: give the lab’s annual turnover in the accounts settings'
        : `E-invoicing applies above a turnover of ${formatInr(Math.round(settings.einvoice_threshold * 100))}; the lab’s is ${formatInr(Math.round(settings.annual_turnover * 100))}`,
      'EINVOICE_NOT_REQUIRED',
    );
  const { w } = await monthWindow(db, organizationId, month);
  const invoices = (await invoicesIssuedIn(db, w)).filter((i) => i.recipient_gstin);
  const lines = await linesOfInvoices(
    db,
    invoices.map((i) => i.id),
  );
  const out: unknown[] = [];
  for (const inv of invoices) {
    const ls = lines.filter((l) => l.invoice_id === inv.id);
    if (gstDocumentKind(ls.map((l) => l.rate_percent)) === 'bill_of_supply') continue;
    out.push({
      Version: '1.1',
      TranDtls: { TaxSch: 'GST', SupTyp: 'B2B', RegRev: 'N', IgstOnIntra: 'N' },
      DocDtls: { Typ: 'INV', No: inv.invoice_number, Dt: einvDate(inv.invoice_date!) },
      SellerDtls: {
        Gstin: inv.lab_gstin,
        LglNm: inv.lab_name,
        Addr1: (inv.lab_address ?? '').slice(0, 100),
        Loc: (inv.lab_address ?? '').split(',').slice(-2, -1)[0]?.trim() || inv.lab_name,
        Pin: pinOf(inv.lab_address),
        Stcd: inv.lab_state_code,
        ...(inv.lab_phone ? { Ph: inv.lab_phone.replace(/\D/g, '').slice(-12) } : {}),
        ...(inv.lab_email ? { Em: inv.lab_email } : {}),
      },
      BuyerDtls: {
        Gstin: inv.recipient_gstin,
        LglNm: inv.recipient_name,
        Pos: inv.place_of_supply,
        Addr1: (inv.recipient_address ?? '').slice(0, 100),
        Loc: (inv.recipient_address ?? '').split(',').slice(-1)[0]?.trim() || inv.recipient_name,
        Pin: pinOf(inv.recipient_address),
        Stcd: inv.recipient_state_code ?? inv.recipient_gstin!.slice(0, 2),
      },
      ItemList: ls.map((l, i) => ({
        SlNo: String(i + 1),
        PrdDesc: l.description.slice(0, 300),
        IsServc: 'Y',
        HsnCd: l.sac_code,
        Qty: l.qty,
        Unit: 'OTH',
        UnitPrice: r2(Math.round(l.taxable_paise / Math.max(1, l.qty))),
        TotAmt: r2(l.taxable_paise),
        Discount: 0,
        AssAmt: r2(l.taxable_paise),
        GstRt: l.rate_percent,
        IgstAmt: r2(l.igst_paise),
        CgstAmt: r2(l.cgst_paise),
        SgstAmt: r2(l.sgst_paise),
        TotItemVal: r2(l.total_paise),
      })),
      ValDtls: {
        AssVal: r2(inv.taxable_paise + inv.exempt_paise),
        CgstVal: r2(inv.cgst_paise),
        SgstVal: r2(inv.sgst_paise),
        IgstVal: r2(inv.igst_paise),
        TotInvVal: r2(inv.total_paise),
      },
    });
  }
  return out;
}
