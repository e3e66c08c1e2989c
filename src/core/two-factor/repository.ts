import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { TwoFactorChallengesTable, UserTwoFactorTable } from './tables.js';
import { labRows } from '../db/joins.js';
import { labTable, labUpdate } from '../db/lab-tables.js';

/** SQL of two-factor sign-in: a user's authenticator, recovery codes and sign-in challenges. */

export type TwoFactorRow = Selectable<UserTwoFactorTable>;
export type ChallengeRow = Selectable<TwoFactorChallengesTable>;

export function findTwoFactor(db: Db, organizationId: number, userId: number): Promise<TwoFactorRow | undefined> {
  return labRows(db, 'user_two_factor', organizationId).where('user_id', '=', userId).executeTakeFirst();
}

/** Keeps a set-up that waits for its first code (replacing an earlier unconfirmed one). */
export async function savePendingSecret(
  db: Db,
  organizationId: number,
  userId: number,
  sealed: string,
  now: string,
): Promise<void> {
  await db
    .insertInto('user_two_factor')
    .values({
      user_id: userId,
      organization_id: organizationId,
      pending_secret: sealed,
      pending_created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ pending_secret: sealed, pending_created_at: now, updated_at: now }),
    )
    .execute();
}

/** Switches two-factor on with this secret; the confirming code's step counts as used. */
export async function saveEnabled(
  db: Db,
  organizationId: number,
  userId: number,
  sealed: string,
  step: number,
  now: string,
): Promise<void> {
  const values = {
    secret: sealed,
    enabled_at: now,
    last_used_step: step,
    pending_secret: null,
    pending_created_at: null,
    updated_at: now,
  };
  await db
    .insertInto('user_two_factor')
    .values({ user_id: userId, organization_id: organizationId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
}

/**
 * Records a code's step as used, only when it is later than the last one used: false when it is
 * not (the code was used already, perhaps by a request running at the same moment).
 */
export async function useStep(db: Db, organizationId: number, userId: number, step: number): Promise<boolean> {
  const res = await labUpdate(db, 'user_two_factor', organizationId)
    .set({ last_used_step: step })
    .where('user_id', '=', userId)
    .where('secret', 'is not', null)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Two-factor off: the secret, any set-up in progress, the recovery codes and open challenges go. */
export async function deleteTwoFactor(db: Db, organizationId: number, userId: number): Promise<void> {
  for (const table of ['two_factor_recovery_codes', 'two_factor_challenges', 'user_two_factor'] as const)
    await deleteUserRows(db, table, organizationId, userId);
}

/** A user's rows of one of the two-factor tables, deleted. */
async function deleteUserRows(
  db: Db,
  table: 'user_two_factor' | 'two_factor_recovery_codes' | 'two_factor_challenges',
  organizationId: number,
  userId: number,
): Promise<void> {
  await db.deleteFrom(table).where('organization_id', '=', organizationId).where('user_id', '=', userId).execute();
}

export async function replaceRecoveryCodes(
  db: Db,
  organizationId: number,
  userId: number,
  hashes: string[],
  now: string,
): Promise<void> {
  await deleteUserRows(db, 'two_factor_recovery_codes', organizationId, userId);
  await db
    .insertInto('two_factor_recovery_codes')
    .values(
      hashes.map((code_hash) => ({
        user_id: userId,
        organization_id: organizationId,
        code_hash,
        created_at: now,
        used_at: null,
      })),
    )
    .execute();
}

/** Spends an unused recovery code: false when the user has no such code left. */
export async function spendRecoveryCode(
  db: Db,
  organizationId: number,
  userId: number,
  hash: string,
  now: string,
): Promise<boolean> {
  const res = await labUpdate(db, 'two_factor_recovery_codes', organizationId)
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function recoveryCodesLeft(db: Db, organizationId: number, userId: number): Promise<number> {
  const row = await labTable(db, 'two_factor_recovery_codes', organizationId)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertChallenge(db: Db, values: Insertable<TwoFactorChallengesTable>): Promise<void> {
  await db.insertInto('two_factor_challenges').values(values).execute();
}

/** A challenge by its hashed token, unexpired. Challenges are looked up before the user is known. */
export function findLiveChallenge(db: Db, id: string, now: string): Promise<ChallengeRow | undefined> {
  return db
    .selectFrom('two_factor_challenges')
    .selectAll()
    .where('id', '=', id)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function setChallengeSecret(db: Db, id: string, sealed: string): Promise<void> {
  await db.updateTable('two_factor_challenges').set({ pending_secret: sealed }).where('id', '=', id).execute();
}

/** One more wrong code for the challenge; answers the count. */
export async function addChallengeAttempt(db: Db, id: string): Promise<number> {
  await db
    .updateTable('two_factor_challenges')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .execute();
  const row = await db.selectFrom('two_factor_challenges').select('attempts').where('id', '=', id).executeTakeFirst();
  return row ? Number(row.attempts) : Number.MAX_SAFE_INTEGER;
}

/** Deletes a challenge; false when it was gone already (used by a request at the same moment). */
export async function deleteChallenge(db: Db, id: string): Promise<boolean> {
  const res = await db.deleteFrom('two_factor_challenges').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

export async function deleteExpiredChallenges(db: Db, now: string): Promise<void> {
  await db.deleteFrom('two_factor_challenges').where('expires_at', '<=', now).execute();
}

/** The lab's users whose two-factor sign-in is on (a set-up still waiting for its code is not). */
export async function twoFactorUserIds(db: Db, organizationId: number): Promise<Set<number>> {
  const rows = await labTable(db, 'user_two_factor', organizationId)
    .select('user_id')
    .where('secret', 'is not', null)
    .execute();
  return new Set(rows.map((r) => r.user_id));
}
