import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { OrganizationsTable } from '../db/schema.js';

/** SQL of the organisations (labs) and their settings. */

export function organizationRow(db: Db, id: number) {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The first organisation: a single-lab install has exactly one. */
export function firstOrganizationRow(db: Db) {
  return db.selectFrom('organizations').selectAll().orderBy('id').limit(1).executeTakeFirst();
}

export function insertOrganizationRow(trx: Db, values: Insertable<OrganizationsTable>) {
  return trx.insertInto('organizations').values(values).returning('id').executeTakeFirstOrThrow();
}

export function updateOrganizationRow(trx: Db, id: number, values: Updateable<OrganizationsTable>) {
  return trx.updateTable('organizations').set(values).where('id', '=', id).execute();
}

/** Every organisation's id (a chain holds several labs on one database). */
export async function organizationIds(db: Db): Promise<number[]> {
  return (await db.selectFrom('organizations').select('id').orderBy('id').execute()).map((r) => r.id);
}
