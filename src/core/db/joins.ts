import { sql, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { Db } from './connection.js';
import type { DB } from './schema.js';
import { labTable, type LabTable } from './lab-tables.js';

/**
 * Query bases that several features start from. They live here, below the features, because the
 * features that read them (samples, results, lab reports) would otherwise import each other in a
 * cycle; each base holds only the joins and the lab filter, never a feature's rule.
 */

/**
 * A lab's samples, each joined to its patient (`s`, `p`): where every reader that shows a sample
 * with whose it is starts, so the lab filter and the patient join are written once.
 */
export function samplesWithPatient(db: Db, organizationId: number) {
  return db
    .selectFrom('samples as s')
    .innerJoin('patients as p', 'p.id', 's.patient_id')
    .where('s.organization_id', '=', organizationId);
}

/**
 * A payer's bills that count on its account (`b`; a cancelled bill does not): where a payer's or a
 * centre's statement, ageing, balance and invoicing start.
 */
export function billsOfPayer(db: Db, organizationId: number, payerId: number) {
  return db
    .selectFrom('bills as b')
    .where('b.organization_id', '=', organizationId)
    .where('b.payer_id', '=', payerId)
    .where('b.cancelled_at', 'is', null);
}

/**
 * A lab's test results, each joined to its sample and test (`r`, `s`, `t`): where the readers of
 * results (entry, verification, the patient's history, reports, export) start.
 */
export function resultsWithSampleAndTest(db: Db, organizationId: number) {
  return db
    .selectFrom('test_results as r')
    .innerJoin('samples as s', 's.id', 'r.sample_id')
    .innerJoin('tests as t', 't.id', 'r.test_id')
    .where('r.organization_id', '=', organizationId);
}

/** The same results with their patient (`p`) as well, for the lists that name whose result it is. */
export function resultsWithPatient(db: Db, organizationId: number) {
  return resultsWithSampleAndTest(db, organizationId).innerJoin('patients as p', 'p.id', 'r.patient_id');
}

/** A person's (a user's, a patient's) name as one text: null where the left join found no one. */
export const fullName = (alias: string) =>
  sql<string | null>`(${sql.ref(`${alias}.first_name`)} || ' ' || ${sql.ref(`${alias}.last_name`)})`;

/** The patient's columns a sample's head shows (result entry, the report). */
export const PATIENT_OF_SAMPLE = [
  'p.first_name',
  'p.last_name',
  'p.patient_code',
  'p.gender',
  'p.date_of_birth',
] as const;

/**
 * Every column of a lab's rows in one of its tables: where a reader of a single lab-owned table
 * starts, so the lab filter (what keeps one tenant from another's rows) is written once.
 */
export function labRows<T extends LabTable>(
  db: Db,
  table: T,
  organizationId: number,
): SelectQueryBuilder<DB, T, Selectable<DB[T]>> {
  return labTable(db, table, organizationId).selectAll() as unknown as SelectQueryBuilder<DB, T, Selectable<DB[T]>>;
}
