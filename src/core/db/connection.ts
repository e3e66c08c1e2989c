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
  return {
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
  const db = new Kysely<DB>({
    dialect: new ImmediateSqliteDialect({ database: cachingDatabase(sqlite) as unknown as Database.Database }),
  });
  return {
    db,
    sqlite,
    file,
    async close() {
      await db.destroy();
    },
  };
}
