import { existsSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, tempDir, type Client, type TestLab } from '../helpers.js';
import { otherLabAdmin, uniqueWord } from './support.js';
import { exec } from '../db.js';
import type { DataJob, ImportCheck, Upload } from '../../src/shared/schemas/data-jobs.js';

/**
 * The server operator's limits on the data screens' uploads: one file, and what a lab may hold at
 * once. A file past either is cut off while it streams and nothing of it stays on disk; files
 * that cannot serve an import are removed at once. Backups: the server's superadmin only, one at
 * a time.
 */

const KB = 1024;
const LIMIT = 64 * KB;
const QUOTA = 160 * KB;
let lab: TestLab;
let dataDir: string;
let clerk: Client;

beforeAll(async () => {
  dataDir = tempDir('lims-uploads-');
  lab = await makeLab({ dataDir, uploadLimits: { maxFileBytes: LIMIT, labQuotaBytes: QUOTA } });
  clerk = await lab.as('receptionist');
});
afterAll(() => lab.close());

const labFiles = (organizationId = lab.organizationId) => {
  const dir = join(dataDir, 'uploads', String(organizationId));
  return existsSync(dir) ? readdirSync(dir) : [];
};

function upload(
  as: Client,
  payload: Buffer | Readable,
  fileName = 'patients.csv',
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return lab.app.inject({
    method: 'POST',
    url: `/api/data-jobs/uploads?entity=patients&file_name=${fileName}`,
    headers: { cookie: as.cookie, 'content-type': 'application/octet-stream', 'x-lims-upload': '1', ...headers },
    payload,
  });
}

/** A patients CSV of about `bytes` bytes, every row valid (or one bad date when asked). */
function patientsCsv(bytes: number, badRow = false): Buffer {
  const surname = uniqueWord('Qu');
  const lines = ['first_name,last_name,date_of_birth,gender'];
  let size = lines[0]!.length + 1;
  for (let i = 0; size < bytes; i++) {
    const line = `Asha${'abcdefghijklmnopqrstuvwxyz'[i % 26]}${'abcdefghij'[Math.floor(i / 26) % 10]},${surname},1990-01-15,Female`;
    lines.push(line);
    size += line.length + 1;
  }
  if (badRow) lines.push(`Ravi,${surname},1990-02-31,Male`);
  return Buffer.from(lines.join('\n') + '\n');
}

/** An endless body that counts what the server pulled from it. */
function endless(): { stream: Readable; pulled: () => number } {
  let pulled = 0;
  const chunk = Buffer.alloc(16 * KB, 'a');
  const stream = new Readable({
    read() {
      pulled += chunk.length;
      this.push(chunk);
    },
  });
  return { stream, pulled: () => pulled };
}

describe('the limit of one import', () => {
  it('cuts a file off while it streams, past the operator’s limit: 413 naming the limit, nothing kept', async () => {
    const body = endless();
    const res = await upload(clerk, body.stream);
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json()).toMatchObject({ code: 'FILE_TOO_LARGE', message: expect.stringContaining('64 KB') });
    expect(body.pulled()).toBeLessThan(LIMIT * 4);
    expect(labFiles()).toEqual([]);
  });

  it('refuses a file whose declared size is past the limit before reading it', async () => {
    const res = await upload(clerk, patientsCsv(LIMIT + 10 * KB));
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/64 KB, the largest import this server accepts/);
    expect(labFiles()).toEqual([]);
  });
});

describe('the lab’s quota of uploads held at once', () => {
  it('refuses the upload that would pass it, leaves other labs alone, and frees room when one is discarded', async () => {
    const first = await upload(clerk, patientsCsv(60 * KB));
    expect(first.statusCode, first.body).toBe(201);
    const second = await upload(await lab.as('receptionist'), patientsCsv(60 * KB));
    expect(second.statusCode, second.body).toBe(201);
    const third = await upload(clerk, patientsCsv(60 * KB));
    expect(third.statusCode).toBe(413);
    expect(third.json()).toMatchObject({ code: 'UPLOAD_QUOTA', message: expect.stringContaining('160 KB') });
    expect(labFiles().filter((f) => f.endsWith('.upload'))).toHaveLength(2);
    // Streamed without a declared size: cut off at the quota as well.
    const streamed = await upload(clerk, Readable.from([patientsCsv(60 * KB)]));
    expect(streamed.statusCode).toBe(413);
    expect(streamed.json().code).toBe('UPLOAD_QUOTA');
    expect(labFiles().filter((f) => f.endsWith('.upload'))).toHaveLength(2);

    // Another lab's quota is its own.
    const other = await otherLabAdmin(lab);
    expect((await upload(other.admin, patientsCsv(60 * KB))).statusCode).toBe(201);

    // Discarded by its own user only: then there is room again.
    const id = first.json<{ upload: Upload }>().upload.id;
    expect((await other.admin.delete(`/api/data-jobs/uploads/${id}`)).json()).toEqual({ removed: false });
    expect((await clerk.delete(`/api/data-jobs/uploads/${id}`)).json()).toEqual({ removed: true });
    expect(labFiles()).not.toContain(`${id}.upload`);
    expect((await upload(clerk, patientsCsv(60 * KB))).statusCode).toBe(201);
    for (const f of labFiles())
      if (f.endsWith('.upload')) await clerk.delete(`/api/data-jobs/uploads/${f.slice(0, 32)}`);
    expect(labFiles().filter((f) => f.endsWith('.upload'))).toHaveLength(1);
  });
});

