import { PassThrough, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/db.js';
import { tempDir } from '../../../test/helpers.js';
import { setupLab } from '../setup/service.js';
import { systemActor, type Actor } from '../context.js';
import { openDatabase, type SqliteDatabase } from '../db/connection.js';
import { insertPatientRows, type PatientInsertRow } from '../patients/repository.js';
import { entityNamed, runExport, type ExportOptions, type ExportResult } from './service.js';
import { runningExportWorkers, type ParallelSettings } from './parallel.js';
import type { AnyEntity, ExportQuery } from './entity.js';

/**
 * The parallel CSV export (parallel.ts, export-worker.ts): the same bytes as the one-thread export
 * for awkward values and every filter, one snapshot across the workers while another connection
 * writes, errors that end the export with no worker left, and the cases that stay on one thread.
 * SQLite only (the parallel export reads a SQLite file). The workers run the compiled
 * export-worker.js: `npm run build:server` first (npm test builds).
 */

/** Small ranges, so a few thousand rows are many ranges over both workers. */
const SETTINGS: ParallelSettings = { workers: 2, rangeRows: 97, inFlight: 3, minRows: 0 };
const ROWS = 1200;

let database: SqliteDatabase;
let actor: Actor;
let patients: AnyEntity;

/** Values a CSV writer can get wrong: separators, quotes, line breaks, formulas, scripts, nulls. */
const AWKWARD = [
  'Sharma, Ravi',
  'He said "no"',
  'line one\nline two',
  'carriage\rreturn',
  'crlf\r\nin a cell',
  '=SUM(A1:A2)',
  '+91 98450 12345',
  '-1',
  '@home',
  '\ttabbed',
  'राम कुमार',
  'முருகன்',
  'émile 😀',
  '',
  ' spaced ',
];

function patientRow(i: number, organizationId: number, adminId: number): PatientInsertRow {
  const pick = (k: number) => (i % 7 === k ? null : AWKWARD[(i + k) % AWKWARD.length]!);
  const day = new Date(Date.UTC(2025, 0, 1) + i * 3_600_000 * 7).toISOString();
  return {
    organization_id: organizationId,
    patient_code: `PAT20250101${String(i).padStart(4, '0')}`,
    title: i % 5 === 0 ? null : 'Mr',
    first_name: AWKWARD[i % AWKWARD.length] || `First ${i}`,
    last_name: pick(1) ?? '',
    date_of_birth: `19${String(50 + (i % 50)).padStart(2, '0')}-0${1 + (i % 9)}-1${i % 10}`,
    dob_estimated: i % 4 === 0 ? 1 : 0,
    gender: (['Male', 'Female', 'Other'] as const)[i % 3]!,
    phone: pick(2),
    email: i % 6 === 0 ? null : `p${i}@example.in`,
    address: pick(3),
    city: pick(4),
    state: pick(5),
    pincode: i % 2 ? '560001' : null,
    emergency_contact: pick(6),
    emergency_phone: null,
    emergency_relation: pick(0),
    blood_group: i % 8 === 0 ? null : 'O+',
    allergies: pick(1),
    medical_history: pick(2),
    insurance_provider: pick(3),
    insurance_number: pick(4),
    membership_type: (['none', 'premium', 'corporate'] as const)[i % 3]!,
    created_by: adminId,
    created_at: day,
    updated_at: day,
  } as PatientInsertRow;
}

/** A lab with no catalogue, in Asia/Kolkata. */
function emptyLab(db: Parameters<typeof setupLab>[0], labName: string, adminEmail: string) {
  return setupLab(db, {
    labName,
    adminName: 'Asha Admin',
    adminEmail,
    adminPassword: 'a-strong-secret-9',
    timezone: 'Asia/Kolkata',
    currency: 'INR',
    dateFormat: 'DD/MM/YYYY',
    importSampleTests: false,
    importSampleProfiles: false,
    importSamplePackages: false,
  });
}

beforeAll(async () => {
  database = (await openTestDatabase(tempDir())) as SqliteDatabase;
  if (database.engine !== 'sqlite') throw new Error('the parallel export is SQLite only');
  const { organizationId, adminId } = await emptyLab(database.db, 'Parallel Lab', 'admin@parallel.lab');
  actor = systemActor(organizationId);
  patients = entityNamed('patients')!;
  await insertPatientRows(
    database.db,
    Array.from({ length: ROWS }, (_, i) => patientRow(i, organizationId, adminId)),
  );
});
afterAll(() => database.close());

async function exportCsv(
  query: Partial<ExportQuery> = {},
  opts: Partial<ExportOptions> = {},
): Promise<{ bytes: Buffer; result: ExportResult }> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const result = await runExport(database.db, actor, {
    entity: patients,
    format: 'csv',
    query: { where: {}, ...query },
    out,
    fileName: null,
    origin: 'cli',
    ...opts,
  });
  return { bytes: Buffer.concat(chunks), result };
}

