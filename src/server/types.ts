import type { Database_ } from '../core/db/connection.js';
import type { Actor } from '../core/context.js';
import type { UserRow } from '../core/users/repository.js';
import type { AuthService } from '../core/auth/service.js';
import type { Logger } from 'pino';
import type { LoggerOption } from './logging.js';

import type { RouteAccess, RouteContract } from '../shared/api/contract.js';
export type { RouteAccess } from '../shared/api/contract.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** The contract the route was registered from (src/shared/api); every route has one. */
    contract?: RouteContract;
  }
  interface FastifyInstance {
    database: Database_;
    auth: AuthService;
    options_: AppOptions;
    /** The server log: use it, not req.log or app.log (Fastify has no logger unless requests are logged). */
    serverLog: Logger;
    /** Every route with its declared access, for the route-permission test. */
    routeList: RegisteredRoute[];
  }
  interface FastifyRequest {
    staff: { user: Readonly<UserRow>; actor: Actor; sessionToken: string } | null;
  }
}

export interface RegisteredRoute {
  method: string;
  url: string;
  access: RouteAccess | undefined;
  contract: RouteContract | undefined;
}

export interface AppOptions {
  database: Database_;
  /** Demo mode: the login page lists the demo accounts. */
  demo?: boolean;
  /** Folder with the built UI (index.html); omitted in API-only tests. */
  uiDir?: string | null;
  /** Server log (pino): errors, start and stop; false for none. */
  logger?: LoggerOption;
  /** Also a line per request (method, path, status, time): off unless asked for, see docs/decisions.md. */
  logRequests?: boolean;
  /** Marks the session cookie Secure (set when served over HTTPS, e.g. behind a TLS proxy). */
  secureCookies?: boolean;
  version?: string;
}
