import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { InvoiceLinesTable, InvoicesTable } from '../invoices/tables.js';
import { labSettings } from '../settings/service.js';
import { DEFAULT_SAC, stateOfGstin, taxRateOf } from '../../shared/gst.js';
import { billInterState, monthWindow } from './month.js';
import { creditNotesIn, invoicesIssuedIn, linesOfInvoices, monthBillLines, monthBills } from './repository.js';

/**
 * GSTR-1 of a month as the GST offline tool's JSON. Registered recipients (a payer with a GSTIN)
 * are billed by GST invoice: their invoices dated in the month are B2B, their credit notes of the
 * month CDNR. Everyone else is a B2C supply on the bill itself: the month's bills (made in it, live
 * at its end) summed by place of supply and rate (B2CS). Exempt values go to the nil table, never
 * to B2B or B2CS; every line goes to the HSN/SAC summary. Money as rupees with 2 decimals.
 */
type Invoice = Selectable<InvoicesTable>;
type Line = Selectable<InvoiceLinesTable>;

const r2 = (paise: number) => Math.round(paise) / 100;
const gstDate = (ymd: string) => `${ymd.slice(8, 10)}-${ymd.slice(5, 7)}-${ymd.slice(0, 4)}`;

interface Tax {
  txval: number;
  iamt: number;
  camt: number;
  samt: number;
}
const zero = (): Tax => ({ txval: 0, iamt: 0, camt: 0, samt: 0 });
const add = (t: Tax, l: Tax) => {
  t.txval += l.txval;
  t.iamt += l.iamt;
  t.camt += l.camt;
  t.samt += l.samt;
};
const rupeesOf = (t: Tax) => ({ txval: r2(t.txval), iamt: r2(t.iamt), camt: r2(t.camt), samt: r2(t.samt), csamt: 0 });

/** An invoice's taxed lines per rate, as the tool's items (num: rate x 100 + 1, as the tool numbers them). */
function itemsByRate(lines: Line[]) {
  const by = new Map<number, Tax>();
  for (const l of lines.filter((x) => x.rate_percent > 0)) {
    const t = by.get(l.rate_percent) ?? zero();
    add(t, { txval: l.taxable_paise, iamt: l.igst_paise, camt: l.cgst_paise, samt: l.sgst_paise });
    by.set(l.rate_percent, t);
  }
  return [...by].sort(([a], [b]) => a - b).map(([rt, t]) => ({ num: rt * 100 + 1, itm_det: { rt, ...rupeesOf(t) } }));
}

export interface HsnKey {
  sac: string;
  rate: number;
}

