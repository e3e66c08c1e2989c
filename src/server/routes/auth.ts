import type { FastifyInstance } from 'fastify';
import { authApi } from '../../shared/api/auth.js';
import { logout } from '../../core/auth/service.js';
import { toUser } from '../../core/users/repository.js';
import { labPermissions } from '../../core/users/permissions.js';
import { demoCredentials } from '../../core/setup/demo.js';
import { getOrganization } from '../../core/settings/organization.js';
import { signInPageLab } from '../../core/tenants/sign-in.js';
import { SESSION_COOKIE, actorOf, setSessionCookie } from '../plugins/auth.js';
import { route } from '../contract.js';

export async function authRoutes(app: FastifyInstance) {
  route(app, authApi.login, async (req, reply) => {
    const result = await app.auth.login(req.body, {
      ip: req.ip,
      userAgent: req.headers['user-agent'] ?? null,
      host: req.hostname,
    });
    // Two-factor: no session until the code (routes/two-factor.ts).
    if ('twoFactor' in result) return { two_factor: result.twoFactor };
    setSessionCookie(app, req, reply, result);
    return { user: result.user };
  });

  route(app, authApi.logout, async (req, reply) => {
    await logout(app.database.db, actorOf(req), req.staff!.sessionToken);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { ok: true as const };
  });

  // The permissions are the lab's table's (the auth plugin read it for this request).
  route(app, authApi.me, async (req) => ({
    user: toUser(req.staff!.user, await labPermissions(app.database.db, req.staff!.actor.organizationId)),
  }));

  route(app, authApi.myLab, async (req) => ({
    name: (await getOrganization(app.database.db, req.staff!.actor.organizationId)).name,
  }));
  route(app, authApi.signInLab, async (req) => signInPageLab(app.database.db, req.hostname));

  route(app, authApi.demoCredentials, async () => ({
    demo: app.options_.demo === true,
    credentials: app.options_.demo ? demoCredentials() : [],
  }));
}

export default authRoutes;
