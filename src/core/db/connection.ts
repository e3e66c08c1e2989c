import Database from 'better-sqlite3';
import { chmodSync, existsSync, statSync } from 'node:fs';
import { CompiledQuery, Kysely, SqliteDialect, SqliteDriver, type DatabaseConnection, type QueryResult } from 'kysely';
import type pg from 'pg';
import type { DB } from './schema.js';
import { migrate } from './migrate.js';
import { describeTarget, type DatabaseTarget } from './url.js';
import { openPostgres } from './postgres.js';
import { cacheConnection, cachingDatabase } from './statements.js';
import { addSqliteFunctions } from './staging.js';

export { fixedQuery, OUTSIDE_CHANGES_CHECK_MS, rowsAsArrays, sqliteWalFile, writeUnlessBusy } from './statements.js';

export type Db = Kysely<DB>;

interface DatabaseCommon {
  /** Kysely over the connection: every repository goes through this. */
  db: Db;
  target: DatabaseTarget;
  close(): Promise<void>;
}

export interface SqliteDatabase extends DatabaseCommon {
  engine: 'sqlite';
  /** The raw better-sqlite3 handle: for src/core/db only (backup, FTS, integrity checks). */
  sqlite: Database.Database;
  file: string;
}

export interface PostgresDatabase extends DatabaseCommon {
  engine: 'postgres';
  /** The raw pool: for src/core/db only (diagnostics, copy). */
  pool: pg.Pool;
  /** Whether other servers' changes are being heard (LISTEN connected). */
  listening(): boolean;
}

/** The lab's database on either engine. */
export type Database_ = SqliteDatabase | PostgresDatabase;

/** How long a write made through Kysely waits, in all, for another connection's write lock. */
const LOCK_WAIT_MS = 5000;
const BUSY_TIMEOUT = `busy_timeout = ${LOCK_WAIT_MS}`;

const isBusy = (err: unknown) => String((err as { code?: unknown })?.code).startsWith('SQLITE_BUSY');

/**
 * A connection whose writes wait for the write lock without stopping the event loop. SQLite's own
 * wait (busy_timeout) sleeps in the calling thread: while an import on a worker thread holds the
 * lock, one request's write would hold every other request of the server with it. Here a write (a
 * statement outside a transaction, or the BEGIN IMMEDIATE of one) is tried at once and, while the
 * lock is held elsewhere, tried again after short pauses in which the server answers others, for
 * LOCK_WAIT_MS in all; then it fails as it did before (SQLITE_BUSY). Reads (WAL: never locked out)
 * and statements inside a transaction (which holds the lock) run as they are.
 */
function waitingForLock(
  conn: DatabaseConnection,
  sqlite: Database.Database,
  /** Gives Kysely's connection lock back for a pause, and takes it again: others' queries run meanwhile. */
  pause: (ms: number) => Promise<void>,
): DatabaseConnection {
  /** The statement's result, or the SQLITE_BUSY error when the lock is held elsewhere. */
  const tryOnce = <R>(q: CompiledQuery): { done: Promise<QueryResult<R>> } | { busy: unknown } => {
    sqlite.pragma('busy_timeout = 0');
    try {
      return { done: conn.executeQuery<R>(q) };
    } catch (err) {
      if (!isBusy(err)) throw err;
      return { busy: err };
    } finally {
      sqlite.pragma(BUSY_TIMEOUT);
    }
  };
  return {
    executeQuery: async <R>(q: CompiledQuery) => {
      if (sqlite.inTransaction || q.query.kind === 'SelectQueryNode') return conn.executeQuery<R>(q);
      const deadline = Date.now() + LOCK_WAIT_MS;
      for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
        const tried = tryOnce<R>(q);
        if ('done' in tried) return tried.done;
        if (Date.now() >= deadline) throw tried.busy;
        await pause(wait);
      }
    },
    streamQuery: (q, chunkSize) => conn.streamQuery(q, chunkSize),
  };
}

