import { statSync } from 'node:fs';
import type { Database_ } from './connection.js';
import type { DatabaseDiagnostics } from '../../shared/schemas/system.js';

export type { DatabaseDiagnostics };

const SYNC = ['OFF', 'NORMAL', 'FULL', 'EXTRA'];

/** Facts an admin needs when something looks wrong: what file, which settings, is it intact. */
export function databaseDiagnostics(d: Database_): DatabaseDiagnostics {
  const t0 = process.hrtime.bigint();
  const quick = d.sqlite.pragma('quick_check', { simple: true }) as string;
  const latency = Number(process.hrtime.bigint() - t0) / 1e6;
  let size = 0;
  try {
    size = statSync(d.file).size;
  } catch {
    size = 0;
  }
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

/** Milliseconds the database takes to answer a trivial query (the health check). */
export function databaseLatencyMs(d: Database_): number {
  const started = process.hrtime.bigint();
  d.sqlite.prepare('SELECT 1').get();
  return Math.round((Number(process.hrtime.bigint() - started) / 1e6) * 1000) / 1000;
}
