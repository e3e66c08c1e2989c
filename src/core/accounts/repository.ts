import { sql, type SqlBool } from 'kysely';
import type { Db } from '../db/connection.js';
import { labRows } from '../db/joins.js';

/**
 * The accountant's reads of a month: bills, their lines, the ledger's money rows and the issued
 * invoices. Read only; every query filtered by the lab. Bills of a month are those made in it and
 * not cancelled before it ended, so a month's export never changes once the month is over; a bill
 * cancelled in a later month is a credit note of that month.
 */

export interface MonthWindow {
  organizationId: number;
  fromUtc: string;
  toUtc: string;
  /** The lab days of the month, 'YYYY-MM-DD', first and last. */
  firstDay: string;
  lastDay: string;
}

/** Bills (`b`) made in the month and still live at its end: the month's sales (monthBills' rule). */
const salesOfMonth = (w: MonthWindow) =>
  sql<SqlBool>`b.created_at >= ${w.fromUtc} AND b.created_at < ${w.toUtc} AND (b.cancelled_at IS NULL OR b.cancelled_at >= ${w.toUtc})`;

function billsQuery(db: Db, organizationId: number) {
  return db
    .selectFrom('bills as b')
    .leftJoin('payers as p', 'p.id', 'b.payer_id')
    .where('b.organization_id', '=', organizationId)
    .select([
      'b.id',
      'b.bill_number',
      'b.created_at',
      'b.cancelled_at',
      'b.cancel_reason',
      'b.final_amount_paise',
      'b.tax_amount_paise',
      'b.payer_id',
      'p.name as payer_name',
      'p.gstin as payer_gstin',
      'p.state_code as payer_state_code',
      sql<
        number | null
      >`(SELECT SUM(i.taxable_paise) FROM bill_items i WHERE i.bill_id = b.id AND i.tax_category <> 'exempt')`.as(
        'taxed_value_paise',
      ),
    ]);
}

export type AccountBillRow = Awaited<ReturnType<typeof monthBills>>[number];

/** Bills made in the month and still live at its end, oldest first. */
export function monthBills(db: Db, w: MonthWindow) {
  return billsQuery(db, w.organizationId).where(salesOfMonth(w)).orderBy('b.created_at').orderBy('b.id').execute();
}

/** Bills cancelled in the month that were made before it (their month carried them as sales). */
export function billsCancelledIn(db: Db, w: MonthWindow) {
  return billsQuery(db, w.organizationId)
    .where('b.cancelled_at', '>=', w.fromUtc)
    .where('b.cancelled_at', '<', w.toUtc)
    .where('b.created_at', '<', w.fromUtc)
    .orderBy('b.cancelled_at')
    .orderBy('b.id')
    .execute();
}

function billLinesQuery(db: Db, organizationId: number) {
  return db
    .selectFrom('bill_items as i')
    .innerJoin('bills as b', 'b.id', 'i.bill_id')
    .where('b.organization_id', '=', organizationId)
    .select(['i.bill_id', 'i.tax_category', 'i.sac_code', 'i.qty', 'i.taxable_paise', 'i.tax_paise'])
    .orderBy('i.bill_id')
    .orderBy('i.position');
}

/** The lines of the month's bills (monthBills' rule), for the GST summaries. */
export function monthBillLines(db: Db, w: MonthWindow) {
  return billLinesQuery(db, w.organizationId).where(salesOfMonth(w)).execute();
}

/** The lines of some bills of the lab (a month's later-cancelled bills). */
export function linesOfBills(db: Db, organizationId: number, billIds: number[]) {
  if (billIds.length === 0) return Promise.resolve([]);
  return billLinesQuery(db, organizationId).where('i.bill_id', 'in', billIds).execute();
}

/** Every bill number made in the month, cancelled or not, in the order made (the documents issued). */
export function billNumbersMadeIn(db: Db, w: MonthWindow) {
  return db
    .selectFrom('bills')
    .where('organization_id', '=', w.organizationId)
    .where('created_at', '>=', w.fromUtc)
    .where('created_at', '<', w.toUtc)
    .select(['bill_number', 'cancelled_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * The ledger's money rows counted on the month's lab days (a payment on its value date: a cheque
 * when it cleared, never a bounced one), as the revenue report counts them; with the bill's payer.
 */
export function monthMoneyRows(db: Db, w: MonthWindow) {
  return db
    .selectFrom('payments as pay')
    .innerJoin('bills as b', 'b.id', 'pay.bill_id')
    .leftJoin('payers as p', 'p.id', 'b.payer_id')
    .where('pay.organization_id', '=', w.organizationId)
    .where('pay.value_date', '>=', w.firstDay)
    .where('pay.value_date', '<=', w.lastDay)
    .where('pay.status', 'in', ['completed', 'refunded'])
    .where('pay.amount_paise', '<>', 0)
    .select([
      'pay.id',
      'pay.kind',
      'pay.method',
      'pay.amount_paise',
      'pay.value_date',
      'pay.reference',
      'b.bill_number',
      'p.name as payer_name',
    ])
    .orderBy('pay.value_date')
    .orderBy('pay.id')
    .execute();
}

/** The lab's invoices that got a document number of this kind, in the order of the time they got it. */
function invoicesNumbered(
  db: Db,
  organizationId: number,
  number: 'invoice_number' | 'credit_note_number',
  at: 'invoice_date' | 'cancelled_at',
) {
  return labRows(db, 'invoices', organizationId).where(number, 'is not', null).orderBy(at).orderBy('id');
}

/** Invoices issued (dated) in the month, cancelled later or not, with their lines. */
export function invoicesIssuedIn(db: Db, w: MonthWindow) {
  return invoicesNumbered(db, w.organizationId, 'invoice_number', 'invoice_date')
    .where('invoice_date', '>=', w.firstDay)
    .where('invoice_date', '<=', w.lastDay)
    .execute();
}

/** Invoices cancelled in the month by a credit note. */
export function creditNotesIn(db: Db, w: MonthWindow) {
  return invoicesNumbered(db, w.organizationId, 'credit_note_number', 'cancelled_at')
    .where('cancelled_at', '>=', w.fromUtc)
    .where('cancelled_at', '<', w.toUtc)
    .execute();
}

export function linesOfInvoices(db: Db, invoiceIds: number[]) {
  if (invoiceIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('invoice_lines')
    .where('invoice_id', 'in', invoiceIds)
    .selectAll()
    .orderBy('invoice_id')
    .orderBy('position')
    .execute();
}
