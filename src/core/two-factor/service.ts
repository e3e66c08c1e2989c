import type { Db } from '../db/connection.js';
import { nowIso, type Actor } from '../context.js';
import { writeAudit, type AuditEntry } from '../audit/audit.js';
import { ConflictError, ForbiddenError, NotFoundError, TooManyRequestsError, ValidationError } from '../errors.js';
import { getOrganization, labSettings } from '../settings/service.js';
import { findUser, type UserRow } from '../users/repository.js';
import {
  endSessionsOfUser,
  renewSessionEndingOthers,
  verifyPassword,
  staffAccountKey,
  waitText,
  type SignInLimits,
} from '../auth/service.js';
import { deleteOtherSessionRowsOfUser, selectLabSessionCounts } from '../auth/repository.js';
import { ROLE_RANK, type Role } from '../../shared/roles.js';
import type { TwoFactorConfirm, TwoFactorSetup, TwoFactorStatus } from '../../shared/schemas/two-factor.js';
import {
  deleteTwoFactor,
  findTwoFactor,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  saveEnabled,
  savePendingSecret,
  twoFactorUserIds,
  useStep,
} from './repository.js';
import type { SecretBox } from './secret-box.js';
import { matchingStep, newRecoveryCodes, newTotpSecret, otpauthUri, qrSvg, recoveryCodeHash } from './totp.js';

/** The additional data a user's sealed secret is bound to. */
export const sealContext = (userId: number) => `two-factor:user:${userId}`;

/** A set-up not confirmed within this long must be started again (the QR has been on a screen). */
const PENDING_SETUP_MINUTES = 30;

export const WRONG_SETUP_CODE =
  'That code does not match. Check that your phone sets its time automatically, then enter the code now shown in the app.';

/** The secret, its otpauth URI and QR code: issuer the lab's name, account the user's email. */
export async function setupAnswer(
  db: Db,
  organizationId: number,
  email: string,
  secret: string,
): Promise<TwoFactorSetup> {
  const issuer = (await getOrganization(db, organizationId)).name;
  const uri = otpauthUri(secret, issuer, email);
  return { secret, otpauth_uri: uri, qr_svg: await qrSvg(uri), issuer, account: email };
}

/** Ten new recovery codes for the user, stored as hashes; the codes themselves are answered once. */
export async function issueRecoveryCodes(db: Db, organizationId: number, userId: number, now: string) {
  const codes = newRecoveryCodes();
  await replaceRecoveryCodes(db, organizationId, userId, codes.map(recoveryCodeHash), now);
  return codes;
}

export async function twoFactorStatus(db: Db, organizationId: number, userId: number): Promise<TwoFactorStatus> {
  const row = await findTwoFactor(db, organizationId, userId);
  const enabled = Boolean(row?.secret && row.enabled_at);
  return {
    enabled,
    enabled_at: enabled ? row!.enabled_at : null,
    recovery_codes_left: enabled ? await recoveryCodesLeft(db, organizationId, userId) : 0,
    required: (await labSettings(db, organizationId)).twoFactorAuth,
  };
}

/**
 * Requiring two-factor of every staff member must not lock out the administrator doing it: they
 * set up their own authenticator first (the CLI, acting as the system, is not asked).
 */
export async function assertMayRequireTwoFactor(db: Db, actor: Actor): Promise<void> {
  if (actor.role === 'system' || actor.userId === null) return;
  const row = await findTwoFactor(db, actor.organizationId, actor.userId);
  if (row?.secret) return;
  throw ValidationError.field(
    'twoFactorAuth',
    'Set up two-factor sign-in for your own account first (account menu, Two-factor sign-in): once this is on, everyone signs in with a code, and you would be asked to set one up at your next sign-in',
  );
}

/** A change to one's sign-in: the session making it, renewed (a new cookie), when it is still there. */
export type RenewedSession = { token: string; expiresAt: Date } | null;

/** The answer to a change that issues new recovery codes: shown this once. */
type WithNewCodes = { two_factor: TwoFactorStatus; recovery_codes: string[]; session: RenewedSession };

/**
 * One's own authenticator, from the account screen: set up, confirm, turn off, new recovery codes.
 * Proving a code or the password here counts in the sign-in limits of the account (AuthService),
 * so a borrowed session cannot be used to guess either. Switching it on or off, or new recovery
 * codes, end every other session of the user and renew the current one (its token changes), in the
 * same transaction: a session started or copied before the change does not outlive it.
 */
