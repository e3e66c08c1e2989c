import type { FastifyInstance, FastifyRequest } from 'fastify';
import { setupApi } from '../../shared/api/setup.js';
import { isSetUp, setupLab } from '../../core/setup/service.js';
import { databaseLatencyMs } from '../../core/db/diagnostics.js';
import { describeTarget } from '../../core/db/url.js';
import { writeDataDirConfig } from '../../core/datadir.js';
import { route } from '../contract.js';
import { hostName } from '../plugins/request-guards.js';
import { ConflictError, ForbiddenError } from '../../core/errors.js';
import { checkPostgres, connectionTarget, connectionUrl, setupLabOnPostgres } from '../../core/setup/database.js';

/** Health, and the web setup wizard: open only while the data dir holds no lab. */
export async function setupRoutes(app: FastifyInstance) {
  const db = app.database.db;

  route(app, setupApi.health, async () => {
    const latency = await databaseLatencyMs(app.database);
    return {
      status: 'ok' as const,
      version: app.options_.version ?? null,
      database: { status: 'ok' as const, latency_ms: latency },
      setup_complete: await isSetUp(db),
      time: new Date().toISOString(),
    };
  });

  route(app, setupApi.status, async (req) => {
    if (await isSetUp(db)) return { needs_setup: false };
    if (!setupHostAllowed(app, req)) return { needs_setup: true };
    const d = app.database;
    return {
      needs_setup: true,
      database:
        d.engine === 'sqlite'
          ? { type: 'SQLite' as const, file: d.file }
          : { type: 'PostgreSQL' as const, server: describeTarget(d.target).replace(/^PostgreSQL /, '') },
    };
  });

  const wizardOnly = async (req: FastifyRequest) => {
    if (!setupHostAllowed(app, req)) {
      throw new ForbiddenError(
        'The setup wizard answers only on this computer or its local network address; open it at http://127.0.0.1 or the server’s LAN address',
      );
    }
    if (await isSetUp(db)) throw new ConflictError('This lab is already set up; nothing was changed', 'ALREADY_SET_UP');
  };

  route(app, setupApi.checkDatabase, async (req) => {
    await wizardOnly(req);
    return { check: await checkPostgres(req.body) };
  });

  route(app, setupApi.setup, async (req, reply) => {
    await wizardOnly(req);
    const { database: chosen, ...input } = req.body;
    if (chosen?.type !== 'postgresql') {
      if (chosen?.type === 'sqlite' && app.database.engine !== 'sqlite') {
        throw new ConflictError(
          'This server runs on PostgreSQL; it cannot set up a lab in a SQLite file',
          'DATABASE_FIXED',
        );
      }
      const result = await setupLab(db, input);
      return { organization_id: result.organizationId, admin_id: result.adminId };
    }
    // PostgreSQL chosen in the wizard of a server started on its SQLite default: set the lab up
    // there, remember the database in the data dir, and move this server onto it once answered.
    const o = app.options_;
    if (app.database.engine !== 'sqlite' || !o.switchDatabase || !o.dataDir) {
      throw new ConflictError(
        'This server cannot move to another database; start it with lims serve --database-url to use PostgreSQL',
        'DATABASE_FIXED',
      );
    }
    const result = await setupLabOnPostgres(chosen, input);
    writeDataDirConfig(o.dataDir, { database_url: connectionUrl(chosen) });
    const target = connectionTarget(chosen);
    const switchDatabase = o.switchDatabase;
    reply.raw.once('finish', () => {
      switchDatabase(target).catch((err: unknown) =>
        app.serverLog.error({ err }, 'could not move the server to the PostgreSQL database chosen in the wizard'),
      );
    });
    return { organization_id: result.organizationId, admin_id: result.adminId };
  });
}

export default setupRoutes;

/**
 * A lab that is not set up yet answers the wizard only when the browser reached it by a loopback
 * or private (LAN) address, localhost, the `--host` it listens on, or an `--allowed-hosts` name:
 * a page on a rebinding DNS name cannot set up a lab (and choose its administrator).
 */
export function setupHostAllowed(app: FastifyInstance, req: FastifyRequest): boolean {
  const name = hostName((req.headers.host ?? '').toLowerCase());
  const o = app.options_;
  if (name === 'localhost' || name === o.listenHost?.toLowerCase()) return true;
  if (o.allowedHosts?.some((h) => hostName(h.toLowerCase()) === name)) return true;
  return isLocalAddress(name);
}

/** Loopback, private and link-local IPv4 and IPv6 literals. */
export function isLocalAddress(name: string): boolean {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(name);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)
    );
  }
  if (!name.includes(':')) return false;
  return name === '::1' || /^f[cd][0-9a-f]{0,2}:/.test(name) || /^fe[89ab][0-9a-f]?:/.test(name);
}
