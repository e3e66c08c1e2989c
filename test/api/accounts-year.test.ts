import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, pdfText, type TestLab } from '../helpers.js';
import { buildYearLab, type YearLab } from './accounts-year-lab.js';
import { systemActor } from '../../src/core/context.js';
import { localDate } from '../../src/shared/time.js';
import { monthWindow } from '../../src/core/accounts/month.js';
import { tallyVouchers } from '../../src/core/accounts/tally.js';
import { gstr1 } from '../../src/core/accounts/gstr1.js';
import { einvoiceDocuments } from '../../src/core/accounts/einvoice.js';
import { updateAccountsSettings } from '../../src/core/accounts/settings.js';
import { billedTotalsSummed } from '../../src/core/reports/money.js';
import type { Voucher } from '../../src/core/accounts/vouchers.js';
import { LEDGER_KEYS } from '../../src/shared/schemas/accounts.js';
import type { Invoice } from '../../src/shared/schemas/invoices.js';

/**
 * A year of a lab holding every kind of money row, month by month: each month's Tally vouchers
 * balance to the paisa on the ledgers the lab named, and its sales equal the revenue report; its
 * GSTR-1 sections equal the invoice register (B2B, CDNR) and the bills (B2CS, B2CL, CDNUR, exempt,
 * HSN, documents); a supply whose lines are all exempt is a bill of supply and never gets an IRN.
 */
let lab: TestLab;
let year: YearLab;
let register: Invoice[];
const today = localDate('Asia/Kolkata');
const LEDGERS = Object.fromEntries(LEDGER_KEYS.map((k) => [k, `Year ${k} A/c`]));
const cents = (n: number) => Math.round(n * 100);
const sum = <T>(xs: T[], f: (x: T) => number) => xs.reduce((s, x) => s + f(x), 0);

beforeAll(async () => {
  lab = await makeLab();
  year = await buildYearLab(lab, today);
  await updateAccountsSettings(lab.database.db, systemActor(lab.organizationId), {
    ledgers: LEDGERS,
    annual_turnover: 60_000_000,
  });
  register = (await lab.admin.get('/api/invoices?limit=100')).json<{ invoices: Invoice[] }>().invoices;
}, 120_000);
afterAll(() => lab.close());

/** The month's bills as the database holds them: made in it and live at its end, and earlier ones cancelled in it. */
async function billsOf(month: string) {
  const db = lab.database.db;
  const { w } = await monthWindow(db, lab.organizationId, month);
  const rows = await db
    .selectFrom('bills as b')
    .leftJoin('payers as p', 'p.id', 'b.payer_id')
    .where('b.organization_id', '=', lab.organizationId)
    .select([
      'b.id',
      'b.bill_number',
      'b.created_at',
      'b.cancelled_at',
      'b.final_amount_paise',
      'p.gstin',
      'p.state_code',
    ])
    .execute();
  const items = await db
    .selectFrom('bill_items')
    .select(['bill_id', 'tax_category', 'taxable_paise', 'tax_paise'])
    .execute();
  const withTax = rows.map((b) => {
    const taxed = items.filter((i) => i.bill_id === b.id && i.tax_category !== 'exempt');
    const txval = sum(taxed, (i) => Number(i.taxable_paise));
    const tax = sum(taxed, (i) => Number(i.tax_paise));
    const final = Number(b.final_amount_paise);
    return { ...b, final, txval, tax, exempt: final - txval - tax };
  });
  const inMonth = (iso: string | null) => iso !== null && iso >= w.fromUtc && iso < w.toUtc;
  return {
    w,
    made: withTax.filter((b) => inMonth(b.created_at)),
    live: withTax.filter((b) => inMonth(b.created_at) && (b.cancelled_at === null || b.cancelled_at >= w.toUtc)),
    cancelledLater: withTax.filter(
      (b) => inMonth(b.created_at) && b.cancelled_at !== null && b.cancelled_at >= w.toUtc,
    ),
    reversed: withTax.filter((b) => b.created_at < w.fromUtc && inMonth(b.cancelled_at)),
  };
}

const debits = (v: Voucher) =>
  sum(
    v.entries.filter((e) => e.paise > 0),
    (e) => e.paise,
  );

