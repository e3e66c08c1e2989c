import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { primaryOrganization } from '../../src/core/settings/organization.js';
import { systemActor } from '../../src/core/context.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createBill } from '../../src/core/billing/service.js';
import { runExport } from '../../src/core/transfer/export.js';
import { OutputStopped } from '../../src/core/transfer/output-errors.js';
import { entityNamed } from '../../src/core/transfer/registry.js';
import { FileSink } from '../../src/cli/sinks.js';
import { ENGINE, rows } from '../db.js';
import { BIN, cleanup, limsInProcess, openLabDatabase, setUpLab, tempDir } from './helpers.js';

let dir: string;
let files: string;
let billNumber: string;
const PATIENTS = 6000;

/** The lab's export jobs, newest last. */
async function exportJobs(): Promise<{ status: string; error_message: string | null }[]> {
  const database = await openLabDatabase(dir);
  try {
    return await rows(database, "SELECT status, error_message FROM data_jobs WHERE type = 'export' ORDER BY id");
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  dir = tempDir();
  files = tempDir();
  await setUpLab(dir, ['--sample-data']);
  // Enough patients that their JSON is megabytes: more than a pipe and the export's buffer hold.
  const csv = ['first_name,last_name,gender,date_of_birth,address'];
  // Names take letters only: the number written in letters a-j.
  const letters = (i: number) => [...String(i)].map((d) => String.fromCharCode(97 + Number(d))).join('');
  for (let i = 0; i < PATIENTS; i++) {
    csv.push(`Person ${letters(i)},Family,Female,1990-01-01,${'House '.repeat(30)}${i}`);
  }
  writeFileSync(join(files, 'many.csv'), `${csv.join('\n')}\n`);
  const imported = await limsInProcess(['--data-dir', dir, 'import', 'patients', join(files, 'many.csv')]);
  expect(imported.code, imported.stderr).toBe(0);

  const database = await openLabDatabase(dir);
  const org = (await primaryOrganization(database.db))!;
  const actor = systemActor(org.id);
  const test = await database.db.selectFrom('tests').select('id').where('code', '=', 'HB').executeTakeFirstOrThrow();
  const patient = await createPatient(database.db, actor, {
    first_name: 'Kiran',
    last_name: 'Joshi',
    date_of_birth: '1990-03-04',
    gender: 'Female',
  });
  const bill = await createBill(database.db, actor, {
    patient_id: patient.id,
    items: [{ item_type: 'test', item_id: test.id, qty: 1, discount_percent: 0 }],
    discount_percentage: 0,
    tax_percentage: 0,
    payment_method: 'cash',
  });
  billNumber = bill.bill_number;
  await database.close();
}, 120_000);
afterAll(cleanup);

/** Runs the real binary with its standard output going to `stdout` (a file such as /dev/full). */
function limsTo(args: string[], stdout: string): Promise<{ code: number | null; stderr: string }> {
  const fd = openSync(stdout, 'w');
  const { LIMS_DATA_DIR: _d, ...env } = process.env;
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...env, HOME: tempDir('lims-home-') },
    stdio: ['ignore', fd, 'pipe'],
  });
  closeSync(fd);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })));
}

const leftovers = (folder: string) => readdirSync(folder).filter((f) => f.endsWith('.partial'));

