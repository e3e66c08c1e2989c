import type { FastifyInstance } from 'fastify';
import { accountSessionsApi } from '../../shared/api/account-sessions.js';
import { endOtherOwnSessions, endOwnSession, listOwnSessions } from '../../core/auth/own-sessions.js';
import { SESSION_COOKIE, actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';

/** One's own sessions (account menu): list, end one, end all the others. */
export async function accountSessionsRoutes(app: FastifyInstance) {
  const db = app.database.db;
  route(app, accountSessionsApi.list, async (req) => ({
    sessions: await listOwnSessions(db, actorOf(req), req.staff!.sessionToken),
  }));
  route(app, accountSessionsApi.end, async (req, reply) => {
    const current = await endOwnSession(db, actorOf(req), req.staff!.sessionToken, req.params.id);
    if (current) reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { ok: true as const, current };
  });
  route(app, accountSessionsApi.endOthers, async (req) => ({
    ended: await endOtherOwnSessions(db, actorOf(req), req.staff!.sessionToken),
  }));
}

export default accountSessionsRoutes;