async function waitJob(as: Client, id: number): Promise<DataJob> {
  for (let i = 0; i < 400; i++) {
    const job = (await as.get(`/api/data-jobs/${id}`)).json<{ job: DataJob }>().job;
    if (job.status !== 'in_progress' && job.status !== 'pending') return job;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`job ${id} did not finish`);
}

describe('refused files are removed at once', () => {
  it('a file that cannot be read is not kept after its check', async () => {
    const manager = await lab.as('lab_manager');
    const res = await upload(manager, Buffer.from('%PDF-1.4 not a table\n'), 'report.pdf');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<{ check: ImportCheck }>().check.status).toBe('failed');
    const id = res.json<{ upload: Upload }>().upload.id;
    expect(labFiles().filter((f) => f.startsWith(id))).toEqual([]);
  });

  it('a file with a bad row is kept for another check, and removed as soon as its import fails', async () => {
    const manager = await lab.as('lab_manager');
    const res = await upload(manager, patientsCsv(2 * KB, true));
    expect(res.statusCode, res.body).toBe(201);
    const { upload: up, check } = res.json<{ upload: Upload; check: ImportCheck }>();
    expect(check.status).toBe('failed');
    expect(labFiles()).toContain(`${up.id}.upload`);
    const recheck = await manager.post('/api/data-jobs/checks', { upload_id: up.id, entity: 'patients' });
    expect(recheck.statusCode, recheck.body).toBe(200);
    const started = await manager.post('/api/data-jobs/imports', { upload_id: up.id, entity: 'patients' });
    expect(started.statusCode, started.body).toBe(202);
    expect((await waitJob(manager, started.json<{ job: DataJob }>().job.id)).status).toBe('failed');
    expect(labFiles().filter((f) => f.startsWith(up.id))).toEqual([]);
  });

  it('checks of one upload again and again keep one error report, removed with the upload', async () => {
    const manager = await lab.as('lab_manager');
    const reports = () => {
      const dir = join(dataDir, 'import-reports');
      return existsSync(dir) ? readdirSync(dir).length : 0;
    };
    const before = reports();
    const res = await upload(manager, patientsCsv(2 * KB, true));
    const { upload: up } = res.json<{ upload: Upload }>();
    expect(reports()).toBe(before + 1);
    for (let i = 0; i < 3; i++) {
      const again = await manager.post('/api/data-jobs/checks', { upload_id: up.id, entity: 'patients' });
      expect(again.json<{ check: ImportCheck }>().check.errors).toBe(1);
    }
    expect(reports()).toBe(before + 1);
    expect((await manager.delete(`/api/data-jobs/uploads/${up.id}`)).json()).toEqual({ removed: true });
    expect(reports()).toBe(before);
  });

  it('an upload left waiting past its hour goes with its check’s report', async () => {
    const manager = await lab.as('lab_manager');
    const reports = () => readdirSync(join(dataDir, 'import-reports')).length;
    const before = reports();
    const { upload: up } = (await upload(manager, patientsCsv(2 * KB, true))).json<{ upload: Upload }>();
    expect(reports()).toBe(before + 1);
    const hourAgo = (Date.now() - 61 * 60 * 1000) / 1000;
    for (const f of labFiles().filter((n) => n.startsWith(up.id)))
      utimesSync(join(dataDir, 'uploads', String(lab.organizationId), f), hourAgo, hourAgo);
    // The next upload (any user's) sweeps it.
    const next = await upload(clerk, patientsCsv(KB));
    expect(labFiles().filter((f) => f.startsWith(up.id))).toEqual([]);
    expect(reports()).toBe(before);
    await clerk.delete(`/api/data-jobs/uploads/${next.json<{ upload: Upload }>().upload.id}`);
  });

  it('a completed import leaves no upload either', async () => {
    const manager = await lab.as('lab_manager');
    const res = await upload(manager, patientsCsv(KB));
    const { upload: up } = res.json<{ upload: Upload }>();
    const started = await manager.post('/api/data-jobs/imports', { upload_id: up.id, entity: 'patients' });
    expect((await waitJob(manager, started.json<{ job: DataJob }>().job.id)).status).toBe('completed');
    expect(labFiles().filter((f) => f.startsWith(up.id))).toEqual([]);
  });
});

describe('backups', () => {
  it('are started by the server’s superadmin only, one at a time', async () => {
    const other = await otherLabAdmin(lab);
    const tenant = await other.admin.post('/api/settings/backups');
    expect(tenant.statusCode).toBe(403);
    expect((await (await lab.as('admin')).post('/api/settings/backups')).statusCode).toBe(403);
    // One is running (started a moment ago by the schedule, or by another server on this database).
    await exec(
      lab.database,
      "INSERT INTO backup_runs (started_at, status, reason, host) VALUES (?, 'running', 'schedule', 'here')",
      new Date().toISOString(),
    );
    const second = await lab.admin.post('/api/settings/backups');
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toMatch(/A backup is already running/);
  });
});
