import type { FastifyInstance } from 'fastify';
import { activityApi, permissionsApi, userAdminApi } from '../../shared/api/user-admin.js';
import { getPermissionMatrix, resetPermissionMatrix, updatePermissionMatrix } from '../../core/users/permissions.js';
import { bulkUpdateUsers, suspendUser, unsuspendUser } from '../../core/users/admin.js';
import { endSession, listActiveSessions, listSignIns } from '../../core/users/activity.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';

/** The Users screen's tools: Permission Manager, suspension, Bulk Operations, Activity Monitor. */
export async function userAdminRoutes(app: FastifyInstance) {
  const db = app.database.db;

  route(app, permissionsApi.get, async (req) => ({ matrix: await getPermissionMatrix(db, actorOf(req)) }));
  route(app, permissionsApi.update, async (req) => ({
    matrix: await updatePermissionMatrix(db, actorOf(req), req.body),
  }));
  route(app, permissionsApi.reset, async (req) => ({ matrix: await resetPermissionMatrix(db, actorOf(req)) }));

  route(app, userAdminApi.suspend, async (req) => ({
    user: await suspendUser(db, actorOf(req), req.params.id, req.body.reason),
  }));
  route(app, userAdminApi.unsuspend, async (req) => ({ user: await unsuspendUser(db, actorOf(req), req.params.id) }));
  route(app, userAdminApi.bulk, async (req) => bulkUpdateUsers(db, actorOf(req), req.body));

  route(app, activityApi.signIns, async (req) => listSignIns(db, actorOf(req).organizationId, req.query));
  route(app, activityApi.sessions, async (req) => ({
    sessions: await listActiveSessions(db, actorOf(req).organizationId, req.staff!.sessionToken),
  }));
  route(app, activityApi.endSession, async (req) => {
    await endSession(db, actorOf(req), req.params.id);
    return { ok: true as const };
  });
}

export default userAdminRoutes;