describe('a year of the accountant’s months', () => {
  it('balances every Tally voucher on the ledgers the lab named, and each month’s sales equal the revenue report', async () => {
    const db = lab.database.db;
    const names = new Set([...Object.values(LEDGERS), ...year.payerNames]);
    const types = new Set<string>();
    for (const month of year.months) {
      const vouchers = await tallyVouchers(db, lab.organizationId, month);
      for (const v of vouchers) {
        types.add(v.type);
        expect(
          sum(v.entries, (e) => e.paise),
          `${month} ${v.type} ${v.number}`,
        ).toBe(0);
        for (const e of v.entries) {
          expect(Number.isInteger(e.paise), `${v.number} ${e.ledger}`).toBe(true);
          expect(names, `${month} ${v.number}`).toContain(e.ledger);
        }
      }
      const bills = await billsOf(month);
      const sales = sum(
        vouchers.filter((v) => v.type === 'Sales'),
        debits,
      );
      const revenue = await billedTotalsSummed(db, lab.organizationId, bills.w.fromUtc, bills.w.toUtc);
      // The revenue report counts bills live today; the month's sales were the bills live at its end.
      expect(sales, month).toBe(revenue.amount_paise + sum(bills.cancelledLater, (b) => b.final));
      expect(sales, month).toBe(sum(bills.live, (b) => b.final));
      const creditNotes = vouchers.filter((v) => v.type === 'Credit Note');
      expect(creditNotes.map((v) => v.number).sort(), month).toEqual(
        bills.reversed.map((b) => `CN-${b.bill_number}`).sort(),
      );
      expect(sum(creditNotes, debits), month).toBe(sum(bills.reversed, (b) => b.final));
    }
    expect([...types].sort()).toEqual(['Credit Note', 'Payment', 'Receipt', 'Sales']);
  });

  it('makes each month’s GSTR-1 equal to the invoice register and the bills', async () => {
    const db = lab.database.db;
    type Det = { txval: number; iamt?: number; camt?: number; samt?: number };
    const itemSums = (itms: { itm_det: Det }[]) => ({
      txval: sum(itms, (i) => cents(i.itm_det.txval)),
      tax: sum(itms, (i) => cents(i.itm_det.iamt ?? 0) + cents(i.itm_det.camt ?? 0) + cents(i.itm_det.samt ?? 0)),
    });
    const seen = { b2cl: 0, cdnur: 0, cdnr: 0, interB2b: 0 };
    for (const month of year.months) {
      const g = await gstr1(db, lab.organizationId, month);
      const bills = await billsOf(month);
      const day = (iso: string) => localDate('Asia/Kolkata', new Date(iso));
      const issued = register.filter((i) => i.recipient_gstin && i.invoice_date?.startsWith(month));
      const noted = register.filter(
        (i) => i.recipient_gstin && i.cancelled_at && day(i.cancelled_at).startsWith(month),
      );

      // B2B: every taxed invoice of the month, with the register's figures.
      type Doc = { inum?: string; nt_num?: string; val: number; itms: { itm_det: Det }[] };
      const b2b = g.b2b.flatMap((r) => r.inv as Doc[]);
      const taxedIssued = issued.filter((i) => i.taxable > 0);
      expect(b2b.map((d) => d.inum).sort(), month).toEqual(taxedIssued.map((i) => i.invoice_number).sort());
      for (const inv of taxedIssued) {
        const d = b2b.find((x) => x.inum === inv.invoice_number)!;
        expect(d.val).toBe(inv.total);
        expect(itemSums(d.itms)).toEqual({ txval: cents(inv.taxable), tax: cents(inv.tax) });
        if (inv.igst > 0) seen.interB2b += 1;
      }
      // CDNR: the month's credit notes on invoices, each the whole invoice reversed.
      const cdnr = g.cdnr.flatMap((r) => r.nt as Doc[]);
      const taxedNoted = noted.filter((i) => i.taxable > 0);
      expect(cdnr.map((d) => d.nt_num).sort(), month).toEqual(taxedNoted.map((i) => i.credit_note_number).sort());
      for (const inv of taxedNoted)
        expect(itemSums(cdnr.find((x) => x.nt_num === inv.credit_note_number)!.itms)).toEqual({
          txval: cents(inv.taxable),
          tax: cents(inv.tax),
        });
      seen.cdnr += cdnr.length;

      // B2C: the bills of unregistered recipients; B2C Large bill by bill, net of this month's reversals.
      const b2c = bills.live.filter((b) => !b.gstin);
      const b2cOut = bills.reversed.filter((b) => !b.gstin);
      const large = (b: (typeof b2c)[number]) =>
        b.state_code !== null && b.state_code !== '27' && b.final > 1_00_000_00 && b.txval > 0;
      expect(g.b2cl.flatMap((r) => r.inv.map((d) => d.inum)).sort(), month).toEqual(
        b2c
          .filter(large)
          .map((b) => b.bill_number)
          .sort(),
      );
      expect(g.cdnur.map((n) => n.nt_num).sort(), month).toEqual(
        b2cOut
          .filter(large)
          .map((b) => `CN-${b.bill_number}`)
          .sort(),
      );
      seen.b2cl += g.b2cl.length;
      seen.cdnur += g.cdnur.length;
      const b2cs = {
        txval: sum(g.b2cs, (s) => cents(s.txval)),
        tax: sum(g.b2cs, (s) => cents(s.iamt) + cents(s.camt) + cents(s.samt)),
      };
      const b2cl = itemSums(g.b2cl.flatMap((r) => r.inv.flatMap((d) => d.itms)));
      const cdnur = itemSums(g.cdnur.flatMap((n) => n.itms));
      expect({ txval: b2cs.txval + b2cl.txval - cdnur.txval, tax: b2cs.tax + b2cl.tax - cdnur.tax }, month).toEqual({
        txval: sum(b2c, (b) => b.txval) - sum(b2cOut, (b) => b.txval),
        tax: sum(b2c, (b) => b.tax) - sum(b2cOut, (b) => b.tax),
      });

      // Exempt: the invoices' exempt values (bills of supply included) less the month's credit notes',
      // and the B2C bills' rest.
      const nil = Object.fromEntries(g.nil.inv.map((n) => [n.sply_ty, cents(n.expt_amt)]));
      expect((nil.INTRAB2B ?? 0) + (nil.INTRB2B ?? 0), month).toBe(
        sum(issued, (i) => cents(i.exempt)) - sum(noted, (i) => cents(i.exempt)),
      );
      expect((nil.INTRAB2C ?? 0) + (nil.INTRB2C ?? 0), month).toBe(
        sum(b2c, (b) => b.exempt) - sum(b2cOut, (b) => b.exempt),
      );
      // HSN/SAC: every supply of the month once, at its value and tax, net of the month's credit notes
      // (an invoice cancelled and its bills invoiced again count once).
      // Its B2B part holds the registered recipients' invoices, its B2C part the bills.
      const hsnVal = (rows: typeof g.hsn.hsn_b2b) =>
        sum(rows ?? [], (h) => cents(h.txval) + cents(h.iamt) + cents(h.camt) + cents(h.samt));
      expect(hsnVal(g.hsn.hsn_b2b), month).toBe(sum(issued, (i) => cents(i.total)) - sum(noted, (i) => cents(i.total)));
      expect(hsnVal(g.hsn.hsn_b2c), month).toBe(sum(b2c, (b) => b.final) - sum(b2cOut, (b) => b.final));
      // Documents issued: every bill made in the month, cancelled ones counted as such, and the invoices.
      const outward = g.doc_issue.doc_det.find((d) => d.doc_num === 1)!.docs;
      expect(outward[0]!.totnum, month).toBe(bills.made.length);
      expect(outward[0]!.cancel, month).toBe(
        bills.made.filter((b) => b.cancelled_at && b.cancelled_at < bills.w.toUtc).length,
      );
      expect(outward[1]!.totnum, month).toBe(register.filter((i) => i.invoice_date?.startsWith(month)).length);
    }
    // Each kind of section was reached over the year.
    expect(seen.b2cl).toBeGreaterThan(0);
    expect(seen.cdnur).toBe(1);
    expect(seen.cdnr).toBe(1);
    expect(seen.interB2b).toBeGreaterThan(0);
  });

  it('never gives an exempt-only supply an IRN or a tax invoice', async () => {
    const db = lab.database.db;
    for (const month of year.months) {
      const docs = (await einvoiceDocuments(db, lab.organizationId, month)) as {
        DocDtls: { No: string };
        BuyerDtls: { Gstin: string };
        ItemList: { GstRt: number }[];
      }[];
      const taxed = register.filter((i) => i.recipient_gstin && i.invoice_date?.startsWith(month) && i.taxable > 0);
      expect(docs.map((d) => d.DocDtls.No).sort(), month).toEqual(taxed.map((i) => i.invoice_number).sort());
      expect(
        docs.map((d) => d.BuyerDtls.Gstin),
        month,
      ).not.toContain(year.exemptPayerGstin);
      for (const d of docs) expect(d.ItemList.some((l) => l.GstRt > 0)).toBe(true);
    }
    expect(year.exemptInvoices).toHaveLength(12);
    for (const id of year.exemptInvoices.filter((_, i) => i % 4 === 0)) {
      const text = await pdfText(await lab.admin.get(`/api/invoices/${id}/pdf`));
      expect(text).toContain('BILL OF SUPPLY');
      expect(text).not.toContain('TAX INVOICE');
    }
    for (const id of year.exemptBills.filter((_, i) => i % 8 === 0)) {
      const text = await pdfText(await lab.admin.get(`/api/bills/${id}/pdf`));
      expect(text).toContain('BILL OF SUPPLY');
      expect(text).not.toContain('TAX INVOICE');
    }
  });
});
