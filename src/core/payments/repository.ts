import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import { aggregatesPerDay } from '../db/dialect.js';
import type { DayClosingsTable, PaymentsTable } from './tables.js';
import type { LedgerListQuery } from '../../shared/schemas/payments.js';
import { labRows } from '../db/joins.js';
import { labRowById } from '../db/lab-row.js';
import { liveBillLinesMadeIn, liveBillsMadeIn, liveBillsPerDoctor } from '../db/live-bills.js';
import { personNameOrNull } from '../db/person-name-sql.js';

/** Every query of the payments ledger and the day-end closing; each filtered by organization_id. */

export type PaymentRow = Selectable<PaymentsTable>;

export function insertPaymentRow(trx: Db, values: Insertable<PaymentsTable>): Promise<Selectable<PaymentsTable>> {
  return trx.insertInto('payments').values(values).returningAll().executeTakeFirstOrThrow();
}

/**
 * A bill's row as the ledger checks a payment against it. `paid_paise` is the ledger's figure:
 * only the ledger moves it (setBillPaid), with the payment row that explains the change.
 */
export function billForLedger(db: Db, organizationId: number, id: number) {
  return labRowById(db, 'bills', organizationId, id);
}

export async function setBillPaid(trx: Db, billId: number, paidPaise: number, now: string): Promise<void> {
  await trx.updateTable('bills').set({ paid_paise: paidPaise, updated_at: now }).where('id', '=', billId).execute();
}

export function ledgerQuery(db: Db, organizationId: number) {
  return db
    .selectFrom('payments as pay')
    .innerJoin('bills as b', 'b.id', 'pay.bill_id')
    .leftJoin('patients as p', 'p.id', 'b.patient_id')
    .leftJoin('users as u', 'u.id', 'pay.received_by')
    .where('pay.organization_id', '=', organizationId);
}
type LedgerQuery = ReturnType<typeof ledgerQuery>;

export function selectLedgerColumns(q: LedgerQuery) {
  return q
    .selectAll('pay')
    .select([
      'b.bill_number as bill_number',
      'p.patient_code as patient_code',
      sql<string>`COALESCE(p.first_name, '') || ' ' || COALESCE(p.last_name, '')`.as('patient_name'),
      personNameOrNull('u').as('processed_by_name'),
    ]);
}
export type LedgerRow = Awaited<ReturnType<ReturnType<typeof selectLedgerColumns>['executeTakeFirstOrThrow']>>;

/**
 * Filters of the ledger list. from / to are the lab's calendar days: a row counts on its
 * value_date, a pending or bounced cheque (no value date) on the lab day it was recorded, given as
 * the UTC instants of that day's bounds.
 */
export function applyLedgerFilters(
  q: LedgerQuery,
  f: LedgerListQuery,
  bounds: { fromUtc?: string; toUtc?: string },
): LedgerQuery {
  let out = q;
  if (f.status) out = out.where('pay.status', '=', f.status);
  if (f.method) out = out.where('pay.method', '=', f.method);
  if (f.kind) out = out.where('pay.kind', '=', f.kind);
  if (f.bill_id) out = out.where('pay.bill_id', '=', f.bill_id);
  if (f.from) {
    const from = f.from;
    out = out.where((eb) =>
      eb.or([
        eb('pay.value_date', '>=', from),
        eb.and([eb('pay.value_date', 'is', null), eb('pay.created_at', '>=', bounds.fromUtc!)]),
      ]),
    );
  }
  if (f.to) {
    const to = f.to;
    out = out.where((eb) =>
      eb.or([
        eb('pay.value_date', '<=', to),
        eb.and([eb('pay.value_date', 'is', null), eb('pay.created_at', '<', bounds.toUtc!)]),
      ]),
    );
  }
  if (f.search) {
    const term = f.search.trim();
    const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const idMatch = /^(?:PAY-?)?0*(\d{1,12})$/i.exec(term);
    out = out.where((eb) =>
      eb.or([
        sql<boolean>`lower(b.bill_number) LIKE lower(${like}) ESCAPE '\\'`,
        sql<boolean>`lower(COALESCE(pay.reference, '')) LIKE lower(${like}) ESCAPE '\\'`,
        sql<boolean>`lower(COALESCE(p.patient_code, '')) LIKE lower(${like}) ESCAPE '\\'`,
        sql<boolean>`lower(COALESCE(p.first_name, '') || ' ' || COALESCE(p.last_name, '')) LIKE lower(${like}) ESCAPE '\\'`,
        ...(idMatch ? [eb('pay.id', '=', Number(idMatch[1]))] : []),
      ]),
    );
  }
  return out;
}

