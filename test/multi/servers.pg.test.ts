import { freePort } from '../net.js';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabaseAt, type Database_ } from '../../src/core/db/connection.js';
import { parseDatabaseUrl } from '../../src/core/db/url.js';
import { verifyChain } from '../../src/core/audit/audit.js';
import { freshPostgresUrl, rows } from '../db.js';

/**
 * Several `lims serve` processes on one PostgreSQL database: two real servers, each its
 * own process with its own connections and memory, as a chain runs them behind a proxy.
 */

const BIN = fileURLToPath(new URL('../../bin/lims.js', import.meta.url));
const ADMIN = { email: 'admin@chain.lab', password: 'two-servers-one-db-2' };

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

function limsEnv(): NodeJS.ProcessEnv {
  const { LIMS_DATA_DIR: _d, LIMS_ADMIN_PASSWORD: _p, LIMS_DATABASE_URL: _u, ...rest } = process.env;
  return { ...rest, HOME: tempDir('lims-home-') };
}

function run(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, ...args], { env: limsEnv(), timeout: 30_000 }, (err, out, stderr) =>
      err ? reject(new Error(`lims ${args[2] ?? ''} failed: ${stderr || err.message}`)) : resolve(out),
    );
  });
}

interface Server {
  child: ChildProcess;
  url: string;
}

/** `lims serve --database-url URL` in its own process and its own data dir. */
function serve(url: string): Promise<Server> {
  return freePort().then(
    (port) =>
      new Promise((resolve, reject) => {
        const args = ['--data-dir', tempDir('lims-node-'), '--database-url', url, 'serve', '--port', String(port)];
        const child = spawn(process.execPath, [BIN, ...args, '--quiet'], {
          env: limsEnv(),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        children.push(child);
        let out = '';
        let err = '';
        child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
        const timer = setTimeout(() => reject(new Error(`lims serve did not start: ${out}${err}`)), 20_000);
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /lims is running at (\S+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve({ child, url: m[1]! });
          }
        });
        child.once('exit', () => {
          clearTimeout(timer);
          reject(new Error(`lims serve exited: ${err}`));
        });
      }),
  );
}

async function api(
  server: Server,
  cookie: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: () => Promise<Record<string, unknown>> }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { cookie, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: () => res.json() as Promise<Record<string, unknown>> };
}

async function signIn(server: Server, email: string, password: string): Promise<string> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith('lims_session='))!
    .split(';')[0]!;
}