describe('a file that cannot be written', () => {
  it('--out in a folder that does not exist: one line naming the path and why, exit 1, job failed', async () => {
    const target = join(files, 'missing', 'x.csv');
    const r = await limsInProcess(['--data-dir', dir, 'export', 'patients', '--out', target]);
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `lims: cannot write ${target}: the folder ${join(files, 'missing')} does not exist\n`,
    });
    expect((await exportJobs()).at(-1)).toEqual({
      status: 'failed',
      error_message: 'the export stopped before it was written to the end: a folder on the way does not exist',
    });
  });

  it('--out naming a folder: refused with its reason, no .partial beside it, job failed (not completed)', async () => {
    const folder = join(files, 'a-folder');
    mkdirSync(folder);
    const r = await limsInProcess(['--data-dir', dir, 'export', 'patients', '--out', folder]);
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `lims: cannot write ${folder}: it is a folder; give a file name\n`,
    });
    expect(leftovers(files)).toEqual([]);
    expect((await exportJobs()).at(-1)?.status).toBe('failed');
  });

  it.skipIf(!existsSync('/dev/full'))(
    'export > /dev/full: the disk is full, in one line, exit 1, job failed',
    async () => {
      for (const format of ['csv', 'xlsx']) {
        const r = await limsTo(['--data-dir', dir, 'export', 'patients', '--format', format], '/dev/full');
        expect(r).toEqual({ code: 1, stderr: 'lims: cannot write standard output (/dev/full): the disk is full\n' });
        expect((await exportJobs()).at(-1)).toEqual({
          status: 'failed',
          error_message: 'the export stopped before it was written to the end: the disk is full',
        });
      }
    },
  );

  it.skipIf(!existsSync('/dev/full'))(
    'bill print > /dev/full and --out a missing folder: one line, exit 1',
    async () => {
      const r = await limsTo(['--data-dir', dir, 'bill', 'print', billNumber], '/dev/full');
      expect(r).toEqual({ code: 1, stderr: 'lims: cannot write standard output (/dev/full): the disk is full\n' });
      const target = join(files, 'nowhere', 'bill.pdf');
      const out = await limsInProcess(['--data-dir', dir, 'bill', 'print', billNumber, '--out', target]);
      expect(out).toEqual({
        code: 1,
        stdout: '',
        stderr: `lims: cannot write ${target}: the folder ${join(files, 'nowhere')} does not exist\n`,
      });
    },
  );
});

describe('Ctrl+C during an export', () => {
  it.skipIf(process.platform === 'win32')(
    'stops it: one line, exit 1, the job failed, nothing half-written',
    async () => {
      const { LIMS_DATA_DIR: _d, ...env } = process.env;
      const child = spawn(process.execPath, [BIN, '--data-dir', dir, 'export', 'patients', '--format', 'json'], {
        env: { ...env, HOME: tempDir('lims-home-') },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
      // The first bytes say the export is under way; not reading further keeps it from finishing
      // (megabytes against a pipe and a 1 MB buffer), so Ctrl+C lands while it runs.
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      child.stdout.pause();
      child.kill('SIGINT');
      child.stdout.resume();
      expect(await closed).toBe(1);
      expect(stderr).toBe('lims: cannot write standard output: stopped by Ctrl+C\n');
      expect((await exportJobs()).at(-1)).toEqual({
        status: 'failed',
        error_message: 'the export stopped before it was written to the end: stopped by Ctrl+C',
      });
    },
  );

  it('to a file: the .partial is removed and the old file is left as it was', async () => {
    if (ENGINE !== 'sqlite') return;
    const target = join(files, 'kept.csv');
    writeFileSync(target, 'the previous export');
    const database = await openLabDatabase(dir);
    const org = (await primaryOrganization(database.db))!;
    const sink = new FileSink(target);
    try {
      // What the command's Ctrl+C handler does, at the first page: the sink fails with the reason.
      await expect(
        runExport(database.db, systemActor(org.id), {
          entity: entityNamed('patients')!,
          format: 'csv',
          query: { where: {} },
          out: sink,
          fileName: 'kept.csv',
          origin: 'cli',
          onProgress: () => sink.destroy(new OutputStopped('SIGINT')),
          settled: async () => sink.commit(),
        }),
      ).rejects.toThrow('stopped by Ctrl+C');
    } finally {
      sink.discard();
      await database.close();
    }
    expect(leftovers(files)).toEqual([]);
    expect(readFileSync(target, 'utf8')).toBe('the previous export');
    expect((await exportJobs()).at(-1)).toEqual({
      status: 'failed',
      error_message: 'the export stopped before it was written to the end: stopped by Ctrl+C',
    });
  });
});
