import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { DayPlan } from './days.js';

/**
 * Readers of the money rollups (migration 51) over a plan's runs of lab days, each in the shape of
 * the matching reader of the rows (key 0 read back as null), so the caller adds the two.
 */

type Runs = DayPlan['runs'];

async function perRun<R>(runs: Runs, query: (run: Runs[number]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (const run of runs) out.push(...(await query(run)));
  return out;
}

const nullIfZero = (column: string) =>
  sql<number | null>`CASE WHEN ${sql.ref(column)} = 0 THEN NULL ELSE ${sql.ref(column)} END`;
const personName = (alias: string) =>
  sql<
    string | null
  >`MAX(CASE WHEN ${sql.ref(`${alias}.id`)} IS NULL THEN NULL ELSE ${sql.ref(`${alias}.first_name`)} || ' ' || ${sql.ref(`${alias}.last_name`)} END)`;

/** Discounts of live bills per user who made the bill (discountsByUser's rows). */
export function discountsRollup(db: Db, org: number, runs: Runs) {
  return perRun(runs, (run) =>
    db
      .selectFrom('rollup_discounts as s')
      .leftJoin('users as u', 'u.id', 's.created_by')
      .select([
        nullIfZero('s.created_by').as('created_by'),
        personName('u').as('name'),
        sql<number>`SUM(s.bills)`.as('bills'),
        sql<number>`SUM(s.discounted_bills)`.as('discounted_bills'),
        sql<number>`SUM(s.line_paise)`.as('line_paise'),
        sql<number>`SUM(s.bill_paise)`.as('bill_paise'),
        sql<number>`SUM(s.gross_paise)`.as('gross_paise'),
      ])
      .where('s.organization_id', '=', org)
      .where('s.day', '>=', run.from)
      .where('s.day', '<', run.to)
      .groupBy('s.created_by')
      .execute(),
  );
}

/** Each lab day's live bills: how many, distinct patients, bill discounts and final amounts (paise). */
export function revenueDaysRollup(db: Db, org: number, runs: Runs) {
  return perRun(runs, (run) =>
    db
      .selectFrom('rollup_revenue')
      .select(['day', 'bills', 'patients', 'discount_paise', 'billed_paise'])
      .where('organization_id', '=', org)
      .where('day', '>=', run.from)
      .where('day', '<', run.to)
      .execute(),
  );
}

/** Live bills per referring doctor (billedByDoctor's rows): summed per doctor first, then named. */
export function doctorRollup(db: Db, org: number, runs: Runs) {
  return perRun(runs, (run) =>
    db
      .selectFrom((eb) =>
        eb
          .selectFrom('rollup_doctor')
          .select([
            'doctor_id',
            sql<number>`SUM(billed_paise)`.as('amount_paise'),
            sql<number>`SUM(discount_paise)`.as('discount_paise'),
            sql<number>`SUM(bills)`.as('bills'),
          ])
          .where('organization_id', '=', org)
          .where('day', '>=', run.from)
          .where('day', '<', run.to)
          .groupBy('doctor_id')
          .as('s'),
      )
      .leftJoin('users as d', 'd.id', 's.doctor_id')
      .select([
        nullIfZero('s.doctor_id').as('doctor_id'),
        sql<string | null>`CASE WHEN d.id IS NULL THEN NULL ELSE d.first_name || ' ' || d.last_name END`.as('name'),
        's.amount_paise',
        's.discount_paise',
        's.bills',
      ])
      .execute(),
  );
}
