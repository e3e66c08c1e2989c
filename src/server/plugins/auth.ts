import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ForbiddenError, MaintenanceError, UnauthorizedError } from '../../core/errors.js';
import { refuseCrossSite } from './csrf.js';
import { secureCookie } from './cookies.js';
import { noStore, takePublicRequest } from './request-guards.js';
import { resolveSession, sessionFromMemory, touchSession, type SessionUser } from '../../core/auth/sessions.js';
import { actorFor } from '../../core/auth/service.js';
import {
  labClosedCached,
  labClosedIfFresh,
  organizationSettingsCached,
  organizationSettingsIfFresh,
} from '../org-cache.js';
import { labPermissions, labPermissionsFromMemory } from '../../core/users/permissions.js';
import type { PermissionTable, Role } from '../../shared/roles.js';
import type { Actor } from '../../core/context.js';
import type { RouteAccess } from '../types.js';
import type { RouteContract } from '../../shared/api/contract.js';

export const SESSION_COOKIE = 'lims_session';

/** Sets the staff session cookie once a sign-in has completed (the password, and the code if asked). */
export function setSessionCookie(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  session: { token: string; expiresAt: Date },
): void {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookie(app, req),
    expires: session.expiresAt,
  });
}

/** The signed-in staff member of a route that declared a permission; the hook has already checked it. */
export function actorOf(req: FastifyRequest): Actor {
  if (!req.staff) throw new UnauthorizedError();
  return req.staff.actor;
}

/** CSRF (plugins/csrf.ts) applies to staff requests that carry the session cookie. */
function refuseCrossSiteWithSession(req: FastifyRequest): void {
  if (req.cookies[SESSION_COOKIE]) refuseCrossSite(req);
}

type Done = (err?: Error) => void;
type Gate = (req: FastifyRequest, reply: FastifyReply, done: Done) => void;

/**
 * Sessions, CSRF and permissions for every route, as a gate each route gets when it is registered
 * (an onRoute hook), built for the access the route declares:
 * - a state-changing request that carries the session cookie must send JSON (or no body)
 *   and, if it names an Origin, our own. A cross-site form post can do neither.
 * - then the route's declared access is enforced before the body is parsed or
 *   validated, so a caller without a session or the permission learns nothing from validation (401/403,
 *   never 400). A route without a declaration cannot be registered at all (the server does not
 *   start), so a forgotten one can never mean "open". Unknown URLs reach the 404 handler.
 *
 * The gate is a callback hook rather than an async one, and is the route's own rather than a global
 * hook that looks the route's declaration up: it runs on every request, and a signed-in request whose
 * session is known from memory (sessionFromMemory) is decided without a promise. Otherwise the
 * session is read (and its activity recorded) before the gate calls done.
 */
