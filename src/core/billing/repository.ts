import { sql, type Expression, type Insertable, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { BillItemsTable, BillsTable } from './tables.js';
import type { Db } from '../db/connection.js';
import type { BillListQuery } from '../../shared/schemas/bills.js';
import type { BillRow } from './mappers.js';
import { addDays, startOfLocalDayUtc } from '../../shared/time.js';
import { rowsByKeys } from '../db/dialect.js';
import { deleteLabRow, labRowById } from '../db/lab-row.js';
import { billsWithPatient } from '../db/bill-joins.js';
import { personNameOrNull } from '../db/person-name-sql.js';

export function billsQuery(db: Db, organizationId: number) {
  return billsWithPatient(db, organizationId)
    .leftJoin('users as d', 'd.id', 'b.doctor_id')
    .leftJoin('payers as py', 'py.id', 'b.payer_id')
    .leftJoin('invoices as iv', 'iv.id', 'b.invoice_id');
}

type BillsQuery = ReturnType<typeof billsQuery>;

export function selectBillColumns(q: BillsQuery) {
  return q
    .selectAll('b')
    .select([
      'p.first_name as patient_first_name',
      'p.last_name as patient_last_name',
      'p.patient_code as patient_code',
      'd.first_name as doctor_first_name',
      'd.last_name as doctor_last_name',
      'py.name as payer_name',
      'iv.invoice_number as invoice_number',
      'iv.status as invoice_status',
    ]);
}

export async function findBill(db: Db, organizationId: number, id: number): Promise<BillRow | undefined> {
  return selectBillColumns(billsQuery(db, organizationId).where('b.id', '=', id)).executeTakeFirst();
}

export async function findBillByNumber(
  db: Db,
  organizationId: number,
  billNumber: string,
): Promise<BillRow | undefined> {
  return selectBillColumns(
    billsQuery(db, organizationId).where('b.bill_number', '=', billNumber.toUpperCase()),
  ).executeTakeFirst();
}

/** The status rule of src/shared/billing.ts billStatusOf, as SQL, so filters and counts agree with what is shown. */
export function statusSql(today: string) {
  return sql<string>`CASE
    WHEN b.cancelled_at IS NOT NULL THEN 'cancelled'
    WHEN b.paid_paise >= b.final_amount_paise THEN 'paid'
    WHEN b.due_date < ${today} THEN 'overdue'
    WHEN b.paid_paise > 0 THEN 'partial'
    ELSE 'pending' END`;
}

export function paymentStatusSql() {
  return sql<string>`CASE
    WHEN b.paid_paise >= b.final_amount_paise THEN 'paid'
    WHEN b.paid_paise > 0 THEN 'partial'
    ELSE 'unpaid' END`;
}

const RANGE_DAYS: Record<string, number> = { week: 7, month: 30, quarter: 90 };

/** Bills List filters (spec 5): search on bill number, patient full name or code; status; payment status; date range. */
export function applyBillFilters(q: BillsQuery, f: BillListQuery, timeZone: string, today: string): BillsQuery {
  let out = q;
  if (f.patient_id) out = out.where('b.patient_id', '=', f.patient_id);
  if (f.search) {
    const s = `%${f.search.toLowerCase()}%`;
    out = out.where((eb) =>
      eb.or([
        eb(sql`lower(b.bill_number)`, 'like', s),
        eb(sql`lower(p.first_name || ' ' || p.last_name)`, 'like', s),
        eb(sql`lower(p.patient_code)`, 'like', s),
      ]),
    );
  }
  if (f.status) out = out.where(sql<SqlBool>`${statusSql(today)} = ${f.status}` as Expression<SqlBool>);
  if (f.payment_status)
    out = out.where(sql<SqlBool>`${paymentStatusSql()} = ${f.payment_status}` as Expression<SqlBool>);
  if (f.payment_method) {
    const method = f.payment_method;
    out = out.where((eb) =>
      eb.exists(
        eb
          .selectFrom('payments as m')
          .select('m.id')
          .whereRef('m.bill_id', '=', 'b.id')
          .where('m.kind', '=', 'payment')
          .where('m.status', '!=', 'failed')
          .where('m.method', '=', method),
      ),
    );
  }
  if (f.date_range && f.date_range !== 'all') {
    const from =
      f.date_range === 'today'
        ? startOfLocalDayUtc(timeZone, today)
        : new Date(Date.now() - (RANGE_DAYS[f.date_range] ?? 0) * 86_400_000);
    out = out.where('b.created_at', '>=', from.toISOString());
  }
  return out;
}

export interface SummaryRow {
  total_bills: number;
  total_paise: number;
  paid_paise: number;
  paid_count: number;
  partial_count: number;
  pending_count: number;
  overdue_count: number;
  overdue_paise: number;
  cancelled_count: number;
  unpaid_count: number;
  today_paise: number;
}

/** The Bills List cards and spec section 9 figures, in one pass over the lab's bills. */
export async function summaryRow(db: Db, organizationId: number, timeZone: string, today: string): Promise<SummaryRow> {
  const status = statusSql(today);
  const pay = paymentStatusSql();
  const todayStart = startOfLocalDayUtc(timeZone, today).toISOString();
  const tomorrowStart = startOfLocalDayUtc(timeZone, addDays(today, 1)).toISOString();
  const live = sql`b.cancelled_at IS NULL`;
  const r = await db
    .selectFrom('bills as b')
    .where('b.organization_id', '=', organizationId)
    .select([
      sql<number>`count(*)`.as('total_bills'),
      sql<number>`coalesce(sum(CASE WHEN ${live} THEN b.final_amount_paise ELSE 0 END), 0)`.as('total_paise'),
      sql<number>`coalesce(sum(CASE WHEN ${live} THEN b.paid_paise ELSE 0 END), 0)`.as('paid_paise'),
      // Payment-status counts of live bills: a partly paid overdue bill is both overdue and partial.
      sql<number>`coalesce(sum(CASE WHEN ${live} AND ${pay} = 'paid' THEN 1 ELSE 0 END), 0)`.as('paid_count'),
      sql<number>`coalesce(sum(CASE WHEN ${live} AND ${pay} = 'partial' THEN 1 ELSE 0 END), 0)`.as('partial_count'),
      sql<number>`coalesce(sum(CASE WHEN ${status} = 'pending' THEN 1 ELSE 0 END), 0)`.as('pending_count'),
      sql<number>`coalesce(sum(CASE WHEN ${status} = 'overdue' THEN 1 ELSE 0 END), 0)`.as('overdue_count'),
      sql<number>`coalesce(sum(CASE WHEN ${status} = 'overdue' THEN b.final_amount_paise - b.paid_paise ELSE 0 END), 0)`.as(
        'overdue_paise',
      ),
      sql<number>`coalesce(sum(CASE WHEN ${status} = 'cancelled' THEN 1 ELSE 0 END), 0)`.as('cancelled_count'),
      sql<number>`coalesce(sum(CASE WHEN ${live} AND ${pay} = 'unpaid' THEN 1 ELSE 0 END), 0)`.as('unpaid_count'),
      sql<number>`coalesce(sum(CASE WHEN ${live} AND b.created_at >= ${todayStart} AND b.created_at < ${tomorrowStart} THEN b.final_amount_paise ELSE 0 END), 0)`.as(
        'today_paise',
      ),
    ])
    .executeTakeFirstOrThrow();
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)])) as unknown as SummaryRow;
}

