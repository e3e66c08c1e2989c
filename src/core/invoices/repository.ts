import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { InvoiceLinesTable, InvoicesTable } from './tables.js';
import type { InvoiceListQuery } from '../../shared/schemas/invoices.js';
import { labRows } from '../db/joins.js';
import { deleteLabRow, labRowById, updateLabRow } from '../db/lab-row.js';
import { payerBillsMadeIn } from '../db/bill-joins.js';
import { onPage } from '../db/paging.js';

/** Every query of invoices and the bills they take, always filtered by the lab. */

export type InvoiceRow = Selectable<InvoicesTable> & { bill_count: number };

function invoicesQuery(db: Db, organizationId: number) {
  return db
    .selectFrom('invoices as i')
    .where('i.organization_id', '=', organizationId)
    .selectAll('i')
    .select(
      sql<number>`(SELECT count(DISTINCT l.bill_id) FROM invoice_lines l WHERE l.invoice_id = i.id)`.as('bill_count'),
    );
}

export async function findInvoiceRow(db: Db, organizationId: number, id: number): Promise<InvoiceRow | undefined> {
  const r = await invoicesQuery(db, organizationId).where('i.id', '=', id).executeTakeFirst();
  return r ? { ...r, bill_count: Number(r.bill_count) } : undefined;
}

export async function listInvoiceRows(db: Db, organizationId: number, q: InvoiceListQuery, today: string) {
  let base = invoicesQuery(db, organizationId);
  if (q.search) {
    const s = `%${q.search.toLowerCase()}%`;
    base = base.where((eb) =>
      eb.or([
        eb(sql`lower(coalesce(i.invoice_number, ''))`, 'like', s),
        eb(sql`lower(i.recipient_name)`, 'like', s),
        eb(sql`lower(coalesce(i.recipient_gstin, ''))`, 'like', s),
        eb(sql`lower(coalesce(i.credit_note_number, ''))`, 'like', s),
      ]),
    );
  }
  if (q.status === 'overdue') base = base.where('i.status', '=', 'pending').where('i.due_date', '<', today);
  else if (q.status === 'pending') base = base.where('i.status', '=', 'pending').where('i.due_date', '>=', today);
  else if (q.status) base = base.where('i.status', '=', q.status);
  if (q.payer_id) base = base.where('i.payer_id', '=', q.payer_id);
  if (q.from) base = base.where(sql`coalesce(i.invoice_date, substr(i.created_at, 1, 10))`, '>=', q.from);
  if (q.to) base = base.where(sql`coalesce(i.invoice_date, substr(i.created_at, 1, 10))`, '<=', q.to);
  const { n } = await base
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await base.orderBy('i.created_at', 'desc').orderBy('i.id', 'desc').$call(onPage(q)).execute();
  return { total: Number(n), rows: rows.map((r) => ({ ...r, bill_count: Number(r.bill_count) })) };
}

export function invoiceLineRows(db: Db, invoiceId: number) {
  return db
    .selectFrom('invoice_lines as l')
    .innerJoin('bills as b', 'b.id', 'l.bill_id')
    .selectAll('l')
    .select('b.bill_number')
    .where('l.invoice_id', '=', invoiceId)
    .orderBy('l.position')
    .execute();
}

export function insertInvoiceRow(trx: Db, values: Insertable<InvoicesTable>) {
  return trx.insertInto('invoices').values(values).returning('id').executeTakeFirstOrThrow();
}

export function updateInvoiceRow(trx: Db, organizationId: number, id: number, values: Updateable<InvoicesTable>) {
  return updateLabRow(trx, 'invoices', organizationId, id, values);
}

export async function replaceInvoiceLines(
  trx: Db,
  invoiceId: number,
  lines: Omit<Insertable<InvoiceLinesTable>, 'invoice_id'>[],
) {
  await trx.deleteFrom('invoice_lines').where('invoice_id', '=', invoiceId).execute();
  if (lines.length)
    await trx
      .insertInto('invoice_lines')
      .values(lines.map((l) => ({ ...l, invoice_id: invoiceId })))
      .execute();
}

export async function deleteInvoiceRow(trx: Db, organizationId: number, id: number) {
  await trx.deleteFrom('invoice_lines').where('invoice_id', '=', id).execute();
  await deleteLabRow(trx, 'invoices', organizationId, id);
}

/** The payer's bills of a period (lab-local bounds as UTC instants) not on any invoice yet, and not cancelled. */
export function uninvoicedPayerBills(db: Db, organizationId: number, payerId: number, fromIso: string, toIso: string) {
  return payerBillsMadeIn(db, organizationId, payerId, fromIso, toIso)
    .selectAll('b')
    .where('b.invoice_id', 'is', null)
    .orderBy('b.created_at')
    .orderBy('b.id')
    .execute();
}

export function billsOfInvoice(db: Db, organizationId: number, invoiceId: number) {
  return labRows(db, 'bills', organizationId)
    .where('invoice_id', '=', invoiceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function billForInvoice(db: Db, organizationId: number, billId: number) {
  return labRows(db, 'bills', organizationId).where('id', '=', billId).executeTakeFirst();
}

/** A change to the lab's bills: where both writes of a bill's invoice start. */
const updateLabBills = (trx: Db, organizationId: number) =>
  trx.updateTable('bills').where('organization_id', '=', organizationId);

export async function setBillsInvoice(trx: Db, organizationId: number, billIds: number[], invoiceId: number | null) {
  if (!billIds.length) return;
  await updateLabBills(trx, organizationId).set({ invoice_id: invoiceId }).where('id', 'in', billIds).execute();
}

export async function clearInvoiceFromBills(trx: Db, organizationId: number, invoiceId: number) {
  await updateLabBills(trx, organizationId).set({ invoice_id: null }).where('invoice_id', '=', invoiceId).execute();
}

/** The latest invoice date of the lab's issued invoices: a new one may not be dated before it. */
export async function latestInvoiceDate(db: Db, organizationId: number): Promise<string | null> {
  const r = await db
    .selectFrom('invoices')
    .select(sql<string | null>`max(invoice_date)`.as('d'))
    .where('organization_id', '=', organizationId)
    .where('invoice_number', 'is not', null)
    .executeTakeFirst();
  return r?.d ?? null;
}

/** The number and status of the invoice a bill is on (the bill screens and the bill's lock read it). */
export function invoiceStateRow(db: Db, organizationId: number, id: number) {
  return labRowById(db, 'invoices', organizationId, id);
}
