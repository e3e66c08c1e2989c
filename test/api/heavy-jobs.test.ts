import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, tempDir, type TestLab } from '../helpers.js';
import { errorBody } from './support.js';
import type { DataJob } from '../../src/shared/schemas/data-jobs.js';
import { heavyQueue } from '../../src/core/heavy/queue.js';
import { heavyThreads, runOnThread } from '../../src/core/heavy/pool.js';
import { runReportAs } from '../../src/core/reports/run.js';
import { runImport } from '../../src/core/transfer/import.js';
import { entityNamed } from '../../src/core/transfer/registry.js';
import { systemActor } from '../../src/core/context.js';
import { REPORT_PDF_MAX_ROWS } from '../../src/shared/reports.js';
import { localDate } from '../../src/shared/time.js';
import Database from 'better-sqlite3';
import { ENGINE } from '../db.js';
import { touchSessionRow } from '../../src/core/auth/repository.js';
import { startCheckpoints } from '../../src/core/db/checkpoint.js';
import { inspectDatabaseFile, inspectDatabaseFileOffThread } from '../../src/core/db/backup.js';

/**
 * Heavy work (report files, import checks, imports, exports) runs on worker threads, at most a
 * few of a lab's jobs at once: past the limit a data job is recorded and shown queued, and runs
 * when a turn frees; a report PDF past its row limit is refused with a code and a message that
 * points to CSV and XLSX. Runs the compiled worker (`npm run build:server` first).
 */

/** 0 -> a, 25 -> z, 26 -> ba: a name part of letters only. */
const letters = (n: number) => n.toString(26).replace(/[0-9a-p]/g, (d) => String.fromCharCode(97 + parseInt(d, 26)));

let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
  // Enough patients registered today for a register past the PDF's row limit.
  const dir = tempDir('lims-heavy-');
  const file = join(dir, 'many.csv');
  const lines = ['first_name,last_name,date_of_birth,gender,phone,city'];
  for (let i = 0; i <= REPORT_PDF_MAX_ROWS; i++)
    lines.push(`Heavy,Row${letters(i)},1980-01-${String(1 + (i % 28)).padStart(2, '0')},Female,9${700000000 + i},Pune`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  const done = await runImport(lab.database.db, systemActor(lab.organizationId), {
    entity: entityNamed('patients')!,
    path: file,
    dryRun: false,
    update: false,
    origin: 'cli',
    reportPath: () => null,
  });
  expect(done.status, done.message ?? JSON.stringify(done.first_errors[0])).toBe('completed');
});
afterAll(() => lab.close());

async function waitJob(id: number): Promise<DataJob> {
  for (let i = 0; i < 600; i++) {
    const job = (await lab.admin.get(`/api/data-jobs/${id}`)).json<{ job: DataJob }>().job;
    if (job.status !== 'in_progress' && job.status !== 'pending') return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} did not finish`);
}

/** Holds every turn the lab has, as running jobs would; answers the function that frees them. */
async function occupyLab(): Promise<() => void> {
  const releases: (() => void)[] = [];
  for (let i = 0; i < heavyQueue.limits.perLab; i++) releases.push(await heavyQueue.enter(lab.organizationId).turn);
  return () => releases.forEach((r) => r());
}

describe('the lab’s limit of heavy jobs at once', () => {
  it('records an export past the limit as queued, shows it queued, and runs it when a turn frees', async () => {
    const free = await occupyLab();
    let released = false;
    try {
      const res = await lab.admin.post('/api/data-jobs/exports', { entity: 'patients', format: 'csv' });
      expect(res.statusCode, res.body).toBe(202);
      const job = res.json<{ job: DataJob }>().job;
      expect(job.status).toBe('pending');
      expect(job.cancellable).toBe(true);
      const listed = (await lab.admin.get('/api/data-jobs?type=export')).json<{ jobs: DataJob[] }>().jobs;
      expect(listed.find((j) => j.id === job.id)?.status).toBe('pending');
      expect(heavyQueue.counts(lab.organizationId).waiting).toBe(1);
      free();
      released = true;
      const done = await waitJob(job.id);
      expect(done.status).toBe('completed');
      expect(done.records).toBe(REPORT_PDF_MAX_ROWS + 1);
    } finally {
      if (!released) free();
    }
  });

  it('cancels a queued job without starting it', async () => {
    const free = await occupyLab();
    try {
      const job = (await lab.admin.post('/api/data-jobs/exports', { entity: 'patients', format: 'csv' })).json<{
        job: DataJob;
      }>().job;
      expect(job.status).toBe('pending');
      const res = await lab.admin.post(`/api/data-jobs/${job.id}/cancel`);
      expect(res.statusCode, res.body).toBe(200);
      const after = res.json<{ job: DataJob }>().job;
      expect(after.status).toBe('cancelled');
      expect(after.error_message).toMatch(/before it started/);
      expect(heavyQueue.counts(lab.organizationId).waiting).toBe(0);
    } finally {
      free();
    }
  });
});

describe('report files', () => {
  const today = () => localDate('Asia/Kolkata');

  it('refuses a PDF past the row limit, naming CSV and XLSX, and still gives the CSV', async () => {
    const q = `from=${today()}&to=${today()}`;
    const pdf = await lab.admin.get(`/api/reports/patient-register?${q}&format=pdf`);
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(409);
    const err = errorBody(pdf);
    expect(err.code).toBe('REPORT_TOO_LARGE_FOR_PDF');
    expect(err.message).toMatch(/CSV or XLSX/);
    const csv = await lab.admin.get(`/api/reports/patient-register?${q}&format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split('\n').length).toBeGreaterThan(REPORT_PDF_MAX_ROWS);
  });

  it('are made on a worker thread, byte for byte what the request thread made', async () => {
    const actor = {
      userId: lab.admin.userId,
      email: lab.admin.email,
      role: 'admin' as const,
      organizationId: lab.organizationId,
    };
    const query = { from: today(), to: today(), format: 'csv' as const };
    const run = await runOnThread(lab.database, { kind: 'report', actor, id: 'patient-register', query });
    expect(run.threadId).toBeGreaterThan(0);
    if (run.answer.kind !== 'file') throw new Error('no file');
    const here = await runReportAs(lab.database.db, actor, 'patient-register', query);
    expect(Buffer.from(run.answer.file.body as Uint8Array).toString()).toBe(String(here.file!.body));
    expect(run.answer.file.name).toBe(here.file!.name);
    expect(heavyThreads()).toBe(0);
  });
});

