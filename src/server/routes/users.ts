import type { FastifyInstance } from 'fastify';
import { auditApi, signInApi, usersApi } from '../../shared/api/users.js';
import {
  createUser,
  deactivateUser,
  getUser,
  listUsers,
  resetPassword,
  signInStatus,
  unlockSignIn,
  updateUser,
} from '../../core/users/service.js';
import { listAudit } from '../../core/audit/audit.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';

export async function userRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const org = (req: Parameters<typeof actorOf>[0]) => actorOf(req).organizationId;

  route(app, usersApi.list, async (req) => ({ users: await listUsers(db, org(req), req.query) }));
  route(app, usersApi.get, async (req) => ({ user: await getUser(db, org(req), req.params.id) }));
  route(app, usersApi.create, async (req) => ({ user: await createUser(db, actorOf(req), req.body) }));
  route(app, usersApi.update, async (req) => ({ user: await updateUser(db, actorOf(req), req.params.id, req.body) }));
  route(app, usersApi.deactivate, async (req) => ({ user: await deactivateUser(db, actorOf(req), req.params.id) }));
  route(app, usersApi.resetPassword, async (req) => ({
    user: await resetPassword(db, actorOf(req), req.params.id, req.body.password),
  }));

  route(app, signInApi.status, async (req) => ({
    sign_in: await signInStatus(db, org(req), req.params.id, app.auth),
  }));
  route(app, signInApi.unlock, async (req) => ({
    sign_in: await unlockSignIn(db, actorOf(req), req.params.id, app.auth),
  }));

  route(app, auditApi.list, async (req) => listAudit(db, org(req), req.query));
}

export default userRoutes;
