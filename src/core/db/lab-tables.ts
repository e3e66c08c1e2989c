import {
  sql,
  type DeleteQueryBuilder,
  type DeleteResult,
  type SelectQueryBuilder,
  type UpdateQueryBuilder,
  type UpdateResult,
} from 'kysely';
import type { Db } from './connection.js';
import type { DB } from './schema.js';

/**
 * Where a statement on one lab-owned table starts: its rows of the lab only, the filter that keeps
 * one tenant from another's rows written once. A read picks its columns and narrows from here
 * (`labRows` in joins.ts is the same read with every column); an update or a delete narrows to the
 * rows it changes. Only for a statement on the one table: a join would make `organization_id`
 * ambiguous.
 */

/** The tables a lab owns rows in: those with an `organization_id` column. */
export type LabTable = { [T in keyof DB]: DB[T] extends { organization_id: unknown } ? T : never }[keyof DB];

/** A read with no column chosen yet (Kysely's own start, `{}`). */
type NoColumns = Record<never, never>;

// Kysely cannot type a column of a table named by a type parameter, hence the raw reference.
const ofLab = (organizationId: number) => sql<boolean>`${sql.ref('organization_id')} = ${organizationId}`;

/** A read of the lab's rows in `table`, no column chosen yet. */
export const labTable = <T extends LabTable>(db: Db, table: T, organizationId: number) =>
  (db.selectFrom(table) as unknown as SelectQueryBuilder<DB, T, NoColumns>).where(ofLab(organizationId));

/** An update of the lab's rows in `table`, to narrow and `set`. */
export const labUpdate = <T extends LabTable>(db: Db, table: T, organizationId: number) =>
  (db.updateTable(table) as unknown as UpdateQueryBuilder<DB, T, T, UpdateResult>).where(ofLab(organizationId));

/** A delete of the lab's rows in `table`, to narrow. */
export const labDelete = <T extends LabTable>(db: Db, table: T, organizationId: number) =>
  (db.deleteFrom(table) as unknown as DeleteQueryBuilder<DB, T, DeleteResult>).where(ofLab(organizationId));
