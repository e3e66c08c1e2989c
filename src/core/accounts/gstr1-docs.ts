import type { Db } from '../db/connection.js';
import { billNumbersMadeIn, type MonthWindow } from './repository.js';

/**
 * Table 13, documents issued in the month: bills (each a tax invoice or a bill of supply) and GST
 * invoices are "Invoices for outward supply" (1), credit notes (5). A series runs from its first
 * number to its last; a bill cancelled before the month ended is a cancelled document. An invoice
 * is never voided: it is reversed by a credit note, which is counted in its own series.
 */
interface Series {
  numbers: string[];
  cancelled: number;
}

function docs(series: Series[]) {
  return series
    .filter((s) => s.numbers.length > 0)
    .map((s, i) => ({
      num: i + 1,
      from: s.numbers[0]!,
      to: s.numbers[s.numbers.length - 1]!,
      totnum: s.numbers.length,
      cancel: s.cancelled,
      net_issue: s.numbers.length - s.cancelled,
    }));
}

export async function docIssue(
  db: Db,
  w: MonthWindow,
  invoiceNumbers: string[],
  creditNoteNumbers: string[],
  billCreditNotes: string[],
) {
  const bills = await billNumbersMadeIn(db, w);
  const detail = [
    {
      doc_num: 1,
      doc_typ: 'Invoices for outward supply',
      docs: docs([
        {
          numbers: bills.map((b) => b.bill_number),
          cancelled: bills.filter((b) => b.cancelled_at !== null && b.cancelled_at < w.toUtc).length,
        },
        { numbers: [...invoiceNumbers].sort(), cancelled: 0 },
      ]),
    },
    {
      doc_num: 5,
      doc_typ: 'Credit Note',
      docs: docs([
        { numbers: [...creditNoteNumbers].sort(), cancelled: 0 },
        { numbers: billCreditNotes, cancelled: 0 },
      ]),
    },
  ];
  return { doc_det: detail.filter((d) => d.docs.length > 0) };
}
