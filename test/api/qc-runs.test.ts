import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import type { QcMaterial, QcRun } from '../../src/shared/schemas/qc.js';
import type { Sample } from '../../src/shared/schemas/samples.js';
import { uniqueWord } from './support.js';

/** QC runs of two levels judged together, the rule set per test, and the gate on patient results. */
let lab: TestLab;
let qcUser: Client;
let tech: Client;
let validator: Client;

beforeAll(async () => {
  lab = await makeLab();
  qcUser = await lab.as('lab_technician');
  tech = await lab.as('lab_technician');
  validator = await lab.as('validator');
});
afterAll(() => lab.close());

async function testWithLevels(code: string): Promise<{ testId: number; l1: QcMaterial; l2: QcMaterial }> {
  const t = await lab.admin.post('/api/tests', {
    name: `Test ${code}`,
    code,
    price: 100,
    unit: 'mg/dL',
    normal_range: '70-110',
  });
  const testId = t.json().test.id as number;
  const mat = async (level: string) =>
    (
      await lab.admin.post('/api/qc/materials', {
        name: `Control ${uniqueWord()}`,
        test_id: testId,
        level,
        target_mean: 100,
        target_sd: 2,
      })
    ).json<{ material: QcMaterial }>().material;
  return { testId, l1: await mat('Level 1'), l2: await mat('Level 2') };
}

const runOf = async (testId: number, values: [number, number][], as: Client = lab.admin) => {
  const res = await as.post('/api/qc/runs', {
    test_id: testId,
    values: values.map(([material_id, value]) => ({ material_id, value })),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ runs: QcRun[]; status: string; rules: string[] }>();
};

describe('a QC run of two levels', () => {
  it('2-2s fires when both levels are beyond the same 2 SD in one run', async () => {
    const { testId, l1, l2 } = await testWithLevels('QA1');
    const ok = await runOf(testId, [
      [l1.id, 101],
      [l2.id, 99],
    ]);
    expect(ok.status).toBe('passed');
    const bad = await runOf(testId, [
      [l1.id, 104.2],
      [l2.id, 104.6],
    ]);
    expect(bad).toMatchObject({ status: 'failed', rules: ['1-2s', '2-2s'] });
    expect(bad.runs.map((r) => r.status)).toEqual(['failed', 'failed']);
    expect(new Set(bad.runs.map((r) => r.run_key)).size).toBe(1);
  });

  it('R-4s fires within the run: one level above +2 SD, the other below -2 SD', async () => {
    const { testId, l1, l2 } = await testWithLevels('QA2');
    const bad = await runOf(testId, [
      [l1.id, 104.6],
      [l2.id, 95.6],
    ]);
    expect(bad).toMatchObject({ status: 'failed', rules: ['1-2s', 'R-4s'] });
  });

  it('4-1s across two levels over two runs', async () => {
    const { testId, l1, l2 } = await testWithLevels('QA3');
    await runOf(testId, [
      [l1.id, 102.4],
      [l2.id, 102.2],
    ]);
    const second = await runOf(testId, [
      [l1.id, 102.6],
      [l2.id, 102.8],
    ]);
    expect(second).toMatchObject({ status: 'failed', rules: ['4-1s'] });
  });

  it('a test may choose its rules; a rule left out does not reject', async () => {
    const { testId, l1, l2 } = await testWithLevels('QA4');
    const set = await lab.admin.put(`/api/qc/tests/${testId}/rules`, { rules: ['1-2s', '1-3s'] });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().rules).toEqual(['1-2s', '1-3s']);
    const res = await runOf(testId, [
      [l1.id, 104.2],
      [l2.id, 104.6],
    ]);
    expect(res).toMatchObject({ status: 'warning', rules: ['1-2s'] });
    const bad = await lab.admin.put(`/api/qc/tests/${testId}/rules`, { rules: ['5-5s'] });
    expect(bad.statusCode).toBe(400);
  });
});

describe('a rejected QC run blocks verification of results run after it', () => {
  it('until a supervisor overrides it with a reason', async () => {
    const { testId, l1, l2 } = await testWithLevels('QA5');
    const p = await lab.admin.post('/api/patients', {
      first_name: 'Qc',
      last_name: 'Patient',
      age: 40,
      gender: 'Male',
    });
    const patientId = p.json().patient.id as number;
    const bad = await runOf(testId, [
      [l1.id, 104.2],
      [l2.id, 104.6],
    ]);
    await lab.admin.post('/api/bills', { patient_id: patientId, items: [{ item_type: 'test', item_id: testId }] });
    const [s] = (await lab.admin.get(`/api/samples?patient_id=${patientId}`)).json<{ samples: Sample[] }>().samples;
    await tech.post('/api/samples/collect', { ids: [s!.id] });
    const r = await tech.post('/api/test-results', { sample_id: s!.id, test_id: testId, result_value: '90' });
    const rid = r.json().result.id as number;
    const refused = await validator.put(`/api/test-results/${rid}/verify`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'QC_REJECTED' });
    expect(refused.json().message).toContain('QC of Test QA5 was rejected');
    // Overriding needs a supervisor (manage_lab) and a reason.
    expect((await qcUser.post(`/api/qc/runs/${bad.runs[0]!.id}/override`, { reason: 'x' })).statusCode).toBe(403);
    expect((await lab.admin.post(`/api/qc/runs/${bad.runs[0]!.id}/override`, {})).statusCode).toBe(400);
    const ok = await lab.admin.post(`/api/qc/runs/${bad.runs[0]!.id}/override`, {
      reason: 'Control vial mis-reconstituted; patient samples re-run against fresh control agree',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().runs.every((x: QcRun) => x.overridden_at)).toBe(true);
    expect((await validator.put(`/api/test-results/${rid}/verify`)).statusCode).toBe(200);
  });

  it('a passing run after the rejection lets later results through', async () => {
    const { testId, l1, l2 } = await testWithLevels('QA6');
    await runOf(testId, [
      [l1.id, 107],
      [l2.id, 100],
    ]);
    await runOf(testId, [
      [l1.id, 100.5],
      [l2.id, 99.5],
    ]);
    const p = await lab.admin.post('/api/patients', { first_name: 'Qc', last_name: 'Later', age: 40, gender: 'Male' });
    const patientId = p.json().patient.id as number;
    await lab.admin.post('/api/bills', { patient_id: patientId, items: [{ item_type: 'test', item_id: testId }] });
    const [s] = (await lab.admin.get(`/api/samples?patient_id=${patientId}`)).json<{ samples: Sample[] }>().samples;
    await tech.post('/api/samples/collect', { ids: [s!.id] });
    const r = await tech.post('/api/test-results', { sample_id: s!.id, test_id: testId, result_value: '90' });
    expect((await validator.put(`/api/test-results/${r.json().result.id}/verify`)).statusCode).toBe(200);
  });
});