describe('parallel CSV export', () => {
  it('writes the same bytes as one thread, awkward values included, on two workers', async () => {
    const one = await exportCsv();
    const two = await exportCsv({}, { parallel: SETTINGS });
    expect(one.result.threads).toBe(1);
    expect(two.result.threads).toBe(2);
    expect(two.result.rows).toBe(ROWS);
    expect(one.bytes.toString('utf8').split('\r\n')[0]).toMatch(/^\uFEFFpatient_id,first_name,/);
    expect(one.bytes.toString('utf8')).toContain('"He said ""no"""');
    expect(one.bytes.toString('utf8')).toContain("'=SUM(A1:A2)");
    expect(two.bytes.equals(one.bytes)).toBe(true);
    expect(runningExportWorkers()).toBe(0);
  });

  it('gives the same bytes under every filter (--where, --from/--to, a search)', async () => {
    const queries: Partial<ExportQuery>[] = [
      { where: { gender: 'Female' } },
      { where: { membership_type: 'corporate', gender: 'Male' } },
      { from: '2025-01-20', to: '2025-02-03' },
      { where: { gender: 'Other' }, from: '2025-02-01' },
      { where: { search: 'Sharma' } },
      { where: { search: 'zzzz-nobody' } },
      { from: '2031-01-01' },
    ];
    for (const q of queries) {
      const one = await exportCsv(q);
      const two = await exportCsv(q, { parallel: SETTINGS });
      expect(two.result.rows, JSON.stringify(q)).toBe(one.result.rows);
      expect(two.bytes.equals(one.bytes), JSON.stringify(q)).toBe(true);
    }
    // The filters chose something, and not everything, where they should.
    const female = await exportCsv({ where: { gender: 'Female' } }, { parallel: SETTINGS });
    expect(female.result.rows).toBe(ROWS / 3);
    expect(female.result.threads).toBe(2);
  });

  it('reads one snapshot: rows changed by another connection mid-export are all out of it', async () => {
    const before = await exportCsv();
    const writer = new Database(database.file);
    writer.pragma('busy_timeout = 5000');
    let wrote = false;
    try {
      const during = await exportCsv(
        {},
        {
          parallel: SETTINGS,
          // After the first range is written: every patient's city changes, one is added, two go.
          onProgress: () => {
            if (wrote) return;
            wrote = true;
            writer.exec(`
              BEGIN IMMEDIATE;
              UPDATE patients SET city = 'Moved City';
              INSERT INTO patients (organization_id, patient_code, first_name, last_name, date_of_birth, gender, created_at, updated_at)
                SELECT organization_id, 'PAT202501019999', 'Latecomer', 'Late', date_of_birth, 'Male', created_at, updated_at
                FROM patients ORDER BY id LIMIT 1;
              DELETE FROM patients WHERE id IN (SELECT id FROM patients ORDER BY id LIMIT 2);
              COMMIT;`);
          },
        },
      );
      expect(wrote).toBe(true);
      expect(during.result.threads).toBe(2);
      expect(during.bytes.toString('utf8')).not.toContain('Moved City');
      expect(during.bytes.equals(before.bytes)).toBe(true);
      // The change is there for the next export, in every range.
      const after = await exportCsv({}, { parallel: SETTINGS });
      const lines = after.bytes.toString('utf8').split('\r\n').length;
      expect(after.bytes.toString('utf8')).toContain('Latecomer');
      expect(after.bytes.equals((await exportCsv()).bytes)).toBe(true);
      expect(after.result.rows).toBe(ROWS - 1);
      expect(lines).toBeGreaterThan(ROWS);
    } finally {
      writer.close();
    }
  });

  it('stays on one thread while another connection holds the write lock, and for few rows', async () => {
    const writer = new Database(database.file);
    try {
      // Taken once the export's job is recorded (a writer such as an import), let go once rows are written.
      let held = false;
      const locked = await exportCsv(
        {},
        {
          parallel: SETTINGS,
          onJob: () => {
            writer.exec('BEGIN IMMEDIATE');
            held = true;
          },
          onProgress: () => {
            if (writer.inTransaction) writer.exec('ROLLBACK');
          },
        },
      );
      expect(held).toBe(true);
      expect(locked.result.threads).toBe(1);
      expect(locked.result.rows).toBe(ROWS - 1);
      expect(locked.bytes.equals((await exportCsv()).bytes)).toBe(true);
    } finally {
      writer.close();
    }
    // The lab now holds ROWS - 1 patients: parallel from minRows of them on.
    const few = await exportCsv({}, { parallel: { ...SETTINGS, minRows: ROWS } });
    expect(few.result.threads).toBe(1);
    const enough = await exportCsv({}, { parallel: { ...SETTINGS, minRows: ROWS - 1 } });
    expect(enough.result.threads).toBe(2);
    expect(enough.bytes.equals(few.bytes)).toBe(true);
    // JSON and XLSX are written on one thread.
    const json = await exportCsv({}, { parallel: SETTINGS, format: 'json' });
    expect(json.result.threads).toBe(1);
  });

  it('stays on one thread for an in-memory database or one not in WAL mode', async () => {
    const memory = openDatabase(':memory:');
    try {
      const { organizationId } = await emptyLab(memory.db, 'Memory Lab', 'admin@memory.lab');
      const r = await runExport(memory.db, systemActor(organizationId), {
        entity: patients,
        format: 'csv',
        query: { where: {} },
        out: new PassThrough().resume(),
        fileName: null,
        origin: 'cli',
        parallel: SETTINGS,
      });
      expect(r.threads).toBe(1);
    } finally {
      await memory.close();
    }
    database.sqlite.pragma('journal_mode = DELETE');
    try {
      const r = await exportCsv({}, { parallel: SETTINGS });
      expect(r.result.threads).toBe(1);
      expect(r.result.rows).toBe(ROWS - 1);
    } finally {
      database.sqlite.pragma('journal_mode = WAL');
    }
  });

  it('a failing row in a worker ends the export with its error, the job failed, no worker left', async () => {
    const bad = (
      await database.db.selectFrom('patients').select('id').orderBy('id').offset(500).limit(1).executeTakeFirstOrThrow()
    ).id;
    // The same plan, but SQLite's json() fails on one row in the middle of the walk.
    const broken: AnyEntity = {
      ...patients,
      exportParallel: async (db, organizationId, q) => {
        const plan = (await patients.exportParallel!(db, organizationId, q))!;
        const sql = plan.rows.sql.replace(/^select /i, `select json(case when "id" = ${bad} then '{' else '1' end), `);
        expect(sql).not.toBe(plan.rows.sql);
        return { ...plan, rows: { ...plan.rows, sql } };
      },
    };
    const out = new PassThrough().resume();
    await expect(
      runExport(database.db, actor, {
        entity: broken,
        format: 'csv',
        query: { where: {} },
        out,
        fileName: 'patients.csv',
        origin: 'cli',
        parallel: SETTINGS,
      }),
    ).rejects.toThrow(/malformed JSON/);
    expect(runningExportWorkers()).toBe(0);
    const job = await database.db
      .selectFrom('data_jobs')
      .select(['status', 'error_message'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'failed', error_message: 'the export stopped before it was written to the end' });
  });

  it('a destination that fails (a full disk) ends the export with its error, no worker left', async () => {
    let writes = 0;
    const full = new Writable({
      write(_chunk, _enc, done) {
        writes += 1;
        if (writes === 4) {
          const err = new Error('ENOSPC: no space left on device, write') as NodeJS.ErrnoException;
          err.code = 'ENOSPC';
          done(err);
        } else done();
      },
    });
    full.on('error', () => {});
    await expect(
      runExport(database.db, actor, {
        entity: patients,
        format: 'csv',
        query: { where: {} },
        out: full,
        fileName: 'patients.csv',
        origin: 'cli',
        parallel: SETTINGS,
        // As the command line waits for its file.
        settled: async () => {
          await finished(full);
          return null;
        },
      }),
    ).rejects.toThrow(/ENOSPC/);
    expect(runningExportWorkers()).toBe(0);
  });

  it('a cancelled export stops its workers', async () => {
    const controller = new AbortController();
    const r = await exportCsv(
      {},
      { parallel: SETTINGS, signal: controller.signal, onProgress: () => controller.abort() },
    );
    expect(r.result.status).toBe('cancelled');
    expect(r.result.threads).toBe(2);
    expect(runningExportWorkers()).toBe(0);
  });
});
