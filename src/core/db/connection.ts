import Database from 'better-sqlite3';
import { CompiledQuery, Kysely, SqliteDialect, SqliteDriver, type DatabaseConnection } from 'kysely';
import type { DB } from './schema.js';
import { migrate } from './migrate.js';

export type Db = Kysely<DB>;

export interface Database_ {
  /** Kysely over the connection: every repository goes through this. */
  db: Db;
  /** The raw better-sqlite3 handle: for src/core/db only (backup, FTS, integrity checks). */
  sqlite: Database.Database;
  file: string;
  close(): Promise<void>;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 prepares a statement on every Kysely call; preparing is the dominant cost of a
 * simple query. This wrapper keeps prepared statements by SQL text (bounded, least-recently-used).
 */
function cachingDatabase(sqlite: Database.Database) {
  const cache = new Map<string, Database.Statement>();
  // For changeStamp, which runs on every signed-in request: prepared once, answering bare numbers.
  const totalChanges = sqlite.prepare('SELECT total_changes()').pluck();
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  return {
    sqlite,
    stamp: () => `${totalChanges.get() as number}:${dataVersion.get() as number}`,
    close: () => sqlite.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (stmt) {
        cache.delete(sql);
      } else {
        stmt = sqlite.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) {
          const oldest = cache.keys().next().value;
          if (oldest !== undefined) cache.delete(oldest);
        }
      }
      cache.set(sql, stmt);
      return stmt;
    },
  };
}

/** Write transactions take the write lock up front, so a concurrent writer (e.g. the CLI) waits instead of failing. */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config);
    this.#config = config;
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.#config);
  }
}

type CachingDatabase = ReturnType<typeof cachingDatabase>;

/** The connection behind each Kysely instance openDatabase made (not its transactions). */
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
export function fixedQuery<A extends Scalar[], R>(build: (db: Db, ...args: A) => Compiles<R>) {
  let compiled: { query: CompiledQuery<R>; slots: { arg: number; value: unknown }[] } | null = null;

  const compile = (db: Db) => {
    // Build with a unique marker per declared argument (so: no default or rest arguments), then find
    // where each marker landed among the parameters.
    const markers = Array.from({ length: Math.max(0, build.length - 1) }, (_, i) => `\u0000fixedQuery-arg-${i}\u0000`);
    const query = build(db, ...(markers as A)).compile(db);
    const slots = query.parameters.map((value) => ({ arg: markers.indexOf(value as string), value }));
    markers.forEach((m, i) => {
      if (!query.parameters.includes(m))
        throw new Error(`fixedQuery: argument ${i + 1} is not a parameter of: ${query.sql}`);
    });
    return (compiled = { query, slots });
  };

  /** Runs the query; with `first`, reads only the first row. */
  async function execute(db: Db, args: A, first: boolean): Promise<R[]> {
    const { query, slots } = compiled ?? compile(db);
    const parameters = slots.map((s) => (s.arg >= 0 ? args[s.arg] : s.value));
    const conn = connections.get(db);
    if (!conn || conn.sqlite.inTransaction) return (await db.executeQuery<R>({ ...query, parameters })).rows;
    const stmt = conn.prepare(query.sql);
    if (!stmt.reader) {
      stmt.run(parameters);
      return [];
    }
    if (!first) return stmt.all(parameters) as R[];
    const row = stmt.get(parameters) as R | undefined;
    return row === undefined ? [] : [row];
  }

  return {
    all: (db: Db, ...args: A): Promise<R[]> => execute(db, args, false),
    first: async (db: Db, ...args: A): Promise<R | undefined> => (await execute(db, args, true))[0],
  };
}

/**
 * A value that changes whenever the database may have changed: total_changes() moves when this
 * connection writes, data_version when another connection (the CLI, another process) commits. A
 * result read from the database stays exact while the stamp is unchanged. Null inside a transaction
 * or for a Kysely instance that openDatabase did not make: then nothing may be reused.
 */
export function changeStamp(db: Db): string | null {
  const conn = connections.get(db);
  if (!conn || conn.sqlite.inTransaction) return null;
  // Two plain statements: the pragma_data_version() table function costs more than both.
  return conn.stamp();
}

export function applyPragmas(sqlite: Database.Database): void {
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
}

/** Opens (creating if needed) the SQLite database, applies pragmas and pending migrations. */
export function openDatabase(file: string, opts: { readonly?: boolean } = {}): Database_ {
  const sqlite = new Database(file, { readonly: opts.readonly ?? false, fileMustExist: opts.readonly ?? false });
  if (!opts.readonly) applyPragmas(sqlite);
  else sqlite.pragma('busy_timeout = 5000');
  if (!opts.readonly) migrate(sqlite);
  const connection = cachingDatabase(sqlite);
  const db = new Kysely<DB>({
    dialect: new ImmediateSqliteDialect({ database: connection as unknown as Database.Database }),
  });
  connections.set(db, connection);
  return {
    db,
    sqlite,
    file,
    async close() {
      await db.destroy();
    },
  };
}
