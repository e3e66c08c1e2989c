import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { InvoiceLinesTable, InvoicesTable } from '../invoices/tables.js';
import { labSettings } from '../settings/service.js';
import { stateOfGstin } from '../../shared/gst.js';
import { monthWindow } from './month.js';
import { creditNotesIn, invoicesIssuedIn, linesOfInvoices } from './repository.js';
import { b2cSections } from './gstr1-b2c.js';
import { docIssue } from './gstr1-docs.js';
import { gstDate, Gstr1Sums, itemsByRate, r2, type Tax } from './gstr1-parts.js';

/**
 * GSTR-1 of a month as the GST offline tool's JSON. Registered recipients (a payer with a GSTIN)
 * are billed by GST invoice: their invoices dated in the month are B2B, their credit notes of the
 * month CDNR. Everyone else is a B2C supply on the bill itself (gstr1-b2c.ts: B2CS, B2CL, CDNUR).
 * Exempt values go to the nil table, never to B2B or B2CS; every line goes to the HSN/SAC summary;
 * the documents issued are table 13 (gstr1-docs.ts). Money as rupees with 2 decimals.
 */
/**
 * The schema version the offline tool writes in its own JSON, and the placeholder it puts in `hash`;
 * its import reads both.
 */
const GSTR1_JSON_VERSION = 'GST3.2.4';

type Invoice = Selectable<InvoicesTable>;
type Line = Selectable<InvoiceLinesTable>;

const taxOf = (l: Line): Tax => ({
  txval: l.taxable_paise,
  iamt: l.igst_paise,
  camt: l.cgst_paise,
  samt: l.sgst_paise,
});
const taxedItems = (lines: Line[]) => itemsByRate(lines.map((l) => ({ rate: l.rate_percent, tax: taxOf(l) })));

export async function gstr1(db: Db, organizationId: number, month: string) {
  return (await gstr1WithNames(db, organizationId, month)).g;
}

/** GSTR-1 and its registered recipients' names by GSTIN (the CSV sheets name them; the JSON cannot). */
export async function gstr1WithNames(db: Db, organizationId: number, month: string) {
  const { w, labDay } = await monthWindow(db, organizationId, month);
  const lab = await labSettings(db, organizationId);
  const labState = lab.gstStateCode ?? stateOfGstin(lab.gstin);
  const allIssued = await invoicesIssuedIn(db, w);
  const allNotes = await creditNotesIn(db, w);
  const issued = allIssued.filter((i) => i.recipient_gstin);
  const notes = allNotes.filter((i) => i.recipient_gstin);
  const lines = await linesOfInvoices(db, [...new Set([...issued, ...notes].map((i) => i.id))]);
  const linesOf = (inv: Invoice) => lines.filter((l) => l.invoice_id === inv.id);
  const sums = new Gstr1Sums();

  // Every line of an invoice reaches the HSN/SAC summary, its exempt lines the nil table (inter-state
  // when its place differs); a credit note takes its invoice's lines off both, as a cancelled B2C
  // bill does, so an invoice cancelled and its bills invoiced again are counted once.
  const post = (inv: Invoice, sign: 1 | -1) => {
    const ls = linesOf(inv);
    const inter = !!labState && !!inv.place_of_supply && inv.place_of_supply !== labState;
    for (const l of ls) {
      if (l.rate_percent === 0) sums.nil[inter ? 'INTRB2B' : 'INTRAB2B'] += sign * l.taxable_paise;
      sums.toHsn('hsn_b2b', l.sac_code, l.rate_percent, l.qty, taxOf(l), sign);
    }
    return ls;
  };

  // B2B: each invoice with its taxed items.
  const b2b = new Map<string, unknown[]>();
  for (const inv of issued) {
    const itms = taxedItems(post(inv, 1));
    if (itms.length === 0) continue;
    b2b.set(inv.recipient_gstin!, [
      ...(b2b.get(inv.recipient_gstin!) ?? []),
      {
        inum: inv.invoice_number,
        idt: gstDate(inv.invoice_date!),
        val: r2(inv.total_paise),
        pos: inv.place_of_supply ?? labState,
        rchrg: 'N',
        inv_typ: 'R',
        itms,
      },
    ]);
  }

  const b2c = await b2cSections(db, w, labState, labDay, sums);

  const cdnr = new Map<string, unknown[]>();
  for (const inv of notes) {
    const itms = taxedItems(post(inv, -1));
    if (itms.length === 0) continue;
    cdnr.set(inv.recipient_gstin!, [
      ...(cdnr.get(inv.recipient_gstin!) ?? []),
      {
        ntty: 'C',
        nt_num: inv.credit_note_number,
        nt_dt: gstDate(labDay(inv.cancelled_at!)),
        val: r2(inv.total_paise),
        pos: inv.place_of_supply ?? labState,
        rchrg: 'N',
        inv_typ: 'R',
        itms,
      },
    ]);
  }

  const names = Object.fromEntries([...issued, ...notes].map((i) => [i.recipient_gstin!, i.recipient_name]));
  const g = {
    gstin: lab.gstin ?? '',
    fp: `${month.slice(5, 7)}${month.slice(0, 4)}`,
    version: GSTR1_JSON_VERSION,
    hash: 'hash',
    b2b: [...b2b].map(([ctin, inv]) => ({ ctin, inv })),
    b2cl: b2c.b2cl,
    b2cs: b2c.b2cs,
    cdnr: [...cdnr].map(([ctin, nt]) => ({ ctin, nt })),
    cdnur: b2c.cdnur,
    nil: sums.nilJson(),
    hsn: sums.hsnJson(),
    doc_issue: await docIssue(
      db,
      w,
      allIssued.map((i) => i.invoice_number!),
      allNotes.map((i) => i.credit_note_number!),
      b2c.cdnur.map((n) => n.nt_num),
    ),
  };
  return { g, names };
}
export type Gstr1 = Awaited<ReturnType<typeof gstr1>>;
