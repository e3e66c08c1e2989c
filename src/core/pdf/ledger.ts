import type { PayerStatement } from '../../shared/schemas/payers.js';
import { formatLabDateTime } from './format.js';
import { fitColumns, type Col } from './columns.js';
import { tableRows } from './blocks.js';

/** What a statement's ledger prints: a payer's and a centre's statement hold the same entries and totals. */
export type StatementLedger = Pick<
  PayerStatement,
  'entries' | 'opening_balance' | 'billed' | 'paid' | 'closing_balance'
>;

/** The statements' table style: 8 pt, a little tighter than the bill's. */
export const STATEMENT_TABLE = { size: 8, padX: 3, padY: 3.5 };

/**
 * A statement's ledger table: the opening balance, one row a bill or payment with the running
 * balance, and the closing balance with the period's totals. `amounts` names the two amount
 * columns as the reader of that statement calls them; `fitBill` widens the bill column to its
 * longest number (the centre's statement does; the payer's keeps the designed width).
 */
export function ledgerTable(
  doc: PDFKit.PDFDocument,
  at: { left: number; width: number },
  st: StatementLedger,
  o: {
    org: { date_format: string; timezone: string };
    money: (rupees: number) => string;
    amounts: [debit: string, credit: string];
    fitBill: boolean;
  },
) {
  const { money } = o;
  const entries = st.entries.map((e) => [
    formatLabDateTime(e.date, o.org.date_format, o.org.timezone),
    e.reference,
    e.description,
    e.debit ? money(e.debit) : '',
    e.credit ? money(e.credit) : '',
    money(e.balance),
  ]);
  const opening = ['', '', 'Opening balance', '', '', money(st.opening_balance)];
  const closing = ['', '', 'Closing balance', money(st.billed), money(st.paid), money(st.closing_balance)];
  const cols: Col[] = fitColumns(
    doc,
    [
      { h: 'Date', w: 78, align: 'left' },
      { h: 'Bill', w: 96, align: 'left', fit: o.fitBill },
      { h: 'Description', w: 0, align: 'left', flex: true },
      { h: o.amounts[0], w: 71, align: 'right', fit: true },
      { h: o.amounts[1], w: 71, align: 'right', fit: true },
      { h: 'Balance', w: 71, align: 'right', fit: true },
    ],
    [opening, ...entries, closing],
    STATEMENT_TABLE.size,
    STATEMENT_TABLE.padX,
    at.width,
  );
  const row = tableRows(doc, at, cols, STATEMENT_TABLE);
  row(
    cols.map((c) => c.h),
    { bold: true, fill: '#eeeeee' },
  );
  row(opening, { bold: true });
  for (const e of entries) row(e);
  row(closing, { bold: true });
}
