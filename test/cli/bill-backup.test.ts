import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDataDirConfig, writeDataDirConfig } from '../../src/core/datadir.js';
import { describeTarget, parseDatabaseUrl } from '../../src/core/db/url.js';
import { primaryOrganization } from '../../src/core/settings/organization.js';
import { systemActor } from '../../src/core/context.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createBill } from '../../src/core/billing/service.js';
import { ENGINE, freshPostgresUrl } from '../db.js';
import { findBillByNumber } from '../../src/core/billing/repository.js';
import { billPdfById } from '../../src/core/billing/print.js';
import { BIN, cleanup, lims, limsInProcess, openLabDatabase, setUpLab, tempDir } from './helpers.js';

/** Runs the CLI keeping its stdout as bytes (a PDF). */
function limsBytes(args: readonly string[]): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  const { LIMS_DATA_DIR: _dir, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...inherited, HOME: tempDir('lims-home-') }, encoding: 'buffer', timeout: 20_000 },
      (err, stdout, stderr) =>
        resolve({
          code: err ? (typeof err.code === 'number' ? err.code : null) : 0,
          stdout,
          stderr: stderr.toString(),
        }),
    );
  });
}

let dir: string;
let billNumber: string;

beforeAll(async () => {
  dir = tempDir();
  await setUpLab(dir, ['--sample-data']);
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
});
afterAll(cleanup);