/** How many bills a patient has (a patient with bills is kept for the record). */
export async function countBillsOfPatient(db: Db, patientId: number): Promise<number> {
  const r = await db
    .selectFrom('bills')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('patient_id', '=', patientId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export function insertBillRow(trx: Db, values: Insertable<BillsTable>): Promise<Selectable<BillsTable>> {
  return trx.insertInto('bills').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function insertBillItemRows(trx: Db, rows: Insertable<BillItemsTable>[]): Promise<void> {
  if (rows.length) await trx.insertInto('bill_items').values(rows).execute();
}

/** A bill's lines go when its tests change (the new lines are inserted in the same transaction). */
export async function deleteBillItemRows(trx: Db, billId: number): Promise<void> {
  await trx.deleteFrom('bill_items').where('bill_id', '=', billId).execute();
}

export async function updateBillRow(trx: Db, id: number, patch: Updateable<BillsTable>): Promise<void> {
  await trx.updateTable('bills').set(patch).where('id', '=', id).execute();
}

export async function deleteBillRow(trx: Db, organizationId: number, id: number): Promise<void> {
  await deleteLabRow(trx, 'bills', organizationId, id);
}

/** The bill's own row (no joins), for the checks of a payment. */
export function findBillRow(db: Db, organizationId: number, id: number): Promise<Selectable<BillsTable> | undefined> {
  return labRowById(db, 'bills', organizationId, id);
}

export function itemsOfBill(db: Db, billId: number) {
  return db.selectFrom('bill_items').selectAll().where('bill_id', '=', billId).orderBy('position').execute();
}

/** Payments and refunds of a bill, oldest first, with the name of who received each. */
export function paymentsOfBill(db: Db, billId: number) {
  return db
    .selectFrom('payments as pay')
    .leftJoin('users as u', 'u.id', 'pay.received_by')
    .selectAll('pay')
    .select(personNameOrNull('u').as('received_by_name'))
    .where('pay.bill_id', '=', billId)
    .orderBy('pay.id')
    .execute();
}

export async function countPaymentsOfBill(db: Db, billId: number): Promise<number> {
  const r = await db
    .selectFrom('payments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('bill_id', '=', billId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * Bills that are overdue today (the status rule: not cancelled, not paid, due date passed) and fell
 * due on or after `since`, oldest due first: what the overdue sweep announces (./overdue.ts).
 */
export function overdueBillsSince(db: Db, organizationId: number, today: string, since: string) {
  return billsWithPatient(db, organizationId)
    .select([
      'b.id',
      'b.bill_number',
      'b.due_date',
      'p.first_name',
      'p.last_name',
      sql<number>`b.final_amount_paise - b.paid_paise`.as('balance_paise'),
    ])
    .where('b.cancelled_at', 'is', null)
    .where(sql<SqlBool>`b.paid_paise < b.final_amount_paise`)
    .where('b.due_date', '<', today)
    .where('b.due_date', '>=', since)
    .orderBy('b.due_date')
    .orderBy('b.id')
    .execute();
}

/** The lab's bills with these numbers (upper case), by number: an import's look-up by natural key. */
export async function billNumbersTaken(
  db: Db,
  organizationId: number,
  numbers: readonly string[],
): Promise<Set<string>> {
  const rows = await rowsByKeys(numbers, (some) =>
    db
      .selectFrom('bills')
      .select('bill_number')
      .where('organization_id', '=', organizationId)
      .where('bill_number', 'in', some)
      .execute(),
  );
  return new Set(rows.map((r) => r.bill_number));
}

/** A page of bills for export, oldest first after a bill id, with the doctor's email (the doctor's natural key). */
export function billExportPage(
  db: Db,
  organizationId: number,
  f: { afterId: number; limit: number; fromIso?: string; beforeIso?: string },
) {
  let q = selectBillColumns(billsQuery(db, organizationId))
    .select('d.email as doctor_email')
    .where('b.id', '>', f.afterId);
  if (f.fromIso) q = q.where('b.created_at', '>=', f.fromIso);
  if (f.beforeIso) q = q.where('b.created_at', '<', f.beforeIso);
  return q.orderBy('b.id').limit(f.limit).execute();
}

/** The lines of many bills, in bill and line order. */
export function itemsOfBills(db: Db, billIds: readonly number[]) {
  if (!billIds.length) return Promise.resolve([]);
  return db
    .selectFrom('bill_items')
    .selectAll()
    .where('bill_id', 'in', [...billIds])
    .orderBy('bill_id')
    .orderBy('position')
    .execute();
}

/** The payments of many bills, oldest first. */
/** The methods money was received by on each bill (payments, not bounced), in order of first use. */
export async function paidMethodsOfBills(db: Db, billIds: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!billIds.length) return out;
  const rows = await db
    .selectFrom('payments')
    .select(['bill_id', 'method'])
    .where('bill_id', 'in', [...billIds])
    .where('kind', '=', 'payment')
    .where('status', '!=', 'failed')
    .orderBy('id')
    .execute();
  for (const r of rows) {
    const list = out.get(r.bill_id) ?? [];
    if (!list.includes(r.method)) list.push(r.method);
    out.set(r.bill_id, list);
  }
  return out;
}

export function paymentsOfBills(db: Db, billIds: readonly number[]) {
  if (!billIds.length) return Promise.resolve([]);
  return db
    .selectFrom('payments')
    .selectAll()
    .where('bill_id', 'in', [...billIds])
    .orderBy('id')
    .execute();
}
