import type { Insertable } from 'kysely';
import { fixedQuery, type Db } from '../db/connection.js';
import type { SessionsTable } from '../db/schema.js';

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

export async function touchSessionRow(db: Db, id: string, atIso: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: atIso }).where('id', '=', id).execute();
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
  return db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'created_at', 'ip_address'])
    .where('organization_id', '=', organizationId)
    .execute();
}
