import pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  PostgresDriver,
  type DatabaseConnection,
  type TransactionSettings,
} from 'kysely';
import type { DB } from './schema.js';
import type { DatabaseTarget } from './url.js';
import { toPostgres } from './dialect.js';
import { ConnectingClient, negotiatedConfig, POOL_WAIT_MS } from './postgres-connect.js';
import { migrations as allMigrations, type Migration } from './migrations/index.js';
import { refuseNewerDatabase } from './migrate.js';

/**
 * lims on PostgreSQL: the same Kysely queries as on SQLite, through `pg`.
 *
 * - Write transactions are serialised across every lims process on the database, as SQLite's
 *   BEGIN IMMEDIATE serialises them on one file: each transaction starts by taking one
 *   transaction-scoped advisory lock. The audit chain (read the last hash, append) and the
 *   gap-free numbers (bills) then stay correct with several servers writing at once.
 * - BIGINT and NUMERIC come back as JavaScript numbers, as SQLite's integers and reals do (ids,
 *   paise and counts stay far below 2^53).
 * - Changes made by other processes reach this one through LISTEN/NOTIFY: every table has a
 *   statement trigger that notifies `lims_changes`; the session check's change stamp moves on
 *   each notification (see changeStamp).
 */

/** pg_advisory_xact_lock key of write transactions ("lims" in ASCII). */
export const WRITE_LOCK_KEY = 0x6c696d73;
/** pg_advisory_lock key held while migrating, so two servers starting together migrate once. */
const MIGRATION_LOCK_KEY = 0x6c696d74;
export const CHANGES_CHANNEL = 'lims_changes';

class LockingPostgresDriver extends PostgresDriver {
  override async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await super.beginTransaction(connection, settings);
    // A read-only transaction (a screen's snapshot, onSnapshot) writes nothing: it neither waits for
    // the writers nor holds them back.
    if (settings.accessMode === 'read only') return;
    await connection.executeQuery(CompiledQuery.raw(`SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY})`));
  }
}

class LockingPostgresDialect extends PostgresDialect {
  readonly #config: ConstructorParameters<typeof PostgresDialect>[0];
  constructor(config: ConstructorParameters<typeof PostgresDialect>[0]) {
    super(config);
    this.#config = config;
  }
  override createDriver() {
    return new LockingPostgresDriver(this.#config);
  }
}

const WRITE_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE', 'COMMIT', 'TRUNCATE']);

/**
 * Counts what may have changed the database: this process's writes as they complete (a
 * transaction's again at its commit, so a read that raced the commit is not trusted afterwards)
 * and other processes' commits as their notifications arrive.
 */
export class PostgresChanges {
  localWrites = 0;
  notifications = 0;
  listening = false;
  #epoch = 0;
  #listener: pg.Client | null = null;
  #closed = false;
  #retry: NodeJS.Timeout | null = null;

  constructor(private readonly config: pg.ClientConfig) {}

  /** Null while not listening: then nothing read may be reused, since others' changes would go unseen. */
  stamp(): string | null {
    return this.listening ? `${this.localWrites}:${this.notifications}:${this.#epoch}` : null;
  }