export class TwoFactorAccounts {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly limits: SignInLimits,
  ) {}

  async #me(actor: Actor): Promise<UserRow> {
    if (actor.userId === null) throw new ForbiddenError('Two-factor sign-in belongs to a staff account');
    const row = await findUser(this.db, actor.organizationId, actor.userId);
    if (!row) throw new NotFoundError('User', actor.userId);
    return row;
  }

  status(actor: Actor): Promise<TwoFactorStatus> {
    if (actor.userId === null) throw new ForbiddenError('Two-factor sign-in belongs to a staff account');
    return twoFactorStatus(this.db, actor.organizationId, actor.userId);
  }

  /** A new secret, kept sealed until a code confirms it; answered this once. */
  async beginSetup(actor: Actor): Promise<TwoFactorSetup> {
    const me = await this.#me(actor);
    const row = await findTwoFactor(this.db, me.organization_id, me.id);
    if (row?.secret)
      throw new ConflictError(
        'Two-factor sign-in is already on. To move it to another phone, turn it off first, then set it up again.',
        'TWO_FACTOR_ON',
      );
    const secret = newTotpSecret();
    await savePendingSecret(this.db, me.organization_id, me.id, this.box.seal(secret, sealContext(me.id)), nowIso());
    return setupAnswer(this.db, me.organization_id, me.email, secret);
  }

  /** Switches it on with a current code of the set-up; answers the recovery codes, once. */
  async enable(actor: Actor, code: string, currentToken: string | null): Promise<WithNewCodes> {
    const me = await this.#me(actor);
    const row = await findTwoFactor(this.db, me.organization_id, me.id);
    if (row?.secret) throw new ConflictError('Two-factor sign-in is already on', 'TWO_FACTOR_ON');
    const started = row?.pending_created_at ? Date.parse(row.pending_created_at) : NaN;
    if (!row?.pending_secret || !(Date.now() - started < PENDING_SETUP_MINUTES * 60_000))
      throw ValidationError.field('code', 'Start the set-up again: no QR code is waiting for a code');
    const secret = this.box.open(row.pending_secret, sealContext(me.id));
    const step = matchingStep(secret, code);
    if (step === null) throw ValidationError.field('code', WRONG_SETUP_CODE);
    return this.#withNewCodes(
      actor,
      me,
      currentToken,
      (issued, othersEnded) => ({
        action: 'create',
        newValues: { enabled: true, recovery_codes: issued, other_sessions_ended: othersEnded },
      }),
      (trx, now) => saveEnabled(trx, me.organization_id, me.id, row.pending_secret!, step, now),
    );
  }

  /** Turns it off, proved with a current code or the password. The other sessions end. */
  async disable(
    actor: Actor,
    proof: TwoFactorConfirm,
    currentToken: string | null,
  ): Promise<{ two_factor: TwoFactorStatus; session: RenewedSession }> {
    const me = await this.#me(actor);
    const how = await this.#confirm(actor, me, proof, 'delete');
    const renewed = await this.db.transaction().execute(async (trx) => {
      await deleteTwoFactor(trx, me.organization_id, me.id);
      const sessions = await renewSessionEndingOthers(trx, me.organization_id, me.id, currentToken);
      await writeAudit(trx, actor, {
        action: 'delete',
        entity: 'two_factor',
        entityId: me.id,
        oldValues: { enabled: true },
        newValues: { enabled: false, confirmed_with: how, other_sessions_ended: sessions.othersEnded },
      });
      return sessions.renewed;
    });
    return { two_factor: await twoFactorStatus(this.db, me.organization_id, me.id), session: renewed };
  }

  /** Ten new recovery codes (the old ones stop working), proved with a current code or the password. */
  async regenerateRecoveryCodes(
    actor: Actor,
    proof: TwoFactorConfirm,
    currentToken: string | null,
  ): Promise<WithNewCodes> {
    const me = await this.#me(actor);
    const how = await this.#confirm(actor, me, proof, 'update');
    return this.#withNewCodes(actor, me, currentToken, (issued, othersEnded) => ({
      action: 'update',
      newValues: { recovery_codes_replaced: issued, confirmed_with: how, other_sessions_ended: othersEnded },
    }));
  }

  /**
   * New recovery codes and the current session renewed (the others end), after `first` and audited
   * as `audit` says, in one transaction; answers the codes this once, with the status they leave.
   */
  async #withNewCodes(
    actor: Actor,
    me: UserRow,
    currentToken: string | null,
    audit: (issued: number, othersEnded: number) => Pick<AuditEntry, 'action' | 'newValues'>,
    first?: (trx: Db, now: string) => Promise<void>,
  ): Promise<WithNewCodes> {
    const now = nowIso();
    const { codes, renewed } = await this.db.transaction().execute(async (trx) => {
      await first?.(trx, now);
      const issued = await issueRecoveryCodes(trx, me.organization_id, me.id, now);
      const sessions = await renewSessionEndingOthers(trx, me.organization_id, me.id, currentToken);
      const { action, newValues } = audit(issued.length, sessions.othersEnded);
      await writeAudit(trx, actor, { action, entity: 'two_factor', entityId: me.id, newValues });
      return { codes: issued, renewed: sessions.renewed };
    });
    return {
      two_factor: await twoFactorStatus(this.db, me.organization_id, me.id),
      recovery_codes: codes,
      session: renewed,
    };
  }

  /**
   * Checks the proof of a change to one's two-factor: a code not used before, or the password.
   * Counted in the account's sign-in limits; a failure is audited and answered 400 naming the field.
   */
  async #confirm(actor: Actor, me: UserRow, proof: TwoFactorConfirm, action: 'delete' | 'update') {
    const row = await findTwoFactor(this.db, me.organization_id, me.id);
    if (!row?.secret) throw new ConflictError('Two-factor sign-in is not on', 'TWO_FACTOR_OFF');
    const ticket = this.limits.reserve(staffAccountKey(me.organization_id, me.email), actor.ip ?? 'unknown');
    if (typeof ticket === 'number')
      throw new TooManyRequestsError(`Too many wrong codes or passwords. Try again in ${waitText(ticket)}.`, ticket);
    try {
      let failure: { path: string; message: string; reason: string } | null = null;
      if (proof.code !== undefined) {
        const step = matchingStep(this.box.open(row.secret, sealContext(me.id)), proof.code);
        if (step === null)
          failure = { path: 'code', message: 'The code is wrong or has expired', reason: 'bad two-factor code' };
        else if (!(await useStep(this.db, me.organization_id, me.id, step)))
          failure = {
            path: 'code',
            message: 'This code has been used already. Wait for the next code in your app.',
            reason: 'reused two-factor code',
          };
      } else if (!(await verifyPassword(proof.password ?? '', me.password_hash))) {
        failure = { path: 'password', message: 'The password is not right', reason: 'bad password' };
      }
      if (failure) {
        ticket.fail();
        await writeAudit(this.db, actor, {
          action,
          entity: 'two_factor',
          entityId: me.id,
          status: 'failed',
          newValues: { reason: failure.reason },
        });
        throw ValidationError.field(failure.path, failure.message);
      }
      ticket.succeed();
      return proof.code !== undefined ? 'code' : 'password';
    } finally {
      ticket.release();
    }
  }
}

