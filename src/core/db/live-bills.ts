import { sql, type SqlBool } from 'kysely';
import type { Db } from './connection.js';
import { groupedPersonName } from './person-name-sql.js';

/** A lab's period as the UTC instants of its lab days' bounds [fromUtc, toUtc). */
type BillWindow = { organizationId: number; fromUtc: string; toUtc: string };

/**
 * What makes a bill count in a period's money figures, said once for every reader of them (the
 * built-in reports, the dashboards' and the monthly report's sums): the lab's bill, not cancelled,
 * made in the UTC window [fromUtc, toUtc). A condition on the bills aliased `b`.
 */
export const liveBillsMadeIn = (w: BillWindow) =>
  sql<SqlBool>`b.organization_id = ${w.organizationId} AND b.cancelled_at IS NULL AND b.created_at >= ${w.fromUtc} AND b.created_at < ${w.toUtc}`;

/** The lines of those bills (`i`, `b`), each with its test when it is one (`t`). */
export function liveBillLinesMadeIn(db: Db, w: BillWindow) {
  return db
    .selectFrom('bill_items as i')
    .innerJoin('bills as b', 'b.id', 'i.bill_id')
    .leftJoin('tests as t', 't.id', 'i.test_id')
    .where(liveBillsMadeIn(w));
}

/** Those bills grouped by their referring doctor (null: none), each group with the doctor's id and name. */
export function liveBillsPerDoctor(db: Db, w: BillWindow) {
  return db
    .selectFrom('bills as b')
    .leftJoin('users as d', 'd.id', 'b.doctor_id')
    .select(['b.doctor_id', groupedPersonName('d').as('name')])
    .where(liveBillsMadeIn(w))
    .groupBy('b.doctor_id');
}
