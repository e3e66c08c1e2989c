import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { primaryOrganization } from '../../src/core/settings/organization.js';
import { systemActor, type Actor } from '../../src/core/context.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createSample } from '../../src/core/samples/service.js';
import { createUser } from '../../src/core/users/service.js';
import { createResult } from '../../src/core/results/entry.js';
import { verifyResult } from '../../src/core/results/verification.js';
import { localDate } from '../../src/shared/time.js';
import { cleanup, lims, limsInProcess, openLabDatabase, setUpLab, tempDir } from './helpers.js';

let dir: string;
let sampleCode: string;
let barcode: string;

beforeAll(async () => {
  dir = tempDir();
  await setUpLab(dir, ['--sample-data']);
  const database = await openLabDatabase(dir);
  const org = (await primaryOrganization(database.db))!;
  const system = systemActor(org.id);
  const test = async (code: string) =>
    (await database.db.selectFrom('tests').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
  const [hb, fbs] = [await test('HB'), await test('FBS')];
  const person = async (first: string, role: 'lab_technician' | 'validator'): Promise<Actor> => {
    const u = await createUser(database.db, system, {
      first_name: first,
      last_name: 'Kumar',
      email: `${first.toLowerCase()}@citylab.in`,
      role,
      password: 'a-long-password-1',
    });
    return { userId: u.id, email: u.email, role, organizationId: org.id };
  };
  const tech = await person('Ravi', 'lab_technician');
  const validator = await person('Sunita', 'validator');
  const patient = await createPatient(database.db, system, {
    first_name: 'Meera',
    last_name: 'Pillai',
    date_of_birth: '1984-07-12',
    gender: 'Female',
  });
  const sample = await createSample(database.db, system, {
    patient_id: patient.id,
    sample_type: 'Blood',
    test_ids: [hb, fbs],
    status: 'collected',
    collector_id: null,
    location: 'Main Lab',
    notes: undefined,
    bill_id: null,
    priority: 'normal',
  });
  sampleCode = sample.sample_id;
  barcode = sample.barcode!;
  const r = await createResult(database.db, tech, {
    sample_id: sample.id,
    test_id: hb,
    result_value: '18.9',
    unit: undefined,
    notes: undefined,
  });
  await verifyResult(database.db, validator, r.id!);
  await database.close();
});
afterAll(cleanup);

describe('lims report', () => {
  it('writes the lab report PDF of a sample: verified value with range and flag, verifier, awaited tests', async () => {
    const out = join(dir, 'report.pdf');
    const r = await limsInProcess(['--data-dir', dir, 'report', sampleCode, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(out);
    expect(readFileSync(out).subarray(0, 5).toString()).toBe('%PDF-');
    const text = execFileSync('pdftotext', ['-layout', out, '-']).toString();
    expect(text).toContain('City Diagnostics');
    expect(text).toContain('Meera Pillai');
    expect(text).toContain(sampleCode);
    expect(text).toContain(barcode);
    // A woman of 42 is judged by the adult female band of the starter catalogue, and the report prints it.
    expect(text).toMatch(/Haemoglobin\s+18\.9\s+g\/dL\s+12\.0-15\.0\s+H/);
    expect(text).toContain('Verified by Sunita Kumar');
    expect(text).toMatch(/Result awaited/);
    expect(text).toContain('Referred by');
    expect(text).toMatch(/Page 1 of 1/);
  });

  it('finds the sample by barcode and writes to stdout with --out -', async () => {
    const r = await limsInProcess(['--data-dir', dir, 'report', barcode, '--out', '-']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.startsWith('%PDF-')).toBe(true);
  });

  it('an unknown sample is a one-line error with exit code 1', async () => {
    const r = await limsInProcess(['--data-dir', dir, 'report', 'SMP199901010001', '--out', join(dir, 'x.pdf')]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('no sample SMP199901010001');
  });

  it('without a sample argument it is a usage error (exit 2)', async () => {
    const r = await lims(['--data-dir', dir, 'report']);
    expect(r.code).toBe(2);
  });
});

describe('lims report monthly', () => {
  const month = localDate('Asia/Kolkata').slice(0, 7);

  it("writes the monthly management report: figures, charts and each section, from the lab's records", async () => {
    const out = join(dir, 'monthly.pdf');
    const r = await limsInProcess(['--data-dir', dir, 'report', 'monthly', '--month', month, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(out);
    expect(readFileSync(out).subarray(0, 5).toString()).toBe('%PDF-');
    const text = execFileSync('pdftotext', ['-layout', out, '-']).toString();
    expect(text).toContain('City Diagnostics');
    expect(text).toContain(`Monthly management report: ${month}`);
    expect(text).toContain('Median turnaround (minutes)');
    expect(text).toContain('Turnaround Time by Test');
    // The one verified result of the month is Haemoglobin's; FBS is ordered but awaited.
    expect(text).toMatch(/Haemoglobin\s+1\s/);
    expect(text).toContain('Workload by Test');
    expect(text).toMatch(/Sample rejection rate\s+0\.00%/);
  });

  it('--month is required and must be YYYY-MM (usage errors, exit 2); a sample report takes no --month', async () => {
    const missing = await limsInProcess(['--data-dir', dir, 'report', 'monthly', '--out', join(dir, 'm.pdf')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--month is required');
    const bad = await limsInProcess(['--data-dir', dir, 'report', 'monthly', '--month', '2026-13']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--month: 2026-13 is not a month as YYYY-MM');
    const mixed = await limsInProcess(['--data-dir', dir, 'report', sampleCode, '--month', month]);
    expect(mixed.code).toBe(2);
  });
});