export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('staff', null);
  const db = app.database.db;
  const idleMinutesFromMemory = (orgId: number) => organizationSettingsIfFresh(app, orgId)?.sessionTimeout;
  const idleMinutes = async (orgId: number) => (await organizationSettingsCached(app, orgId)).sessionTimeout;

  /**
   * Maintenance mode (System Settings): a change by anyone but an administrator (system_settings)
   * is refused with 503; reads and signing out go on. Only changes wait for the lab's settings.
   */
  async function refuseInMaintenance(req: FastifyRequest) {
    const staff = req.staff!;
    if (staff.permissions.includes('system_settings')) return;
    if (req.routeOptions.url === '/api/auth/logout') return;
    if ((await organizationSettingsCached(app, staff.actor.organizationId)).maintenanceMode)
      throw new MaintenanceError();
  }
  const changes = (req: FastifyRequest) => req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS';

  /**
   * Reads the session, and records activity when due; the slow path of the gate. A background
   * request (the bell's poll) records none: it is the screen asking, not the user.
   */
  async function signInFromDatabase(
    req: FastifyRequest,
    reply: FastifyReply,
    access: StaffAccess,
    token: string,
    background: boolean,
  ) {
    const session = await resolveSession(db, token, idleMinutes);
    if (!session) {
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      throw new UnauthorizedError('Your session has ended; please sign in again');
    }
    // A suspended lab's sessions are deleted when it is suspended; this also covers a change made
    // elsewhere (another server, the database) within the cache's few seconds.
    const closed = await labClosedCached(app, session.user.organization_id);
    if (closed) {
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      throw new UnauthorizedError(closed);
    }
    if (!background) await touchSession(db, session);
    admit(req, access, session, token, await labPermissions(db, session.user.organization_id));
    if (changes(req)) await refuseInMaintenance(req);
  }

  const publicGate: Gate = (req, reply, done) => {
    try {
      noStore(req, reply);
      // API routes only: the UI's own files (index.html, a page's dozens of scripts) are public too.
      if (req.url.startsWith('/api/')) takePublicRequest(app, req);
      refuseCrossSiteWithSession(req);
      done();
    } catch (err) {
      done(err as Error);
    }
  };

  const staffGate =
    (access: StaffAccess, background: boolean): Gate =>
    (req, reply, done) => {
      try {
        noStore(req, reply);
        refuseCrossSiteWithSession(req);
        const token = req.cookies[SESSION_COOKIE];
        if (!token) throw new UnauthorizedError();
        const known = sessionFromMemory(db, token, idleMinutesFromMemory);
        // sessionFromMemory answers only while the lab's cached state is fresh, so this is known too;
        // the lab's permission table too is in memory for a few seconds (src/core/users/permissions.ts).
        const open = known && labClosedIfFresh(app, known.user.organization_id) === null;
        const table = open && labPermissionsFromMemory(db, known.user.organization_id);
        if (known && table) {
          admit(req, access, known, token, table);
          if (changes(req)) return void refuseInMaintenance(req).then(() => done(), done);
          return done();
        }
        signInFromDatabase(req, reply, access, token, background).then(() => done(), done);
      } catch (err) {
        done(err as Error);
      }
    };

  app.addHook('onRoute', (route) => {
    const access = (route.config as { access?: RouteAccess } | undefined)?.access;
    if (access === undefined) throw new Error(`route ${String(route.method)} ${route.url} declares no access`);
    const own =
      route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    const background = (route.config as { contract?: RouteContract } | undefined)?.contract?.background === true;
    route.onRequest = [access === 'public' ? publicGate : staffGate(access, background), ...own];
  });
});

type StaffAccess = Exclude<RouteAccess, 'public'>;

/**
 * The routes open to any signed-in user that a centre's login may use too: its own account and
 * session, the lab's name and formats every screen reads, and its own notifications. The others (the
 * dashboard's lab-wide figures, the data screens) show the lab's rows; a centre's login reaches the
 * lab's rows only through /api/centre-portal, filtered to its centre. Its role has no other
 * permission, so every route that declares one is refused to it already.
 */
const CENTRE_OPEN = /^\/api\/(auth\/|account\/|notifications(\/|$)|lab$)/;

/** Checks the route's permission in the lab's table for the session's role and makes the user the request's actor. */
function admit(req: FastifyRequest, access: StaffAccess, session: SessionUser, token: string, table: PermissionTable) {
  const role = session.user.role as Role;
  const permissions = table[role];
  if (access !== 'authenticated') {
    const needed = typeof access === 'string' ? [access] : access;
    const missing = needed.filter((p) => !permissions.includes(p));
    if (missing.length)
      throw new ForbiddenError(`Your role (${role}) does not have the ${missing.join(' and ')} permission`);
  } else if (role === 'centre' && !CENTRE_OPEN.test(req.routeOptions.url ?? '')) {
    throw new ForbiddenError("A centre's login sees its own centre's patients, bills and reports only");
  }
  req.staff = {
    user: session.user,
    actor: actorFor(session.user, { ip: req.ip, userAgent: req.headers['user-agent'] ?? null }),
    sessionToken: token,
    permissions,
  };
}
