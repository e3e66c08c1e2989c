import type { FastifyInstance } from 'fastify';
import { openDatabase, openDatabaseAt } from '../src/core/db/connection.js';
import { parseDatabaseUrl } from '../src/core/db/url.js';
import { buildApp } from '../src/server/app.js';
import { bareApp, bareAppPostgres } from './bare.js';

/**
 * One server under test, run in its own process so the load generator does not share its event
 * loop: `node server.js lims|bare|lims-pg|bare-pg <db file or URL> <organization id>`. It listens on a free loopback port,
 * reports the port to the parent over IPC, answers 'cpu' with its CPU time so far and exits when the
 * parent goes away.
 */

export type ServerKind = 'lims' | 'bare' | 'lims-pg' | 'bare-pg';
const KINDS: readonly string[] = ['lims', 'bare', 'lims-pg', 'bare-pg'];

async function main(): Promise<void> {
  const [kind, file, org] = process.argv.slice(2);
  if (!kind || !KINDS.includes(kind) || !file || !org) {
    throw new Error('usage: server.js lims|bare|lims-pg|bare-pg <db file or URL> <organization id>');
  }
  let app: FastifyInstance;
  let close: () => Promise<void> | void;
  if (kind === 'bare') {
    ({ app, close } = bareApp(file, Number(org)));
  } else if (kind === 'bare-pg') {
    ({ app, close } = bareAppPostgres(file, Number(org)));
  } else {
    const database = kind === 'lims-pg' ? await openDatabaseAt(parseDatabaseUrl(file)) : openDatabase(file);
    // As `lims serve` runs it: the server log on (errors, start, stop), no line per request. The
    // log goes to stderr here, so the parent's report on stdout stays clean.
    app = await buildApp({ database, logger: { stream: process.stderr }, logRequests: false });
    close = () => database.close();
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the server has no TCP address');
  process.send?.({ port: address.port });
  // The parent asks for this process's CPU time around each run, to report CPU time per request.
  process.on('message', (m: unknown) => {
    if (m === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send?.({ cpuMicros: user + system, user, system });
    }
  });
  process.on('disconnect', () => {
    void app
      .close()
      .then(() => close())
      .finally(() => process.exit(0));
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`bench server: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