export function findPaymentRow(db: Db, organizationId: number, id: number): Promise<PaymentRow | undefined> {
  return labRowById(db, 'payments', organizationId, id);
}

export async function updatePaymentRow(trx: Db, id: number, patch: Updateable<PaymentsTable>): Promise<void> {
  await trx.updateTable('payments').set(patch).where('id', '=', id).execute();
}

/** The money on a patient's account as advance: the advance parts of payments not bounced, less what was refunded of them. */
export async function patientAdvancePaise(db: Db, organizationId: number, patientId: number): Promise<number> {
  const r = await db
    .selectFrom('payments')
    .select(sql<number | null>`SUM(advance_paise)`.as('n'))
    .where('organization_id', '=', organizationId)
    .where('patient_id', '=', patientId)
    .where('status', '<>', 'failed')
    .executeTakeFirstOrThrow();
  return Number(r.n ?? 0);
}

/**
 * Money per (lab day, status, method, kind) counted on value_date: completed rows and payments
 * refunded later (their refunds are rows of their own); a day's method and kind may come as two rows
 * (one per status), which callers add. Pending and bounced cheques have no value date.
 */
export function ledgerTotalsByDay(db: Db, organizationId: number, from: string, to: string, userId?: number) {
  // The lab's rows through the (lab, value_date, status, method, kind, amount) covering index, grouped
  // in its order: without status in the GROUP BY, SQLite sorted a year's rows in a temporary tree.
  const q = db
    .selectFrom('payments')
    .select([
      'value_date',
      'method',
      'kind',
      sql<number>`SUM(amount_paise)`.as('amount_paise'),
      sql<number>`COUNT(*)`.as('n'),
    ])
    .where('organization_id', '=', organizationId)
    .where('value_date', '>=', from)
    .where('value_date', '<=', to)
    .where('status', 'in', ['completed', 'refunded'])
    .groupBy(['value_date', 'status', 'method', 'kind']);
  return (userId === undefined ? q : q.where('received_by', '=', userId)).execute();
}

/** Cheques a user recorded in a UTC window that are still pending. */
export async function pendingChequesPaise(
  db: Db,
  organizationId: number,
  userId: number,
  fromUtc: string,
  toUtc: string,
): Promise<number> {
  const r = await db
    .selectFrom('payments')
    .select(sql<number | null>`SUM(amount_paise)`.as('n'))
    .where('organization_id', '=', organizationId)
    .where('received_by', '=', userId)
    .where('status', '=', 'pending')
    .where('created_at', '>=', fromUtc)
    .where('created_at', '<', toUtc)
    .executeTakeFirstOrThrow();
  return Number(r.n ?? 0);
}

/**
 * Bills made in each of the given lab days (not cancelled), summed in SQL: bills, distinct patients,
 * bill discounts and final amounts; and the distinct patients of all the days together. Each day is
 * its UTC bounds [start, end), so the answer is exact in every time zone.
 */
export async function billsPerDay(db: Db, organizationId: number, days: { day: string; start: string; end: string }[]) {
  if (days.length === 0) return { days: [], patients: 0 };
  const perDay = await billsOfDays(db, organizationId, days);
  return {
    days: perDay,
    patients: await billedPatients(db, organizationId, days[0]!.start, days[days.length - 1]!.end),
  };
}

/** billsPerDay's figures of each day alone (the days with bills), without the distinct patients of all of them. */
export async function billsOfDays(db: Db, organizationId: number, days: { day: string; start: string; end: string }[]) {
  // Each day's bills summed on its range of the (lab, created_at, ...) index.
  const perDay: { day: string; bills: number; patients: number; discounts: number; billed: number }[] = [];
  if (days.length === 0) return perDay;
  for (const { day, values } of await aggregatesPerDay(
    db,
    days,
    [
      sql`count(*)`,
      sql`count(DISTINCT b.patient_id)`,
      sql`sum(b.discount_amount_paise)`,
      sql`sum(b.final_amount_paise)`,
    ],
    sql`FROM bills b WHERE b.organization_id = ${organizationId} AND b.created_at >= d.s AND b.created_at < d.e
      AND b.cancelled_at IS NULL`,
  )) {
    const [bills, distinctPatients, discounts, billed] = values;
    if (bills) perDay.push({ day, bills, patients: distinctPatients!, discounts: discounts!, billed: billed! });
  }
  return perDay;
}

