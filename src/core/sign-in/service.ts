import type { Db } from '../db/connection.js';
import { writeAudit } from '../audit/audit.js';
import { nowIso } from '../context.js';
import { ForbiddenError, TooManyRequestsError, UnauthorizedError } from '../errors.js';
import type { LoginInput } from '../../shared/schemas/auth.js';
import type { User } from '../../shared/schemas/users.js';
import { toUser, updateUserRow } from '../users/repository.js';
import { labClosedMessage, signInAccount, signInLabId } from '../tenants/service.js';
import { labPermissions } from '../users/service.js';
import { labSettings } from '../settings/service.js';
import {
  dummyPasswordHash,
  NO_PASSWORD,
  verifyPassword,
  createSession,
  SignInLimits,
  staffAccountKey,
  waitText,
  type SignInTicket,
  actorFor,
} from '../auth/service.js';
import { LOGIN_MAX_FAILURES } from '../../shared/constants.js';
import type { UserRow } from '../users/repository.js';
import type { TwoFactorChallenge } from '../../shared/schemas/two-factor.js';
import { SecretBox, TwoFactorAccounts, TwoFactorSignIn } from '../two-factor/service.js';

export const INVALID_CREDENTIALS = 'Invalid email or password';

export interface SignInMeta {
  ip: string;
  userAgent: string | null;
  host?: string | null;
}

export interface LoginResult {
  user: User;
  token: string;
  expiresAt: Date;
}

/** A right password that needs a second step (two-factor): no session yet. */
export interface LoginChallenge {
  twoFactor: TwoFactorChallenge;
}

/** Staff sign-in limits: see SignInLimits and docs/security.md. */
export const STAFF_SIGN_IN_LIMITS = {
  perPair: LOGIN_MAX_FAILURES,
  perAddress: 30,
  backoffAfter: 10,
  maxBackoffSeconds: 30,
};

export class AuthService {
  readonly limits = new SignInLimits(STAFF_SIGN_IN_LIMITS);
  /** The code step of sign-in (src/core/two-factor/sign-in.ts). */
  readonly twoFactor: TwoFactorSignIn;
  /** One's own authenticator (set up, turn off, recovery codes), counted in the same limits. */
  readonly twoFactorAccounts: TwoFactorAccounts;

  /** `secrets` seals two-factor secrets (the data dir's key file in `lims serve`). */
  constructor(
    private readonly db: Db,
    secrets: SecretBox = SecretBox.inMemory(),
  ) {
    this.twoFactor = new TwoFactorSignIn(db, secrets, this.limits, (row, meta, audit) =>
      this.#startSession(row, meta, audit),
    );
    this.twoFactorAccounts = new TwoFactorAccounts(db, secrets, this.limits);
  }

  /**
   * Unknown email, wrong password and deactivated user all answer the same 401, in about the same
   * time. The lab is decided first, from the request's host name or the `lab` field, never from
   * where the email has accounts (tenants/sign-in.ts): the answer, its work and the limits are the
   * same whether or not the email exists in this lab or any other. A right password for a user who
   * needs a second step answers a challenge (no session).
   */
  async login(input: LoginInput, meta: SignInMeta): Promise<LoginResult | LoginChallenge> {
    const organizationId = await signInLabId(this.db, meta.host ?? null, input.lab);
    const maxFailures =
      organizationId === null ? LOGIN_MAX_FAILURES : (await labSettings(this.db, organizationId)).maxLoginAttempts;
    const ticket = this.limits.reserve(staffAccountKey(organizationId, input.email), meta.ip, Date.now(), maxFailures);
    if (typeof ticket === 'number') {
      throw new TooManyRequestsError(`Too many failed sign-in attempts. Try again in ${waitText(ticket)}.`, ticket);
    }
    try {
      return await this.#check(input, organizationId, meta, ticket);
    } finally {
      // #check ends the ticket with fail or succeed; when a second step follows, or after an unexpected
      // error, it is given back.
      ticket.release();
    }
  }

  /** Forgets the failed sign-ins of this account (lab and email) from every address (an administrator's unlock). */
  unlock(organizationId: number, email: string): void {
    this.limits.unlock(staffAccountKey(organizationId, email));
  }

  signInStatus(organizationId: number, email: string) {
    return this.limits.status(staffAccountKey(organizationId, email));
  }

  async #check(input: LoginInput, organizationId: number | null, meta: SignInMeta, ticket: SignInTicket) {
    const row = await signInAccount(this.db, organizationId, input.email);
    // An account without a password (a referring doctor who never signs in) is compared against the
    // dummy hash, as an unknown email is: the answer and its timing are the same as a wrong password.
    const hasPassword = row !== undefined && row.password_hash !== NO_PASSWORD;
    let ok = false;
    if (hasPassword) ok = await verifyPassword(input.password, row.password_hash);
    else await verifyPassword(input.password, await dummyPasswordHash());
    if (!row || !ok || row.is_active !== 1) {
      ticket.fail();
      if (row) {
        await writeAudit(this.db, actorFor(row, meta), {
          action: 'login',
          entity: 'session',
          entityId: row.id,
          status: 'failed',
          newValues: {
            reason: !hasPassword
              ? 'no sign-in'
              : row.is_active !== 1
                ? row.suspended_at
                  ? 'suspended'
                  : 'inactive'
                : 'bad password',
          },
        });
      }
      throw new UnauthorizedError(INVALID_CREDENTIALS);
    }
    // A suspended lab (Multi-Tenant Setup) is named only to someone whose password is right.
    const closed = await labClosedMessage(this.db, row.organization_id);
    if (closed) {
      await writeAudit(this.db, actorFor(row, meta), {
        action: 'login',
        entity: 'session',
        entityId: row.id,
        status: 'failed',
        newValues: { reason: 'lab closed' },
      });
      throw new ForbiddenError(closed);
    }
    // Two-factor: the password alone neither starts a session nor clears the failures (codes count too).
    const twoFactor = await this.twoFactor.afterPassword(row);
    if (twoFactor) return { twoFactor };
    ticket.succeed();
    return this.#startSession(row, meta);
  }

  async #startSession(
    row: UserRow,
    meta: { ip: string; userAgent: string | null },
    audit?: Record<string, unknown>,
  ): Promise<LoginResult> {
    const session = await createSession(this.db, row, meta);
    const now = nowIso();
    await this.db.transaction().execute(async (trx) => {
      await updateUserRow(trx, row.id, { last_login: now });
      await writeAudit(trx, actorFor(row, meta), {
        action: 'login',
        entity: 'session',
        entityId: row.id,
        ...(audit ? { newValues: audit } : {}),
      });
    });
    const permissions = await labPermissions(this.db, row.organization_id);
    return { user: toUser({ ...row, last_login: now }, permissions), ...session };
  }
}
