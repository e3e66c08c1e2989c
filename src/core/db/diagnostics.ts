import { statSync } from 'node:fs';
import type { Database_, PostgresDatabase, SqliteDatabase } from './connection.js';
import { describeTarget } from './url.js';
import type { DatabaseDiagnostics } from '../../shared/schemas/system.js';

export type { DatabaseDiagnostics };

const SYNC = ['OFF', 'NORMAL', 'FULL', 'EXTRA'];

/** Facts an admin needs when something looks wrong: what database, which settings, is it intact. */
export async function databaseDiagnostics(d: Database_): Promise<DatabaseDiagnostics> {
  return d.engine === 'sqlite' ? sqliteDiagnostics(d) : postgresDiagnostics(d);
}

function sqliteDiagnostics(d: SqliteDatabase): DatabaseDiagnostics {
  const t0 = process.hrtime.bigint();
  const quick = d.sqlite.pragma('quick_check', { simple: true }) as string;
  const latency = Number(process.hrtime.bigint() - t0) / 1e6;
  // The database is the file and its write-ahead log (recent writes live there until a checkpoint).
  const sizeOf = (f: string) => {
    try {
      return statSync(f).size;
    } catch {
      return 0;
    }
  };
  const size = sizeOf(d.file) + sizeOf(`${d.file}-wal`);
  const version = d.sqlite.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number };
  return {
    type: 'SQLite',
    file: d.file,
    size_bytes: size,
    sqlite_version: (d.sqlite.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v,
    journal_mode: String(d.sqlite.pragma('journal_mode', { simple: true })),
    synchronous: SYNC[Number(d.sqlite.pragma('synchronous', { simple: true }))] ?? 'unknown',
    foreign_keys: Number(d.sqlite.pragma('foreign_keys', { simple: true })) === 1,
    schema_version: version.v,
    quick_check: quick,
    latency_ms: Math.round(latency * 100) / 100,
  };
}

/**
 * PostgreSQL keeps its own integrity (checksums, WAL); the quick check here confirms what lims
 * relies on: every migration applied and the foreign keys and triggers of the schema in place.
 */
async function postgresDiagnostics(d: PostgresDatabase): Promise<DatabaseDiagnostics> {
  const latency = await databaseLatencyMs(d);
  const facts = await d.pool.query<{ size: number; version: string; schema_version: number; invalid: number }>(
    `SELECT pg_database_size(current_database()) AS size,
            current_setting('server_version') AS version,
            (SELECT max(version) FROM schema_migrations) AS schema_version,
            (SELECT count(*) FROM pg_constraint WHERE NOT convalidated AND connamespace = current_schema()::regnamespace) AS invalid`,
  );
  const row = facts.rows[0]!;
  return {
    type: 'PostgreSQL',
    server: describeTarget(d.target).replace(/^PostgreSQL /, ''),
    size_bytes: Number(row.size),
    server_version: row.version,
    change_listener: d.listening(),
    pool_size: d.pool.totalCount,
    schema_version: Number(row.schema_version),
    quick_check: Number(row.invalid) === 0 ? 'ok' : `${row.invalid} constraints not validated`,
    latency_ms: latency,
  };
}

/** Milliseconds the database takes to answer a trivial query (the health check). */
export async function databaseLatencyMs(d: Database_): Promise<number> {
  const started = process.hrtime.bigint();
  if (d.engine === 'sqlite') d.sqlite.prepare('SELECT 1').get();
  else await d.pool.query('SELECT 1');
  return Math.round((Number(process.hrtime.bigint() - started) / 1e6) * 1000) / 1000;
}
