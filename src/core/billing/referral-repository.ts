import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { liveBillsMadeIn } from '../db/live-bills.js';

/**
 * Bills seen from the doctors who referred them (Doctor Management): every query of the
 * billing tables that Doctor Management needs. A referral is a bill naming a user with the role
 * doctor; cancelled bills are left out of every figure (they stay in the delete check).
 */

/** Times in [fromUtc, toUtc) as ISO-8601 UTC text, compared with bills.created_at. */
export interface UtcRange {
  fromUtc: string;
  toUtc: string;
}

export type ReferralGrouping = 'doctor' | 'specialization' | 'all';

export interface ReferralFigureRow {
  /** The doctor's id, the specialization (null: none recorded), or null for 'all'. */
  key: number | string | null;
  referrals: number;
  patients: number;
  tests: number;
  revenue_paise: number;
}

function liveReferrals(db: Db, organizationId: number, range: UtcRange) {
  return db
    .selectFrom('bills as b')
    .innerJoin('users as d', 'd.id', 'b.doctor_id')
    .where(liveBillsMadeIn({ organizationId, fromUtc: range.fromUtc, toUtc: range.toUtc }))
    .where('d.organization_id', '=', organizationId)
    .where('d.role', '=', 'doctor');
}

const KEYS = {
  doctor: sql<number | string | null>`b.doctor_id`,
  specialization: sql<number | string | null>`d.specialization`,
  all: sql<number | string | null>`NULL`,
};

/**
 * Referrals, distinct patients, billed revenue (final amounts) and tests (the bill lines'
 * quantities) of the bills in the range, per doctor, per specialization or in all. Two grouped
 * queries (bills, then their lines) so a bill's amount is never counted once per line.
 */
export async function referralFigures(
  db: Db,
  organizationId: number,
  range: UtcRange,
  by: ReferralGrouping,
): Promise<ReferralFigureRow[]> {
  const key = KEYS[by];
  const billsQ = liveReferrals(db, organizationId, range).select([
    key.as('key'),
    sql<number>`count(*)`.as('referrals'),
    sql<number>`count(DISTINCT b.patient_id)`.as('patients'),
    sql<number>`coalesce(sum(b.final_amount_paise), 0)`.as('revenue_paise'),
  ]);
  const linesQ = liveReferrals(db, organizationId, range)
    .innerJoin('bill_items as i', 'i.bill_id', 'b.id')
    .select([key.as('key'), sql<number>`coalesce(sum(i.qty), 0)`.as('tests')]);
  const bills = await (by === 'all' ? billsQ : billsQ.groupBy(key)).execute();
  const lines = await (by === 'all' ? linesQ : linesQ.groupBy(key)).execute();
  // Ids may come back as text (BIGINT on PostgreSQL): keys of the doctor grouping are numbers.
  const norm = (k: number | string | null) => (by === 'doctor' && k !== null ? Number(k) : k);
  const tests = new Map(lines.map((l) => [norm(l.key), Number(l.tests)]));
  return bills.map((r) => ({
    key: norm(r.key),
    referrals: Number(r.referrals),
    patients: Number(r.patients),
    tests: tests.get(norm(r.key)) ?? 0,
    revenue_paise: Number(r.revenue_paise),
  }));
}

/** Live referrals and the latest one, per doctor of the list (all time). */
export async function referralCountsOf(
  db: Db,
  organizationId: number,
  doctorIds: readonly number[],
): Promise<Map<number, { referrals: number; last_at: string | null }>> {
  if (doctorIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('bills')
    .where('organization_id', '=', organizationId)
    .where('doctor_id', 'in', [...doctorIds])
    .where('cancelled_at', 'is', null)
    .select(['doctor_id', sql<number>`count(*)`.as('n'), sql<string | null>`max(created_at)`.as('last_at')])
    .groupBy('doctor_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.doctor_id), { referrals: Number(r.n), last_at: r.last_at }]));
}

/** Every bill naming the user, cancelled ones included: a doctor on any bill is kept for the record. */
export async function countBillsOfDoctor(db: Db, organizationId: number, doctorId: number): Promise<number> {
  const r = await db
    .selectFrom('bills')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('doctor_id', '=', doctorId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
