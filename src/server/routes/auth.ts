import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { loginSchema } from '../../shared/schemas/auth.js';
import { deleteSession } from '../../core/auth/sessions.js';
import { writeAudit } from '../../core/audit/audit.js';
import { toUser } from '../../core/users/repository.js';
import { demoCredentials } from '../../core/setup/demo.js';
import { SESSION_COOKIE, actorOf } from '../plugins/auth.js';

export async function authRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/api/auth/login', { schema: { body: loginSchema }, config: { access: 'public' } }, async (req, reply) => {
    const result = await app.auth.login(req.body, { ip: req.ip, userAgent: req.headers['user-agent'] ?? null });
    reply.setCookie(SESSION_COOKIE, result.token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: app.options_.secureCookies ?? false,
      expires: result.expiresAt,
    });
    return { user: result.user };
  });

  r.post('/api/auth/logout', { config: { access: 'authenticated' } }, async (req, reply) => {
    const actor = actorOf(req);
    await deleteSession(app.database.db, req.staff!.sessionToken);
    await writeAudit(app.database.db, actor, { action: 'logout', entity: 'session', entityId: actor.userId });
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { ok: true };
  });

  r.get('/api/auth/me', { config: { access: 'authenticated' } }, async (req) => ({ user: toUser(req.staff!.user) }));

  /** The demo accounts, listed on the login page only when the server runs with --demo. */
  r.get('/api/auth/demo-credentials', { config: { access: 'public' } }, async () => ({
    demo: app.options_.demo === true,
    credentials: app.options_.demo ? demoCredentials() : [],
  }));
}
