import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, tempDir, type Client, type TestLab } from '../helpers.js';
import type { BulkVerifyResponse, ResultPage, ResultSheet, TestResult } from '../../src/shared/schemas/results.js';
import { uniqueWord } from './support.js';

let lab: TestLab;
let tech: Client;
let validator: Client;
let hb: number;
let fbs: number;
let hiv: number;
let esr: number;
let female: number;
let male: number;
let doctor: number;

beforeAll(async () => {
  lab = await makeLab();
  const a = lab.admin;
  const test = async (body: Record<string, unknown>) => {
    const res = await a.post('/api/tests', { price: 100, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().test.id as number;
  };
  hb = await test({
    name: 'Haemoglobin',
    code: 'HB',
    unit: 'g/dL',
    normal_range: '12.0-17.0',
    reference_ranges: [
      { sex: 'Male', age_min: 18, range: '13.0-17.0', critical_low: 7, critical_high: 20 },
      { sex: 'Female', age_min: 18, range: '12.0-15.5', critical_low: 7, critical_high: 20 },
    ],
  });
  fbs = await test({
    name: 'Fasting Blood Sugar',
    code: 'FBS',
    unit: 'mg/dL',
    normal_range: '70-110',
    reference_ranges: [{ range: '70-110', critical_low: 40, critical_high: 400 }],
  });
  hiv = await test({ name: 'HIV 1 & 2 Antibodies', code: 'HIV', normal_range: 'Non-reactive' });
  esr = await test({ name: 'ESR', code: 'ESR', unit: 'mm/hr', normal_range: '0-20' });
  female = (
    await a.post('/api/patients', {
      first_name: 'Meera',
      last_name: uniqueWord('Iy'),
      date_of_birth: '1980-03-01',
      gender: 'Female',
      phone: '9876500001',
    })
  ).json().patient.id;
  male = (
    await a.post('/api/patients', {
      first_name: 'Arjun',
      last_name: uniqueWord('Na'),
      date_of_birth: '1979-07-12',
      gender: 'Male',
    })
  ).json().patient.id;
  doctor = (
    await a.post('/api/users', {
      first_name: 'Priya',
      last_name: 'Menon',
      email: 'priya.results@lab.test',
      role: 'doctor',
      password: 'longpassword1',
    })
  ).json().user.id;
  tech = await lab.as('lab_technician');
  validator = await lab.as('validator');
});
afterAll(() => lab.close());

async function collect(patient: number, test_ids: number[], over: Record<string, unknown> = {}) {
  const res = await lab.admin.post('/api/samples', { patient_id: patient, sample_type: 'Blood', test_ids, ...over });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().sample as { id: number; sample_id: string; status: string };
}

async function enter(
  as: Client,
  sample_id: number,
  test_id: number,
  result_value: string,
  extra: Record<string, unknown> = {},
) {
  const res = await as.post('/api/test-results', { sample_id, test_id, result_value, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ result: TestResult }>().result;
}

describe('result entry: the server judges the value', () => {
  it('uses the sex-specific range: Hb 16 is high for a woman and normal for a man; the result keeps the range used', async () => {
    const s1 = await collect(female, [hb]);
    const s2 = await collect(male, [hb]);
    const f = await enter(tech, s1.id, hb, '16');
    const m = await enter(tech, s2.id, hb, '16');
    expect(f).toMatchObject({
      flag: 'high',
      normal_range: '12.0-15.5',
      unit: 'g/dL',
      status: 'completed',
      is_critical: false,
      review_required: true,
      validation_status: 'review_required',
    });
    expect(m).toMatchObject({
      flag: 'normal',
      normal_range: '13.0-17.0',
      review_required: false,
      validation_status: 'pending',
    });
    expect(f.technician_id).toBe(tech.userId);
    expect(f.technician_name).toMatch(/^lab_technician User/);
  });

  it('marks critical values, low values, qualitative abnormals, and takes a unit when given', async () => {
    const s = await collect(female, [fbs, hiv, esr]);
    const crit = await enter(tech, s.id, fbs, '452');
    expect(crit).toMatchObject({ flag: 'high', is_critical: true, review_required: true });
    const hivRes = await enter(tech, s.id, hiv, 'Reactive');
    expect(hivRes).toMatchObject({ flag: 'abnormal', normal_range: 'Non-reactive', unit: null });
    const esrRes = await enter(tech, s.id, esr, '12', { unit: 'mm/1st hr', notes: 'Westergren' });
    expect(esrRes).toMatchObject({ flag: 'normal', unit: 'mm/1st hr', notes: 'Westergren' });
    const low = await enter(tech, (await collect(male, [fbs])).id, fbs, '55');
    expect(low).toMatchObject({ flag: 'low', is_critical: false, review_required: true });
  });

  it('ignores a client-sent flag or status', async () => {
    const s = await collect(male, [fbs]);
    const r = await enter(tech, s.id, fbs, '300', { flag: 'normal', status: 'verified', is_critical: false });
    expect(r).toMatchObject({ flag: 'high', status: 'completed' });
  });

  it('accepts only tests the sample ordered (400 naming test_id), and one result per test (409)', async () => {
    const s = await collect(female, [hb]);
    const res = await tech.post('/api/test-results', { sample_id: s.id, test_id: fbs, result_value: '90' });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0]).toMatchObject({ path: 'test_id' });
    expect(res.json().message).toContain(s.sample_id);
    const missing = await tech.post('/api/test-results', { sample_id: s.id, test_id: hb });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details[0].path).toBe('result_value');
    await enter(tech, s.id, hb, '13');
    const dup = await tech.post('/api/test-results', { sample_id: s.id, test_id: hb, result_value: '14' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toContain('PUT');
  });

  it('needs a collected or processing sample; the first result moves a collected sample to processing with a custody entry', async () => {
    const pending = await collect(female, [hb], { status: 'pending' });
    const refused = await tech.post('/api/test-results', { sample_id: pending.id, test_id: hb, result_value: '13' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('not been collected');

    const s = await collect(female, [hb, fbs]);
    await enter(tech, s.id, hb, '13');
    const sample = (await lab.admin.get(`/api/samples/${s.id}`)).json().sample;
    expect(sample.status).toBe('processing');
    expect(sample.history.map((h: { to_status: string }) => h.to_status)).toEqual(['collected', 'processing']);
    expect(sample.history[1].notes).toContain('Haemoglobin');
    await enter(tech, s.id, fbs, '90');
    expect((await lab.admin.get(`/api/samples/${s.id}`)).json().sample.history).toHaveLength(2);

    const rejected = await collect(female, [hb]);
    await lab.admin.put(`/api/samples/${rejected.id}/status`, { status: 'rejected', notes: 'Clotted' });
    expect(
      (await tech.post('/api/test-results', { sample_id: rejected.id, test_id: hb, result_value: '13' })).statusCode,
    ).toBe(409);
  });

  it('refuses roles without update_results and records every write in the audit trail', async () => {
    const s = await collect(male, [hb]);
    const receptionist = await lab.as('receptionist');
    expect(
      (await receptionist.post('/api/test-results', { sample_id: s.id, test_id: hb, result_value: '13' })).statusCode,
    ).toBe(403);
    expect(
      (await validator.post('/api/test-results', { sample_id: s.id, test_id: hb, result_value: '13' })).statusCode,
    ).toBe(403);
    const r = await enter(tech, s.id, hb, '13');
    const audit = await lab.database.db
      .selectFrom('audit_log')
      .select(['action', 'user_id'])
      .where('entity', '=', 'test_result')
      .where('entity_id', '=', String(r.id))
      .execute();
    expect(audit).toEqual([{ action: 'create', user_id: tech.userId }]);
  });
});

describe('verification', () => {
  it('records the signed-in verifier and time, never the verified_by a client sends', async () => {
    const s = await collect(male, [hb]);
    const r = await enter(tech, s.id, hb, '14');
    const res = await validator.put(`/api/test-results/${r.id}/verify`, { verified_by: 1 });
    expect(res.statusCode, res.body).toBe(200);
    const v = res.json<{ result: TestResult }>().result;
    expect(v).toMatchObject({ status: 'verified', verified_by: validator.userId, validation_status: 'validated' });
    expect(v.verified_by_name).toMatch(/^validator User/);
    expect(Date.now() - Date.parse(v.verified_at!)).toBeLessThan(60_000);
    const again = await validator.put(`/api/test-results/${r.id}/verify`);
    expect(again.statusCode).toBe(409);
  });

  it('gives 403 to roles without verify_results', async () => {
    const s = await collect(male, [hb]);
    const r = await enter(tech, s.id, hb, '14');
    const receptionist = await lab.as('receptionist');
    expect((await receptionist.put(`/api/test-results/${r.id}/verify`, {})).statusCode).toBe(403);
    expect((await tech.put(`/api/test-results/${r.id}/verify`, {})).statusCode).toBe(403);
    expect((await tech.post('/api/test-results/bulk-verify', { ids: [r.id] })).statusCode).toBe(403);
  });

  it('refuses self-verification (403) unless the lab setting allows it', async () => {
    const s = await collect(female, [hb, fbs]);
    const r = await enter(lab.admin, s.id, hb, '13');
    const self = await lab.admin.put(`/api/test-results/${r.id}/verify`, {});
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toContain('another user must verify it');
    await lab.database.db
      .updateTable('organizations')
      .set({ settings: JSON.stringify({ allowSelfVerification: true }) })
      .where('id', '=', lab.organizationId)
      .execute();
    try {
      const ok = await lab.admin.put(`/api/test-results/${r.id}/verify`, {});
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().result.verified_by).toBe(lab.admin.userId);
    } finally {
      await lab.database.db
        .updateTable('organizations')
        .set({ settings: '{}' })
        .where('id', '=', lab.organizationId)
        .execute();
    }
  });

  it('refuses to verify a result of a sample that was rejected afterwards', async () => {
    const s = await collect(male, [hb]);
    const r = await enter(tech, s.id, hb, '14');
    await lab.admin.put(`/api/samples/${s.id}/status`, { status: 'rejected', notes: 'Haemolysed' });
    const res = await validator.put(`/api/test-results/${r.id}/verify`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('was rejected');
  });

  it('bulk-verifies the allowed ones and says why the others were refused', async () => {
    const s = await collect(male, [hb, fbs, esr]);
    const a = await enter(tech, s.id, hb, '14');
    const b = await enter(lab.admin, s.id, fbs, '95');
    const c = await enter(tech, s.id, esr, '10');
    await validator.put(`/api/test-results/${c.id}/verify`);
    const res = await lab.admin.post('/api/test-results/bulk-verify', { ids: [a.id, b.id, c.id, 999999] });
    expect(res.statusCode, res.body).toBe(200);
    const out = res.json<BulkVerifyResponse>();
    expect(out.verified).toBe(1);
    expect(out.refused).toBe(3);
    expect(out.outcomes.map((o) => [o.id, o.status])).toEqual([
      [a.id, 200],
      [b.id, 403],
      [c.id, 409],
      [999999, 404],
    ]);
    expect(out.outcomes[2]!.message).toContain('already verified');
    expect(out.outcomes[0]!.message).toBe(`Result R-${String(a.id).padStart(6, '0')} has been verified`);
  });

  it('rejects with a reason into the validation queue; re-entry puts it back to completed', async () => {
    const s = await collect(female, [fbs]);
    const r = await enter(tech, s.id, fbs, '150');
    expect((await validator.put(`/api/test-results/${r.id}/reject`, {})).statusCode).toBe(400);
    const rej = await validator.put(`/api/test-results/${r.id}/reject`, { reason: 'Non-fasting sample suspected' });
    expect(rej.json().result).toMatchObject({
      status: 'rejected',
      validation_status: 'rejected',
      rejection_reason: 'Non-fasting sample suspected',
    });
    expect((await validator.put(`/api/test-results/${r.id}/verify`)).statusCode).toBe(409);
    const redo = await tech.put(`/api/test-results/${r.id}`, { result_value: '98' });
    expect(redo.json().result).toMatchObject({ status: 'completed', flag: 'normal', rejection_reason: null });
  });
});

describe('editing and deleting', () => {
  it('a verified result changes only with a reason, and the earlier value is kept as an amendment', async () => {
    const s = await collect(male, [fbs]);
    const r = await enter(tech, s.id, fbs, '98');
    await validator.put(`/api/test-results/${r.id}/verify`);
    const noReason = await tech.put(`/api/test-results/${r.id}`, { result_value: '189' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().details[0].path).toBe('reason');
    // Sending the record back unchanged is not an edit.
    const same = await tech.put(`/api/test-results/${r.id}`, { ...r, result_value: '98' });
    expect(same.json().result.status).toBe('verified');

    const res = await tech.put(`/api/test-results/${r.id}`, {
      result_value: '189',
      reason: 'Transcription error: 189 keyed as 98',
    });
    expect(res.statusCode, res.body).toBe(200);
    const amended = res.json<{ result: TestResult }>().result;
    expect(amended).toMatchObject({
      result_value: '189',
      flag: 'high',
      status: 'completed',
      amended: true,
      verified_by: null,
      verified_at: null,
    });
    expect(amended.amendments).toHaveLength(1);
    expect(amended.amendments![0]).toMatchObject({
      old_value: '98',
      old_flag: 'normal',
      old_status: 'verified',
      old_verified_by: validator.userId,
      reason: 'Transcription error: 189 keyed as 98',
      amended_by: tech.userId,
    });
    const fetched = (await lab.admin.get(`/api/test-results/${r.id}`)).json<{ result: TestResult }>().result;
    expect(fetched.amendments![0]!.old_value).toBe('98');
  });

  it('an unverified result is simply updated with its flag recomputed; deleting it brings the test back to the worklist', async () => {
    const s = await collect(female, [hb]);
    const r = await enter(tech, s.id, hb, '11');
    expect(r.flag).toBe('low');
    const upd = await tech.put(`/api/test-results/${r.id}`, { result_value: '13.2' });
    expect(upd.json().result).toMatchObject({ flag: 'normal', amended: false, review_required: false });
    expect((await tech.delete(`/api/test-results/${r.id}`)).statusCode).toBe(200);
    const page = (await lab.admin.get(`/api/test-results?sample_id=${s.id}`)).json<ResultPage>();
    expect(page.results).toHaveLength(1);
    expect(page.results[0]).toMatchObject({
      id: null,
      status: 'pending',
      test_name: 'Haemoglobin',
      normal_range: '12.0-15.5',
    });
  });

  it('a verified result cannot be deleted', async () => {
    const s = await collect(female, [hb]);
    const r = await enter(tech, s.id, hb, '13');
    await validator.put(`/api/test-results/${r.id}/verify`);
    expect((await tech.delete(`/api/test-results/${r.id}`)).statusCode).toBe(409);
    expect((await lab.admin.get('/api/test-results/999999')).statusCode).toBe(404);
  });
});

describe('the entry sheet and the lab report', () => {
  it('lists each ordered test with the range for this patient', async () => {
    const s = await collect(female, [hb, fbs]);
    await enter(tech, s.id, fbs, '90');
    const sheet = (await tech.get(`/api/samples/${s.id}/results`)).json<ResultSheet>();
    expect(sheet.can_enter).toBe(true);
    expect(sheet.all_verified).toBe(false);
    expect(sheet.tests.map((t) => [t.test_name, t.unit, t.normal_range, t.result?.result_value ?? null])).toEqual([
      ['Haemoglobin', 'g/dL', '12.0-15.5', null],
      ['Fasting Blood Sugar', 'mg/dL', '70-110', '90'],
    ]);
  });

  it('reports verified values with range, flag and verifier; unverified values are withheld', async () => {
    const bill = await lab.admin.post('/api/bills', {
      patient_id: female,
      doctor_id: doctor,
      items: [
        { item_type: 'test', item_id: hb },
        { item_type: 'test', item_id: fbs },
      ],
    });
    expect(bill.statusCode, bill.body).toBe(201);
    const s = await collect(female, [hb, fbs, esr], { bill_id: bill.json().bill.id });
    const h = await enter(tech, s.id, hb, '16.4');
    await enter(tech, s.id, fbs, '131');
    await validator.put(`/api/test-results/${h.id}/verify`);

    const res = await lab.admin.get(`/api/samples/${s.id}/report.pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    expect(res.headers['content-disposition']).toContain(`report-${s.sample_id}.pdf`);
    const file = join(tempDir(), 'report.pdf');
    writeFileSync(file, res.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    expect(text).toContain('Test Lab');
    expect(text).toContain(s.sample_id);
    expect(text).toContain('Dr. Priya Menon');
    expect(text).toMatch(/Haemoglobin\s+16\.4\s+g\/dL\s+12\.0-15\.5\s+H/);
    expect(text).toMatch(/Verified by validator User\d+ on \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    expect(text).toMatch(/Fasting Blood Sugar\s+Awaiting verification/);
    // Line by line: the barcode's random digits may contain 131.
    expect(text).not.toMatch(/Fasting Blood Sugar[^\n]*131/);
    expect(text).toMatch(/ESR\s+Result awaited/);
    expect(text).toContain('PARTIAL');
    expect(text).toMatch(/Page 1 of 1/);

    // The front desk prints released reports only (print_reports): this interim one is refused.
    const receptionist = await lab.as('receptionist');
    const desk = await receptionist.get(`/api/samples/${s.id}/report.pdf`);
    expect(desk.statusCode).toBe(409);
    expect(desk.json().code).toBe('REPORT_NOT_RELEASED');
    expect((await (await lab.as('collector')).get(`/api/samples/${s.id}/report.pdf`)).statusCode).toBe(403);
    expect((await lab.admin.get('/api/samples/999999/report.pdf')).statusCode).toBe(404);
  });

  it('a sample without a bill is referred by "Self"; an amendment is noted', async () => {
    const s = await collect(male, [fbs]);
    const r = await enter(tech, s.id, fbs, '98');
    await validator.put(`/api/test-results/${r.id}/verify`);
    await tech.put(`/api/test-results/${r.id}`, { result_value: '89', reason: 'Re-run on fresh aliquot' });
    await validator.put(`/api/test-results/${r.id}/verify`);
    const file = join(tempDir(), 'report.pdf');
    writeFileSync(file, (await lab.admin.get(`/api/samples/${s.id}/report.pdf`)).rawPayload);
    const text = execFileSync('pdftotext', [file, '-']).toString().replace(/\s+/g, ' ');
    expect(text).toContain('Referred by Self');
    expect(text).toContain('earlier value 98 mg/dL. Reason: Re-run on fresh aliquot');
    expect(text).not.toContain('PARTIAL');
  });
});
