import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import { badFields, errorBody, otherLabAdmin, uniqueWord } from './support.js';
import { row, rows } from '../db.js';
import type { DataJob, DataJobPage, DataJobSummary, ImportCheck, Upload } from '../../src/shared/schemas/data-jobs.js';
import { sweepExports } from '../../src/core/data-jobs/service.js';
import { dirname } from 'node:path';
import { menuFiles } from './menu-files.js';
import { ENTITY_NAMES } from '../../src/core/transfer/registry.js';
import { tmpdir } from 'node:os';

/**
 * The data screens' API: upload and check, background imports and exports with
 * progress and Cancel, re-downloads and their count, View Errors, templates, saved mappings, the
 * per-entity permissions, and that another lab's jobs do not exist here.
 */

let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

function upload(
  as: Client,
  entity: string,
  fileName: string,
  content: string | Buffer,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return lab.app.inject({
    method: 'POST',
    url: `/api/data-jobs/uploads?entity=${entity}&file_name=${encodeURIComponent(fileName)}`,
    headers: { cookie: as.cookie, 'content-type': 'application/octet-stream', 'x-lims-upload': '1', ...headers },
    payload: typeof content === 'string' ? Buffer.from(content) : content,
  });
}

async function uploaded(as: Client, entity: string, fileName: string, content: string | Buffer) {
  const res = await upload(as, entity, fileName, content);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ upload: Upload; check: ImportCheck }>();
}