/** Write transactions take the write lock up front, so a concurrent writer (e.g. the CLI) waits instead of failing. */
class ImmediateSqliteDriver extends SqliteDriver {
  constructor(
    config: ConstructorParameters<typeof SqliteDriver>[0],
    private readonly sqlite: Database.Database,
  ) {
    super(config);
  }
  private wrapped: DatabaseConnection | null = null;
  override async acquireConnection(): Promise<DatabaseConnection> {
    const conn = await super.acquireConnection();
    // One connection behind Kysely's lock: wrapped once, the same object every time.
    return (this.wrapped ??= waitingForLock(conn, this.sqlite, async (ms) => {
      await super.releaseConnection();
      await new Promise((r) => setTimeout(r, ms));
      await super.acquireConnection();
    }));
  }
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];
  constructor(
    config: ConstructorParameters<typeof SqliteDialect>[0],
    private readonly sqlite: Database.Database,
  ) {
    super(config);
    this.#config = config;
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.#config, this.sqlite);
  }
}

/** Where changeStamp reads, for each Kysely instance opened on either engine. */
const stampSources = new WeakMap<Db, (nowMs: number) => string | null>();

/**
 * A value that changes whenever the database may have changed: at once for every write made through
 * Kysely or fixedQuery on this connection, and within OUTSIDE_CHANGES_CHECK_MS for anything else (a
 * commit by another connection such as the CLI, a write through the raw handle). A result read from
 * the database stays valid while the stamp is unchanged. Null inside a transaction or for a Kysely
 * instance that openDatabase did not make: then nothing may be reused.
 */
export function changeStamp(db: Db, nowMs = Date.now()): string | null {
  return stampSources.get(db)?.(nowMs) ?? null;
}

/**
 * The database and its WAL and shared-memory files hold every patient's data: this user's only
 * (0600), also when an older lims or another umask made them readable by others.
 */
function ownerOnly(file: string): void {
  if (file === ':memory:') return;
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if (existsSync(f) && (statSync(f).mode & 0o077) !== 0) chmodSync(f, 0o600);
    } catch {
      // A file we cannot change (not ours): left as it is; lims still runs.
    }
  }
}

export function applyPragmas(sqlite: Database.Database): void {
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
}

/** Opens (creating if needed) the SQLite database, applies pragmas and pending migrations. */
export function openDatabase(file: string, opts: { readonly?: boolean } = {}): SqliteDatabase {
  const sqlite = new Database(file, { readonly: opts.readonly ?? false, fileMustExist: opts.readonly ?? false });
  if (!opts.readonly) {
    applyPragmas(sqlite);
    ownerOnly(file);
  } else sqlite.pragma('busy_timeout = 5000');
  addSqliteFunctions(sqlite);
  if (!opts.readonly) migrate(sqlite);
  const connection = cachingDatabase(sqlite);
  const db = new Kysely<DB>({
    dialect: new ImmediateSqliteDialect({ database: connection as unknown as Database.Database }, sqlite),
  });
  cacheConnection(db, connection);
  stampSources.set(db, (nowMs) => (sqlite.inTransaction ? null : connection.stamp(nowMs)));
  return {
    engine: 'sqlite',
    db,
    sqlite,
    file,
    target: { kind: 'sqlite', file },
    async close() {
      await db.destroy();
    },
  };
}

/**
 * Opens the database a target names, on its engine, with pending migrations applied. On
 * PostgreSQL the connection is checked first, so a wrong host or password is one clear error.
 */
export async function openDatabaseAt(
  target: DatabaseTarget,
  opts: { readonly?: boolean; listen?: boolean } = {},
): Promise<Database_> {
  if (target.kind === 'sqlite') return openDatabase(target.file, opts);
  const { db, pool, changes } = await openPostgres(target, { listen: opts.listen });
  stampSources.set(db, () => changes.stamp());
  return {
    engine: 'postgres',
    db,
    pool,
    target,
    listening: () => changes.listening,
    async close() {
      await changes.close();
      await db.destroy();
      // Kysely ends the pool only if it ever used it; connections opened for migrations would
      // otherwise keep a short command alive until their idle timeout.
      if (!pool.ended) await pool.end().catch(() => undefined);
    },
  };
}

/** "SQLite /path/lims.db" or "PostgreSQL user@host:5432/name": never a password. */
export function describeDatabase(d: Database_): string {
  return describeTarget(d.target);
}
