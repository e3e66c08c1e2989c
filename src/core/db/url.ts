import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Which database a command uses: `--database-url URL`, else `$LIMS_DATABASE_URL`, else
 * the data dir's lims.db. `postgres://` / `postgresql://` selects PostgreSQL; `sqlite:PATH` or no
 * URL selects SQLite. The password may be in the URL, in `$PGPASSWORD`, or in a pgpass file
 * (`$PGPASSFILE`, else ~/.pgpass); it is never printed: `redactDatabaseUrl` hides it everywhere a
 * URL is shown.
 */
export type DatabaseTarget =
  | { kind: 'sqlite'; file: string }
  | {
      kind: 'postgres';
      host: string;
      port: number;
      database: string;
      user: string;
      password: string | undefined;
      /** sslmode from the URL (disable, allow, prefer, require, verify-ca, verify-full); absent: prefer, as libpq. */
      sslmode: string | undefined;
      /** sslrootcert from the URL: a file of CA certificates to verify the server with. */
      sslrootcert?: string;
    };

export class DatabaseUrlError extends Error {}

const PG_SCHEMES = new Set(['postgres:', 'postgresql:']);
const SSL_MODES = new Set(['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full']);

/**
 * The database a command uses, from the flag, the environment, the URL stored in the data dir's
 * config and the data dir's own file (in that order).
 */
export function databaseTarget(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  defaultSqliteFile: string,
  stored?: string,
  /** Where PGPASSWORD, PGUSER and PGPASSFILE are read (default: env). */
  passwordEnv: NodeJS.ProcessEnv = env,
): DatabaseTarget {
  const url = flag?.trim() || env.LIMS_DATABASE_URL?.trim() || stored?.trim();
  if (!url) return { kind: 'sqlite', file: defaultSqliteFile };
  return parseDatabaseUrl(url, passwordEnv);
}

/** Parses one database URL; a message that names what is wrong (and never the password) otherwise. */
export function parseDatabaseUrl(url: string, env: NodeJS.ProcessEnv = {}): DatabaseTarget {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!path) throw new DatabaseUrlError('sqlite: needs a file path, e.g. sqlite:/var/lib/lims/lims.db');
    return { kind: 'sqlite', file: resolve(path) };
  }
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new DatabaseUrlError(
      `"${redactDatabaseUrl(url)}" is not a database URL; use postgres://user@host:5432/name or sqlite:PATH`,
    );
  }
  if (!PG_SCHEMES.has(u.protocol)) {
    throw new DatabaseUrlError(
      `"${u.protocol}" databases are not supported; use postgres://user@host:5432/name or sqlite:PATH`,
    );
  }
  const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!database || database.includes('/')) {
    throw new DatabaseUrlError(
      `the URL names no database: add it after the host, e.g. postgres://${u.host || 'host'}/lims`,
    );
  }
  const host = u.hostname.replace(/^\[|\]$/g, '') || 'localhost';
  const port = u.port ? Number(u.port) : 5432;
  const user = decodeURIComponent(u.username) || env.PGUSER || 'postgres';
  const sslmode = u.searchParams.get('sslmode') ?? undefined;
  if (sslmode !== undefined && !SSL_MODES.has(sslmode)) {
    throw new DatabaseUrlError(`sslmode=${sslmode} is not one of ${[...SSL_MODES].join(', ')}`);
  }
  const sslrootcert = u.searchParams.get('sslrootcert') ?? undefined;
  const password =
    (u.password ? decodeURIComponent(u.password) : undefined) ??
    env.PGPASSWORD ??
    pgpassLookup(env.PGPASSFILE ?? join(homedir(), '.pgpass'), { host, port, database, user });
  return { kind: 'postgres', host, port, database, user, password, sslmode, ...(sslrootcert ? { sslrootcert } : {}) };
}

/** The URL with its password replaced by "***", for logs, errors, /api/health and `--help` output. */
export function redactDatabaseUrl(url: string): string {
  // Not through URL(): it must also hide the password of a URL too broken to parse.
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*):[^@/?#]*@/i, '$1:***@');
}

/** The target as one line a person can read: "PostgreSQL lims@db.clinic:5432/lims" or the SQLite file. */
export function describeTarget(t: DatabaseTarget): string {
  return t.kind === 'sqlite' ? `SQLite ${t.file}` : `PostgreSQL ${t.user}@${t.host}:${t.port}/${t.database}`;
}

/**
 * The password for this connection from a pgpass file (hostname:port:database:username:password,
 * `*` matches anything, `\:` and `\\` escape), as libpq reads it. None when the file is missing.
 */
export function pgpassLookup(
  file: string,
  c: { host: string; port: number; database: string; user: string },
): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim() || line.startsWith('#')) continue;
    const fields = splitPgpass(line);
    if (fields.length < 5) continue;
    const [h, p, d, u] = fields;
    const match = (pattern: string, value: string) => pattern === '*' || pattern === value;
    if (match(h!, c.host) && match(p!, String(c.port)) && match(d!, c.database) && match(u!, c.user)) {
      return fields.slice(4).join(':');
    }
  }
  return undefined;
}

function splitPgpass(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '\\' && i + 1 < line.length) cur += line[++i];
    else if (ch === ':' && out.length < 4) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}
