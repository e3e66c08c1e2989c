import type { Db } from '../db/connection.js';
import { stateOfGstin, taxRateOf } from '../../shared/gst.js';
import { billInterState } from './month.js';
import { billsCancelledIn, linesOfBills, monthBillLines, monthBills, type AccountBillRow } from './repository.js';
import type { MonthWindow } from './repository.js';
import {
  add,
  B2CL_LIMIT_PAISE,
  gstDate,
  igstItems,
  r2,
  rupeesOf,
  zero,
  type Gstr1Sums,
  type Tax,
} from './gstr1-parts.js';

type BillLine = Awaited<ReturnType<typeof monthBillLines>>[number];
type Items = ReturnType<typeof igstItems>;
export interface B2clInvoice {
  inum: string;
  idt: string;
  val: number;
  itms: Items;
}
export interface UnregisteredNote {
  typ: 'B2CL';
  ntty: 'C';
  nt_num: string;
  nt_dt: string;
  pos: string;
  val: number;
  itms: Items;
}

/**
 * Supplies to unregistered persons, from the bills themselves (everyone without a GSTIN: self-pay
 * patients and payers not registered). A bill taxed across states above the B2CL limit is B2C
 * Large, reported as its own invoice; every other taxed line is summed into B2CS by place and
 * rate. A bill of an earlier month cancelled in this one is reversed here, as the Tally day book
 * reverses it: a B2C Large bill by a credit note in CDNUR (numbered CN-<bill>, as the Tally
 * voucher), any other by taking its lines off this month's B2CS, exempt and HSN figures.
 */
export async function b2cSections(
  db: Db,
  w: MonthWindow,
  labState: string | null,
  labDay: (iso: string) => string,
  sums: Gstr1Sums,
) {
  const b2cs = new Map<string, Tax & { pos: string; rt: number; inter: boolean }>();
  const b2cl = new Map<string, B2clInvoice[]>();
  const cdnur: UnregisteredNote[] = [];

  const post = (b: AccountBillRow, lines: BillLine[], sign: 1 | -1) => {
    const inter = billInterState(labState, b);
    const pos = b.payer_state_code ?? stateOfGstin(b.payer_gstin) ?? labState ?? '';
    const nilKey = inter ? 'INTRB2C' : 'INTRAB2C';
    const taxed: { rate: number; tax: Tax }[] = [];
    let lineValue = 0;
    for (const l of lines) {
      const rate = l.tax_category === 'exempt' ? 0 : taxRateOf(l.tax_category);
      const tax = Number(l.tax_paise);
      const cgst = inter ? 0 : Math.floor(tax / 2);
      const t: Tax = {
        txval: Number(l.taxable_paise),
        iamt: inter ? tax : 0,
        camt: cgst,
        samt: inter ? 0 : tax - cgst,
      };
      lineValue += t.txval + tax;
      sums.toHsn('hsn_b2c', l.sac_code, rate, Number(l.qty), t, sign);
      if (rate === 0) sums.nil[nilKey] += sign * t.txval;
      else taxed.push({ rate, tax: t });
    }
    // The consultation fee (exempt, no line of its own): what the final amount has beyond the lines.
    const final = Number(b.final_amount_paise);
    const fee = final - lineValue;
    if (fee > 0) {
      sums.nil[nilKey] += sign * fee;
      sums.toHsn('hsn_b2c', null, 0, 1, { txval: fee, iamt: 0, camt: 0, samt: 0 }, sign);
    }
    if (taxed.length === 0) return;
    if (inter && final > B2CL_LIMIT_PAISE) {
      const doc = { val: r2(final), itms: igstItems(taxed) };
      if (sign > 0)
        b2cl.set(pos, [...(b2cl.get(pos) ?? []), { inum: b.bill_number, idt: gstDate(labDay(b.created_at)), ...doc }]);
      else
        cdnur.push({
          typ: 'B2CL',
          ntty: 'C',
          nt_num: `CN-${b.bill_number}`,
          nt_dt: gstDate(labDay(b.cancelled_at!)),
          pos,
          ...doc,
        });
      return;
    }
    for (const { rate, tax } of taxed) {
      const key = `${pos}|${rate}`;
      const s = b2cs.get(key) ?? { pos, rt: rate, inter, ...zero() };
      add(s, tax, sign);
      b2cs.set(key, s);
    }
  };

  const byBill = (lines: BillLine[]) => {
    const m = new Map<number, BillLine[]>();
    for (const l of lines) m.set(l.bill_id, [...(m.get(l.bill_id) ?? []), l]);
    return m;
  };
  const bills = (await monthBills(db, w)).filter((b) => !b.payer_gstin);
  const lines = byBill(await monthBillLines(db, w));
  for (const b of bills) post(b, lines.get(b.id) ?? [], 1);
  const cancelled = (await billsCancelledIn(db, w)).filter((b) => !b.payer_gstin);
  const cancelledLines = byBill(
    await linesOfBills(
      db,
      w.organizationId,
      cancelled.map((b) => b.id),
    ),
  );
  for (const b of cancelled) post(b, cancelledLines.get(b.id) ?? [], -1);

  return {
    b2cs: [...b2cs.values()]
      .filter((s) => s.txval !== 0 || s.iamt !== 0 || s.camt !== 0 || s.samt !== 0)
      .map((s) => ({
        sply_ty: s.inter ? 'INTER' : 'INTRA',
        pos: s.pos,
        typ: 'OE',
        rt: s.rt,
        ...rupeesOf(s),
      })),
    b2cl: [...b2cl].map(([pos, inv]) => ({ pos, inv })),
    cdnur,
  };
}