/** Distinct patients of the live bills made in a UTC window. */
export async function billedPatients(db: Db, organizationId: number, fromUtc: string, toUtc: string) {
  const all = await db
    .selectFrom('bills as b')
    .select(sql<number>`count(DISTINCT b.patient_id)`.as('n'))
    .where(liveBillsMadeIn({ organizationId, fromUtc, toUtc }))
    .executeTakeFirstOrThrow();
  return Number(all.n);
}

/** Billed amount per test category of bills made in a UTC window (profiles and packages under their own names). */
export function billedByCategory(db: Db, organizationId: number, fromUtc: string, toUtc: string) {
  return liveBillLinesMadeIn(db, { organizationId, fromUtc, toUtc })
    .select([
      sql<string>`CASE WHEN i.item_type = 'test' THEN COALESCE(NULLIF(t.category, ''), 'Uncategorised') WHEN i.item_type = 'profile' THEN 'Profiles' ELSE 'Packages' END`.as(
        'category',
      ),
      sql<number>`SUM(i.total_paise)`.as('amount_paise'),
      sql<number>`SUM(i.qty)`.as('items'),
    ])
    .groupBy(sql`1`)
    .execute();
}

/** Live bills made in a UTC window: how many, their final amounts and their bill discounts. */
export async function billedTotals(db: Db, organizationId: number, fromUtc: string, toUtc: string) {
  const r = await db
    .selectFrom('bills as b')
    .select([
      sql<number>`COUNT(*)`.as('bills'),
      sql<number | null>`SUM(b.final_amount_paise)`.as('amount_paise'),
      sql<number | null>`SUM(b.discount_amount_paise)`.as('discount_paise'),
    ])
    .where(liveBillsMadeIn({ organizationId, fromUtc, toUtc }))
    .executeTakeFirstOrThrow();
  return {
    bills: Number(r.bills),
    amount_paise: Number(r.amount_paise ?? 0),
    discount_paise: Number(r.discount_paise ?? 0),
  };
}

export function billedByDoctor(db: Db, organizationId: number, fromUtc: string, toUtc: string) {
  return liveBillsPerDoctor(db, { organizationId, fromUtc, toUtc })
    .select([
      sql<number>`SUM(b.final_amount_paise)`.as('amount_paise'),
      sql<number>`SUM(b.discount_amount_paise)`.as('discount_paise'),
      sql<number>`COUNT(*)`.as('bills'),
    ])
    .execute();
}

// Day-end closing ---------------------------------------------------------------------------

export function findClosing(db: Db, organizationId: number, userId: number, date: string) {
  return labRows(db, 'day_closings', organizationId)
    .where('user_id', '=', userId)
    .where('business_date', '=', date)
    .executeTakeFirst();
}

export function findClosingById(db: Db, organizationId: number, id: number) {
  return labRows(db, 'day_closings', organizationId).where('id', '=', id).executeTakeFirst();
}

export function insertClosingRow(trx: Db, values: Insertable<DayClosingsTable>) {
  return trx.insertInto('day_closings').values(values).returningAll().executeTakeFirstOrThrow();
}

export function listClosingRows(db: Db, organizationId: number, f: { from?: string; to?: string; userId?: number }) {
  let q = db.selectFrom('day_closings').selectAll().where('organization_id', '=', organizationId);
  if (f.from) q = q.where('business_date', '>=', f.from);
  if (f.to) q = q.where('business_date', '<=', f.to);
  if (f.userId !== undefined) q = q.where('user_id', '=', f.userId);
  return q.orderBy('business_date', 'desc').orderBy('id', 'desc').limit(500).execute();
}

export type ClosingRow = Selectable<DayClosingsTable>;

export async function userNames(db: Db, organizationId: number, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name'])
    .where('organization_id', '=', organizationId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, `${r.first_name} ${r.last_name}`.trim()]));
}
