import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { openDatabaseAt, type Database_ } from '../core/db/connection.js';
import { describeTarget, type DatabaseTarget } from '../core/db/url.js';
import type { AppOptions } from './types.js';
import { startCheckpoints } from '../core/db/checkpoint.js';
import { dataPaths } from '../core/datadir.js';
import { ensureDemoLab } from '../core/setup/demo.js';
import { buildApp } from './app.js';
import { packageVersion } from '../core/version.js';
import { lockDataDir } from '../core/datadir-lock.js';
import { interfaceListeners } from '../core/interfaces/listeners.js';
import { createScheduler, type Scheduler } from '../core/scheduler.js';
import { serverJobs } from './jobs.js';
import type { UploadLimits } from '../core/data-jobs/uploads.js';
import type { LogFormat } from './log-format.js';

export interface ServeOptions {
  dataDir: string;
  /** The lab's database (default: the data dir's lims.db). */
  target?: DatabaseTarget;
  port: number;
  host: string;
  demo: boolean;
  quiet?: boolean;
  /** A log line for every request, besides errors. */
  logRequests?: boolean;
  /** JSON lines (for a log collector) or readable lines (a terminal); lims serve picks by stdout. */
  logFormat?: LogFormat;
  trustProxy?: boolean;
  secureCookies?: boolean;
  allowedHosts?: string[];
  /** The root of the labs' watched folders (`--drop-root`); default `<data dir>/drop`. */
  dropRoot?: string;
  /** Addresses besides `host` that a lab's analyzer listener may bind (`--listener-hosts`). */
  listenerHosts?: string[];
  /** `--allow-private-outbound`: the labs' outbound targets may be any address (src/core/net/outbound.ts). */
  allowPrivateOutbound?: boolean;
  /** `--upload-limit`, `--upload-quota`: the data screens' uploads (src/core/data-jobs/uploads.ts). */
  uploadLimits?: UploadLimits;
}

/** The built UI sits beside the compiled server: dist/public. */
export function defaultUiDir(): string {
  return fileURLToPath(new URL('../../public', import.meta.url));
}

/** Starts the server and resolves once it listens; SIGINT/SIGTERM close it cleanly. */
export async function serve(opts: ServeOptions): Promise<{ url: string; close: () => Promise<void> }> {
  const paths = dataPaths(opts.dataDir, { create: true });
  // One server per data dir, and no restore, copy or import under it: refused at once (DataDirBusy).
  const lock = lockDataDir(paths.dir, 'lims serve', { servePid: true });
  try {
    return await start(opts, paths, lock.release);
  } catch (err) {
    lock.release();
    throw err;
  }
}

async function start(
  opts: ServeOptions,
  paths: ReturnType<typeof dataPaths>,
  releaseLock: () => void,
): Promise<{ url: string; close: () => Promise<void> }> {
  const database = await openDatabaseAt(opts.target ?? { kind: 'sqlite', file: paths.dbFile });
  const dropRoot = resolve(opts.dropRoot ?? join(paths.dir, 'drop'));
  if (opts.demo) {
    try {
      await ensureDemoLab(database.db);
    } catch (err) {
      await database.close();
      throw err;
    }
  }
  let scheduler: Scheduler | null = null;
  const appOptions = (db: Database_): AppOptions => ({
    database: db,
    demo: opts.demo,
    uiDir: defaultUiDir(),
    logger: opts.quiet ? false : { format: opts.logFormat ?? 'json' },
    logRequests: opts.logRequests ?? false,
    trustProxy: opts.trustProxy ?? false,
    secureCookies: opts.secureCookies ?? false,
    allowedHosts: opts.allowedHosts,
    listenHost: opts.host,
    version: packageVersion(),
    dataDir: paths.dir,
    dropRoot,
    listenerHosts: opts.listenerHosts,
    allowPrivateOutbound: opts.allowPrivateOutbound ?? false,
    uploadLimits: opts.uploadLimits,
    switchDatabase,
    jobStatus: () => scheduler?.status() ?? [],
  });
  let current: { app: FastifyInstance; database: Database_ } = { app: await buildApp(appOptions(database)), database };
  try {
    await current.app.listen({ port: opts.port, host: opts.host });
  } catch (err) {
    await current.app.close();
    await database.close();
    throw err;
  }
  // SQLite's checkpoints on a thread of their own, never on the thread that answers requests.
  const checkpointError = (err: unknown) => current.app.serverLog.error({ err }, 'the WAL checkpoint thread stopped');
  let stopCheckpoints = startCheckpoints(database, checkpointError);
  // The jobs log through whichever app serves now (the wizard may switch databases).
  const jobLog = {
    info: (obj: object, msg: string) => current.app.serverLog.info(obj, msg),
    warn: (obj: object, msg: string) => current.app.serverLog.warn(obj, msg),
    error: (obj: object, msg: string) => current.app.serverLog.error(obj, msg),
  };
  const allowPrivateOutbound = opts.allowPrivateOutbound ?? false;
  // The enabled machine connections listen while the server runs; a port in use is shown on its connection.
  const interfaces = interfaceListeners(() => current.database.db, jobLog, {
    bindHost: opts.host,
    dropRoot,
    listenerHosts: [opts.host, ...(opts.listenerHosts ?? [])],
    allowPrivateOutbound,
  });
  // Every recurring job of the server on one scheduler (src/server/jobs.ts), shown on the System screen.
  scheduler = createScheduler(
    [
      ...serverJobs({
        database: () => current.database,
        log: jobLog,
        backupsDir: paths.backupsDir,
        dataDir: paths.dir,
        allowPrivateOutbound,
      }),
      ...interfaces.jobs,
    ],
    jobLog,
  );
  scheduler.start();
  const shownHost = opts.host === '0.0.0.0' || opts.host === '::' ? 'localhost' : opts.host;
  const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${opts.port}`;
  let closing = false;
  let switching: Promise<void> = Promise.resolve();

  /**
   * The wizard set the lab up on PostgreSQL: answer from there from now on. The new app is built on
   * the new database first; the old one then finishes its open requests and lets go of the port,
   * and the new one takes it (a browser's next request may wait a moment, never fail for good).
   */
  async function switchDatabase(target: DatabaseTarget): Promise<void> {
    switching = switching.then(async () => {
      if (closing) return;
      const nextDatabase = await openDatabaseAt(target);
      const nextApp = await buildApp(appOptions(nextDatabase));
      const previous = current;
      // No job runs on the database being closed: they pause for the move and resume on the new one.
      await scheduler?.stop();
      await previous.app.close();
      await stopCheckpoints();
      await previous.database.close();
      stopCheckpoints = startCheckpoints(nextDatabase, checkpointError);
      await nextApp.listen({ port: opts.port, host: opts.host });
      current = { app: nextApp, database: nextDatabase };
      scheduler?.start();
      current.app.serverLog.info(
        { database: describeTarget(target) },
        'the lab now runs on the database chosen in the setup wizard',
      );
    });
    return switching;
  }

  const close = async () => {
    if (closing) return;
    closing = true;
    // A server closed by its caller (tests, the CLI) leaves no signal handler behind.
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await switching.catch(() => undefined);
    await scheduler?.stop();
    await interfaces.stop();
    await current.app.close();
    await stopCheckpoints();
    await current.database.close();
    releaseLock();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    process.stderr.write(`\nlims: ${signal} received, finishing open requests and closing the database...\n`);
    close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`lims: error while shutting down: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return { url, close };
}
