import type { Database_ } from '../core/db/connection.js';
import type { DatabaseTarget } from '../core/db/url.js';
import type { Actor } from '../core/context.js';
import type { UserRow } from '../core/users/repository.js';
import type { UploadLimits } from '../core/data-jobs/uploads.js';
import type { AuthService } from '../core/sign-in/service.js';
import type { Logger } from 'pino';
import type { LoggerOption } from './logging.js';
import type { RequestRate } from './plugins/request-guards.js';
import type { JobStatus } from '../core/scheduler.js';

import type { RouteAccess, RouteContract } from '../shared/api/contract.js';
import type { Permission } from '../shared/roles.js';
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
    /** Requests per address to the routes that need no sign-in (plugins/request-guards.ts). */
    publicRate: RequestRate;
  }
  interface FastifyRequest {
    staff: {
      user: Readonly<UserRow>;
      actor: Actor;
      sessionToken: string;
      /** The user's role's permissions in their lab's table (the Permission Manager). */
      permissions: readonly Permission[];
    } | null;
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
  /** The data dir (lims serve): where the wizard stores a PostgreSQL database chosen for the lab. */
  dataDir?: string;
  /**
   * The server operator's root of watched folders (`lims serve --drop-root`): a lab's folder
   * connection may only name a folder inside `<root>/lab-<id>`. Absent: folder connections are refused.
   */
  dropRoot?: string;
  /**
   * The server operator's limits on the data screens' uploads (`lims serve --upload-limit`,
   * `--upload-quota`): one file, and what one lab may hold at once. Absent: DEFAULT_UPLOAD_LIMITS.
   */
  uploadLimits?: UploadLimits;
  /** `--listener-hosts`: addresses besides `--host` that a lab's analyzer listener may bind. */
  listenerHosts?: readonly string[];
  /**
   * `--allow-private-outbound`: a lab's outbound targets (SMS gateway, mail server, report
   * receivers, analyzers dialled) may be any address, this machine's and link-local ones included.
   * Off: see src/core/net/outbound.ts.
   */
  allowPrivateOutbound?: boolean;
  /**
   * Moves the running server onto another database (lims serve provides it): the wizard's
   * PostgreSQL choice. Absent in tests that build the app alone.
   */
  switchDatabase?: (target: DatabaseTarget) => Promise<void>;
  /**
   * The background jobs of the server's scheduler, for the System screen (lims serve provides it;
   * an app built alone runs no jobs and lists none).
   */
  jobStatus?: () => JobStatus[];
  /** Demo mode: the login page lists the demo accounts. */
  demo?: boolean;
  /** Folder with the built UI (index.html); omitted in API-only tests. */
  uiDir?: string | null;
  /** Server log (pino): errors, start and stop; false for none. */
  logger?: LoggerOption;
  /** Also a line per request (method, path, status, time): off unless asked for, see docs/decisions.md. */
  logRequests?: boolean;
  /** Marks the session cookies Secure (`--secure-cookies`: served over HTTPS, e.g. behind a TLS proxy). */
  secureCookies?: boolean;
  /**
   * `--trust-proxy`: behind a reverse proxy, take the client address (X-Forwarded-For) and the
   * protocol (X-Forwarded-Proto) it forwards; cookies are then Secure when the proxy says https.
   * Off by default: without a proxy anyone could claim any address.
   */
  trustProxy?: boolean | string;
  /** `--allowed-hosts`: the host names the server answers (DNS-rebinding guard); absent: any. */
  allowedHosts?: readonly string[];
  /** The address the server listens on (`--host`): the setup wizard also answers on it. */
  listenHost?: string;
  /** Requests per minute one address may make to public routes (default 300). */
  publicRequestsPerMinute?: number;
  version?: string;
}
