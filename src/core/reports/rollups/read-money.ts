import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import { ofRun, perRun, type Runs } from './read.js';
import { groupedPersonName, personNameOrNull } from '../../db/person-name-sql.js';

/**
 * Readers of the money rollups (migration 51) over a plan's runs of lab days, each in the shape of
 * the matching reader of the rows (key 0 read back as null), so the caller adds the two.
 */

const nullIfZero = (column: string) =>
  sql<number | null>`CASE WHEN ${sql.ref(column)} = 0 THEN NULL ELSE ${sql.ref(column)} END`;

/** Discounts of live bills per user who made the bill (discountsByUser's rows). */
export function discountsRollup(db: Db, org: number, runs: Runs) {
  return perRun(runs, (run) =>
    db
      .selectFrom('rollup_discounts as s')
      .leftJoin('users as u', 'u.id', 's.created_by')
      .select([
        nullIfZero('s.created_by').as('created_by'),
        groupedPersonName('u').as('name'),
        sql<number>`SUM(s.bills)`.as('bills'),
        sql<number>`SUM(s.discounted_bills)`.as('discounted_bills'),
        sql<number>`SUM(s.line_paise)`.as('line_paise'),
        sql<number>`SUM(s.bill_paise)`.as('bill_paise'),
        sql<number>`SUM(s.gross_paise)`.as('gross_paise'),
      ])
      .where(ofRun(org, run, 's'))
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
      .where(ofRun(org, run))
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
          .where(ofRun(org, run))
          .groupBy('doctor_id')
          .as('s'),
      )
      .leftJoin('users as d', 'd.id', 's.doctor_id')
      .select([
        nullIfZero('s.doctor_id').as('doctor_id'),
        personNameOrNull('d').as('name'),
        's.amount_paise',
        's.discount_paise',
        's.bills',
      ])
      .execute(),
  );
}
