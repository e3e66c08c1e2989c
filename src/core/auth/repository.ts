import type { Insertable } from 'kysely';
import { fixedQuery, writeUnlessBusy, type Db } from '../db/connection.js';
import type { SessionsTable } from '../db/schema.js';
import { labTable, labDelete } from '../db/lab-tables.js';

/** SQL of staff sign-in sessions (the cookie's hashed token is the row id). */

export async function insertSessionRow(db: Db, values: Insertable<SessionsTable>): Promise<void> {
  await db.insertInto('sessions').values(values).execute();
}

/** Runs on every signed-in request, so it is compiled once (see fixedQuery). */
export const sessionWithUser = fixedQuery((db, id: string) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .selectAll('u')
    .select(['s.id as session_id', 's.expires_at', 's.last_seen_at'])
    .where('s.id', '=', id),
);

export async function deleteSessionRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Skipped (false) while another connection holds SQLite's write lock: the next request touches it. */
export async function touchSessionRow(db: Db, id: string, atIso: string): Promise<boolean> {
  return writeUnlessBusy(db, db.updateTable('sessions').set({ last_seen_at: atIso }).where('id', '=', id));
}

export async function deleteExpiredSessionRows(db: Db, nowIso: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', nowIso).execute();
}

export async function deleteSessionRowsOfUser(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

/** The lab's sessions not expired and seen since `activeSinceIso` (the idle timeout), with their users. */
export function selectLabSessionRows(db: Db, organizationId: number, activeSinceIso: string, nowIso: string) {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.id',
      's.user_id',
      's.created_at',
      's.last_seen_at',
      's.expires_at',
      's.ip_address',
      's.user_agent',
      'u.first_name',
      'u.last_name',
      'u.email',
      'u.role',
    ])
    .where('s.organization_id', '=', organizationId)
    .where('s.expires_at', '>', nowIso)
    .where('s.last_seen_at', '>=', activeSinceIso)
    .where('u.is_active', '=', 1)
    .orderBy('s.last_seen_at', 'desc')
    .execute();
}

/** Every session row of the lab (End Session finds its session among them). */
export function selectLabSessionIds(db: Db, organizationId: number) {
  return labTable(db, 'sessions', organizationId).select(['id', 'user_id', 'created_at', 'ip_address']).execute();
}

/** One user's sessions not expired and seen since `activeSinceIso` (the lab's idle timeout), newest first. */
export function selectUserSessionRows(
  db: Db,
  organizationId: number,
  userId: number,
  activeSinceIso: string,
  nowIso: string,
) {
  return labTable(db, 'sessions', organizationId)
    .select(['id', 'created_at', 'last_seen_at', 'expires_at', 'ip_address', 'user_agent'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', nowIso)
    .where('last_seen_at', '>=', activeSinceIso)
    .orderBy('last_seen_at', 'desc')
    .execute();
}

/** Every session row of one user (ending one finds it among them), whatever its age. */
export function selectUserSessionIds(db: Db, organizationId: number, userId: number) {
  return labTable(db, 'sessions', organizationId)
    .select(['id', 'created_at', 'expires_at', 'ip_address'])
    .where('user_id', '=', userId)
    .execute();
}

/** Ends every session of the user but `keepId`; answers how many ended. */
export async function deleteOtherSessionRowsOfUser(
  db: Db,
  organizationId: number,
  userId: number,
  keepId: string | null,
): Promise<number> {
  let q = labDelete(db, 'sessions', organizationId).where('user_id', '=', userId);
  if (keepId !== null) q = q.where('id', '!=', keepId);
  const res = await q.executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Gives a session a new key (a new cookie token); its times and address stay. False when it is gone. */
export async function renameSessionRow(db: Db, id: string, newId: string): Promise<boolean> {
  const res = await db.updateTable('sessions').set({ id: newId }).where('id', '=', id).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** The users of the lab who have sessions, with how many each. */
export function selectLabSessionCounts(db: Db, organizationId: number) {
  return labTable(db, 'sessions', organizationId)
    .select((eb) => ['user_id', eb.fn.countAll<number | string>().as('n')])
    .groupBy('user_id')
    .execute();
}
