import { freePort } from '../net.js';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyChain } from '../../src/core/audit/audit.js';
import { pagePatients } from '../../src/core/patients/repository.js';
import { row, rows } from '../db.js';
import { openLabDatabase, provisionDir } from '../cli/helpers.js';

/**
 * A kill -9 of the server in the middle of a stream of patient registrations loses no write the
 * server acknowledged (201), and leaves no half-done write: every stored patient has its audit row
 * and the audit chain verifies. See docs/durability.md for what this does and does not prove.
 * Runs the built server (`npm test` builds dist/ first) exactly as an operator starts it. On the
 * PostgreSQL project the data dir's config.json names a fresh database, so setup and the server use it.
 */

const BIN = fileURLToPath(new URL('../../bin/lims.js', import.meta.url));
const ADMIN = { email: 'admin@durable.lab', password: 'kill-nine-survivor-9' };
/** Registrations in flight at once: enough that the kill lands while several are being written. */
const WRITERS = 6;
/** Kill once this many writes are acknowledged (or after KILL_AFTER_MS, whichever comes first). */
const KILL_AT_ACKS = 150;
const KILL_AFTER_MS = 6000;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** The environment of every spawned lims: a throw-away HOME, no inherited data dir. */
function limsEnv(): NodeJS.ProcessEnv {
  const { LIMS_DATA_DIR: _d, LIMS_ADMIN_PASSWORD: _p, ...rest } = process.env;
  return { ...rest, HOME: tempDir('lims-home-') };
}

function setUp(dataDir: string): Promise<void> {
  const args = ['--data-dir', dataDir, 'setup', '--yes', '--lab-name', 'Durable Diagnostics'];
  args.push('--admin-email', ADMIN.email, '--admin-password', ADMIN.password);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, ...args], { env: limsEnv(), timeout: 20_000 }, (err, _out, stderr) =>
      err ? reject(new Error(`lims setup failed: ${stderr || err.message}`)) : resolve(),
    );
  });
}

/** `lims serve` in its own process; resolves with its URL once it says it is running. */
function serve(
  dataDir: string,
  port: number,
): Promise<{ child: ChildProcess; url: string; exited: Promise<NodeJS.Signals | null> }> {
  const child = spawn(process.execPath, [BIN, '--data-dir', dataDir, 'serve', '--port', String(port), '--quiet'], {
    env: limsEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  );
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`lims serve did not start in 15 s: ${out}${err}`)), 15_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /lims is running at (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, exited });
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`lims serve exited before it was ready: ${err}`));
    });
  });
}

interface Ack {
  id: number;
  code: string;
  lastName: string;
}

describe('a kill -9 during a stream of writes', () => {
  it('loses no acknowledged registration and leaves no half-written one', async () => {
    const dataDir = tempDir('lims-durability-');
    await provisionDir(dataDir);
    await setUp(dataDir);
    const server = await serve(dataDir, await freePort());

    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('lims_session='))!
      .split(';')[0]!;

    const acked: Ack[] = [];
    const sent = new Set<string>();
    let inFlight = 0;
    let inFlightAtKill = -1;
    let killed = false;
    let sequence = 0;

    const kill = () => {
      if (killed) return;
      killed = true;
      inFlightAtKill = inFlight;
      server.child.kill('SIGKILL');
    };
    const deadline = setTimeout(kill, KILL_AFTER_MS);

    const letters = (n: number) => String(n).replace(/\d/g, (d) => String.fromCharCode(97 + Number(d)));
    const writer = async (w: number) => {
      while (!killed) {
        sequence += 1;
        // Letters only (names refuse digits), so the search index holds it as one word: digits as a-j.
        const lastName = `Durable${letters(w)}x${letters(sequence)}`;
        sent.add(lastName);
        inFlight += 1;
        try {
          const res = await fetch(`${server.url}/api/patients`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', cookie },
            body: JSON.stringify({
              first_name: 'Kill',
              last_name: lastName,
              date_of_birth: '1990-05-17',
              gender: 'Female',
              // Many patients alike on purpose: the stream of writes is under test, not the duplicate check.
              confirm_new: true,
            }),
          });
          if (res.status !== 201) throw new Error(`registration answered ${res.status}: ${await res.text()}`);
          const { patient } = (await res.json()) as { patient: { id: number; patient_id: string } };
          acked.push({ id: patient.id, code: patient.patient_id, lastName });
          if (acked.length >= KILL_AT_ACKS) kill();
        } catch (e) {
          // After the kill, a request cut off mid-way is expected: it was never acknowledged.
          if (!killed) throw e;
        } finally {
          inFlight -= 1;
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    clearTimeout(deadline);
    expect(await server.exited).toBe('SIGKILL');
    expect(acked.length).toBeGreaterThan(20);
    // The kill landed mid-stream: requests were still being written when it came.
    expect(inFlightAtKill).toBeGreaterThan(0);

    // Reopening recovers from the write-ahead log, as the next `lims serve` would.
    const database = await openLabDatabase(dataDir);
    try {
      // SQLite's own check of the file; PostgreSQL's server was never killed, only its client.
      if (database.engine === 'sqlite') {
        expect(database.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      }
      const org = (await row<{ id: number }>(database, 'SELECT id FROM organizations'))!;
      const stored = await rows<{ id: number; patient_code: string; last_name: string }>(
        database,
        "SELECT id, patient_code, last_name FROM patients WHERE first_name = 'Kill'",
      );
      const byId = new Map(stored.map((p) => [p.id, p]));

      const lost = acked.filter(
        (a) => byId.get(a.id)?.patient_code !== a.code || byId.get(a.id)?.last_name !== a.lastName,
      );
      expect(lost).toEqual([]);
      // Nothing appears that was never sent; at most the requests cut off by the kill were also stored.
      expect(stored.every((p) => sent.has(p.last_name))).toBe(true);
      expect(stored.length - acked.length).toBeLessThanOrEqual(inFlightAtKill);

      // Each stored patient came with its audit row, in the same transaction, and the chain holds.
      const audited = new Set(
        (
          await rows<{ entity_id: string }>(
            database,
            "SELECT entity_id FROM audit_log WHERE entity = 'patient' AND action = 'create'",
          )
        ).map((r) => Number(r.entity_id)),
      );
      expect(stored.filter((p) => !audited.has(p.id))).toEqual([]);
      expect(audited.size).toBe(stored.length);
      expect(await verifyChain(database.db)).toMatchObject({ ok: true, firstBrokenId: null });

      // The search index and the patient counter were written with the rows they describe.
      const counter = (await row<{ n: number }>(
        database,
        "SELECT n FROM entity_counts WHERE organization_id = ? AND entity = 'patients'",
        org.id,
      ))!;
      expect(counter.n).toBe((await row<{ n: number }>(database, 'SELECT count(*) AS n FROM patients'))!.n);
      const last = acked[acked.length - 1]!;
      const found = await pagePatients(database.db, org.id, { search: last.lastName, page: 1, limit: 10 });
      expect(found.rows.map((r) => r.id)).toEqual([last.id]);
    } finally {
      await database.close();
    }
  }, 40_000);
});