async function waitJob(as: Client, id: number): Promise<DataJob> {
  for (let i = 0; i < 400; i++) {
    const res = await as.get(`/api/data-jobs/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    const job = res.json<{ job: DataJob }>().job;
    if (job.status !== 'in_progress' && job.status !== 'pending') return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} did not finish`);
}

const patientCount = async (surname: string) =>
  Number(
    (await row<{ n: number }>(lab.database, 'SELECT count(*) AS n FROM patients WHERE last_name = ?', surname))?.n ?? 0,
  );

/** A first name of letters only, different for each i. */
function letters(i: number): string {
  let s = '';
  let n = i + 1;
  while (n > 0) {
    s += String.fromCharCode(97 + (n % 26));
    n = Math.floor(n / 26);
  }
  return `Asha${s}`;
}

function patientsCsv(surname: string, n: number, extra: string[] = []): string {
  const lines = ['first_name,last_name,date_of_birth,gender,phone'];
  for (let i = 0; i < n; i++)
    lines.push(`${letters(i)},${surname},1990-01-${String((i % 28) + 1).padStart(2, '0')},Female,`);
  return [...lines, ...extra].join('\n') + '\n';
}

describe('a test menu of 300 tests with profiles naming them by code (the screens\u2019 routes)', () => {
  it('imports the tests from Excel and the profiles from CSV; a wrong code in a profile is named by row and column and stores nothing', async () => {
    const menu = await menuFiles('WM');
    const tests = await uploaded(lab.admin, 'tests', 'menu.xlsx', menu.testsXlsx);
    expect(tests.check).toMatchObject({ status: 'completed', rows: 300, errors: 0, inserted: 300 });
    const started = await lab.admin.post('/api/data-jobs/imports', { upload_id: tests.upload.id, entity: 'tests' });
    expect(started.statusCode, started.body).toBe(202);
    expect(await waitJob(lab.admin, started.json<{ job: DataJob }>().job.id)).toMatchObject({
      status: 'completed',
      inserted: 300,
    });
    const stored = await rows<{ code: string; price_paise: number }>(
      lab.database,
      "SELECT code, price_paise FROM tests WHERE code LIKE 'WM%' ORDER BY code",
    );
    expect(stored.map((t) => t.code)).toEqual(menu.testCodes);
    expect(Number(stored[299]!.price_paise)).toBe(39_900);

    const profileCount = async () =>
      Number(
        (await row<{ n: number }>(lab.database, "SELECT count(*) AS n FROM test_profiles WHERE code LIKE 'WMP%'"))!.n,
      );
    // One unknown test code on the 6th profile (row 7): the check names it, and importing it anyway stores nothing.
    const bad = await uploaded(lab.admin, 'profiles', 'panels.csv', menu.badProfilesCsv);
    expect(bad.check).toMatchObject({ status: 'failed', rows: 30, errors: 1 });
    expect(bad.check.first_errors).toEqual([
      { row: 7, column: 'test_codes', message: `no test with code ${menu.badCode} (import the tests first)` },
    ]);
    const anyway = await lab.admin.post('/api/data-jobs/imports', { upload_id: bad.upload.id, entity: 'profiles' });
    expect(anyway.statusCode, anyway.body).toBe(202);
    expect(await waitJob(lab.admin, anyway.json<{ job: DataJob }>().job.id)).toMatchObject({
      status: 'failed',
      inserted: 0,
    });
    expect(await profileCount()).toBe(0);

    const good = await uploaded(lab.admin, 'profiles', 'panels.csv', menu.profilesCsv);
    expect(good.check).toMatchObject({ status: 'completed', errors: 0, inserted: 30 });
    const imported = await lab.admin.post('/api/data-jobs/imports', { upload_id: good.upload.id, entity: 'profiles' });
    expect(await waitJob(lab.admin, imported.json<{ job: DataJob }>().job.id)).toMatchObject({
      status: 'completed',
      inserted: 30,
    });
    // Every profile lists its ten tests by code, in the file's order, as the catalogue's API answers them.
    const list = (await lab.admin.get('/api/test-profiles')).json<{
      profiles: { code: string; test_details: { code: string }[] }[];
    }>().profiles;
    const got = new Map(
      list.filter((p) => p.code.startsWith('WMP')).map((p) => [p.code, p.test_details.map((t) => t.code)]),
    );
    expect(got).toEqual(menu.members);
  });
});

describe('entities', () => {
  it('offers every entity of the import/export registry, in its load order, each with a template', async () => {
    const ents = (await lab.admin.get('/api/data-jobs/entities')).json<{ entities: { name: string }[] }>().entities;
    expect(ents.map((e) => e.name)).toEqual(ENTITY_NAMES);
    const prices = await lab.admin.get('/api/data-jobs/templates/payer_prices?format=csv');
    expect(prices.body.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
      'payer_name,item_type,item_code,price,effective_from,effective_to',
    );
  });
});

describe('templates', () => {
  it('answers each format with the columns and one example row, and the patients template checks clean', async () => {
    const csv = await lab.admin.get('/api/data-jobs/templates/patients?format=csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toContain('patients-template.csv');
    const records = parse(csv.body.replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(1);
    expect(records[0]!.first_name).toBe('Anita');
    expect(Object.keys(records[0]!)).not.toContain('status'); // computed columns are left out

    const check = await uploaded(lab.admin, 'patients', 'patients-template.csv', csv.body);
    expect(check.check).toMatchObject({ status: 'completed', rows: 1, errors: 0, inserted: 1 });

    const json = await lab.admin.get('/api/data-jobs/templates/tests?format=json');
    expect(JSON.parse(json.body)[0].code).toBe('HBA1C');

    const xlsx = await lab.admin.get('/api/data-jobs/templates/users?format=xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets[0]!.getRow(1).getCell(1).value).toBe('email');
    expect(wb.worksheets[0]!.rowCount).toBe(2);
  });

  it('refuses an unknown entity or format naming the field', async () => {
    expect(badFields(await lab.admin.get('/api/data-jobs/templates/planets'))).toContain('entity');
    expect(badFields(await lab.admin.get('/api/data-jobs/templates/patients?format=docx'))).toContain('format');
  });
});

describe('upload, check and import', () => {
  it('the check and View Errors group a problem on many rows: its count, first rows and message', async () => {
    const rows = Array.from(
      { length: 40 },
      (_, i) => `Kind${'a'.repeat(1 + (i % 7))},Group,01/02/1990,${i % 10 === 3 ? 'Q' : 'F'}`,
    );
    rows[5] = 'Bad,Date,31/02/1988,M';
    const csv = `\uFEFFfirst_name,last_name,date_of_birth,gender\r\n${rows.join('\r\n')}\r\n`;
    const { check } = await uploaded(lab.admin, 'patients', 'grouped.csv', csv);
    expect(check.errors).toBe(5);
    const groups = [
      { column: 'gender', count: 4, rows: [5, 15, 25], message: 'Gender must be Male, Female or Other (got "Q")' },
      {
        column: 'date_of_birth',
        count: 1,
        rows: [7],
        message: "31/02/1988 is not a date (write YYYY-MM-DD, or DD/MM/YYYY as the lab's dates are set)",
      },
    ];
    expect(check.error_groups).toEqual(groups);
    const errors = await lab.admin.get(`/api/data-jobs/${check.job_id}/errors`);
    expect(errors.json()).toMatchObject({ total: 5, groups });
  });

  it('answers every row error before anything is stored, then imports the fixed file in the background', async () => {
    const surname = uniqueWord('Imp');
    const bad = patientsCsv(surname, 18, [`Ravi,${surname},31/02/1988,Male,`, `Meena,${surname},1970-05-05,Female,`])
      .replace('first_name,last_name', 'patient_id,first_name,last_name')
      .split('\n')
      .map((l, i) => (i === 0 || l === '' ? l : i === 1 || i === 20 ? `PAT202501010001,${l}` : `,${l}`))
      .join('\n');
    const { upload: up, check } = await uploaded(lab.admin, 'patients', 'clinic patients.csv', bad);
    expect(up.headers.map((h) => h.column)).toEqual([
      'patient_id',
      'first_name',
      'last_name',
      'date_of_birth',
      'gender',
      'phone',
    ]);
    expect(check.status).toBe('failed');
    expect(check.rows).toBe(20);
    expect(check.errors).toBe(2);
    expect(check.first_errors).toEqual([
      expect.objectContaining({ row: 20, column: 'date_of_birth' }),
      expect.objectContaining({ row: 21, column: 'patient_id' }),
    ]);
    expect(check.first_errors[1]!.message).toContain('also on row 2');
    expect(await patientCount(surname)).toBe(0);

    // The check is a job of its own, listed only with checks=1; View Errors reads its errors.
    const plain = (await lab.admin.get('/api/data-jobs?type=import')).json<DataJobPage>();
    expect(plain.jobs.map((j) => j.id)).not.toContain(check.job_id);
    const withChecks = (await lab.admin.get('/api/data-jobs?type=import&checks=1')).json<DataJobPage>();
    expect(withChecks.jobs.find((j) => j.id === check.job_id)).toMatchObject({ dry_run: true, has_errors: true });
    const errors = await lab.admin.get(`/api/data-jobs/${check.job_id}/errors`);
    expect(errors.json()).toMatchObject({ total: 2, has_report: true, unit: 'row' });
    const report = await lab.admin.get(`/api/data-jobs/${check.job_id}/error-report`);
    expect(report.statusCode).toBe(200);
    expect(report.body).toContain('row,column,problem');
    expect(report.body).toContain('31/02/1988');

    // Fixed: a real date, the second code left empty.
    const good = bad.replace('31/02/1988', '28/02/1988').replace(/\nPAT202501010001,Meena/, '\n,Meena');
    const fixed = await uploaded(lab.admin, 'patients', 'clinic patients.csv', good);
    expect(fixed.check).toMatchObject({ status: 'completed', errors: 0, inserted: 20 });
    expect(await patientCount(surname)).toBe(0);

    const start = await lab.admin.post('/api/data-jobs/imports', { upload_id: fixed.upload.id, entity: 'patients' });
    expect(start.statusCode, start.body).toBe(202);
    const job = await waitJob(lab.admin, start.json<{ job: DataJob }>().job.id);
    expect(job).toMatchObject({ status: 'completed', type: 'import', origin: 'web', inserted: 20, records: 20 });
    expect(job.file_name).toBe('clinic patients.csv');
    expect(await patientCount(surname)).toBe(20);
    const list = (
      await lab.admin.get(`/api/data-jobs?search=${encodeURIComponent('clinic patients')}`)
    ).json<DataJobPage>();
    expect(list.jobs[0]!.id).toBe(job.id);

    // The upload is gone once imported: a second import of it is refused.
    const again = await lab.admin.post('/api/data-jobs/imports', { upload_id: fixed.upload.id, entity: 'patients' });
    expect(badFields(again)).toContain('upload_id');
  });

  it('maps another system\u2019s headers, and saves the mapping by name for next time', async () => {
    const surname = uniqueWord('Map');
    const csv = `Given Name,Surname,DOB,Sex,Ward\nKiran,${surname},1980-03-03,Male,A\n`;
    const { upload: up, check } = await uploaded(lab.admin, 'patients', 'other.csv', csv);
    expect(check.status).toBe('failed');
    expect(check.message).toContain('Given Name');
    // Said as the screen offers it, not as the command line's flag.
    expect(check.message).toContain('under "Column mapping"');
    expect(check.message).not.toContain('--mapping');
    expect(up.headers.find((h) => h.header === 'DOB')!.column).toBeNull();
    const mapping = {
      'Given Name': 'first_name',
      Surname: 'last_name',
      DOB: 'date_of_birth',
      Sex: 'gender',
      Ward: null,
    };
    const recheck = await lab.admin.post('/api/data-jobs/checks', { upload_id: up.id, entity: 'patients', mapping });
    expect(recheck.json<{ check: ImportCheck }>().check).toMatchObject({
      status: 'completed',
      inserted: 1,
      ignored_columns: ['Ward'],
    });
    const wrong = await lab.admin.post('/api/data-jobs/checks', {
      upload_id: up.id,
      entity: 'patients',
      mapping: { DOB: 'birthday' },
    });
    expect(badFields(wrong)).toContain('mapping.DOB');

    const saved = await lab.admin.post('/api/data-mappings', { entity: 'patients', name: 'Old HIS', mapping });
    expect(saved.statusCode, saved.body).toBe(201);
    const again = await lab.admin.post('/api/data-mappings', {
      entity: 'patients',
      name: 'Old HIS',
      mapping: { ...mapping, Ward: 'address' },
    });
    expect(again.json().mapping.id).toBe(saved.json().mapping.id);
    const list = await lab.admin.get('/api/data-mappings?entity=patients');
    expect(list.json().mappings).toEqual([
      expect.objectContaining({ name: 'Old HIS', mapping: expect.objectContaining({ Ward: 'address' }) }),
    ]);
    expect(badFields(await lab.admin.post('/api/data-mappings', { entity: 'patients', name: '', mapping }))).toContain(
      'name',
    );
    expect(
      badFields(await lab.admin.post('/api/data-mappings', { entity: 'patients', name: 'X', mapping: { a: 'nope' } })),
    ).toContain('mapping.a');
    const removed = await lab.admin.delete(`/api/data-mappings/${saved.json().mapping.id}`);
    expect(removed.statusCode).toBe(200);
    expect((await lab.admin.get('/api/data-mappings?entity=patients')).json().mappings).toEqual([]);
  });

  it('refuses bad uploads: no CSRF header, an empty file, an unknown entity, a file name with a path', async () => {
    const csv = patientsCsv(uniqueWord('Up'), 1);
    const noHeader = await lab.app.inject({
      method: 'POST',
      url: '/api/data-jobs/uploads?entity=patients&file_name=a.csv',
      headers: { cookie: lab.admin.cookie, 'content-type': 'application/octet-stream' },
      payload: Buffer.from(csv),
    });
    expect(noHeader.statusCode).toBe(403);
    const form = await upload(lab.admin, 'patients', 'a.csv', csv, { 'content-type': 'text/plain' });
    expect(form.statusCode).toBe(403);
    expect(badFields(await upload(lab.admin, 'patients', 'a.csv', ''))).toContain('file');
    expect(badFields(await upload(lab.admin, 'planets', 'a.csv', csv))).toContain('entity');
    const path = await uploaded(lab.admin, 'patients', '../../etc/a.csv', csv);
    expect(path.upload.file_name).toBe('a.csv');
    const unknownFormat = await uploaded(lab.admin, 'patients', 'a.doc', csv);
    expect(unknownFormat.check.message).toContain('cannot tell the format');
    expect(badFields(await lab.admin.post('/api/data-jobs/checks', { upload_id: 'x', entity: 'patients' }))).toContain(
      'upload_id',
    );
    expect(
      badFields(
        await lab.admin.post('/api/data-jobs/imports', { upload_id: path.upload.id, entity: 'bills', update: true }),
      ),
    ).toContain('entity');
  });

  it('cancels a running import: nothing of it is stored', async () => {
    const surname = uniqueWord('Can');
    const { upload: up, check } = await uploaded(lab.admin, 'patients', 'big.csv', patientsCsv(surname, 60_000));
    expect(check.errors).toBe(0);
    const start = await lab.admin.post('/api/data-jobs/imports', { upload_id: up.id, entity: 'patients' });
    const id = start.json<{ job: DataJob }>().job.id;
    expect(start.json<{ job: DataJob }>().job.cancellable).toBe(true);
    const cancel = await lab.admin.post(`/api/data-jobs/${id}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json<{ job: DataJob }>().job).toMatchObject({ status: 'cancelled', cancellable: false });
    expect(await patientCount(surname)).toBe(0);
    const twice = await lab.admin.post(`/api/data-jobs/${id}/cancel`);
    expect(twice.statusCode).toBe(409);
  }, 60_000);
});

describe('exports', () => {
  it('exports in the background to a kept file, downloadable again and counted', async () => {
    const start = await lab.admin.post('/api/data-jobs/exports', { entity: 'patients', format: 'xlsx' });
    expect(start.statusCode, start.body).toBe(202);
    const job = await waitJob(lab.admin, start.json<{ job: DataJob }>().job.id);
    expect(job).toMatchObject({ status: 'completed', type: 'export', format: 'xlsx', downloadable: true });
    expect(job.records).toBeGreaterThanOrEqual(20);
    expect(job.expires_at).not.toBeNull();
    for (let i = 0; i < 2; i++) {
      const file = await lab.admin.get(`/api/data-jobs/${job.id}/download`);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toContain('spreadsheetml');
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
      expect(wb.worksheets[0]!.rowCount).toBe(job.records! + 1);
    }
    const after = (await lab.admin.get(`/api/data-jobs/${job.id}`)).json<{ job: DataJob }>().job;
    expect(after.download_count).toBe(2);
    expect(after.file_size).toBeGreaterThan(0);

    // Past the lab's retention days the file is removed; the job stays, no longer downloadable.
    await rows(
      lab.database,
      'UPDATE data_jobs SET completed_at = ? WHERE id = ?',
      new Date(Date.now() - 40 * 86_400_000).toISOString(),
      job.id,
    );
    const dataDir = lab.database.engine === 'sqlite' ? dirname(lab.database.file) : tmpdir();
    if (lab.database.engine === 'sqlite') expect(await sweepExports(lab.database.db, dataDir)).toBeGreaterThan(0);
    else await sweepExports(lab.database.db, dataDir);
    const gone = await lab.admin.get(`/api/data-jobs/${job.id}/download`);
    expect(gone.statusCode).toBe(410);
    expect((await lab.admin.get(`/api/data-jobs/${job.id}`)).json<{ job: DataJob }>().job.downloadable).toBe(false);
  });

  it('writes billing data as a PDF register, and refuses bad export requests naming the field', async () => {
    const start = await lab.admin.post('/api/data-jobs/exports', { entity: 'bills', format: 'pdf' });
    expect(start.statusCode, start.body).toBe(202);
    const job = await waitJob(lab.admin, start.json<{ job: DataJob }>().job.id);
    expect(job.error_message).toBeNull();
    expect(job).toMatchObject({ status: 'completed', format: 'pdf' });
    const pdf = await lab.admin.get(`/api/data-jobs/${job.id}/download`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    expect(badFields(await lab.admin.post('/api/data-jobs/exports', { entity: 'patients', format: 'pdf' }))).toContain(
      'format',
    );
    expect(badFields(await lab.admin.post('/api/data-jobs/exports', { entity: 'patients', format: 'doc' }))).toContain(
      'format',
    );
    expect(
      badFields(
        await lab.admin.post('/api/data-jobs/exports', {
          entity: 'bills',
          format: 'csv',
          from: '2026-05-01',
          to: '2026-04-01',
        }),
      ),
    ).toContain('from');
    expect(
      badFields(await lab.admin.post('/api/data-jobs/exports', { entity: 'tests', format: 'csv', from: '2026-05-01' })),
    ).toContain('from');
    expect(
      badFields(await lab.admin.post('/api/data-jobs/exports', { entity: 'tests', format: 'csv', from: '2026-02-31' })),
    ).toContain('from');
    expect(
      badFields(
        await lab.admin.post('/api/data-jobs/exports', { entity: 'patients', format: 'csv', where: { colour: 'red' } }),
      ),
    ).toContain('where');
    const notExport = await lab.admin.get(`/api/data-jobs/${job.id}/errors`);
    expect(notExport.statusCode).toBe(404);
  });

  it('lists CLI jobs in the same history and sums the cards from the rows', async () => {
    const { runExport, entityNamed } = await import('../../src/core/transfer/service.js');
    const { PassThrough } = await import('node:stream');
    const { systemActor } = await import('../../src/core/context.js');
    const out = new PassThrough();
    out.resume();
    const r = await runExport(lab.database.db, systemActor(lab.organizationId), {
      entity: entityNamed('tests')!,
      format: 'json',
      query: { where: {} },
      out,
      fileName: 'tests.json',
      origin: 'cli',
    });
    const list = (await lab.admin.get('/api/data-jobs?type=export&entity=tests')).json<DataJobPage>();
    expect(list.jobs[0]).toMatchObject({ id: r.job_id, origin: 'cli', requested_by: 'cli', downloadable: false });
    const cli = await lab.admin.get(`/api/data-jobs/${r.job_id}/download`);
    expect(cli.statusCode).toBe(410);

    const s = (await lab.admin.get('/api/data-jobs/summary')).json<{ summary: DataJobSummary }>().summary;
    const all = await rows<{ status: string; type: string; dry_run: number }>(
      lab.database,
      'SELECT status, type, dry_run FROM data_jobs WHERE organization_id = ?',
      lab.organizationId,
    );
    const real = all.filter((j) => Number(j.dry_run) === 0);
    expect(s.total).toBe(real.length);
    expect(s.failed).toBe(real.filter((j) => j.status === 'failed').length);
    expect(s.cancelled).toBe(real.filter((j) => j.status === 'cancelled').length);
    expect(s.exports).toBe(real.filter((j) => j.type === 'export').length);
    expect(s.records_imported).toBeGreaterThanOrEqual(20);
    expect(s.by_origin.cli).toBeGreaterThanOrEqual(1);
    expect(s.by_day).toHaveLength(14);
    expect(s.by_day.at(-1)!.exports).toBeGreaterThanOrEqual(3);
    expect(s.error_columns.map((c) => c.column)).toContain('date_of_birth');
    expect(badFields(await lab.admin.get('/api/data-jobs?status=done'))).toContain('status');
    expect(badFields(await lab.admin.get('/api/data-jobs?entity=tests,planets'))).toContain('entity.1');
  });
});

describe('permissions and labs', () => {
  it('enforces each entity\u2019s permission on the server', async () => {
    const receptionist = await lab.as('receptionist');
    const csv = patientsCsv(uniqueWord('Rec'), 2);
    expect((await upload(receptionist, 'patients', 'p.csv', csv)).statusCode).toBe(201);
    const users = await upload(receptionist, 'users', 'u.csv', 'email,first_name,last_name,role\n');
    expect(users.statusCode).toBe(403);
    expect(errorBody(users).message).toContain('import users');
    // Exports of patients need export_data, which a receptionist has not.
    const exp = await receptionist.post('/api/data-jobs/exports', { entity: 'patients', format: 'csv' });
    expect(exp.statusCode).toBe(403);
    // Jobs of entities they may not move are not listed, and do not exist for them.
    const list = (await receptionist.get('/api/data-jobs?limit=200')).json<DataJobPage>();
    expect(list.jobs.every((j) => ['patients'].includes(j.entity))).toBe(true);
    const adminExport = (await lab.admin.get('/api/data-jobs?type=export&entity=patients')).json<DataJobPage>()
      .jobs[0]!;
    expect((await receptionist.get(`/api/data-jobs/${adminExport.id}/download`)).statusCode).toBe(403);
    const testsJob = (await lab.admin.get('/api/data-jobs?entity=tests')).json<DataJobPage>().jobs[0]!;
    expect((await receptionist.get(`/api/data-jobs/${testsJob.id}`)).statusCode).toBe(404);
    const ents = (await receptionist.get('/api/data-jobs/entities')).json<{
      entities: { name: string; can_import: boolean; can_export: boolean }[];
    }>().entities;
    expect(ents.find((e) => e.name === 'patients')).toMatchObject({ can_import: true, can_export: false });
    expect(ents.find((e) => e.name === 'users')).toMatchObject({ can_import: false, can_export: false });
    expect(
      (await receptionist.post('/api/data-mappings', { entity: 'users', name: 'x', mapping: { a: null } })).statusCode,
    ).toBe(403);
    const anon = await lab.app.inject({ method: 'GET', url: '/api/data-jobs' });
    expect(anon.statusCode).toBe(401);
  });

  it('keeps another lab\u2019s jobs, files and mappings invisible', async () => {
    const other = await otherLabAdmin(lab);
    const mine = (await lab.admin.get('/api/data-jobs?limit=200')).json<DataJobPage>();
    expect(mine.total).toBeGreaterThan(0);
    const theirs = (await other.admin.get('/api/data-jobs?limit=200')).json<DataJobPage>();
    expect(theirs.total).toBe(0);
    const s = (await other.admin.get('/api/data-jobs/summary')).json<{ summary: DataJobSummary }>().summary;
    expect(s.total).toBe(0);
    const anExport = mine.jobs.find((j) => j.type === 'export')!;
    expect((await other.admin.get(`/api/data-jobs/${anExport.id}`)).statusCode).toBe(404);
    expect((await other.admin.get(`/api/data-jobs/${anExport.id}/download`)).statusCode).toBe(404);
    expect((await other.admin.post(`/api/data-jobs/${anExport.id}/cancel`)).statusCode).toBe(404);
    const check = mine.jobs.find((j) => j.type === 'import')!;
    expect((await other.admin.get(`/api/data-jobs/${check.id}/errors`)).statusCode).toBe(404);
    // Another lab's upload cannot be imported.
    const { upload: up } = await uploaded(lab.admin, 'patients', 'p.csv', patientsCsv(uniqueWord('Lab'), 1));
    const stolen = await other.admin.post('/api/data-jobs/imports', { upload_id: up.id, entity: 'patients' });
    expect(badFields(stolen)).toContain('upload_id');
    const saved = await lab.admin.post('/api/data-mappings', { entity: 'doctors', name: 'Mine', mapping: { A: null } });
    expect((await other.admin.get('/api/data-mappings')).json().mappings).toEqual([]);
    expect((await other.admin.delete(`/api/data-mappings/${saved.json().mapping.id}`)).statusCode).toBe(404);
  });
});
