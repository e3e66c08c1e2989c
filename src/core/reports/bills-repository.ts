import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { groupsBySorting, tableUsingIndex } from '../db/dialect.js';
import { fullName, type Window } from './repository.js';
import { liveBillLinesMadeIn, liveBillsMadeIn, liveBillsPerDoctor } from '../db/live-bills.js';
import { groupedPersonName } from '../db/person-name-sql.js';
import { onPage } from '../db/paging.js';

/** The built-in reports' queries over bills: what was billed, what is due, discounts, referrals. */

/** Test lines of live bills made in the window, per test: quantity and what was billed after line discounts. */
export function billedByTest(db: Db, w: Window) {
  return liveBillLinesMadeIn(db, w)
    .select([
      'i.item_type',
      'i.test_id',
      sql<string>`MAX(i.name)`.as('name'),
      sql<string | null>`MAX(t.category)`.as('category'),
      sql<number>`SUM(i.qty)`.as('count'),
      sql<number>`SUM(i.total_paise)`.as('total_paise'),
    ])
    .groupBy(['i.item_type', 'i.test_id', sql`CASE WHEN i.test_id IS NULL THEN i.name ELSE '' END`])
    .execute();
}

/** Live bills made in the window with money still due today, all of them or one page (page from 1), oldest first. */
export function billsWithDues(db: Db, w: Window, page: { page: number; limit: number } | null = null) {
  const q = db
    .selectFrom('bills as b')
    .innerJoin('patients as p', 'p.id', 'b.patient_id')
    .select([
      'b.id',
      'b.bill_number',
      'b.created_at',
      'b.final_amount_paise',
      'b.paid_paise',
      'p.patient_code',
      fullName('p').as('patient_name'),
    ])
    .where(liveBillsMadeIn(w))
    .whereRef('b.final_amount_paise', '>', 'b.paid_paise')
    .orderBy('b.created_at')
    .orderBy('b.id');
  return (page ? q.$call(onPage(page)) : q).execute();
}

/**
 * The figures of billsWithDues' rows, summed in SQL (paise): how many, billed, paid, due, and the
 * due of the bills made at or after each instant of `since` (the caller's age cut-offs).
 */
export async function duesFigures(db: Db, w: Window, since: string[]) {
  const due = sql<number>`b.final_amount_paise - b.paid_paise`;
  const r = await db
    .selectFrom('bills as b')
    .select([
      sql<number>`COUNT(*)`.as('bills'),
      sql<number>`SUM(b.final_amount_paise)`.as('amount'),
      sql<number>`SUM(b.paid_paise)`.as('paid'),
      sql<number>`SUM(${due})`.as('due'),
      ...since.map((at, i) => sql<number>`SUM(CASE WHEN b.created_at >= ${at} THEN ${due} ELSE 0 END)`.as(`due_${i}`)),
    ])
    .where(liveBillsMadeIn(w))
    .whereRef('b.final_amount_paise', '>', 'b.paid_paise')
    .executeTakeFirstOrThrow();
  const n = (v: unknown) => Number(v ?? 0);
  const row = r as Record<string, unknown>;
  return {
    bills: n(r.bills),
    amount: n(r.amount),
    paid: n(r.paid),
    due: n(r.due),
    dueSince: since.map((_, i) => n(row[`due_${i}`])),
  };
}

