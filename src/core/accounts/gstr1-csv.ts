import { csvHeader, csvRows } from '../export/csv.js';
import { GST_STATES } from '../../shared/gst.js';
import type { Gstr1CsvSection } from '../../shared/schemas/accounts.js';
import type { Gstr1 } from './gstr1.js';
import type { HsnItem } from './gstr1-parts.js';

/**
 * GSTR-1 as the offline tool's CSV sheets (b2b, b2cl, b2cs, cdnr, cdnur, exemp, hsn(b2b), hsn(b2c), docs), with its
 * column names in its order: the tool refuses a sheet whose headers differ, and works the tax out
 * itself from the rate and taxable value, so the invoice and note sheets carry no tax amounts (the
 * HSN sheet does). One row per invoice (or note) and rate, a place of supply as "29-Karnataka",
 * dates dd-mm-yyyy; `names` are the recipients' names by GSTIN (the JSON has no place for them).
 */
const pos = (code: string | null) => (code ? `${code}-${GST_STATES[code] ?? ''}` : '');
const DOC_LABELS: Record<number, string> = { 1: 'Invoices for outward supply', 5: 'Credit Note' };
const NIL_LABELS: Record<string, string> = {
  INTRB2B: 'Inter-State supplies to registered persons',
  INTRAB2B: 'Intra-State supplies to registered persons',
  INTRB2C: 'Inter-State supplies to unregistered persons',
  INTRAB2C: 'Intra-State supplies to unregistered persons',
};

/** Rupee figures added without float drift (each has 2 decimals). */
const rupeeSum = (...xs: number[]) => Math.round(xs.reduce((t, x) => t + Math.round(x * 100), 0)) / 100;

const hsnSheet = (rows: HsnItem[] = []) =>
  csvHeader([
    'HSN',
    'Description',
    'UQC',
    'Total Quantity',
    'Total Value',
    'Rate',
    'Taxable Value',
    'Integrated Tax Amount',
    'Central Tax Amount',
    'State/UT Tax Amount',
    'Cess Amount',
  ]) +
  csvRows(
    rows.map((h) => [
      h.hsn_sc,
      h.desc,
      h.uqc === 'NA' ? 'NA' : 'OTH-OTHERS',
      h.qty,
      rupeeSum(h.txval, h.iamt, h.camt, h.samt),
      h.rt,
      h.txval,
      h.iamt,
      h.camt,
      h.samt,
      0,
    ]),
  );

type Item = { itm_det: { rt: number; txval: number; iamt: number; camt: number; samt: number; csamt: number } };

/** The closing cells of every rated line of the invoice and note sheets: its rate, taxable value and cess (none). */
const RATED = ['Rate', 'Taxable Value', 'Cess Amount'];
const rated = (it: { itm_det: { rt: number; txval: number } }) => [it.itm_det.rt, it.itm_det.txval, 0];
/** The opening cells of the sheets of registered recipients (b2b, cdnr): the GSTIN and the name. */
const RECIPIENT = ['GSTIN/UIN of Recipient', 'Receiver Name'];
interface Doc {
  inum?: string;
  nt_num?: string;
  idt?: string;
  nt_dt?: string;
  val: number;
  pos: string | null;
  itms: Item[];
}

export function gstr1Csv(g: Gstr1, names: Record<string, string> = {}): Record<Gstr1CsvSection, string> {
  const docs = (list: { ctin: string; inv?: unknown[]; nt?: unknown[] }[]) =>
    list.flatMap((r) => ((r.inv ?? r.nt) as Doc[]).flatMap((d) => d.itms.map((it) => ({ ctin: r.ctin, d, it }))));
  const recipient = (ctin: string) => [ctin, names[ctin] ?? ''];
  return {
    b2b:
      csvHeader([
        ...RECIPIENT,
        'Invoice Number',
        'Invoice date',
        'Invoice Value',
        'Place Of Supply',
        'Reverse Charge',
        'Applicable % of Tax Rate',
        'Invoice Type',
        'E-Commerce GSTIN',
        ...RATED,
      ]) +
      csvRows(
        docs(g.b2b).map(({ ctin, d, it }) => [
          ...recipient(ctin),
          d.inum!,
          d.idt!,
          d.val,
          pos(d.pos),
          'N',
          '',
          'Regular B2B',
          '',
          ...rated(it),
        ]),
      ),
    b2cl:
      csvHeader([
        'Invoice Number',
        'Invoice date',
        'Invoice Value',
        'Place Of Supply',
        'Applicable % of Tax Rate',
        ...RATED,
        'E-Commerce GSTIN',
      ]) +
      csvRows(
        g.b2cl.flatMap((r) =>
          r.inv.flatMap((d) => d.itms.map((it) => [d.inum, d.idt, d.val, pos(r.pos), '', ...rated(it), ''])),
        ),
      ),
    b2cs:
      csvHeader(['Type', 'Place Of Supply', 'Applicable % of Tax Rate', ...RATED, 'E-Commerce GSTIN']) +
      csvRows(g.b2cs.map((s) => ['OE', pos(s.pos), '', s.rt, s.txval, 0, ''])),
    cdnr:
      csvHeader([
        ...RECIPIENT,
        'Note Number',
        'Note Date',
        'Note Type',
        'Place Of Supply',
        'Reverse Charge',
        'Note Supply Type',
        'Note Value',
        'Applicable % of Tax Rate',
        ...RATED,
      ]) +
      csvRows(
        docs(g.cdnr).map(({ ctin, d, it }) => [
          ...recipient(ctin),
          d.nt_num!,
          d.nt_dt!,
          'C',
          pos(d.pos),
          'N',
          'Regular B2B',
          d.val,
          '',
          ...rated(it),
        ]),
      ),
    cdnur:
      csvHeader([
        'UR Type',
        'Note Number',
        'Note Date',
        'Note Type',
        'Place Of Supply',
        'Note Value',
        'Applicable % of Tax Rate',
        ...RATED,
      ]) +
      csvRows(
        g.cdnur.flatMap((n) =>
          n.itms.map((it) => [n.typ, n.nt_num, n.nt_dt, n.ntty, pos(n.pos), n.val, '', ...rated(it)]),
        ),
      ),
    exemp:
      csvHeader([
        'Description',
        'Nil Rated Supplies',
        'Exempted(other than nil rated/non GST supply)',
        'Non-GST Supplies',
      ]) + csvRows(g.nil.inv.map((n) => [NIL_LABELS[n.sply_ty] ?? n.sply_ty, 0, n.expt_amt, 0])),
    'hsn-b2b': hsnSheet(g.hsn.hsn_b2b),
    'hsn-b2c': hsnSheet(g.hsn.hsn_b2c),
    docs:
      csvHeader(['Nature of Document', 'Sr. No. From', 'Sr. No. To', 'Total Number', 'Cancelled']) +
      csvRows(
        g.doc_issue.doc_det.flatMap((d) =>
          d.docs.map((x) => [DOC_LABELS[d.doc_num] ?? d.doc_typ, x.from, x.to, x.totnum, x.cancel]),
        ),
      ),
  };
}
