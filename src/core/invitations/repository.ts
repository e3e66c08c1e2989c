import type { Insertable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { InvitationsTable } from './tables.js';
import { labTable, labUpdate } from '../db/lab-tables.js';

/** SQL of invitations (one-time links that set a first password). */

export async function insertInvitationRow(trx: Db, values: Insertable<InvitationsTable>): Promise<void> {
  await trx.insertInto('invitations').values(values).execute();
}

/** Withdraws a user's invitations that are neither used nor withdrawn; answers how many. */
export async function revokeOpenInvitationRows(
  trx: Db,
  organizationId: number,
  userId: number,
  atIso: string,
): Promise<number> {
  const r = await labUpdate(trx, 'invitations', organizationId)
    .set({ revoked_at: atIso })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** The invitation of a token's hash with its account and lab (for the public page and acceptance). */
export function invitationByHash(db: Db, tokenHash: string) {
  return db
    .selectFrom('invitations as i')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .select([
      'i.id',
      'i.organization_id',
      'i.user_id',
      'i.expires_at',
      'i.used_at',
      'i.revoked_at',
      'u.email',
      'u.is_active',
      'o.name as lab_name',
      'o.status as lab_status',
    ])
    .where('i.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Marks an invitation used if it still may be (single use, even with two tabs submitting at once). */
export async function useInvitationRow(trx: Db, id: number, atIso: string): Promise<boolean> {
  const r = await trx
    .updateTable('invitations')
    .set({ used_at: atIso })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', atIso)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * The latest invitation of each of the lab's active users who still have no password, that is
 * neither used nor withdrawn (expired ones included).
 */
export async function openInvitationRows(db: Db, organizationId: number) {
  const rows = await db
    .selectFrom('invitations as i')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .select(['i.id', 'i.user_id', 'u.email', 'i.created_at', 'i.expires_at'])
    .where('i.organization_id', '=', organizationId)
    .where('u.organization_id', '=', organizationId)
    .where('u.password_hash', '=', '')
    .where('u.is_active', '=', 1)
    .where('i.used_at', 'is', null)
    .where('i.revoked_at', 'is', null)
    .orderBy('i.id', 'desc')
    .execute();
  const latest = new Map<number, (typeof rows)[number]>();
  for (const r of rows) if (!latest.has(r.user_id)) latest.set(r.user_id, r);
  return [...latest.values()];
}

/** Whether the user was ever invited (only invited accounts get new links; referring doctors never sign in). */
export async function wasInvited(db: Db, organizationId: number, userId: number): Promise<boolean> {
  const r = await labTable(db, 'invitations', organizationId)
    .select('id')
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}
