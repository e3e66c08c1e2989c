import type { Db } from '../db/connection.js';
import { writeAudit } from '../audit/audit.js';
import type { Actor } from '../context.js';
import type { Role } from '../../shared/roles.js';
import { deleteSession } from './sessions.js';

/*
 * What other features use of sign-in: password hashes, sessions and the sign-in limiter. They
 * import them from here, the feature's entry, so the files behind it can move.
 */
export { dummyPasswordHash, hashPassword, NO_PASSWORD, verifyPassword } from './password.js';
export {
  createSession,
  endSessionsOfUser,
  hashToken,
  publicSessionId,
  renewSessionEndingOthers,
  resolveSession,
  sessionFromMemory,
  sessionView,
  touchSession,
  type SessionUser,
} from './sessions.js';
export { SignInLimits, staffAccountKey, waitText, type SignInTicket } from './throttle.js';

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
