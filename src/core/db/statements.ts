import type Database from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';
import type { Db } from './connection.js';
import { engineOf } from './dialect.js';

/**
 * The statement cache of a SQLite connection, and the queries that use it: fixed-shape look-ups
 * compiled once, rows as arrays for exports, a write that may be left for later. openDatabase
 * (connection.ts) registers each connection it opens with `cacheConnection`.
 */

const STATEMENT_CACHE_SIZE = 500;
/** Raw-mode statements (rowsAsArrays): a page of an export is the same SQL each time. */
const RAW_CACHE_SIZE = 50;

/** How often changeStamp asks SQLite about changes made outside this connection's statement cache. */
export const OUTSIDE_CHANGES_CHECK_MS = 250;

/**
 * better-sqlite3 prepares a statement on every Kysely call; preparing is the dominant cost of a
 * simple query. This wrapper keeps prepared statements by SQL text (bounded, least-recently-used).
 * It also counts the statements it hands out that can write (not read-only in SQLite's sense),
 * which is every write made through Kysely or fixedQuery: changeStamp's own writes, for free.
 */
export function cachingDatabase(sqlite: Database.Database) {
  const cache = new Map<string, { stmt: Database.Statement; writes: boolean }>();
  const rawCache = new Map<string, Database.Statement>();
  let writes = 0;
  // Changes made elsewhere: total_changes() also counts writes through the raw handle, data_version
  // moves when another connection (the CLI, another process) commits. Asked at most every
  // OUTSIDE_CHANGES_CHECK_MS: each is a trip into SQLite, and the session check runs on every request.
  const totalChanges = sqlite.prepare('SELECT total_changes()').pluck();
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  let outside = '';
  let outsideCheckedAt = Number.NEGATIVE_INFINITY;
  return {
    sqlite,
    stamp(nowMs: number): string {
      if (nowMs - outsideCheckedAt >= OUTSIDE_CHANGES_CHECK_MS || nowMs < outsideCheckedAt) {
        outside = `${totalChanges.get() as number}:${dataVersion.get() as number}`;
        outsideCheckedAt = nowMs;
      }
      return `${writes}:${outside}`;
    },
    close: () => sqlite.close(),
    prepare(sql: string) {
      let entry = cache.get(sql);
      if (entry) {
        cache.delete(sql);
      } else {
        const stmt = sqlite.prepare(sql);
        entry = { stmt, writes: !stmt.readonly };
        if (cache.size >= STATEMENT_CACHE_SIZE) {
          const oldest = cache.keys().next().value;
          if (oldest !== undefined) cache.delete(oldest);
        }
      }
      cache.set(sql, entry);
      if (entry.writes) writes += 1;
      return entry.stmt;
    },
    /** A read-only statement in raw mode (rows as arrays), kept by SQL text apart from the shared cache. */
    prepareRaw(sql: string) {
      let stmt = rawCache.get(sql);
      if (!stmt) {
        stmt = sqlite.prepare(sql).raw(true);
        if (rawCache.size >= RAW_CACHE_SIZE) rawCache.delete(rawCache.keys().next().value!);
        rawCache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

type CachingDatabase = ReturnType<typeof cachingDatabase>;

/** The SQLite connection behind each Kysely instance openDatabase made (not its transactions). */
const connections = new WeakMap<Db, CachingDatabase>();

type Scalar = string | number | bigint | null;

/** A Kysely query builder, or a raw `sql` template (which compiles against a Kysely instance). */
interface Compiles<R> {
  compile(db: Db): CompiledQuery<R>;
}

/**
 * A query of fixed shape, built and compiled by Kysely once and then run with fresh arguments:
 * for a look-up by key, building and compiling the query costs several times running it, and
 * the session and patient look-ups run on every request. `build` names each argument where a value
 * goes (scalars only: an `in` list of varying length is not a fixed shape).
 *
 * On a Kysely instance from openDatabase, while no transaction is open on the connection, the cached
 * statement runs at once: better-sqlite3 is synchronous, so this is what Kysely does, less its
 * bookkeeping. Inside a transaction, or while one is open (it holds Kysely's connection lock), the
 * query goes through Kysely, so it joins or waits for that transaction exactly as before.
 */
interface Compiled<R> {
  query: CompiledQuery<R>;
  /** For each parameter: the argument it takes (>= 0), or -1 with the constant it keeps. */
  slots: { arg: number; value: unknown }[];
}

export function fixedQuery<A extends Scalar[], R>(build: (db: Db, ...args: A) => Compiles<R>) {
  // One compiled form per engine: `lims db copy` holds a SQLite and a PostgreSQL database at once.
  let compiledSqlite: Compiled<R> | null = null;
  let compiledPostgres: Compiled<R> | null = null;

  const compiledFor = (db: Db): Compiled<R> =>
    engineOf(db) === 'postgres' ? (compiledPostgres ??= compile(db)) : (compiledSqlite ??= compile(db));

  const compile = (db: Db): Compiled<R> => {
    // Build with a unique marker per declared argument (so: no default or rest arguments), then find
    // where each marker landed among the parameters.
    const markers = Array.from({ length: Math.max(0, build.length - 1) }, (_, i) => `\u0000fixedQuery-arg-${i}\u0000`);
    const query = build(db, ...(markers as A)).compile(db);
    const slots = query.parameters.map((value) => ({ arg: markers.indexOf(value as string), value }));
    markers.forEach((m, i) => {
      if (!query.parameters.includes(m))
        throw new Error(`fixedQuery: argument ${i + 1} is not a parameter of: ${query.sql}`);
    });
    return { query, slots };
  };

  const parametersOf = (c: Compiled<R>, args: A) => c.slots.map((s) => (s.arg >= 0 ? args[s.arg] : s.value));

  /**
   * Runs the cached statement at once when the connection is free (better-sqlite3 is synchronous);
   * undefined when the query must go through Kysely (inside, or while another caller holds, a transaction).
   */
  function runNow(db: Db, args: A, first: boolean): R[] | undefined {
    const conn = connections.get(db);
    if (!conn || conn.sqlite.inTransaction) return undefined;
    const c = compiledSqlite ?? (compiledSqlite = compile(db));
    const stmt = conn.prepare(c.query.sql);
    const parameters = parametersOf(c, args);
    if (!stmt.reader) {
      stmt.run(parameters);
      return [];
    }
    if (!first) return stmt.all(parameters) as R[];
    const row = stmt.get(parameters) as R | undefined;
    return row === undefined ? [] : [row];
  }

  async function viaKysely(db: Db, args: A): Promise<R[]> {
    const c = compiledFor(db);
    return (await db.executeQuery<R>({ ...c.query, parameters: parametersOf(c, args) })).rows;
  }

  /** Not an async function: the common case answers with an already-settled promise, one step less. */
  function run(db: Db, args: A, first: boolean): Promise<R[]> {
    try {
      const rows = runNow(db, args, first);
      return rows ? Promise.resolve(rows) : viaKysely(db, args);
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  return {
    all: (db: Db, ...args: A): Promise<R[]> => run(db, args, false),
    first: (db: Db, ...args: A): Promise<R | undefined> => run(db, args, true).then((rows) => rows[0]),
  };
}

/**
 * The rows of a query as arrays of their column values, in the order of its select list: for
 * exports of many rows, where making an object per row costs more than reading it (a
 * patients export spent most of its time there). On SQLite, while no transaction is open, from a
 * statement of its own in raw mode (kept apart from the shared cache: raw mode belongs to the statement);
 * otherwise through Kysely, each row's values in the order PostgreSQL or SQLite named them.
 */
export async function rowsAsArrays(db: Db, query: Compiles<unknown>): Promise<unknown[][]> {
  const compiled = query.compile(db);
  const conn = connections.get(db);
  if (conn && !conn.sqlite.inTransaction)
    return conn.prepareRaw(compiled.sql).all(...(compiled.parameters as unknown[])) as unknown[][];
  const result = await db.executeQuery<Record<string, unknown>>(compiled);
  return result.rows.map((r) => Object.values(r));
}

/**
 * A write that may be left for later (a session's last-seen time): on SQLite it is made at once or
 * not at all. While another connection holds the write lock (an import on its worker thread holds
 * it for the whole file), it answers false instead of waiting busy_timeout with the event loop
 * stopped, which would hold every other request of the server too. Inside a transaction, and on
 * PostgreSQL (row locks: nothing else holds this row), the write is made as any other.
 */
export async function writeUnlessBusy(db: Db, query: Compiles<unknown>): Promise<boolean> {
  const compiled = query.compile(db);
  const conn = connections.get(db);
  if (!conn || conn.sqlite.inTransaction) {
    await db.executeQuery(compiled);
    return true;
  }
  const waited = conn.sqlite.pragma('busy_timeout', { simple: true }) as number;
  conn.sqlite.pragma('busy_timeout = 0');
  try {
    conn.prepare(compiled.sql).run(...(compiled.parameters as unknown[]));
    return true;
  } catch (err) {
    if (String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY')) return false;
    throw err;
  } finally {
    conn.sqlite.pragma(`busy_timeout = ${waited}`);
  }
}

/**
 * The file of a SQLite database that other connections (an export's worker threads) can open and
 * read with snapshots of their own: a Kysely instance from openDatabase on a file in WAL mode. Null
 * otherwise (PostgreSQL, an in-memory database, another journal mode, a transaction's instance).
 */
export function sqliteWalFile(db: Db): string | null {
  const conn = connections.get(db);
  if (!conn || conn.sqlite.memory || conn.sqlite.name === '' || conn.sqlite.name === ':memory:') return null;
  const mode = conn.sqlite.pragma('journal_mode', { simple: true });
  return typeof mode === 'string' && mode.toLowerCase() === 'wal' ? conn.sqlite.name : null;
}

/** Sends the queries of `db` through `connection`'s statement cache (openDatabase, once per Kysely instance). */
export function cacheConnection(db: Db, connection: CachingDatabase): void {
  connections.set(db, connection);
}
