import { execFile, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyChain } from '../../src/core/audit/audit.js';
import { row } from '../db.js';
import { openLabDatabase, provisionDir } from '../cli/helpers.js';
import type { Database_ } from '../../src/core/db/connection.js';
import { WRITE_LOCK_KEY } from '../../src/core/db/postgres.js';

/**
 * An import is all or nothing even when its process is killed (kill -9) half-way through
 * writing a large file: the rows already copied sit in a transaction that never commits (and what
 * was staged before it lives in TEMP tables that die with the process), so nothing of the file is stored, the audit chain holds, and the job left running is marked failed by the
 * next import. Runs the built CLI as an operator does, on each project's engine.
 */

const BIN = fileURLToPath(new URL('../../bin/lims.js', import.meta.url));
const ROWS = 200_000;

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

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: limsEnv(), timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function writeLargeCsv(file: string): Promise<void> {
  const out = createWriteStream(file);
  out.write('first_name,last_name,date_of_birth,gender,phone,city\n');
  for (let i = 0; i < ROWS; i++) {
    const line = `Killnine,Row${String.fromCharCode(97 + (i % 26))},1980-01-${String(1 + (i % 28)).padStart(2, '0')},Female,9${String(800000000 + i)},Pune\n`;
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether another process has held lims' write lock for 300 ms and more. */
async function writeLockHeldLong(database: Database_): Promise<boolean> {
  if (database.engine === 'postgres') {
    const held = await row<{ n: number }>(
      database,
      `SELECT count(*) AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND l.objid = ${WRITE_LOCK_KEY}
         AND a.datname = current_database() AND now() - a.xact_start > interval '300 milliseconds'`,
    );
    return Number(held?.n ?? 0) > 0;
  }
  const since = Date.now();
  while (Date.now() - since < 300) {
    try {
      database.sqlite.pragma('busy_timeout = 0');
      database.sqlite.exec('BEGIN IMMEDIATE; ROLLBACK');
      return false;
    } catch (err) {
      if (!String((err as { code?: string }).code).startsWith('SQLITE_BUSY')) throw err;
    }
    await sleep(20);
  }
  return true;
}

describe('a kill -9 in the middle of an import', () => {
  it('leaves nothing of the file, an intact audit chain, and a job marked failed afterwards', async () => {
    const dataDir = tempDir('lims-import-kill-');
    await provisionDir(dataDir);
    const setup = await run([
      '--data-dir',
      dataDir,
      'setup',
      '--yes',
      '--lab-name',
      'Killed Import Lab',
      '--admin-email',
      'admin@killed.lab',
      '--admin-password',
      'kill-nine-survivor-9',
    ]);
    expect(setup.code, setup.stderr).toBe(0);
    const file = join(dataDir, 'large.csv');
    await writeLargeCsv(file);

    const child = spawn(process.execPath, [BIN, '--data-dir', dataDir, 'import', 'patients', file], {
      env: limsEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_c, signal) => resolve(signal)));

    // Wait until the import is writing (its job is recorded, then rows go in), then kill it.
    const database = await openLabDatabase(dataDir);
    try {
      const started = Date.now();
      for (;;) {
        const job = await row<{ status: string }>(database, "SELECT status FROM data_jobs WHERE type = 'import'");
        if (job?.status === 'in_progress') break;
        if (Date.now() - started > 45_000) throw new Error(`the import did not start: ${output}`);
        await sleep(100);
      }
      // The rows are built and staged without the write lock; then ONE transaction holds it and
      // copies them in. Kill inside that transaction: the lock held longer than any of the staging's
      // short writes (codes and ids of a batch) ever holds it.
      for (;;) {
        if (await writeLockHeldLong(database)) break;
        if (Date.now() - started > 150_000) throw new Error(`the import never took the lock to write: ${output}`);
        await sleep(50);
      }
      await sleep(300);
      expect(child.exitCode, `the import ended before the kill: ${output}`).toBeNull();
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
    } finally {
      await database.close();
    }

    // Reopened as the next command would: nothing of the file, the chain intact.
    const after = await openLabDatabase(dataDir);
    try {
      if (after.engine === 'sqlite') expect(after.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      const stored = await row<{ n: number }>(
        after,
        "SELECT count(*) AS n FROM patients WHERE first_name = 'Killnine'",
      );
      expect(Number(stored!.n)).toBe(0);
      const counter = await row<{ n: number }>(after, "SELECT n FROM entity_counts WHERE entity = 'patients'");
      expect(Number(counter?.n ?? 0)).toBe(0);
      const audited = await row<{ n: number }>(after, "SELECT count(*) AS n FROM audit_log WHERE entity = 'patient'");
      expect(Number(audited!.n)).toBe(0);
      expect(await verifyChain(after.db)).toMatchObject({ ok: true });
    } finally {
      await after.close();
    }

    // The next import on this machine finds the job of the dead process and marks it failed.
    const small = join(dataDir, 'small.csv');
    await import('node:fs').then((fs) => fs.writeFileSync(small, 'first_name,date_of_birth\nAfter,1990-01-01\n'));
    const next = await run(['--data-dir', dataDir, 'import', 'patients', small]);
    expect(next.code, next.stderr).toBe(0);
    const check = await openLabDatabase(dataDir);
    try {
      const first = await row<{ status: string; error_message: string }>(
        check,
        'SELECT status, error_message FROM data_jobs ORDER BY id LIMIT 1',
      );
      expect(first).toMatchObject({ status: 'failed' });
      expect(first!.error_message).toMatch(/^interrupted/);
    } finally {
      await check.close();
    }
  }, 180_000);
});