describe('lims bill print', () => {
  it('writes the bill PDF with the amount in en-IN format', async () => {
    const out = join(dir, 'bill.pdf');
    const r = await limsInProcess(['--data-dir', dir, 'bill', 'print', billNumber, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(out);
    expect(readFileSync(out).subarray(0, 5).toString()).toBe('%PDF-');
    const text = execFileSync('pdftotext', ['-layout', out, '-']).toString();
    expect(text).toContain(billNumber);
    expect(text).toMatch(/₹\d{1,3}(,\d{2,3})*\.\d{2}/);
    expect(text).toContain('Kiran Joshi');
  });

  it('without --out writes the PDF to stdout when piped: the same bytes as the UI download', async () => {
    const r = await limsBytes(['--data-dir', dir, 'bill', 'print', billNumber]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.subarray(0, 5).toString()).toBe('%PDF-');
    // The route of the UI's download renders with billPdfById; the bill's own time dates the file.
    const database = await openLabDatabase(dir);
    try {
      const org = (await primaryOrganization(database.db))!;
      const bill = (await findBillByNumber(database.db, org.id, billNumber))!;
      const { pdf } = await billPdfById(database.db, org.id, bill.id);
      expect(Buffer.compare(r.stdout, pdf)).toBe(0);
    } finally {
      await database.close();
    }
  });

  it('fails with one clear line for an unknown bill number', async () => {
    const r = await limsInProcess(['--data-dir', dir, 'bill', 'print', 'OPB000000000000']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('lims: no bill numbered OPB000000000000 in City Diagnostics');
  });
});

const PG_DUMP_MISSING =
  "pg_dump is not on the PATH: install PostgreSQL's client programs (Debian: apt-get install postgresql-client), the same major version as the server or newer";

describe('lims backup and restore', () => {
  // A SQLite file copied with SQLite's online backup API and restored by swapping lims.db: on
  // PostgreSQL a backup is pg_dump's archive instead, tested by the two tests after this one.
  it.runIf(ENGINE === 'sqlite')(
    'makes a checked online backup and restores it, keeping the replaced database',
    async () => {
      const file = join(tempDir(), 'b.db');
      const b = await limsInProcess(['--data-dir', dir, 'backup', '--out', file]);
      expect(b.code, b.stderr).toBe(0);
      expect(b.stdout).toMatch(/integrity ok/);
      expect(existsSync(file)).toBe(true);

      const again = await limsInProcess(['--data-dir', dir, 'backup', '--out', file]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('already exists');

      const fresh = tempDir();
      const r = await limsInProcess(['--data-dir', fresh, 'restore', file]);
      expect(r.code, r.stderr).toBe(0);
      const print = await limsInProcess([
        '--data-dir',
        fresh,
        'bill',
        'print',
        billNumber,
        '--out',
        join(fresh, 'x.pdf'),
      ]);
      expect(print.code, print.stderr).toBe(0);

      const r2 = await limsInProcess(['--data-dir', fresh, 'restore', file]);
      expect(r2.code).toBe(0);
      // The kept copy is named as every backup is: the lab's local time and its offset.
      const kept = () => readdirSync(fresh).filter((f) => f.startsWith('lims.db.before-restore-'));
      expect(kept()).toHaveLength(1);
      expect(kept()[0]).toMatch(/^lims\.db\.before-restore-\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d\+0530$/);
      expect(r2.stdout).toContain(`the database it replaced is kept as ${join(fresh, kept()[0]!)}`);
      // A second restore within the same second keeps its own copy beside the first.
      const r3 = await limsInProcess(['--data-dir', fresh, 'restore', file]);
      expect(r3.code).toBe(0);
      expect(kept()).toHaveLength(2);
    },
  );

  it.runIf(ENGINE === 'sqlite')(
    "names a backup by the lab's local time with its offset, and leaves no -wal or -shm beside it",
    async () => {
      const b = await limsInProcess(['--data-dir', dir, 'backup']);
      expect(b.code, b.stderr).toBe(0);
      const name = /backups\/(lims-[^ ]+\.db) /.exec(b.stdout)![1]!;
      // The lab is in Asia/Kolkata (lims setup's default): +0530, and the hour the lab saw.
      expect(name).toMatch(/^lims-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}\+0530\.db$/);
      const hour = new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Asia/Kolkata',
        hour: '2-digit',
        hourCycle: 'h23',
      }).format(new Date());
      expect([hour, String((Number(hour) + 23) % 24).padStart(2, '0')]).toContain(name.slice(16, 18));
      expect(readdirSync(join(dir, 'backups')).filter((f) => f.startsWith(name.replace(/\.db$/, '')))).toEqual([name]);
    },
  );

  it.runIf(ENGINE === 'postgres')(
    'on PostgreSQL, backup refuses an existing file, and without pg_dump on the PATH fails in one line naming it',
    async () => {
      const out = tempDir();
      const taken = join(out, 'taken.dump');
      writeFileSync(taken, 'an older backup');
      const again = await limsInProcess(['--data-dir', dir, 'backup', '--out', taken]);
      expect(again.code).toBe(1);
      expect(again.stderr).toBe(`lims: --out: ${taken} already exists; choose another file name\n`);
      expect(readFileSync(taken, 'utf8')).toBe('an older backup');

      // PATH names an empty directory: no pg_dump to run (node itself is started by its full path).
      const env = { PATH: tempDir('lims-path-') };
      const file = join(out, 'b.dump');
      const [named, defaulted] = await Promise.all([
        lims(['--data-dir', dir, 'backup', '--out', file], { env }),
        lims(['--data-dir', dir, 'backup'], { env }),
      ]);
      expect(named.code).toBe(1);
      expect(named.stdout).toBe('');
      expect(named.stderr).toBe(`lims: --out: ${PG_DUMP_MISSING}\n`);
      expect(readdirSync(out)).toEqual(['taken.dump']);
      expect(defaulted.code).toBe(1);
      expect(defaulted.stderr).toBe(`lims: ${PG_DUMP_MISSING}\n`);
      expect(readdirSync(join(dir, 'backups'))).toEqual([]);
    },
  );

  it.runIf(ENGINE === 'postgres')(
    'on PostgreSQL, restore refuses a database that already holds a lab and leaves the lab as it was',
    async () => {
      const file = join(tempDir(), 'b.dump');
      writeFileSync(file, 'a backup');
      const r = await limsInProcess(['--data-dir', dir, 'restore', file]);
      expect(r.code).toBe(1);
      const target = describeTarget(parseDatabaseUrl(readDataDirConfig(dir).database_url!));
      expect(r.stderr).toBe(
        `lims: ${target} is not empty: restore into a new, empty database (createdb), then point lims at it with --database-url\n`,
      );
      const print = await limsInProcess([
        '--data-dir',
        dir,
        'bill',
        'print',
        billNumber,
        '--out',
        join(dir, 'after.pdf'),
      ]);
      expect(print.code, print.stderr).toBe(0);
    },
  );

  it('refuses a file that is not a lims database', async () => {
    const bogus = join(dir, 'serve.txt');
    execFileSync('sh', ['-c', `echo hello > ${bogus}`]);
    const fresh = tempDir();
    // On PostgreSQL restore needs an empty database (a migrated one is refused before the file is read).
    if (ENGINE === 'postgres') writeDataDirConfig(fresh, { database_url: await freshPostgresUrl({ empty: true }) });
    const r = await limsInProcess(['--data-dir', fresh, 'restore', bogus]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/lims: /);
  });
});

describe('files lims writes are this user only', () => {
  const mode = (f: string) => statSync(f).mode & 0o777;

  it('the data dir is 0700 and the database, its WAL, backups and printed PDFs 0600, whatever the umask', async () => {
    const home = tempDir('lims-modes-');
    const data = join(home, 'data');
    // A data dir made earlier, open to others (an older lims, or made by hand).
    mkdirSync(data, { mode: 0o755 });
    chmodSync(data, 0o755);
    await setUpLab(data);
    expect(mode(data)).toBe(0o700);
    if (ENGINE === 'sqlite') {
      for (const f of ['lims.db', 'lims.db-wal', 'lims.db-shm'])
        if (existsSync(join(data, f))) expect(mode(join(data, f)), f).toBe(0o600);
      // An existing database left readable by others is closed again on the next open.
      chmodSync(join(data, 'lims.db'), 0o644);
    }
    const out = join(home, 'out');
    mkdirSync(out);
    const printed = await lims(['--data-dir', dir, 'bill', 'print', billNumber, '--out', join(out, 'bill.pdf')]);
    expect(printed.code, printed.stderr).toBe(0);
    expect(mode(join(out, 'bill.pdf'))).toBe(0o600);
    // A PostgreSQL lab's backup is pg_dump's, whose version must match the server's: SQLite's is ours.
    if (ENGINE === 'sqlite') {
      const backup = await lims(['--data-dir', data, 'backup', '--out', join(out, 'lab.db')]);
      expect(backup.code, backup.stderr).toBe(0);
      expect(mode(join(out, 'lab.db'))).toBe(0o600);
      expect(mode(join(data, 'lims.db'))).toBe(0o600);
    }
  });
});
