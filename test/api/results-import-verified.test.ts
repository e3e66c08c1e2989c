import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, pdfText, type Client, type TestLab } from '../helpers.js';
import { createUserVia, uniqueEmail, uniqueWord } from './support.js';
import { row } from '../db.js';
import { entityNamed, runExport, runImport } from '../../src/core/transfer/service.js';
import type { Actor } from '../../src/core/context.js';
import type { DataJob, ImportCheck, Upload } from '../../src/shared/schemas/data-jobs.js';
import type { TestResult } from '../../src/shared/schemas/results.js';

/**
 * Results imported as verified are history from another system: the importer must be one who may
 * verify results, and releases them; the previous system's verifier is kept as text and named on
 * the report and screens as such; no lims user who did not act is named as the verifier.
 */

let lab: TestLab;
let importer: Client;
let tech: Client;
let patientId: number;
let hbId: number;
let doctorEmail: string;
const dir = mkdtempSync(join(tmpdir(), 'lims-verified-import-'));

beforeAll(async () => {
  lab = await makeLab();
  const test = await lab.admin.post('/api/tests', { name: 'Haemoglobin', code: 'HB', price: 150, unit: 'g/dL' });
  expect(test.statusCode, test.body).toBe(201);
  hbId = test.json().test.id;
  patientId = (
    await lab.admin.post('/api/patients', {
      first_name: 'Meera',
      last_name: uniqueWord('Iy'),
      date_of_birth: '1980-03-02',
      gender: 'Female',
      phone: '9876500031',
    })
  ).json().patient.id;
  importer = await lab.as('lab_manager');
  tech = await lab.as('lab_technician');
  // A user of the lab who never verified anything here (and may not): the file names them.
  doctorEmail = uniqueEmail('doctor');
  await createUserVia(lab.admin, { email: doctorEmail, role: 'receptionist', first_name: 'Nitin', last_name: 'Never' });
});
afterAll(() => lab.close());

async function newSample(): Promise<{ id: number; code: string }> {
  const res = await lab.admin.post('/api/samples', { patient_id: patientId, sample_type: 'Blood', test_ids: [hbId] });
  expect(res.statusCode, res.body).toBe(201);
  const s = res.json().sample as { id: number; sample_id: string };
  return { id: s.id, code: s.sample_id };
}

const csv = (code: string, extra: Record<string, string>) => {
  const cols = { sample_id: code, test_code: 'HB', result_value: '12.9', unit: 'g/dL', ...extra };
  return `${Object.keys(cols).join(',')}\n${Object.values(cols).join(',')}\n`;
};

/** The web's import: upload (checked), then the import itself, as `as`. */
async function importViaWeb(as: Client, content: string): Promise<{ check: ImportCheck; job?: DataJob }> {
  const up = await lab.app.inject({
    method: 'POST',
    url: '/api/data-jobs/uploads?entity=results&file_name=results.csv',
    headers: { cookie: as.cookie, 'content-type': 'application/octet-stream', 'x-lims-upload': '1' },
    payload: Buffer.from(content),
  });
  expect(up.statusCode, up.body).toBe(201);
  const { upload, check } = up.json<{ upload: Upload; check: ImportCheck }>();
  if (check.status !== 'completed') return { check };
  const started = await as.post('/api/data-jobs/imports', { upload_id: upload.id, entity: 'results' });
  expect(started.statusCode, started.body).toBe(202);
  let job = started.json<{ job: DataJob }>().job;
  for (let i = 0; i < 400 && (job.status === 'in_progress' || job.status === 'pending'); i++) {
    await new Promise((r) => setTimeout(r, 25));
    job = (await as.get(`/api/data-jobs/${job.id}`)).json<{ job: DataJob }>().job;
  }
  return { check, job };
}

async function resultOf(sampleId: number): Promise<TestResult> {
  const r = await row<{ id: number }>(lab.database, 'SELECT id FROM test_results WHERE sample_id = ?', sampleId);
  expect(r).toBeDefined();
  return (await lab.admin.get(`/api/test-results/${r!.id}`)).json<{ result: TestResult }>().result;
}

function importAs(actor: Actor, content: string) {
  const path = join(mkdtempSync(join(dir, 'f-')), 'results.csv');
  writeFileSync(path, content);
  return runImport(lab.database.db, actor, {
    entity: entityNamed('results')!,
    path,
    dryRun: false,
    update: false,
    origin: 'cli',
    reportPath: (id) => join(dir, `report-${id}.csv`),
  });
}