export async function gstr1(db: Db, organizationId: number, month: string) {
  const { w, labDay } = await monthWindow(db, organizationId, month);
  const lab = await labSettings(db, organizationId);
  const labState = lab.gstStateCode ?? stateOfGstin(lab.gstin);
  const issued = (await invoicesIssuedIn(db, w)).filter((i) => i.recipient_gstin);
  const notes = (await creditNotesIn(db, w)).filter((i) => i.recipient_gstin);
  const lines = await linesOfInvoices(db, [...new Set([...issued, ...notes].map((i) => i.id))]);
  const linesOf = (inv: Invoice) => lines.filter((l) => l.invoice_id === inv.id);

  const nil = { INTRAB2B: 0, INTRB2B: 0, INTRAB2C: 0, INTRB2C: 0 };
  const hsn = new Map<string, Tax & HsnKey & { qty: number }>();
  const toHsn = (sac: string, rate: number, qty: number, t: Tax) => {
    const key = `${sac}|${rate}`;
    const h = hsn.get(key) ?? { sac, rate, qty: 0, ...zero() };
    h.qty += qty;
    add(h, t);
    hsn.set(key, h);
  };

  // B2B: each invoice with its taxed items; its exempt lines to nil (inter-state when its place differs).
  const b2b = new Map<string, unknown[]>();
  for (const inv of issued) {
    const ls = linesOf(inv);
    const inter = !!labState && !!inv.place_of_supply && inv.place_of_supply !== labState;
    for (const l of ls) {
      if (l.rate_percent === 0) nil[inter ? 'INTRB2B' : 'INTRAB2B'] += l.taxable_paise;
      toHsn(l.sac_code, l.rate_percent, l.qty, {
        txval: l.taxable_paise,
        iamt: l.igst_paise,
        camt: l.cgst_paise,
        samt: l.sgst_paise,
      });
    }
    const itms = itemsByRate(ls);
    if (itms.length === 0) continue;
    const list = b2b.get(inv.recipient_gstin!) ?? [];
    list.push({
      inum: inv.invoice_number,
      idt: gstDate(inv.invoice_date!),
      val: r2(inv.total_paise),
      pos: inv.place_of_supply ?? labState,
      rchrg: 'N',
      inv_typ: 'R',
      itms,
    });
    b2b.set(inv.recipient_gstin!, list);
  }

  // B2C: the month's bills not charged to a registered payer, by place of supply and rate.
  const bills = (await monthBills(db, w)).filter((b) => !b.payer_gstin);
  const b2cBill = new Map(bills.map((b) => [b.id, b]));
  const b2cs = new Map<string, Tax & { pos: string; rt: number; inter: boolean }>();
  const lineValue = new Map<number, number>();
  for (const l of await monthBillLines(db, w)) {
    const b = b2cBill.get(l.bill_id);
    if (!b) continue;
    const inter = billInterState(labState, b);
    const pos = b.payer_state_code ?? stateOfGstin(b.payer_gstin) ?? labState ?? '';
    const rt = l.tax_category === 'exempt' ? 0 : taxRateOf(l.tax_category);
    const tax = Number(l.tax_paise);
    const cgst = inter ? 0 : Math.floor(tax / 2);
    const t: Tax = { txval: Number(l.taxable_paise), iamt: inter ? tax : 0, camt: cgst, samt: inter ? 0 : tax - cgst };
    lineValue.set(b.id, (lineValue.get(b.id) ?? 0) + t.txval + tax);
    toHsn(l.sac_code || DEFAULT_SAC, rt, Number(l.qty), t);
    if (rt === 0) {
      nil[inter ? 'INTRB2C' : 'INTRAB2C'] += t.txval;
      continue;
    }
    const key = `${pos}|${rt}`;
    const s = b2cs.get(key) ?? { pos, rt, inter, ...zero() };
    add(s, t);
    b2cs.set(key, s);
  }
  // The consultation fee (exempt, no line of its own): what a bill's final amount has beyond its lines.
  for (const b of bills) {
    const fee = Number(b.final_amount_paise) - (lineValue.get(b.id) ?? 0);
    if (fee <= 0) continue;
    nil[billInterState(labState, b) ? 'INTRB2C' : 'INTRAB2C'] += fee;
    toHsn(DEFAULT_SAC, 0, 1, { txval: fee, iamt: 0, camt: 0, samt: 0 });
  }

  const cdnr = new Map<string, unknown[]>();
  for (const inv of notes) {
    const itms = itemsByRate(linesOf(inv));
    if (itms.length === 0) continue;
    const list = cdnr.get(inv.recipient_gstin!) ?? [];
    list.push({
      ntty: 'C',
      nt_num: inv.credit_note_number,
      nt_dt: gstDate(labDay(inv.cancelled_at!)),
      val: r2(inv.total_paise),
      pos: inv.place_of_supply ?? labState,
      rchrg: 'N',
      inv_typ: 'R',
      itms,
    });
    cdnr.set(inv.recipient_gstin!, list);
  }

  return {
    gstin: lab.gstin ?? '',
    fp: `${month.slice(5, 7)}${month.slice(0, 4)}`,
    b2b: [...b2b].map(([ctin, inv]) => ({ ctin, inv })),
    b2cs: [...b2cs.values()].map((s) => ({
      sply_ty: s.inter ? 'INTER' : 'INTRA',
      pos: s.pos,
      typ: 'OE',
      rt: s.rt,
      ...rupeesOf(s),
    })),
    cdnr: [...cdnr].map(([ctin, nt]) => ({ ctin, nt })),
    nil: {
      inv: (Object.keys(nil) as (keyof typeof nil)[]).map((sply_ty) => ({
        sply_ty,
        expt_amt: r2(nil[sply_ty]),
        nil_amt: 0,
        ngsup_amt: 0,
      })),
    },
    hsn: {
      data: [...hsn.values()]
        .sort((a, b) => a.sac.localeCompare(b.sac) || a.rate - b.rate)
        .map((h, i) => ({
          num: i + 1,
          hsn_sc: h.sac,
          uqc: 'OTH',
          qty: h.qty,
          rt: h.rate,
          val: r2(h.txval + h.iamt + h.camt + h.samt),
          ...rupeesOf(h),
        })),
    },
  };
}
export type Gstr1 = Awaited<ReturnType<typeof gstr1>>;