/** Asks until the answer is the expected status, for at most `ms`; returns how long it took. */
async function statusWithin(ms: number, ask: () => Promise<number>, expected: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const status = await ask();
    if (status === expected) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`still ${status} after ${ms} ms (expected ${expected})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let url: string;
let a: Server;
let b: Server;
let database: Database_;

beforeAll(async () => {
  url = await freshPostgresUrl();
  await run(
    ['--data-dir', tempDir('lims-setup-'), '--database-url', url, 'setup', '--yes', '--lab-name', 'Chain Lab'].concat([
      '--admin-email',
      ADMIN.email,
      '--admin-password',
      ADMIN.password,
    ]),
  );
  [a, b] = await Promise.all([serve(url), serve(url)]);
  database = await openDatabaseAt(parseDatabaseUrl(url), { listen: false });
}, 90_000);

afterAll(async () => {
  await database?.close();
});

describe('two servers on one PostgreSQL database', () => {
  it('a session made on one is valid on the other; a sign-out on one ends it on both within a second', async () => {
    const cookie = await signIn(a, ADMIN.email, ADMIN.password);
    expect((await api(b, cookie, 'GET', '/api/auth/me')).status).toBe(200);
    expect((await api(a, cookie, 'GET', '/api/auth/me')).status).toBe(200);
    expect((await api(a, cookie, 'POST', '/api/auth/logout')).status).toBe(200);
    const took = await statusWithin(1000, async () => (await api(b, cookie, 'GET', '/api/auth/me')).status, 401);
    expect(took).toBeLessThanOrEqual(1000);
  });

  it('a user deactivated on one server is refused on the other within a second; a role change shows there too', async () => {
    const admin = await signIn(a, ADMIN.email, ADMIN.password);
    const created = await api(a, admin, 'POST', '/api/users', {
      first_name: 'Ravi',
      last_name: 'Desk',
      email: 'ravi.desk@chain.lab',
      role: 'receptionist',
      password: 'front-desk-pass-1',
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()).user as { id: number }).id;
    const ravi = await signIn(a, 'ravi.desk@chain.lab', 'front-desk-pass-1');
    // Served (and remembered) by B first, so B must learn of the change made on A.
    const me = await api(b, ravi, 'GET', '/api/auth/me');
    const meBody = await me.json();
    expect(me.status, JSON.stringify(meBody)).toBe(200);
    expect((meBody.user as { role: string }).role).toBe('receptionist');

    // A role change on A ends the user's sessions (they sign in again with the new role): B refuses at once.
    expect((await api(a, admin, 'PUT', `/api/users/${id}`, { role: 'billing_staff' })).status).toBe(200);
    await statusWithin(1000, async () => (await api(b, ravi, 'GET', '/api/auth/me')).status, 401);
    const again = await signIn(b, 'ravi.desk@chain.lab', 'front-desk-pass-1');
    expect(((await (await api(a, again, 'GET', '/api/auth/me')).json()).user as { role: string }).role).toBe(
      'billing_staff',
    );
    expect((await api(a, again, 'GET', '/api/patients')).status).toBe(200);

    expect((await api(a, admin, 'DELETE', `/api/users/${id}`)).status).toBe(200);
    await statusWithin(1000, async () => (await api(a, again, 'GET', '/api/patients')).status, 401);
  });

  it('200 bills created at once, half on each server: unique numbers without gaps, one valid audit chain', async () => {
    const cookieA = await signIn(a, ADMIN.email, ADMIN.password);
    const cookieB = await signIn(b, ADMIN.email, ADMIN.password);
    const patient = await api(a, cookieA, 'POST', '/api/patients', {
      first_name: 'Meera',
      last_name: 'Concurrent',
      date_of_birth: '1985-04-12',
      gender: 'Female',
      phone: '9876501234',
    });
    expect(patient.status).toBe(201);
    const patientId = ((await patient.json()).patient as { id: number }).id;
    const test = await api(a, cookieA, 'POST', '/api/tests', {
      name: 'Serum Creatinine',
      code: 'CREAT',
      price: 250,
      category: 'Biochemistry',
      sample_type: 'Blood',
      unit: 'mg/dL',
      normal_range: '0.6-1.2',
    });
    expect(test.status).toBe(201);
    const testId = ((await test.json()).test as { id: number }).id;

    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        api(i % 2 ? b : a, i % 2 ? cookieB : cookieA, 'POST', '/api/bills', {
          patient_id: patientId,
          items: [{ item_type: 'test', item_id: testId }],
        }).then(async (r) => ({ status: r.status, body: await r.json() })),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(200).fill(201));
    const numbers = results.map((r) => (r.body.bill as { bill_number: string }).bill_number);
    expect(new Set(numbers).size).toBe(200);
    // OPB + the lab's minute, then -2, -3, ... within that minute: per minute, one run 1..k without a gap.
    const key = (n: string) => {
      const m = /^OPB(\d{12})(?:-(\d+))?$/.exec(n)!;
      return { minute: m[1]!, k: m[2] ? Number(m[2]) : 1 };
    };
    const byMinute = new Map<string, number[]>();
    for (const n of numbers) {
      const { minute, k } = key(n);
      byMinute.set(minute, [...(byMinute.get(minute) ?? []), k]);
    }
    for (const ks of byMinute.values()) {
      expect(ks.sort((x, y) => x - y)).toEqual(Array.from({ length: ks.length }, (_, i) => i + 1));
    }
    // Ordered: in id order, each bill's (minute, k) follows the one before.
    const stored = await rows<{ id: number; bill_number: string }>(
      database,
      'SELECT id, bill_number FROM bills ORDER BY id',
    );
    const order = stored.map((r) => key(r.bill_number));
    for (let i = 1; i < order.length; i++) {
      const [p, q] = [order[i - 1]!, order[i]!];
      expect(q.minute > p.minute || (q.minute === p.minute && q.k === p.k + 1)).toBe(true);
    }
    const chain = await verifyChain(database.db);
    expect(chain).toMatchObject({ ok: true, firstBrokenId: null });
    expect(chain.checked).toBeGreaterThanOrEqual(200);
  });

  it('a kill -9 of one server mid-stream loses no acknowledged write; the other keeps serving', async () => {
    const cookieA = await signIn(a, ADMIN.email, ADMIN.password);
    const cookieB = await signIn(b, ADMIN.email, ADMIN.password);
    const acked: { id: number; lastName: string }[] = [];
    let killed = false;
    let n = 0;
    const letters = (k: number) => String(k).replace(/\d/g, (d) => String.fromCharCode(97 + Number(d)));
    const writer = async (server: Server, cookie: string, stopOnKill: boolean) => {
      for (let i = 0; i < 60; i++) {
        if (stopOnKill && killed) return;
        n += 1;
        const lastName = `Survivor${letters(n)}`;
        try {
          const r = await api(server, cookie, 'POST', '/api/patients', {
            first_name: 'Kill',
            last_name: lastName,
            date_of_birth: '1990-01-01',
            gender: 'Other',
            // Alike on purpose: the writes are under test, not the duplicate check.
            confirm_new: true,
          });
          if (r.status === 201) acked.push({ id: ((await r.json()).patient as { id: number }).id, lastName });
        } catch {
          // The killed server's connection drops: that request was never acknowledged.
        }
      }
    };
    const kill = setTimeout(() => {
      killed = true;
      a.child.kill('SIGKILL');
    }, 400);
    await Promise.all([writer(a, cookieA, true), writer(a, cookieA, true), writer(b, cookieB, false)]);
    clearTimeout(kill);
    expect(killed).toBe(true);
    expect(acked.length).toBeGreaterThan(60);
    const stored = new Map(
      (
        await rows<{ id: number; last_name: string }>(
          database,
          "SELECT id, last_name FROM patients WHERE first_name = 'Kill'",
        )
      ).map((r) => [Number(r.id), r.last_name]),
    );
    for (const ack of acked) expect(stored.get(ack.id)).toBe(ack.lastName);
    // Nothing half-written: every stored patient has its audit row, and the chain holds.
    const audited = new Set(
      (
        await rows<{ entity_id: string }>(
          database,
          "SELECT entity_id FROM audit_log WHERE entity = 'patient' AND action = 'create'",
        )
      ).map((r) => Number(r.entity_id)),
    );
    for (const id of stored.keys()) expect(audited.has(id)).toBe(true);
    expect(await verifyChain(database.db)).toMatchObject({ ok: true });
    expect((await api(b, cookieB, 'GET', '/api/patients?search=survivor')).status).toBe(200);
  });
});
