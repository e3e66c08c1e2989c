import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ForbiddenError, UnauthorizedError } from '../../core/errors.js';
import { resolveSession, sessionFromMemory, touchSession, type SessionUser } from '../../core/auth/sessions.js';
import { actorFor } from '../../core/auth/service.js';
import { organizationSettingsCached, organizationSettingsIfFresh } from '../org-cache.js';
import { hasPermission, type Role } from '../../shared/roles.js';
import type { Actor } from '../../core/context.js';
import type { RouteAccess } from '../types.js';

export const SESSION_COOKIE = 'lims_session';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The signed-in staff member of a route that declared a permission; the hook has already checked it. */
export function actorOf(req: FastifyRequest): Actor {
  if (!req.staff) throw new UnauthorizedError();
  return req.staff.actor;
}

export function sameOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  try {
    const o = new URL(origin);
    // Normalise the Host header the same way (lower case, default port dropped) before comparing.
    return o.host === new URL(`${o.protocol}//${req.headers.host ?? ''}`).host;
  } catch {
    return false;
  }
}

/** CSRF: see the rule below. */
function refuseCrossSite(req: FastifyRequest): void {
  if (!UNSAFE.has(req.method) || !req.cookies[SESSION_COOKIE]) return;
  const type = req.headers['content-type'];
  const length = Number(req.headers['content-length'] ?? 0);
  const hasBody = length > 0 || req.headers['transfer-encoding'] !== undefined;
  if (hasBody && !(type ?? '').toLowerCase().startsWith('application/json')) {
    throw new ForbiddenError('Cross-site request refused: requests that change data must send JSON');
  }
  if (!sameOrigin(req)) throw new ForbiddenError('Cross-site request refused: origin does not match this server');
}

/**
 * Sessions, CSRF and permissions for every route.
 * - a state-changing request that carries the session cookie must send JSON (or no body)
 *   and, if it names an Origin, our own. A cross-site form post can do neither.
 * - then the route's declared access is enforced before the body is parsed or
 *   validated, so a caller without a session or the permission learns nothing from validation (401/403,
 *   never 400). A route without a declaration is refused (500) so a forgotten one can never mean "open";
 *   unknown URLs fall through to the 404 handler.
 *
 * One hook for both checks, and a callback hook rather than an async one: it runs on every request,
 * and a signed-in request whose session is known from memory (sessionFromMemory) is decided without
 * a promise. Otherwise the session is read (and its activity recorded) before the hook calls done.
 */
export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('staff', null);
  const db = app.database.db;
  const idleMinutesFromMemory = (orgId: number) => organizationSettingsIfFresh(app, orgId)?.sessionTimeout;
  const idleMinutes = async (orgId: number) => (await organizationSettingsCached(app, orgId)).sessionTimeout;

  /** Reads the session, and records activity when due; the slow path of the hook. */
  async function signInFromDatabase(
    req: FastifyRequest,
    reply: FastifyReply,
    access: Exclude<RouteAccess, 'public'>,
    token: string,
  ) {
    const session = await resolveSession(db, token, idleMinutes);
    if (!session) {
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      throw new UnauthorizedError('Your session has ended; please sign in again');
    }
    await touchSession(db, session);
    admit(req, access, session, token);
  }

  app.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    try {
      refuseCrossSite(req);
      if (req.is404) return done();
      const config = req.routeOptions.config;
      const access = config.access;
      if (access === undefined) {
        // Only reachable through a programming error: the route test walks every route for this.
        throw new Error(`route ${req.method} ${req.routeOptions.url ?? ''} declares no access`);
      }
      if (access === 'public') return done();
      const token = req.cookies[SESSION_COOKIE];
      if (!token) throw new UnauthorizedError();
      const known = sessionFromMemory(db, token, idleMinutesFromMemory);
      if (known) {
        admit(req, access, known, token);
        return done();
      }
      signInFromDatabase(req, reply, access, token).then(() => done(), done);
    } catch (err) {
      done(err as Error);
    }
  });
});

/** Checks the route's permission for the session's role and makes the user the request's actor. */
function admit(req: FastifyRequest, access: Exclude<RouteAccess, 'public'>, session: SessionUser, token: string) {
  const role = session.user.role as Role;
  if (access !== 'authenticated') {
    const needed = typeof access === 'string' ? [access] : access;
    const missing = needed.filter((p) => !hasPermission(role, p));
    if (missing.length)
      throw new ForbiddenError(`Your role (${role}) does not have the ${missing.join(' and ')} permission`);
  }
  req.staff = {
    user: session.user,
    actor: actorFor(session.user, { ip: req.ip, userAgent: req.headers['user-agent'] ?? null }),
    sessionToken: token,
  };
}
