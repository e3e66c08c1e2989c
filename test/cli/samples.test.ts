import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { primaryOrganization } from '../../src/core/settings/organization.js';
import { systemActor } from '../../src/core/context.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createSample } from '../../src/core/samples/service.js';
import { cleanup, lims, limsInProcess, openLabDatabase, setUpLab, tempDir } from './helpers.js';

let dir: string;
let sampleCode: string;
let barcode: string;
let pendingCode: string;

beforeAll(async () => {
  dir = tempDir();
  await setUpLab(dir, ['--sample-data']);
  const database = await openLabDatabase(dir);
  const org = (await primaryOrganization(database.db))!;
  const actor = systemActor(org.id);
  const hb = await database.db.selectFrom('tests').select('id').where('code', '=', 'HB').executeTakeFirstOrThrow();
  const patient = await createPatient(database.db, actor, {
    first_name: 'Meera',
    last_name: 'Pillai',
    date_of_birth: '1984-07-12',
    gender: 'Female',
  });
  const base = {
    patient_id: patient.id,
    collector_id: null,
    location: 'Main Lab',
    notes: undefined,
    bill_id: null,
    priority: 'normal' as const,
  };
  const sample = await createSample(database.db, actor, {
    ...base,
    sample_type: 'Blood',
    test_ids: [hb.id],
    status: 'collected',
  });
  sampleCode = sample.sample_id;
  barcode = sample.barcode!;
  const pending = await createSample(database.db, actor, {
    ...base,
    sample_type: 'Urine',
    test_ids: [],
    status: 'pending',
  });
  pendingCode = pending.sample_id;
  await database.close();
});
afterAll(cleanup);

describe('lims samples label', () => {
  it('writes a 50 x 25 mm tube label with the patient name, barcode, sample ID and type', async () => {
    const out = join(dir, 'label.pdf');
    const r = await limsInProcess(['--data-dir', dir, 'samples', 'label', sampleCode, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(out);
    expect(readFileSync(out).subarray(0, 5).toString()).toBe('%PDF-');
    const text = execFileSync('pdftotext', ['-layout', out, '-']).toString();
    expect(text).toContain('Meera Pillai');
    expect(text).toContain(barcode);
    expect(text).toContain(sampleCode);
    expect(text).toContain('Blood');
    // 50 x 25 mm is 141.7 x 70.9 pt.
    const info = execFileSync('pdfinfo', [out]).toString();
    expect(info).toMatch(/Page size:\s+141\.7\d* x 70\.8\d* pts/);
  });

  it('finds the sample by its barcode too, and writes to stdout with --out -', async () => {
    const r = await lims(['--data-dir', dir, 'samples', 'label', barcode, '--out', '-']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.startsWith('%PDF-')).toBe(true);
  });

  it('fails with one clear line for an unknown sample', async () => {
    const r = await limsInProcess(['--data-dir', dir, 'samples', 'label', 'SMP000000000000']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('lims: no sample SMP000000000000 in City Diagnostics');
  });

  it('refuses a pending sample that has no barcode yet', async () => {
    const r = await limsInProcess(['--data-dir', dir, 'samples', 'label', pendingCode]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `lims: Sample ${pendingCode} has no barcode yet; collect it or generate its barcode first`,
    );
  });
});