  async listen(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client(this.config);
    client.on('notification', () => {
      this.notifications += 1;
    });
    const lost = () => {
      if (this.#listener !== client) return;
      this.listening = false;
      this.#listener = null;
      client.removeAllListeners('notification');
      void client.end().catch(() => undefined);
      if (!this.#closed) this.#retry = setTimeout(() => void this.listen().catch(() => lost()), 1000).unref();
    };
    client.on('error', lost);
    client.on('end', lost);
    this.#listener = client;
    await client.connect();
    await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    this.#epoch += 1;
    this.listening = true;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.listening = false;
    if (this.#retry) clearTimeout(this.#retry);
    const client = this.#listener;
    this.#listener = null;
    if (client) await client.end().catch(() => undefined);
  }
}

/** A pool whose clients report their writes to `changes`. */
function countingPool(pool: pg.Pool, changes: PostgresChanges) {
  const wrapped = new WeakMap<pg.PoolClient, { query: pg.PoolClient['query']; release: () => void }>();
  return {
    async connect() {
      const client = await pool.connect();
      let w = wrapped.get(client);
      if (!w) {
        const query = (async (text: string, values?: unknown[]) => {
          const result = await client.query(text, values);
          if (WRITE_COMMANDS.has(result.command)) changes.localWrites += 1;
          return result;
        }) as unknown as pg.PoolClient['query'];
        w = { query, release: () => client.release() };
        wrapped.set(client, w);
      }
      return w;
    },
    end: () => pool.end(),
  };
}

export interface PostgresHandle {
  db: Kysely<DB>;
  pool: pg.Pool;
  changes: PostgresChanges;
}

/** Connects, applies pending migrations (once, under a lock), starts listening for changes. */
export async function openPostgres(
  target: Extract<DatabaseTarget, { kind: 'postgres' }>,
  opts: { migrate?: boolean; listen?: boolean; poolSize?: number } = {},
): Promise<PostgresHandle> {
  const config = await negotiatedConfig(target);
  const pool = new pg.Pool({
    ...config,
    max: opts.poolSize ?? 20,
    allowExitOnIdle: true,
    // How long a request waits for a free connection: writes take the write lock one at a time, so
    // a burst (200 bills at once across two servers on a loaded machine) queues for more than the
    // 10 s a new connection may take; it waits its turn instead of failing.
    connectionTimeoutMillis: POOL_WAIT_MS,
    // A new connection still gives up after CONNECT_TIMEOUT_MS (the pool passes its options on).
    // (pg's types give the pool's Client no constructor arguments; the pool passes its options.)
    Client: ConnectingClient as unknown as new () => pg.ClientBase,
  });
  // An idle client's error (the server restarted) must not crash the process; the pool drops it.
  pool.on('error', () => undefined);
  const changes = new PostgresChanges(config);
  try {
    if (opts.migrate !== false) await migratePostgres(pool);
    if (opts.listen !== false) await changes.listen();
  } catch (err) {
    await changes.close();
    await pool.end().catch(() => undefined);
    throw err;
  }
  const db = new Kysely<DB>({ dialect: new LockingPostgresDialect({ pool: countingPool(pool, changes) }) });
  return { db, pool, changes };
}

/**
 * Applies pending migrations in order, each in its own transaction, holding an advisory lock so
 * that servers starting together do not race. A database newer than this build is refused. Every
 * table then gets the statement trigger that tells other processes about changes.
 */
export async function migratePostgres(pool: pg.Pool, list: Migration[] = allMigrations): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
      );
      const applied = new Set(
        (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) =>
          Number(r.version),
        ),
      );
      refuseNewerDatabase(applied, list);
      const done: number[] = [];
      for (const m of [...list].sort((a, b) => a.version - b.version)) {
        if (applied.has(m.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.postgres ?? toPostgres(m.sql));
          await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
            m.version,
            m.name,
            new Date().toISOString(),
          ]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw new Error(`migration ${m.version} (${m.name}) failed on PostgreSQL: ${(err as Error).message}`, {
            cause: err,
          });
        }
        done.push(m.version);
      }
      await ensureChangeTriggers(client);
      return done;
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
    }
  } finally {
    client.release();
  }
}

/** Every table of the schema notifies CHANGES_CHANNEL after each statement that writes to it. */
async function ensureChangeTriggers(client: pg.PoolClient): Promise<void> {
  await client.query(`CREATE OR REPLACE FUNCTION lims_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('${CHANGES_CHANNEL}', '');
  RETURN NULL;
END $$`);
  const missing = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
      WHERE c.relkind IN ('r', 'p')
        AND NOT EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname = 'lims_changes')`,
  );
  for (const { name } of missing.rows) {
    await client.query(
      `CREATE TRIGGER lims_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${pg.escapeIdentifier(name)}
         FOR EACH STATEMENT EXECUTE FUNCTION lims_notify_change()`,
    );
  }
}