/** Discounts of live bills made in the window, per user who made the bill: line discounts and bill discounts. */
export async function discountsByUser(db: Db, w: Window) {
  // Each bill's line discounts summed once by its own lines (bill_items_bill), for the window's
  // bills only; then per user.
  const perBill = db
    .selectFrom('bills as b')
    .select([
      'b.created_by',
      'b.discount_amount_paise',
      'b.total_before_discount_paise',
      sql<number>`COALESCE((SELECT SUM(i.discount_amount_paise) FROM bill_items i WHERE i.bill_id = b.id), 0)`.as(
        'line_paise',
      ),
    ])
    .where(liveBillsMadeIn(w));
  return db
    .selectFrom(perBill.as('x'))
    .leftJoin('users as u', 'u.id', 'x.created_by')
    .select([
      'x.created_by',
      groupedPersonName('u').as('name'),
      sql<number>`COUNT(*)`.as('bills'),
      sql<number>`SUM(CASE WHEN x.line_paise > 0 OR x.discount_amount_paise > 0 THEN 1 ELSE 0 END)`.as(
        'discounted_bills',
      ),
      sql<number>`SUM(x.line_paise)`.as('line_paise'),
      sql<number>`SUM(x.discount_amount_paise)`.as('bill_paise'),
      sql<number>`SUM(x.total_before_discount_paise + x.line_paise)`.as('gross_paise'),
    ])
    .groupBy('x.created_by')
    .execute();
}

/** Live bills made in the window, per referring doctor (null: no doctor). */
export async function referralsByDoctor(db: Db, w: Window) {
  if (groupsBySorting(db)) {
    // The lab's referring doctors (each a skip along the (lab, doctor, created_at, ...) index), then
    // each doctor's bills of the period as one range of it: grouping the period's bills by doctor
    // sorted them all in a temporary tree first. In the GROUP BY's order (no doctor first, then by id).
    const doctors = await referringDoctors(db, w.organizationId);
    const rows: Awaited<ReturnType<typeof referralsByDoctorRows>> = [];
    for (const d of doctors) {
      const doctorIs = d.doctor_id === null ? sql`b.doctor_id IS NULL` : sql`b.doctor_id = ${d.doctor_id}`;
      const f = (
        await sql<{ bills: number; patients: number; billed: number; paid: number }>`SELECT COUNT(*) AS bills,
            COUNT(DISTINCT b.patient_id) AS patients, SUM(b.final_amount_paise) AS billed, SUM(b.paid_paise) AS paid
          FROM ${tableUsingIndex(db, 'bills', 'bills_org_doctor_created', 'b')}
          WHERE b.organization_id = ${w.organizationId} AND ${doctorIs}
            AND b.created_at >= ${w.fromUtc} AND b.created_at < ${w.toUtc} AND b.cancelled_at IS NULL`.execute(db)
      ).rows[0]!;
      if (f.bills)
        rows.push({
          doctor_id: d.doctor_id,
          name: d.name,
          bills: f.bills,
          patients: f.patients,
          billed_paise: f.billed,
          paid_paise: f.paid,
        });
    }
    return rows;
  }
  return referralsByDoctorRows(db, w);
}

/** The doctors (null: none) any bill of the lab names, with their names, no doctor first then by id. */
async function referringDoctors(db: Db, organizationId: number) {
  const ids = (
    await sql<{ doctor_id: number | null }>`SELECT DISTINCT b.doctor_id
      FROM ${tableUsingIndex(db, 'bills', 'bills_org_doctor_created', 'b')} WHERE b.organization_id = ${organizationId}`.execute(
      db,
    )
  ).rows.map((r) => (r.doctor_id === null ? null : Number(r.doctor_id)));
  const known = ids.filter((id): id is number => id !== null);
  const names = new Map(
    known.length
      ? (
          await db
            .selectFrom('users')
            .select(['id', sql<string>`first_name || ' ' || last_name`.as('name')])
            .where('id', 'in', known)
            .execute()
        ).map((u) => [Number(u.id), u.name])
      : [],
  );
  return ids
    .sort((a, b) => (a ?? -Infinity) - (b ?? -Infinity))
    .map((id) => ({ doctor_id: id, name: id === null ? null : (names.get(id) ?? null) }));
}

function referralsByDoctorRows(db: Db, w: Window) {
  return liveBillsPerDoctor(db, w)
    .select([
      sql<number>`COUNT(*)`.as('bills'),
      sql<number>`COUNT(DISTINCT b.patient_id)`.as('patients'),
      sql<number>`SUM(b.final_amount_paise)`.as('billed_paise'),
      sql<number>`SUM(b.paid_paise)`.as('paid_paise'),
    ])
    .execute();
}