describe('a results import with status verified', () => {
  it('keeps the named verifier as the previous system’s, released by the importer, never as a lims user', async () => {
    const s = await newSample();
    const { job } = await importViaWeb(
      importer,
      csv(s.code, { status: 'verified', verified_by: doctorEmail, verified_at: '2025-06-01T10:00:00Z' }),
    );
    expect(job?.status, job?.error_message ?? '').toBe('completed');
    const result = await resultOf(s.id);
    expect(result).toMatchObject({
      status: 'verified',
      verified_by: importer.userId,
      previous_verifier: doctorEmail,
      verified_by_name: `${doctorEmail} (previous system)`,
      verified_at: '2025-06-01T10:00:00.000Z',
    });
    const pdf = await lab.admin.get(`/api/samples/${s.id}/report.pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    const text = pdfText(pdf.rawPayload).replace(/\s+/g, ' ');
    expect(text).toContain(`Verified by ${doctorEmail} (previous system)`);
    expect(text).not.toContain('Nitin Never');
    // Result Validation's recent activity names the same verifier.
    const activity = (await lab.admin.get('/api/lab-reports/analytics')).json().analytics.recent as {
      kind: string;
      sample_code: string;
      by: string | null;
    }[];
    expect(activity.find((a) => a.kind === 'verified' && a.sample_code === s.code)?.by).toBe(
      `${doctorEmail} (previous system)`,
    );
  });

  it('is refused, row and column named, when the importer may not verify results; nothing is stored', async () => {
    const s = await newSample();
    const actor: Actor = {
      userId: tech.userId,
      email: tech.email,
      role: 'lab_technician',
      organizationId: lab.organizationId,
    };
    const r = await importAs(actor, csv(s.code, { status: 'verified', verified_by: 'Dr. A. Rao' }));
    expect(r.status).toBe('failed');
    expect(r.first_errors).toMatchObject([
      { row: 2, column: 'status', message: expect.stringMatching(/verify_results/) },
    ]);
    expect(await row(lab.database, 'SELECT id FROM test_results WHERE sample_id = ?', s.id)).toBeUndefined();
    // The same file as completed is theirs to import.
    const completed = await importAs(actor, csv(s.code, { status: 'completed' }));
    expect(completed.first_errors).toEqual([]);
    expect((await resultOf(s.id)).status).toBe('completed');
  });

  it('follows Result Validation: not the importer’s own entry (four eyes), not on a rejected sample', async () => {
    const own = await newSample();
    const mine = await importViaWeb(
      importer,
      csv(own.code, { status: 'verified', verified_by: 'Dr. A. Rao', entered_by: importer.email }),
    );
    expect(mine.check.first_errors).toMatchObject([
      { row: 2, column: 'entered_by', message: expect.stringMatching(/self-verification/) },
    ]);
    const rejected = await newSample();
    const rej = await lab.admin.put(`/api/samples/${rejected.id}/status`, {
      status: 'rejected',
      notes: 'Haemolysed',
    });
    expect(rej.statusCode, rej.body).toBe(200);
    const onRejected = await importViaWeb(
      importer,
      csv(rejected.code, { status: 'verified', verified_by: 'Dr. A. Rao' }),
    );
    expect(onRejected.check.first_errors).toMatchObject([
      { row: 2, column: 'sample_id', message: expect.stringMatching(/rejected/) },
    ]);
  });

  it('holds a critical value’s report until its call is logged, as on the screen', async () => {
    const s = await newSample();
    const { job } = await importViaWeb(
      importer,
      csv(s.code, {
        result_value: '5.1',
        flag: 'low',
        is_critical: 'true',
        status: 'verified',
        verified_by: 'Dr. A. Rao',
      }),
    );
    expect(job?.status, job?.error_message ?? '').toBe('completed');
    const held = await lab.admin.get(`/api/samples/${s.id}/report.pdf`);
    expect(held.statusCode).toBe(409);
    expect(held.json().code).toBe('CRITICAL_NOT_CALLED');
    const result = await resultOf(s.id);
    const call = await importer.post(`/api/test-results/${result.id}/critical-call`, {
      called_to: 'Dr. Sen (physician)',
      read_back: true,
    });
    expect(call.statusCode, call.body).toBe(201);
    expect((await lab.admin.get(`/api/samples/${s.id}/report.pdf`)).statusCode).toBe(200);
  });

  it('is amended and verified again by a lims user, who is then named; the amendment keeps the earlier verifier', async () => {
    const s = await newSample();
    await importViaWeb(importer, csv(s.code, { status: 'verified', verified_by: 'Dr. A. Rao' }));
    const before = await resultOf(s.id);
    const amend = await tech.put(`/api/test-results/${before.id}`, {
      result_value: '13.1',
      reason: 'Transcription error',
    });
    expect(amend.statusCode, amend.body).toBe(200);
    const verify = await importer.put(`/api/test-results/${before.id}/verify`);
    expect(verify.statusCode, verify.body).toBe(200);
    const after = (await lab.admin.get(`/api/test-results/${before.id}`)).json<{ result: TestResult }>().result;
    expect(after).toMatchObject({ previous_verifier: null, verified_by: importer.userId });
    expect(after.verified_by_name).not.toMatch(/previous system/);
    expect(after.amendments?.[0]?.old_verified_by_name).toBe('Dr. A. Rao (previous system)');
  });

  it('exports the previous system’s verifier and the releaser, and a re-import keeps the verifier', async () => {
    const s = await newSample();
    await importViaWeb(importer, csv(s.code, { status: 'verified', verified_by: 'Dr. A. Rao' }));
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const actor: Actor = {
      userId: importer.userId,
      email: importer.email,
      role: 'lab_manager',
      organizationId: lab.organizationId,
    };
    await runExport(lab.database.db, actor, {
      entity: entityNamed('results')!,
      format: 'csv',
      query: { where: {} },
      out,
      fileName: null,
      origin: 'cli',
    });
    const rows = parse(Buffer.concat(chunks).toString('utf8'), { columns: true, bom: true }) as Record<
      string,
      string
    >[];
    const mine = rows.find((r) => r.sample_id === s.code)!;
    expect(mine).toMatchObject({ status: 'verified', verified_by: importer.email, previous_verifier: 'Dr. A. Rao' });
    // The exported row into a new sample: the previous system's verifier, not lims' releaser, is kept.
    const again = await newSample();
    const line = { ...mine, sample_id: again.code };
    const header = Object.keys(line).join(',');
    const values = Object.values(line)
      .map((v) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v))
      .join(',');
    const { job } = await importViaWeb(importer, `${header}\n${values}\n`);
    expect(job?.status, job?.error_message ?? '').toBe('completed');
    expect(await resultOf(again.id)).toMatchObject({ previous_verifier: 'Dr. A. Rao', verified_by: importer.userId });
  });
});
