import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import type { QcMaterial, QcRun, QcTestStatus } from '../../src/shared/schemas/qc.js';
import type { BulkVerifyResponse, ResultSheet, TestResult } from '../../src/shared/schemas/results.js';
import type { Sample } from '../../src/shared/schemas/samples.js';
import { uniqueWord } from './support.js';

/**
 * The QC gate on patient results, level by level: a rejected control level holds the test's
 * results whatever another level did, on the machine the result came from; a re-entered value is
 * judged by the QC before its new entry; a supervisor may override any rejection that holds.
 */
let lab: TestLab;
let tech: Client;
let validator: Client;

beforeAll(async () => {
  lab = await makeLab();
  tech = await lab.as('lab_technician');
  validator = await lab.as('validator');
});
afterAll(() => lab.close());

interface Hb {
  testId: number;
  name: string;
  l1: QcMaterial;
  l2: QcMaterial;
}

/** A haemoglobin-like test with two control levels: Level 1 8.0 ± 0.2, Level 2 13.5 ± 0.3. */
async function hbTest(): Promise<Hb> {
  const code = uniqueWord('HB').toUpperCase();
  const name = `Haemoglobin ${code}`;
  const t = await lab.admin.post('/api/tests', { name, code, price: 100, unit: 'g/dL', normal_range: '12-16' });
  expect(t.statusCode, t.body).toBe(201);
  const testId = t.json().test.id as number;
  const mat = async (level: string, mean: number, sd: number) => {
    const res = await lab.admin.post('/api/qc/materials', {
      name: `Hb control ${level}`,
      test_id: testId,
      level,
      target_mean: mean,
      target_sd: sd,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ material: QcMaterial }>().material;
  };
  return { testId, name, l1: await mat('Level 1', 8, 0.2), l2: await mat('Level 2', 13.5, 0.3) };
}

/** One level recorded on its own, as Record QC Run lets staff do. */
async function runLevel(
  testId: number,
  m: QcMaterial,
  value: number,
  opts: { at?: string; machine?: number } = {},
): Promise<{ runs: QcRun[]; status: string; rules: string[] }> {
  const res = await tech.post('/api/qc/runs', {
    test_id: testId,
    values: [{ material_id: m.id, value }],
    performed_at: opts.at,
    equipment_id: opts.machine,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function collectedSample(testId: number): Promise<number> {
  const p = await lab.admin.post('/api/patients', {
    first_name: 'Qc',
    last_name: uniqueWord(),
    age: 40,
    gender: 'Male',
  });
  const patientId = p.json().patient.id as number;
  await lab.admin.post('/api/bills', { patient_id: patientId, items: [{ item_type: 'test', item_id: testId }] });
  const [s] = (await lab.admin.get(`/api/samples?patient_id=${patientId}`)).json<{ samples: Sample[] }>().samples;
  await tech.post('/api/samples/collect', { ids: [s!.id] });
  return s!.id;
}

async function enter(testId: number, value: string, machine?: number): Promise<TestResult> {
  const sampleId = await collectedSample(testId);
  const res = await tech.post('/api/test-results', {
    sample_id: sampleId,
    test_id: testId,
    result_value: value,
    equipment_id: machine,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ result: TestResult }>().result;
}

const verify = (id: number) => validator.put(`/api/test-results/${id}/verify`);

async function machine(): Promise<number> {
  const res = await lab.admin.post('/api/equipment', {
    kind: 'machine',
    name: `Analyser ${uniqueWord()}`,
    serial_number: `SN-${uniqueWord('').toUpperCase()}`,
    type: 'Hematology Analyzer',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().equipment.id as number;
}

const aMinuteAgo = () => new Date(Date.now() - 60_000).toISOString();

describe('a rejected control level holds the test whatever another level did', () => {
  it('Level 2 rejected 1-3s, then Level 1 passing at the same time: the result is held, one by one and in bulk', async () => {
    const hb = await hbTest();
    const at = aMinuteAgo();
    expect(await runLevel(hb.testId, hb.l2, 14.6, { at })).toMatchObject({ status: 'failed', rules: ['1-2s', '1-3s'] });
    expect((await runLevel(hb.testId, hb.l1, 8.1, { at })).status).toBe('passed');

    const r = await enter(hb.testId, '13.2');
    const refused = await verify(r.id!);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().code).toBe('QC_REJECTED');
    const message = refused.json().message as string;
    expect(message).toContain(`QC of ${hb.name} was rejected`);
    expect(message).toContain(`Level 2 (${hb.l2.control_id}, lot ${hb.l2.lot_number}) 1-3s`);
    expect(message).not.toContain('Level 1');

    const bulk = await validator.post('/api/test-results/bulk-verify', { ids: [r.id] });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const out = bulk.json<BulkVerifyResponse>();
    expect(out.verified).toBe(0);
    expect(out.outcomes[0]).toMatchObject({ ok: false, status: 409 });
    expect(out.outcomes[0]!.message).toContain('Level 2');

    // The state is where the work happens: on the result, on the entry sheet, and on its own.
    const one = (await validator.get(`/api/test-results/${r.id}`)).json<{ result: TestResult }>().result;
    expect(one.qc).toMatchObject({ held: true, holds: [{ material_id: hb.l2.id, level: 'Level 2', rules: ['1-3s'] }] });
    const listed = await validator.get(`/api/test-results?entered=true&sample_id=${r.sample_id}`);
    expect(listed.json().results[0].qc).toMatchObject({ held: true, holds: [{ level: 'Level 2' }] });
    const sheet = (await tech.get(`/api/samples/${r.sample_id}/results`)).json<ResultSheet>();
    expect(sheet.tests[0]!.qc.held).toBe(true);
    expect(sheet.tests[0]!.result!.qc!.held).toBe(true);
    const status = await tech.get(`/api/qc/tests/${hb.testId}/status`);
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json<{ status: QcTestStatus }>().status).toMatchObject({
      held: true,
      holds: [{ control_id: hb.l2.control_id, value: 14.6 }],
    });
    expect((await verify(r.id!)).statusCode).toBe(409);
  });

  it('a passing re-run of the level releases results entered after it; one entered before is confirmed anew', async () => {
    const hb = await hbTest();
    await runLevel(hb.testId, hb.l2, 14.6);
    await runLevel(hb.testId, hb.l1, 8.1);
    const before = await enter(hb.testId, '13.2');
    expect((await verify(before.id!)).statusCode).toBe(409);

    expect((await runLevel(hb.testId, hb.l2, 13.6)).status).toBe('passed');
    const after = await enter(hb.testId, '13.4');
    expect((await verify(after.id!)).statusCode).toBe(200);
    // Run before the passing QC: held until the sample is run again and the value confirmed.
    expect((await verify(before.id!)).statusCode).toBe(409);
    const confirmed = await tech.put(`/api/test-results/${before.id}`, { result_value: '13.2', reentered: true });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().result.entered_at > before.entered_at!).toBe(true);
    expect((await verify(before.id!)).statusCode).toBe(200);

    const audit = await lab.database.db
      .selectFrom('audit_log')
      .select(['new_values'])
      .where('entity', '=', 'test_result')
      .where('entity_id', '=', String(before.id))
      .where('action', '=', 'update')
      .execute();
    expect(audit.some((a) => (a.new_values ?? '').includes('"reentered":true'))).toBe(true);
  });

  it('a level that is switched off no longer holds the test', async () => {
    const hb = await hbTest();
    await runLevel(hb.testId, hb.l2, 14.6);
    const r = await enter(hb.testId, '13.1');
    expect((await verify(r.id!)).statusCode).toBe(409);
    await lab.admin.put(`/api/qc/materials/${hb.l2.id}`, { is_active: false });
    expect((await verify(r.id!)).statusCode).toBe(200);
  });
});

describe('the machine the result came from', () => {
  it('a rejection on machine B holds results of B and results naming no machine, not results of A', async () => {
    const hb = await hbTest();
    const [a, b] = [await machine(), await machine()];
    await runLevel(hb.testId, hb.l1, 8.0, { machine: a });
    await runLevel(hb.testId, hb.l2, 13.4, { machine: a });
    await runLevel(hb.testId, hb.l2, 14.6, { machine: b });
    const onA = await enter(hb.testId, '13.3', a);
    const onB = await enter(hb.testId, '13.3', b);
    const unnamed = await enter(hb.testId, '13.3');
    expect((await verify(onA.id!)).statusCode).toBe(200);
    const held = await verify(onB.id!);
    expect(held.statusCode).toBe(409);
    expect(held.json().message).toContain('Level 2');
    expect((await verify(unnamed.id!)).statusCode).toBe(409);
    const statusA = await tech.get(`/api/qc/tests/${hb.testId}/status?equipment_id=${a}`);
    expect(statusA.json().status.held).toBe(false);
    const unknown = await tech.get(`/api/qc/tests/${hb.testId}/status?equipment_id=999999`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details).toEqual([{ path: 'equipment_id', message: 'Unknown equipment 999999' }]);
  });
});

describe('a re-run that gives the same value', () => {
  it('verifies once QC passed: the value typed again renews its entry', async () => {
    const hb = await hbTest();
    await runLevel(hb.testId, hb.l2, 14.6);
    const r = await enter(hb.testId, '12.6');
    expect((await verify(r.id!)).statusCode).toBe(409);
    const sent = await validator.put(`/api/test-results/${r.id}/reject`, { reason: 'Re-run after QC passes' });
    expect(sent.statusCode, sent.body).toBe(200);
    await runLevel(hb.testId, hb.l2, 13.5);
    const again = await tech.put(`/api/test-results/${r.id}`, { result_value: '12.6' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().result).toMatchObject({ status: 'completed', technician_id: tech.userId });
    const ok = await verify(r.id!);
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a verified result is not re-entered, it is amended with a reason', async () => {
    const hb = await hbTest();
    const r = await enter(hb.testId, '13.0');
    expect((await verify(r.id!)).statusCode).toBe(200);
    const res = await tech.put(`/api/test-results/${r.id}`, { result_value: '13.0', reentered: true });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('ALREADY_VERIFIED');
  });
});

describe('a supervisor overrides a rejection that holds results', () => {
  it('an older rejected run, not the latest of the test, is overridden and releases the result', async () => {
    const hb = await hbTest();
    const bad = await runLevel(hb.testId, hb.l2, 14.6);
    const latest = await runLevel(hb.testId, hb.l1, 8.1);
    expect(latest.status).toBe('passed');
    const r = await enter(hb.testId, '13.2');
    const held = (await validator.get(`/api/test-results/${r.id}`)).json<{ result: TestResult }>().result.qc!;
    expect(held.holds.map((h) => h.run_id)).toEqual([bad.runs[0]!.id]);
    expect((await verify(r.id!)).statusCode).toBe(409);
    const res = await lab.admin.post(`/api/qc/runs/${held.holds[0]!.run_id}/override`, {
      reason: 'Level 2 vial left open; fresh vial in range on re-check',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await verify(r.id!)).statusCode).toBe(200);
  });
});
