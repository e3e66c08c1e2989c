import { sql, type RawBuilder } from 'kysely';
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Db } from './connection.js';
import { engineOf } from './dialect.js';

/**
 * Staging for big writes (an import's new rows): the rows are built and written to TEMP tables
 * before the write lock is taken, and the one transaction that holds it copies them in with
 * INSERT ... SELECT, which is the least an all-or-nothing write of those rows can hold the lock.
 * TEMP tables belong to one connection: SQLite has one per process and Kysely instance;
 * PostgreSQL's pool hands out several, so the staging and its transaction run on one
 * (onOneConnection). A TEMP table holds patient data only for the life of its connection and is
 * dropped when the write ends, either way.
 */

/** Runs `work` on one connection of the pool (PostgreSQL), or on SQLite's only one. */
export function onOneConnection<T>(db: Db, work: (db: Db) => Promise<T>): Promise<T> {
  return engineOf(db) === 'postgres' ? db.connection().execute(work) : work(db);
}

/**
 * A TEMP table with the named columns of `like` (their types) plus `extra` columns (name and
 * type, typed the same on both engines: INTEGER, TEXT), replacing one left by an earlier write.
 */
export async function createStage(
  db: Db,
  name: string,
  like: string,
  columns: readonly string[],
  extra: readonly [string, 'INTEGER' | 'TEXT'][],
): Promise<void> {
  await dropStage(db, name);
  const cols = sql.join(columns.map((c) => sql.ref(c)));
  await sql`CREATE TEMP TABLE ${sql.table(name)} AS SELECT ${cols} FROM ${sql.table(like)} WHERE 1 = 0`.execute(db);
  for (const [column, type] of extra)
    await sql`ALTER TABLE ${sql.table(name)} ADD COLUMN ${sql.ref(column)} ${sql.raw(type)}`.execute(db);
}

/** An index on a stage's column (the copy joins or orders by it). */
export async function indexStage(db: Db, name: string, column: string): Promise<void> {
  await sql`CREATE INDEX ${sql.id(`${name}_${column}`)} ON ${sql.table(name)} (${sql.ref(column)})`.execute(db);
}

/**
 * Once a stage is filled: PostgreSQL never analyzes a TEMP table by itself, and without statistics
 * it joined the audit chain's recursive step by hashing the whole stage at every row (20,000 rows:
 * 9 minutes instead of half a second). SQLite plans the same join on the index without them.
 */
export async function analyzeStage(db: Db, name: string): Promise<void> {
  if (engineOf(db) === 'postgres') await sql`ANALYZE ${sql.table(name)}`.execute(db);
}

export async function dropStage(db: Db, name: string): Promise<void> {
  // SQLite names the TEMP schema so that a main table of the same name is never the one dropped.
  const table = engineOf(db) === 'postgres' ? sql.table(name) : sql`temp.${sql.table(name)}`;
  await sql`DROP TABLE IF EXISTS ${table}`.execute(db);
}

/**
 * `count` new ids of a table's key, never handed out again (an import
 * that fails after taking them leaves a gap, as a rolled-back insert does). SQLite: the table's
 * AUTOINCREMENT counter (sqlite_sequence) moved past them in one short write; PostgreSQL: the
 * column's sequence, which other writers share without waiting. In a transaction of the caller's
 * or in a short one of its own.
 */
export async function reserveIds(db: Db, table: string, count: number): Promise<number[]> {
  if (count <= 0) return [];
  if (engineOf(db) === 'postgres') {
    const r = await sql<{ id: string }>`SELECT nextval(pg_get_serial_sequence(${table}, 'id')) AS id
      FROM generate_series(1, ${count}) ORDER BY 1`.execute(db);
    return r.rows.map((row) => Number(row.id));
  }
  const take = async (trx: Db) => {
    const top = await sql<{ top: number }>`SELECT max(
        coalesce((SELECT seq FROM sqlite_sequence WHERE name = ${table}), 0),
        coalesce((SELECT max(id) FROM ${sql.table(table)}), 0)) AS top`.execute(trx);
    const from = Number(top.rows[0]!.top);
    const moved = await sql`UPDATE sqlite_sequence SET seq = ${from + count} WHERE name = ${table}`.execute(trx);
    if (!Number(moved.numAffectedRows ?? 0))
      await sql`INSERT INTO sqlite_sequence (name, seq) VALUES (${table}, ${from + count})`.execute(trx);
    return from + 1;
  };
  const first = db.isTransaction ? await take(db) : await db.transaction().execute(take);
  return Array.from({ length: count }, (_, i) => first + i);
}

/** The SHA-256 of a text expression as lower-case hex, computed by the database. */
export function sha256Hex(db: Pick<Db, 'getExecutor'>, text: RawBuilder<string>): RawBuilder<string> {
  return engineOf(db) === 'postgres'
    ? sql<string>`encode(sha256(convert_to(${text}, 'UTF8')), 'hex')`
    : sql<string>`lims_sha256(${text})`;
}

/** SQLite has no SHA-256: each connection gets lims_sha256(text), the same digest as Node's. */
export function addSqliteFunctions(sqlite: Database.Database): void {
  sqlite.function('lims_sha256', { deterministic: true }, (text: unknown) =>
    createHash('sha256')
      .update(String(text ?? ''))
      .digest('hex'),
  );
}
