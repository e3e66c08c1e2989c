import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import { labSettings } from '../settings/service.js';
import type { OwnSession } from '../../shared/schemas/sessions.js';
import {
  deleteOtherSessionRowsOfUser,
  deleteSessionRow,
  selectUserSessionIds,
  selectUserSessionRows,
} from './repository.js';
import { hashToken, publicSessionId, sessionView } from './sessions.js';

/**
 * One's own sessions, from the account menu: the ones open now (not signed out, not past their
 * 24 hours, not idle past the lab's timeout), and ending one or all the others. Only the caller's
 * sessions are ever looked at, so another user's session id is simply not found (404).
 */

function staffUser(actor: Actor): number {
  if (actor.userId === null) throw new ForbiddenError('Sessions belong to a staff account');
  return actor.userId;
}

export async function listOwnSessions(
  db: Db,
  actor: Actor,
  currentToken: string,
  now = new Date(),
): Promise<OwnSession[]> {
  const userId = staffUser(actor);
  const { sessionTimeout } = await labSettings(db, actor.organizationId);
  const since = new Date(now.getTime() - sessionTimeout * 60_000).toISOString();
  const rows = await selectUserSessionRows(db, actor.organizationId, userId, since, now.toISOString());
  const current = hashToken(currentToken);
  return rows.map((r) => sessionView(r, current));
}

/** Ends one of one's own sessions; answers whether it was the current one (then the caller is signed out). */
export async function endOwnSession(db: Db, actor: Actor, currentToken: string, publicId: string): Promise<boolean> {
  const userId = staffUser(actor);
  return db.transaction().execute(async (trx) => {
    const session = (await selectUserSessionIds(trx, actor.organizationId, userId)).find(
      (s) => publicSessionId(s.id) === publicId,
    );
    if (!session) throw new NotFoundError('Session', publicId);
    const current = session.id === hashToken(currentToken);
    await deleteSessionRow(trx, session.id);
    await writeAudit(trx, actor, {
      action: 'logout',
      entity: 'session',
      entityId: userId,
      newValues: {
        ended_by_user: true,
        current,
        session_started_at: session.created_at,
        session_ip_address: session.ip_address,
      },
    });
    return current;
  });
}

/** Ends every other session of the caller ("Sign out everywhere else"); answers how many ended. */
export async function endOtherOwnSessions(db: Db, actor: Actor, currentToken: string): Promise<number> {
  const userId = staffUser(actor);
  return db.transaction().execute(async (trx) => {
    const ended = await deleteOtherSessionRowsOfUser(trx, actor.organizationId, userId, hashToken(currentToken));
    if (ended > 0)
      await writeAudit(trx, actor, {
        action: 'logout',
        entity: 'session',
        entityId: userId,
        newValues: { ended_by_user: true, other_sessions_ended: ended },
      });
    return ended;
  });
}
