import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { DatabaseTarget } from './url.js';

/**
 * Reaching a lab's PostgreSQL: the client settings (TLS as sslmode asks, numbers as JavaScript
 * numbers, the timeouts), a first probe, and a failure told in one sentence.
 */

const NUMBER_OIDS = new Set([20 /* int8 */, 1700 /* numeric */]);
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (NUMBER_OIDS.has(oid)) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

/**
 * TLS as libpq's sslmode means it: disable and allow connect in plain text; prefer (the default)
 * uses TLS when the server offers it (see `negotiatedConfig`); require encrypts without checking the
 * certificate; verify-ca checks it against the CA (sslrootcert, else the system's); verify-full also
 * checks the host name. Always explicit, so $PGSSLMODE in the environment cannot change it.
 */
function sslOf(t: Extract<DatabaseTarget, { kind: 'postgres' }>, plainForPrefer: boolean): pg.ClientConfig['ssl'] {
  const mode = t.sslmode ?? 'prefer';
  if (mode === 'disable' || mode === 'allow' || (mode === 'prefer' && plainForPrefer)) return false;
  if (mode === 'prefer' || mode === 'require') return { rejectUnauthorized: false };
  const ca = t.sslrootcert ? readFileSync(t.sslrootcert, 'utf8') : undefined;
  return mode === 'verify-ca'
    ? { rejectUnauthorized: true, ca, checkServerIdentity: () => undefined }
    : { rejectUnauthorized: true, ca };
}

const plainServers = new Set<string>();
const tlsServers = new Set<string>();

/** sslmode=prefer: TLS unless this server has said it does not speak it (then plain, as libpq falls back). */
export async function negotiatedConfig(t: Extract<DatabaseTarget, { kind: 'postgres' }>): Promise<pg.ClientConfig> {
  const key = `${t.host}:${t.port}`;
  if ((t.sslmode ?? 'prefer') !== 'prefer' || plainServers.has(key) || tlsServers.has(key)) return clientConfig(t);
  const probe = new pg.Client({ ...clientConfig(t), connectionTimeoutMillis: 5000 });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    tlsServers.add(key);
    return clientConfig(t);
  } catch (err) {
    if (!/does not support SSL/i.test((err as Error).message)) throw err;
    plainServers.add(key);
    return clientConfig(t);
  } finally {
    await probe.end().catch(() => undefined);
  }
}

/** How long a new connection to the server may take before it is an error. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** How long a request waits for one of the pool's connections to come free (then 503, busy). */
export const POOL_WAIT_MS = 60_000;
/** pg-pool's message when that wait runs out. */
export const POOL_WAIT_MESSAGE = 'timeout exceeded when trying to connect';

/** The pool's clients: its options (POOL_WAIT_MS) with the connect timeout of a new connection. */
export class ConnectingClient extends pg.Client {
  constructor(config: pg.ClientConfig) {
    // pg-pool keeps the password out of its options' enumerable keys (so it is not logged): name it.
    super({ ...config, password: config.password, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  }
}

export function clientConfig(t: Extract<DatabaseTarget, { kind: 'postgres' }>): pg.ClientConfig {
  const ssl = sslOf(t, plainServers.has(`${t.host}:${t.port}`));
  return {
    host: t.host,
    port: t.port,
    database: t.database,
    user: t.user,
    password: t.password,
    ssl,
    types,
    application_name: 'lims',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  };
}

/**
 * A PostgreSQL connection failure as one sentence a lab's IT person can act on (never the
 * password): host unreachable, wrong password, database missing, permission refused.
 */
export function explainPostgresError(err: unknown, t: Extract<DatabaseTarget, { kind: 'postgres' }>): string {
  const e = err as { code?: string; message?: string };
  const where = `${t.host}:${t.port}`;
  switch (e.code) {
    case 'ECONNREFUSED':
      return `PostgreSQL is not answering at ${where} (connection refused): is the server running and listening on that address?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host "${t.host}" cannot be found: check the host name`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `PostgreSQL at ${where} cannot be reached (${e.code}): check the address, the network and the firewall`;
    case '28P01':
      return `PostgreSQL refused the password for user "${t.user}"`;
    case '28000':
      return `PostgreSQL does not let user "${t.user}" connect to "${t.database}" from here (pg_hba.conf): ${e.message ?? ''}`.trim();
    case '3D000':
      return `the database "${t.database}" does not exist on ${where}: create it first (createdb -h ${t.host} -p ${t.port} -U ${t.user} ${t.database})`;
    case '42501':
      return `user "${t.user}" lacks a permission lims needs on "${t.database}": ${e.message ?? ''}`.trim();
    default:
      if (/password authentication|SASL|no password/i.test(e.message ?? '')) {
        return `PostgreSQL wants a password for user "${t.user}": put it in the URL, $PGPASSWORD or ~/.pgpass`;
      }
      if (/timeout/i.test(e.message ?? '')) return `PostgreSQL at ${where} did not answer in time`;
      return `PostgreSQL at ${where}: ${e.message ?? String(err)}`;
  }
}

/** A failure to connect or sign in (as opposed to an error in a query). */
export function isPostgresConnectError(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code ?? '';
  return (
    [
      'ECONNREFUSED',
      'ENOTFOUND',
      'EAI_AGAIN',
      'ETIMEDOUT',
      'EHOSTUNREACH',
      'ENETUNREACH',
      '28P01',
      '28000',
      '3D000',
    ].includes(code) || /connection terminated|timeout expired/i.test((err as Error | null)?.message ?? '')
  );
}

export type PostgresState = { serverVersion: string } & (
  | { state: 'empty' }
  | { state: 'lims'; labName: string | null; schemaVersion: number }
  | { state: 'other'; tables: string[] }
);

/**
 * What the database holds, through one short connection (the wizard's Test Connection and the
 * setup's refusal): nothing, a lims database (with its lab's name once set up), or someone
 * else's tables. Connection failures throw; explainPostgresError words them.
 */
export async function probePostgres(target: Extract<DatabaseTarget, { kind: 'postgres' }>): Promise<PostgresState> {
  const client = new pg.Client({ ...(await negotiatedConfig(target)), connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const serverVersion = (await client.query<{ v: string }>(`SELECT current_setting('server_version') AS v`)).rows[0]!
      .v;
    const tables = (
      await client.query<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables
          WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
      )
    ).rows.map((r) => r.name);
    if (tables.length === 0) return { serverVersion, state: 'empty' };
    if (!tables.includes('schema_migrations') || !tables.includes('organizations')) {
      return { serverVersion, state: 'other', tables: tables.slice(0, 5) };
    }
    const version = await client.query<{ v: number }>('SELECT max(version) AS v FROM schema_migrations');
    const org = await client.query<{ name: string }>('SELECT name FROM organizations ORDER BY id LIMIT 1');
    return {
      serverVersion,
      state: 'lims',
      labName: org.rows[0]?.name ?? null,
      schemaVersion: Number(version.rows[0]?.v ?? 0),
    };
  } finally {
    await client.end().catch(() => undefined);
  }
}
