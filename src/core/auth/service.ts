import type { Db } from '../db/connection.js';
import { writeAudit } from '../audit/audit.js';
import { nowIso, type Actor } from '../context.js';
import { TooManyRequestsError, UnauthorizedError } from '../errors.js';
import type { LoginInput } from '../../shared/schemas/auth.js';
import type { User } from '../../shared/schemas/users.js';
import { findUserByEmail, toUser, updateUserRow } from '../users/repository.js';
import { dummyPasswordHash, verifyPassword } from './password.js';
import { createSession, deleteSession } from './sessions.js';
import { LoginThrottle } from './throttle.js';
import type { Role } from '../../shared/roles.js';

export const INVALID_CREDENTIALS = 'Invalid email or password';

export interface LoginResult {
  user: User;
  token: string;
  expiresAt: Date;
}

export class AuthService {
  readonly byEmail = new LoginThrottle(5);
  readonly byIp = new LoginThrottle(30);

  constructor(private readonly db: Db) {}

  /** Unknown email, wrong password and deactivated user all answer the same 401, in about the same time. */
  async login(input: LoginInput, meta: { ip: string; userAgent: string | null }): Promise<LoginResult> {
    const emailKey = [`email:${input.email}`];
    const ipKey = [`ip:${meta.ip}`];
    const wait = Math.max(this.byEmail.retryAfter(emailKey), this.byIp.retryAfter(ipKey));
    if (wait > 0) {
      throw new TooManyRequestsError(
        `Too many failed sign-in attempts. Try again in ${Math.ceil(wait / 60)} minute(s).`,
        wait,
      );
    }
    const row = await findUserByEmail(this.db, input.email);
    const ok = row
      ? await verifyPassword(input.password, row.password_hash)
      : await verifyPassword(input.password, await dummyPasswordHash());
    if (!row || !ok || row.is_active !== 1) {
      this.byEmail.fail(emailKey);
      this.byIp.fail(ipKey);
      if (row) {
        await writeAudit(this.db, actorFor(row, meta), {
          action: 'login',
          entity: 'session',
          entityId: row.id,
          status: 'failed',
          newValues: { reason: row.is_active !== 1 ? 'inactive' : 'bad password' },
        });
      }
      throw new UnauthorizedError(INVALID_CREDENTIALS);
    }
    this.byEmail.succeed(emailKey);
    const session = await createSession(this.db, row, meta);
    const now = nowIso();
    await this.db.transaction().execute(async (trx) => {
      await updateUserRow(trx, row.id, { last_login: now });
      await writeAudit(trx, actorFor(row, meta), { action: 'login', entity: 'session', entityId: row.id });
    });
    return { user: toUser({ ...row, last_login: now }), ...session };
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
