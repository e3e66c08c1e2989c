import { openDatabaseAt } from '../db/connection.js';
import { explainPostgresError, probePostgres } from '../db/postgres-connect.js';
import { describeTarget, type DatabaseTarget } from '../db/url.js';
import { ConflictError, ValidationError } from '../errors.js';
import type { PostgresConnection, SetupInput } from '../../shared/schemas/setup.js';
import { setupLab, type SetupResult } from './service.js';

/**
 * The web wizard's PostgreSQL choice: test a connection, then set up the lab there.
 * Moving the running server onto that database is the server's part (src/server/server.ts).
 */

type PostgresTarget = Extract<DatabaseTarget, { kind: 'postgres' }>;

export function connectionTarget(c: PostgresConnection): PostgresTarget {
  return {
    kind: 'postgres',
    host: c.host.trim(),
    port: c.port,
    database: c.database.trim(),
    user: c.user.trim(),
    password: c.password === '' ? undefined : c.password,
    sslmode: c.sslmode,
  };
}

/** The URL lims stores in the data dir's config (readable by its user only) so the server finds the lab again. */
export function connectionUrl(c: PostgresConnection): string {
  const t = connectionTarget(c);
  const auth = encodeURIComponent(t.user) + (t.password !== undefined ? `:${encodeURIComponent(t.password)}` : '');
  const host = t.host.includes(':') ? `[${t.host}]` : t.host;
  return `postgres://${auth}@${host}:${t.port}/${encodeURIComponent(t.database)}?sslmode=${t.sslmode}`;
}

export interface DatabaseCheck {
  ok: boolean;
  message: string;
  server_version: string | null;
}

/** Test Connection: whether a new lab can be set up on this database, as one sentence. */
export async function checkPostgres(c: PostgresConnection): Promise<DatabaseCheck> {
  const t = connectionTarget(c);
  let probe;
  try {
    probe = await probePostgres(t);
  } catch (err) {
    return { ok: false, message: explainPostgresError(err, t), server_version: null };
  }
  const v = probe.serverVersion;
  const where = describeTarget(t);
  switch (probe.state) {
    case 'empty':
      return {
        ok: true,
        message: `Connected to PostgreSQL ${v}: ${t.database} is empty, lims will create its tables there.`,
        server_version: v,
      };
    case 'lims':
      return probe.labName === null
        ? {
            ok: true,
            message: `Connected to PostgreSQL ${v}: ${t.database} holds lims's tables and no lab yet.`,
            server_version: v,
          }
        : {
            ok: false,
            message: `${where} already holds a lab (${probe.labName}): sign in there, or choose an empty database.`,
            server_version: v,
          };
    case 'other':
      return {
        ok: false,
        message: `${where} is not empty (it holds ${probe.tables.join(', ')}...): create an empty database for lims (createdb lims).`,
        server_version: v,
      };
  }
}

/** Sets up the lab on the PostgreSQL database after checking it again; the caller stores the URL and switches. */
export async function setupLabOnPostgres(c: PostgresConnection, input: SetupInput): Promise<SetupResult> {
  const check = await checkPostgres(c);
  if (!check.ok) {
    if (check.server_version === null) {
      throw new ValidationError(check.message, [{ path: 'database', message: check.message }]);
    }
    throw new ConflictError(check.message, 'DATABASE_NOT_EMPTY');
  }
  const database = await openDatabaseAt(connectionTarget(c), { listen: false });
  try {
    return await setupLab(database.db, input);
  } finally {
    await database.close();
  }
}