describe('a request while an import holds the write lock', () => {
  it.skipIf(ENGINE !== 'sqlite')('leaves its session touch for later instead of waiting for the lock', async () => {
    const file = (lab.database as { file?: string }).file!;
    const importer = new Database(file);
    try {
      importer.exec('BEGIN IMMEDIATE');
      expect(await touchSessionRow(lab.database.db, 'no-such-session', new Date().toISOString())).toBe(false);
      importer.exec('ROLLBACK');
      expect(await touchSessionRow(lab.database.db, 'no-such-session', new Date().toISOString())).toBe(true);
    } finally {
      importer.close();
    }
  });

  it.skipIf(ENGINE !== 'sqlite')('waits for the lock with the event loop free, then writes', async () => {
    const file = (lab.database as { file?: string }).file!;
    const importer = new Database(file);
    try {
      importer.exec('BEGIN IMMEDIATE');
      let ranMeanwhile = false;
      // The import ends its transaction from a timer: it can only run while the write waits without blocking.
      setTimeout(() => {
        ranMeanwhile = true;
        importer.exec('ROLLBACK');
      }, 20);
      const { id } = await lab.database.db
        .insertInto('data_mappings')
        .values({
          organization_id: lab.organizationId,
          entity: 'patients',
          name: 'written after the lock',
          mapping: '{}',
          created_by: null,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect(ranMeanwhile).toBe(true);
      expect(Number(id)).toBeGreaterThan(0);
    } finally {
      if (importer.inTransaction) importer.exec('ROLLBACK');
      importer.close();
    }
  });
});

describe('checkpoints of the write-ahead log', () => {
  it.skipIf(ENGINE !== 'sqlite')('are made by a thread of their own, never by the server’s connection', async () => {
    const database = lab.database as typeof lab.database & { sqlite: Database.Database; file: string };
    const stop = startCheckpoints(lab.database, (err) => {
      throw err;
    });
    try {
      expect(database.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      const before = statSync(database.file).mtimeMs;
      const saved = await lab.admin.post('/api/data-mappings', {
        entity: 'patients',
        name: 'checkpointed',
        mapping: { Surname: 'last_name' },
      });
      expect(saved.statusCode, saved.body).toBe(201);
      // The commit went to the log; the database file itself is written only by a checkpoint, and the
      // server's connection makes none: the thread does.
      for (let i = 0; statSync(database.file).mtimeMs === before; i++) {
        if (i > 200) throw new Error('nothing checkpointed the log into the database file');
        await new Promise((res) => setTimeout(res, 50));
      }
    } finally {
      await stop();
    }
    expect(database.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });
});

describe('a backup’s integrity check', () => {
  it.skipIf(ENGINE !== 'sqlite')('runs on a thread of its own with the same answer, and its refusal', async () => {
    const file = (lab.database as { file?: string }).file!;
    expect(await inspectDatabaseFileOffThread(file)).toEqual(inspectDatabaseFile(file));
    const other = join(tempDir('lims-inspect-'), 'other.db');
    const made = new Database(other);
    made.exec('CREATE TABLE t (x)');
    made.close();
    await expect(inspectDatabaseFileOffThread(other)).rejects.toThrow(/is not a lims database/);
  });
});
