import { fileURLToPath } from 'node:url';
import { openDatabaseAt } from '../core/db/connection.js';
import type { DatabaseTarget } from '../core/db/url.js';
import { dataPaths } from '../core/datadir.js';
import { ensureDemoLab } from '../core/setup/demo.js';
import { buildApp } from './app.js';
import { packageVersion } from '../core/version.js';
import { removeServeLock, writeServeLock } from '../core/serve-lock.js';

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
  trustProxy?: boolean;
  secureCookies?: boolean;
  allowedHosts?: string[];
}

/** The built UI sits beside the compiled server: dist/public. */
export function defaultUiDir(): string {
  return fileURLToPath(new URL('../../public', import.meta.url));
}

/** Starts the server and resolves once it listens; SIGINT/SIGTERM close it cleanly. */
export async function serve(opts: ServeOptions): Promise<{ url: string; close: () => Promise<void> }> {
  const paths = dataPaths(opts.dataDir, { create: true });
  const database = await openDatabaseAt(opts.target ?? { kind: 'sqlite', file: paths.dbFile });
  if (opts.demo) {
    try {
      await ensureDemoLab(database.db);
    } catch (err) {
      await database.close();
      throw err;
    }
  }
  const app = await buildApp({
    database,
    demo: opts.demo,
    uiDir: defaultUiDir(),
    logger: opts.quiet ? false : true,
    logRequests: opts.logRequests ?? false,
    trustProxy: opts.trustProxy ?? false,
    secureCookies: opts.secureCookies ?? false,
    allowedHosts: opts.allowedHosts,
    listenHost: opts.host,
    version: packageVersion(),
  });
  try {
    await app.listen({ port: opts.port, host: opts.host });
  } catch (err) {
    await app.close();
    await database.close();
    throw err;
  }
  writeServeLock(paths.dir);
  const shownHost = opts.host === '0.0.0.0' || opts.host === '::' ? 'localhost' : opts.host;
  const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${opts.port}`;
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    await app.close();
    await database.close();
    removeServeLock(paths.dir);
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
