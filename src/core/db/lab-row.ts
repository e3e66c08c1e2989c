import { sql, type DeleteResult, type Selectable, type Updateable, type UpdateResult } from 'kysely';
import type { Db } from './connection.js';
import type { DB } from './schema.js';
import { labRows } from './joins.js';
import { labDelete, labUpdate } from './lab-tables.js';

/**
 * One lab-owned row by its id: read whole, or changed. The lab filter goes with the id every time,
 * so no reader or writer of a single row can reach another tenant's row by a guessed id.
 */

/** The tables whose rows are a lab's and are named by a numeric `id`. */
type LabIdTable = {
  [T in keyof DB]: DB[T] extends { organization_id: unknown; id: unknown } ? T : never;
}[keyof DB];

/** Every column of the lab's row with this id in the table, or undefined. */
export function labRowById<T extends LabIdTable>(
  db: Db,
  table: T,
  organizationId: number,
  id: number,
): Promise<Selectable<DB[T]> | undefined> {
  // Kysely cannot type a column of a table named by a type parameter, hence the raw reference.
  return labRows(db, table, organizationId)
    .where(sql<boolean>`${sql.ref('id')} = ${id}`)
    .executeTakeFirst() as Promise<Selectable<DB[T]> | undefined>;
}

/** Sets these columns of the lab's row with this id in the table. */
export function updateLabRow<T extends LabIdTable>(
  db: Db,
  table: T,
  organizationId: number,
  id: number,
  values: Updateable<DB[T]>,
): Promise<UpdateResult[]> {
  // The same raw reference as labRowById: the table is a type parameter here.
  return labUpdate(db, table, organizationId)
    .set(values as never)
    .where(sql<boolean>`${sql.ref('id')} = ${id}`)
    .execute();
}

/** Deletes the lab's row with this id in the table. */
export function deleteLabRow<T extends LabIdTable>(
  db: Db,
  table: T,
  organizationId: number,
  id: number,
): Promise<DeleteResult[]> {
  // The same raw reference as labRowById: the table is a type parameter here.
  return labDelete(db, table, organizationId)
    .where(sql<boolean>`${sql.ref('id')} = ${id}`)
    .execute();
}
