/**
 * The database under test, on the engine of the vitest project: SQLite files in temp
 * dirs, or one fresh PostgreSQL database per lab, cloned from the migrated template.
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import pg from 'pg';
import { CompiledQuery } from 'kysely';
import Database from 'better-sqlite3';
import { applyPragmas, openDatabase, openDatabaseAt, type Database_ } from '../src/core/db/connection.js';
import { migrate } from '../src/core/db/migrate.js';
import { migratePostgres, openPostgres } from '../src/core/db/postgres.js';
import type { Migration } from '../src/core/db/migrations/index.js';
import { parseDatabaseUrl, type DatabaseTarget } from '../src/core/db/url.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PostgreSQL server of the run (test/postgres-server.ts, the postgres projects' globalSetup). */
    pgAdminUrl: string;
  }
}

export type TestEngine = 'sqlite' | 'postgres';

export const ENGINE: TestEngine = process.env.LIMS_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

const TEMPLATE_DB = 'lims_test_template';
let counter = 0;

function adminTarget(): Extract<DatabaseTarget, { kind: 'postgres' }> {
  const t = parseDatabaseUrl(inject('pgAdminUrl'));
  if (t.kind !== 'postgres') throw new Error('pgAdminUrl is not a postgres URL');
  return t;
}

/** The URL of a new, migrated, empty PostgreSQL database (or, with empty: true, one with no tables). */
export async function freshPostgresUrl(opts: { empty?: boolean } = {}): Promise<string> {
  const t = adminTarget();
  counter += 1;
  const name = `lims_t_${process.pid}_${counter}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ host: t.host, port: t.port, user: t.user, password: t.password, database: t.database });
  await admin.connect();
  try {
    // CREATE DATABASE ... TEMPLATE fails while another session uses the template: retry briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(opts.empty ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`);
        break;
      } catch (err) {
        if (attempt > 20 || !/being accessed by other users/.test((err as Error).message)) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    await admin.end();
  }
  const pw = t.password === undefined ? '' : `:${encodeURIComponent(t.password)}`;
  return `postgres://${encodeURIComponent(t.user)}${pw}@${t.host}:${t.port}/${name}`;
}

let sqliteTemplate: string | undefined;

/**
 * A migrated, empty SQLite file, made once per test process: fresh test databases are copies of
 * it (a file copy instead of running every migration again, as PostgreSQL clones its template).
 */
async function migratedSqliteTemplate(): Promise<string> {
  if (sqliteTemplate === undefined) {
    const file = join(mkdtempSync(join(tmpdir(), 'lims-template-')), 'lims.db');
    // Closing the only connection checkpoints the WAL into the file, so the file alone is the database.
    await openDatabase(file).close();
    sqliteTemplate = file;
  }
  return sqliteTemplate;
}

/**
 * The target of a fresh, migrated, empty database on this project's engine (SQLite: a new file in
 * a temp dir, copied from the migrated template).
 */
export async function freshTarget(dir = mkdtempSync(join(tmpdir(), 'lims-test-'))): Promise<DatabaseTarget> {
  if (ENGINE === 'sqlite') {
    const file = join(dir, 'lims.db');
    copyFileSync(await migratedSqliteTemplate(), file);
    return { kind: 'sqlite', file };
  }
  return parseDatabaseUrl(await freshPostgresUrl());
}

/**
 * A database on this project's engine at the migrations `before` holding the rows `seed` inserts,
 * then opened as lims opens it (applying the rest): how a migration meets a lab's existing data.
 */
export async function openMigratedFrom(before: Migration[], seed: string[]): Promise<Database_> {
  if (ENGINE === 'sqlite') {
    const file = join(mkdtempSync(join(tmpdir(), 'lims-test-')), 'lims.db');
    const sqlite = new Database(file);
    applyPragmas(sqlite);
    migrate(sqlite, before);
    for (const s of seed) sqlite.exec(s);
    sqlite.close();
    return openDatabase(file);
  }
  const target = parseDatabaseUrl(await freshPostgresUrl({ empty: true }));
  if (target.kind !== 'postgres') throw new Error('not postgres');
  const handle = await openPostgres(target, { migrate: false, listen: false });
  await migratePostgres(handle.pool, before);
  for (const s of seed) await handle.pool.query(s);
  await handle.db.destroy();
  if (!handle.pool.ended) await handle.pool.end();
  await handle.changes.close();
  return openDatabaseAt(target);
}

/** A fresh, migrated database on this project's engine. */
export async function openTestDatabase(dir?: string): Promise<Database_> {
  return openDatabaseAt(await freshTarget(dir));
}

/**
 * Rows of a SQL query written with `?` placeholders, on either engine: what tests read straight
 * from the tables to check what was stored.
 */
export async function rows<T = Record<string, unknown>>(
  database: Database_,
  text: string,
  ...params: unknown[]
): Promise<T[]> {
  let i = 0;
  const compiled = database.engine === 'postgres' ? text.replace(/\?/g, () => `$${++i}`) : text;
  const r = await database.db.executeQuery<T>(CompiledQuery.raw(compiled, params));
  return r.rows;
}

export async function row<T = Record<string, unknown>>(
  database: Database_,
  text: string,
  ...params: unknown[]
): Promise<T | undefined> {
  return (await rows<T>(database, text, ...params))[0];
}

/** Runs a statement (no rows back) on either engine. */
export async function exec(database: Database_, text: string, ...params: unknown[]): Promise<void> {
  await rows(database, text, ...params);
}

/** Makes every audit insert fail (the database refuses it), to prove a change and its audit row go together. */
export async function breakAuditInserts(database: Database_): Promise<() => Promise<void>> {
  if (database.engine === 'sqlite') {
    database.sqlite.exec(
      "CREATE TRIGGER audit_fails BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit unavailable'); END",
    );
    return async () => void database.sqlite.exec('DROP TRIGGER audit_fails');
  }
  await exec(
    database,
    `CREATE FUNCTION audit_fails() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit unavailable'; END $$`,
  );
  await exec(
    database,
    'CREATE TRIGGER audit_fails BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_fails()',
  );
  return async () => {
    await exec(database, 'DROP TRIGGER audit_fails ON audit_log');
    await exec(database, 'DROP FUNCTION audit_fails()');
  };
}

/** Lifts the append-only guard of audit_log for one kind of change, as an attacker with database access could. */
export async function dropAuditGuard(database: Database_, which: 'update' | 'delete'): Promise<void> {
  const name = which === 'update' ? 'audit_log_no_update' : 'audit_log_no_delete';
  if (database.engine === 'sqlite') database.sqlite.exec(`DROP TRIGGER ${name}`);
  else await exec(database, `DROP TRIGGER ${name} ON audit_log`);
}