/** An administrator's view of a user's two-factor. */
export async function userTwoFactorStatus(db: Db, organizationId: number, userId: number): Promise<TwoFactorStatus> {
  const user = await findUser(db, organizationId, userId);
  if (!user) throw new NotFoundError('User', userId);
  return twoFactorStatus(db, organizationId, userId);
}

/**
 * A lost phone: an administrator (manage_users, ranked at or above the user) or `lims user
 * reset-two-factor` switches the user's two-factor off and ends their sessions. If the lab requires
 * two-factor, they set up a new authenticator at their next sign-in. Audited.
 */
export async function resetUserTwoFactor(db: Db, actor: Actor, userId: number): Promise<TwoFactorStatus> {
  const user = await findUser(db, actor.organizationId, userId);
  if (!user) throw new NotFoundError('User', userId);
  if (actor.role !== 'system') {
    if (actor.userId === userId)
      throw new ForbiddenError(
        'Change your own two-factor sign-in from the account menu (Two-factor sign-in), with a code or your password',
      );
    if (ROLE_RANK[user.role as Role] > ROLE_RANK[actor.role])
      throw new ForbiddenError(`A ${actor.role} cannot change a ${user.role}`);
  }
  const row = await findTwoFactor(db, actor.organizationId, userId);
  if (!row) throw new ConflictError(`${user.email} has not set up two-factor sign-in`, 'TWO_FACTOR_OFF');
  await db.transaction().execute(async (trx) => {
    await deleteTwoFactor(trx, actor.organizationId, userId);
    if (row.secret) await endSessionsOfUser(trx, userId);
    await writeAudit(trx, actor, {
      action: 'delete',
      entity: 'two_factor',
      entityId: userId,
      oldValues: { enabled: Boolean(row.secret) },
      newValues: { enabled: false, reset_by_administrator: true },
    });
  });
  return twoFactorStatus(db, actor.organizationId, userId);
}

/**
 * The lab has just made two-factor sign-in mandatory: every session of a user without it ends (they
 * set it up at their next sign-in, the enrol step), so no session goes on on a password alone. One
 * audit row per user signed out. Run in the settings change's transaction.
 */
export async function endSessionsWithoutTwoFactor(db: Db, actor: Actor): Promise<number> {
  const withTwoFactor = await twoFactorUserIds(db, actor.organizationId);
  let users = 0;
  for (const { user_id } of await selectLabSessionCounts(db, actor.organizationId)) {
    if (withTwoFactor.has(user_id)) continue;
    const ended = await deleteOtherSessionRowsOfUser(db, actor.organizationId, user_id, null);
    users += 1;
    await writeAudit(db, actor, {
      action: 'logout',
      entity: 'session',
      entityId: user_id,
      newValues: { reason: 'two-factor sign-in required by the lab', sessions_ended: ended },
    });
  }
  return users;
}

export { SecretBox, TWO_FACTOR_KEY_FILE, TwoFactorKeyError } from './secret-box.js';
export { TwoFactorSignIn } from './sign-in.js';
