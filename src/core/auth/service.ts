import type { Db } from '../db/connection.js';
import { writeAudit } from '../audit/audit.js';
import { nowIso, type Actor } from '../context.js';
import { TooManyRequestsError, UnauthorizedError } from '../errors.js';
import type { LoginInput } from '../../shared/schemas/auth.js';
import type { User } from '../../shared/schemas/users.js';
import { findUserByEmail, toUser, updateUserRow, type UserRow } from '../users/repository.js';
import { labPermissions } from '../users/permissions.js';
import { labSettings, primaryOrganization } from '../settings/organization.js';
import { dummyPasswordHash, NO_PASSWORD, verifyPassword } from './password.js';
import { createSession, deleteSession } from './sessions.js';
import { SignInLimits, waitText, type SignInTicket } from './throttle.js';
import { LOGIN_MAX_FAILURES } from '../../shared/constants.js';
import type { Role } from '../../shared/roles.js';

export const INVALID_CREDENTIALS = 'Invalid email or password';

export interface LoginResult {
  user: User;
  token: string;
  expiresAt: Date;
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

  constructor(private readonly db: Db) {}

  /** Unknown email, wrong password and deactivated user all answer the same 401, in about the same time. */
  async login(input: LoginInput, meta: { ip: string; userAgent: string | null }): Promise<LoginResult> {
    const account = `email:${input.email}`;
    const row = await findUserByEmail(this.db, input.email);
    const ticket = this.limits.reserve(account, meta.ip, Date.now(), await this.#loginAttempts(row));
    if (typeof ticket === 'number') {
      throw new TooManyRequestsError(`Too many failed sign-in attempts. Try again in ${waitText(ticket)}.`, ticket);
    }
    try {
      return await this.#check(input, meta, ticket, row);
    } finally {
      // #check ends the ticket with fail or succeed; after an unexpected error it is given back.
      ticket.release();
    }
  }

  /** Forgets the failed sign-ins of this email from every address (an administrator's unlock). */
  unlock(email: string): void {
    this.limits.unlock(`email:${email}`);
  }

  signInStatus(email: string) {
    return this.limits.status(`email:${email}`);
  }

  /**
   * The lab's login attempts setting (failures per account and address before the lockout). For an
   * email nobody has, the first lab's: a different count would tell a guesser which emails exist.
   */
  async #loginAttempts(row: UserRow | undefined): Promise<number> {
    const organizationId = row?.organization_id ?? (await primaryOrganization(this.db))?.id;
    return organizationId === undefined
      ? LOGIN_MAX_FAILURES
      : (await labSettings(this.db, organizationId)).maxLoginAttempts;
  }

  async #check(
    input: LoginInput,
    meta: { ip: string; userAgent: string | null },
    ticket: SignInTicket,
    row: UserRow | undefined,
  ) {
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
    ticket.succeed();
    const session = await createSession(this.db, row, meta);
    const now = nowIso();
    await this.db.transaction().execute(async (trx) => {
      await updateUserRow(trx, row.id, { last_login: now });
      await writeAudit(trx, actorFor(row, meta), { action: 'login', entity: 'session', entityId: row.id });
    });
    const permissions = await labPermissions(this.db, row.organization_id);
    return { user: toUser({ ...row, last_login: now }, permissions), ...session };
  }
}

/** Ends the session of this token and records the sign-out. */
export async function logout(db: Db, actor: Actor, token: string): Promise<void> {
  await deleteSession(db, token);
  await writeAudit(db, actor, { action: 'logout', entity: 'session', entityId: actor.userId });
}

export function actorFor(
  row: { id: number; email: string; role: string; organization_id: number },
  meta: { ip?: string | null; userAgent?: string | null },
): Actor {
  return {
    userId: row.id,
    email: row.email,
    role: row.role as Role,
    organizationId: row.organization_id,
    ip: meta.ip ?? null,
    userAgent: meta.userAgent ?? null,
  };
}
