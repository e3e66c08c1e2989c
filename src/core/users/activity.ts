import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { pageAuditRows } from '../audit/repository.js';
import { deleteSessionRow, selectLabSessionIds, selectLabSessionRows } from '../auth/repository.js';
import { hashToken, publicSessionId, sessionView } from '../auth/service.js';
import { labSettings } from '../settings/service.js';
import { NotFoundError } from '../errors.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import type { ActiveSession, SignInListQuery, SignInPage } from '../../shared/schemas/user-admin.js';
import type { Role } from '../../shared/roles.js';
import { findUser } from './repository.js';
import { assertMayManage } from './service.js';

/**
 * The Activity Monitor: sign-ins and failed sign-ins from the audit trail (the rows
 * AuthService writes: entity session, action login), and the sessions open now, with End Session.
 */

/** Sign-ins, newest first. A failed sign-in for an email nobody has is not in the trail (nobody to name). */
export async function listSignIns(db: Db, organizationId: number, q: SignInListQuery): Promise<SignInPage> {
  const { rows, total } = await pageAuditRows(
    db,
    organizationId,
    { entity: 'session', action: 'login', status: q.status, user_id: q.user_id },
    q.page,
    q.limit,
  );
  return {
    events: rows.map((r) => {
      const values = r.new_values ? (JSON.parse(r.new_values) as Record<string, unknown>) : {};
      return {
        id: r.id,
        created_at: r.created_at,
        user_id: r.user_id,
        user_name: r.first_name ? `${r.first_name} ${r.last_name ?? ''}`.trim() : null,
        user_email: r.user_email,
        status: r.status === 'failed' ? 'failed' : 'success',
        reason: typeof values.reason === 'string' ? values.reason : null,
        ip_address: r.ip_address,
        user_agent: r.user_agent,
      };
    }),
    ...pageEnvelope(total, q.page, q.limit),
  };
}

/** The lab's open sessions: not signed out, not past 24 h, not idle longer than the lab's timeout. */
export async function listActiveSessions(
  db: Db,
  organizationId: number,
  currentToken: string | null,
  now = new Date(),
): Promise<ActiveSession[]> {
  const { sessionTimeout } = await labSettings(db, organizationId);
  const since = new Date(now.getTime() - sessionTimeout * 60_000).toISOString();
  const rows = await selectLabSessionRows(db, organizationId, since, now.toISOString());
  const current = currentToken ? hashToken(currentToken) : null;
  return rows.map((r) => ({
    ...sessionView(r, current),
    user_id: r.user_id,
    user_name: `${r.first_name} ${r.last_name}`.trim(),
    user_email: r.email,
    role: r.role as Role,
  }));
}

/**
 * End Session: the session is deleted, so its user is signed out at their next request (401, and
 * the sign-in form). Only for users the actor may manage; audited as a sign-out done by the actor.
 */
export async function endSession(db: Db, actor: Actor, publicId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const session = (await selectLabSessionIds(trx, actor.organizationId)).find(
      (s) => publicSessionId(s.id) === publicId,
    );
    if (!session) throw new NotFoundError('Session', publicId);
    const user = await findUser(trx, actor.organizationId, session.user_id);
    if (!user) throw new NotFoundError('Session', publicId);
    assertMayManage(actor, user);
    await deleteSessionRow(trx, session.id);
    await writeAudit(trx, actor, {
      action: 'logout',
      entity: 'session',
      entityId: user.id,
      newValues: {
        ended_by_administrator: true,
        user_email: user.email,
        session_started_at: session.created_at,
        session_ip_address: session.ip_address,
      },
    });
  });
}
