import { freePort } from '../net.js';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../src/server/server.js';
import { parseDatabaseUrl } from '../../src/core/db/url.js';
import { freshPostgresUrl } from '../db.js';
import { tempDir } from '../helpers.js';

/**
 * The web setup wizard's PostgreSQL choice, on a real `lims serve` started on its SQLite
 * default: Test Connection says what is wrong; Complete Setup sets the lab up on PostgreSQL, stores
 * the database in the data dir, and the running server moves onto it.
 */

let dir: string;
let server: { url: string; close: () => Promise<void> };
let empty: ReturnType<typeof connection>;

function connection(url: string, overrides: Record<string, unknown> = {}) {
  const t = parseDatabaseUrl(url);
  if (t.kind !== 'postgres') throw new Error('not postgres');
  return {
    type: 'postgresql' as const,
    host: t.host,
    port: t.port,
    database: t.database,
    user: t.user,
    password: t.password,
    sslmode: 'disable' as const,
    ...overrides,
  };
}

async function post(path: string, body: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function check(body: unknown) {
  const r = await post('/api/setup/database-check', body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.check as { ok: boolean; message: string; server_version: string | null };
}

beforeAll(async () => {
  dir = tempDir();
  server = await serve({ dataDir: dir, port: await freePort(), host: '127.0.0.1', demo: false, quiet: true });
  empty = connection(await freshPostgresUrl({ empty: true }));
});

afterAll(async () => {
  await server?.close();
});

const wizard = {
  labName: 'Chain Diagnostics',
  adminName: 'Priya Chain',
  adminEmail: 'admin@chain.test',
  adminPassword: 'chain-admin-pass-1',
  confirmPassword: 'chain-admin-pass-1',
  importSampleTests: true,
};

describe('the wizard on PostgreSQL', () => {
  it('starts on SQLite and names its file', async () => {
    const status = (await (await fetch(`${server.url}/api/setup/status`)).json()) as Record<string, unknown>;
    expect(status).toMatchObject({ needs_setup: true, database: { type: 'SQLite' } });
  });

  it('Test Connection says what is wrong, in words, never echoing the password', async () => {
    const wrong = await check({ ...empty, password: 'not-the-password' });
    expect(wrong).toEqual({
      ok: false,
      message: `PostgreSQL refused the password for user "${empty.user}"`,
      server_version: null,
    });
    const missing = await check({ ...empty, database: 'no_such_lims_db' });
    expect(missing.ok).toBe(false);
    expect(missing.message).toContain('the database "no_such_lims_db" does not exist');
    const closed = await check({ ...empty, port: await freePort() });
    expect(closed.ok).toBe(false);
    expect(closed.message).toMatch(/PostgreSQL is not answering at 127\.0\.0\.1:\d+ \(connection refused\)/);
    const host = await check({ ...empty, host: 'no-such-host.invalid' });
    expect(host).toMatchObject({
      ok: false,
      message: 'the host "no-such-host.invalid" cannot be found: check the host name',
    });

    const other = connection(await freshPostgresUrl({ empty: true }));
    const { default: pg } = await import('pg');
    const c = new pg.Client({ ...other, ssl: false });
    await c.connect();
    await c.query('CREATE TABLE invoices (id int)');
    await c.end();
    const notEmpty = await check(other);
    expect(notEmpty.ok).toBe(false);
    expect(notEmpty.message).toContain('is not empty (it holds invoices...)');

    const ok = await check(empty);
    expect(ok.ok).toBe(true);
    expect(ok.message).toMatch(/^Connected to PostgreSQL \d+/);
    for (const r of [wrong, missing, closed, notEmpty, ok]) expect(r.message).not.toContain(String(empty.password));
  });

  it('refuses bad connection details with 400 naming the field', async () => {
    const r = await post('/api/setup/database-check', { ...empty, port: 70000 });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body.details)).toContain('port');
    const setup = await post('/api/setup', { ...wizard, database: { ...empty, password: 'wrong' } });
    expect(setup.status).toBe(400);
    expect(JSON.stringify(setup.body.details)).toContain('"path":"database"');
  });

  it('sets the lab up on PostgreSQL, stores the database, and the server moves onto it', async () => {
    const r = await post('/api/setup', { ...wizard, database: empty });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const config = join(dir, 'config.json');
    expect(statSync(config).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({
      database_url: expect.stringMatching(new RegExp(`^postgres://.*@127\\.0\\.0\\.1:${empty.port}/${empty.database}`)),
    });
    let status: Record<string, unknown> = {};
    for (let i = 0; i < 60; i++) {
      try {
        status = (await (await fetch(`${server.url}/api/setup/status`)).json()) as Record<string, unknown>;
        if (status.needs_setup === false) break;
      } catch {
        // between the two databases for a moment
      }
      await new Promise((res) => setTimeout(res, 250));
    }
    expect(status).toEqual({ needs_setup: false });
    const login = await post('/api/auth/login', { email: wizard.adminEmail, password: wizard.adminPassword });
    expect(login.status).toBe(200);
    // The setup wizard is closed now, on the new database too.
    expect((await post('/api/setup/database-check', empty)).status).toBe(409);
  });
});
