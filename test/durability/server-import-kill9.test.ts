import { execFile, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyChain } from '../../src/core/audit/audit.js';
import { failInterruptedJobs } from '../../src/core/transfer/jobs.js';
import { row } from '../db.js';
import { openLabDatabase, provisionDir } from '../cli/helpers.js';

/**
 * An import started from the data screens runs on a worker thread of `lims serve`; killed with the
 * server (kill -9) while it writes, it leaves nothing of its file: the rows sit in the worker's
 * transaction, which never commits. The job is marked failed by the next import. The built server,
 * on each project's engine.
 */

const BIN = fileURLToPath(new URL('../../bin/lims.js', import.meta.url));
const ROWS = 80_000;
const EMAIL = 'admin@killed.lab';
const PASSWORD = 'kill-nine-survivor-9';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

function limsEnv(): NodeJS.ProcessEnv {
  const { LIMS_DATA_DIR: _d, LIMS_ADMIN_PASSWORD: _p, ...rest } = process.env;
  return { ...rest, HOME: tempDir('lims-home-') };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

async function writeCsv(file: string): Promise<void> {
  const out = createWriteStream(file);
  out.write('first_name,last_name,date_of_birth,gender,phone,city\n');
  for (let i = 0; i < ROWS; i++) {
    const line = `Killserve,Row${String.fromCharCode(97 + (i % 26))},1980-01-${String(1 + (i % 28)).padStart(2, '0')},Female,9${String(800000000 + i)},Pune\n`;
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
}

describe('a kill -9 of the server in the middle of an import from the data screens', () => {
  it('leaves nothing of the file, an intact audit chain, and a job marked failed afterwards', async () => {
    const dataDir = tempDir('lims-serve-kill-');
    await provisionDir(dataDir);
    const setup = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [BIN, '--data-dir', dataDir, 'setup', '--yes', '--lab-name', 'Killed Server Lab'].concat([
          '--admin-email',
          EMAIL,
          '--admin-password',
          PASSWORD,
        ]),
        { env: limsEnv(), timeout: 60_000 },
        (err, _out, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stderr }),
      ),
    );
    expect(setup.code, setup.stderr).toBe(0);
    const file = join(dataDir, 'large.csv');
    await writeCsv(file);

    const port = await freePort();
    const child = spawn(process.execPath, [BIN, '--data-dir', dataDir, 'serve', '--port', String(port), '--quiet'], {
      env: limsEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_c, signal) => resolve(signal)));
    const origin = `http://127.0.0.1:${port}`;
    try {
      for (
        let i = 0;
        !(await fetch(`${origin}/api/health`).then(
          (r) => r.ok,
          () => false,
        ));
        i++
      ) {
        if (i > 300 || child.exitCode !== null) throw new Error(`lims serve did not start: ${output}`);
        await sleep(100);
      }
      const login = await fetch(`${origin}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
      });
      expect(login.status).toBe(200);
      const cookie = login.headers
        .getSetCookie()
        .find((c) => c.startsWith('lims_session='))!
        .split(';')[0]!;
      const up = await fetch(`${origin}/api/data-jobs/uploads?entity=patients&file_name=large.csv`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/octet-stream', 'x-lims-upload': '1' },
        body: readFileSync(file),
      });
      expect(up.status, await up.clone().text()).toBe(201);
      const { upload } = (await up.json()) as { upload: { id: string } };
      const started = await fetch(`${origin}/api/data-jobs/imports`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ upload_id: upload.id, entity: 'patients' }),
      });
      expect(started.status, await started.clone().text()).toBe(202);

      // Wait until the import's thread is writing inside its transaction, then kill the server.
      const database = await openLabDatabase(dataDir);
      try {
        const t0 = Date.now();
        for (;;) {
          const writing =
            database.engine === 'sqlite'
              ? (statSync(`${database.file}-wal`, { throwIfNoEntry: false })?.size ?? 0) > 2 * 1024 * 1024
              : Number(
                  (
                    await row<{ n: number }>(
                      database,
                      'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND backend_xid IS NOT NULL AND pid <> pg_backend_pid()',
                    )
                  )?.n ?? 0,
                ) > 0;
          const job = await row<{ status: string }>(
            database,
            "SELECT status FROM data_jobs WHERE type = 'import' AND dry_run = 0",
          );
          if (writing && job?.status === 'in_progress') break;
          if (Date.now() - t0 > 90_000) throw new Error(`the import never wrote: ${output}`);
          await sleep(100);
        }
      } finally {
        await database.close();
      }
      expect(child.exitCode, `the server ended before the kill: ${output}`).toBeNull();
    } finally {
      child.kill('SIGKILL');
    }
    expect(await exited).toBe('SIGKILL');

    const after = await openLabDatabase(dataDir);
    try {
      if (after.engine === 'sqlite') expect(after.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      const stored = await row<{ n: number }>(
        after,
        "SELECT count(*) AS n FROM patients WHERE first_name = 'Killserve'",
      );
      expect(Number(stored!.n)).toBe(0);
      const counter = await row<{ n: number }>(after, "SELECT n FROM entity_counts WHERE entity = 'patients'");
      expect(Number(counter?.n ?? 0)).toBe(0);
      expect(await verifyChain(after.db)).toMatchObject({ ok: true });
      // The next import (or export) finds the job of the dead server and marks it failed.
      expect(await failInterruptedJobs(after.db)).toBeGreaterThanOrEqual(1);
      const job = await row<{ status: string; error_message: string }>(
        after,
        "SELECT status, error_message FROM data_jobs WHERE type = 'import' AND dry_run = 0",
      );
      expect(job).toMatchObject({ status: 'failed' });
      expect(job!.error_message).toMatch(/^interrupted/);
    } finally {
      await after.close();
    }
  }, 240_000);
});
