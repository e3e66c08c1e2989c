import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { DataJobsTable } from './tables.js';
import { labRows } from '../db/joins.js';
import { labRowById } from '../db/lab-row.js';

/** SQL of the import and export jobs (data_jobs). */

export type DataJobRow = Selectable<DataJobsTable>;

export async function insertJobRow(db: Db, values: Insertable<DataJobsTable>): Promise<number> {
  const row = await db.insertInto('data_jobs').values(values).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateJobRow(db: Db, id: number, patch: Updateable<DataJobsTable>): Promise<void> {
  await db.updateTable('data_jobs').set(patch).where('id', '=', id).execute();
}

export function findJobRow(db: Db, organizationId: number, id: number): Promise<DataJobRow | undefined> {
  return labRowById(db, 'data_jobs', organizationId, id);
}

/** The lab's jobs, newest first. */
export function recentJobRows(db: Db, organizationId: number, limit: number): Promise<DataJobRow[]> {
  return labRows(db, 'data_jobs', organizationId).orderBy('id', 'desc').limit(limit).execute();
}

/** Jobs still marked pending or running by some worker (a process that may have died). */
export function runningJobRows(db: Db): Promise<Pick<DataJobRow, 'id' | 'worker'>[]> {
  return db
    .selectFrom('data_jobs')
    .select(['id', 'worker'])
    .where('status', 'in', ['pending', 'in_progress'])
    .where('worker', 'is not', null)
    .execute();
}
