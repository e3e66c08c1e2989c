import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import type { ResultPage, ResultSheet, TestResult } from '../../src/shared/schemas/results.js';

/**
 * Each result row says whether the signed-in user may verify it (and why not), by the same rules
 * the verification applies: a screen offers Validate exactly where the server takes it.
 */
let lab: TestLab;
let tech: Client;
let validator: Client;
let hb: number;
let esr: number;
let patient: number;

beforeAll(async () => {
  lab = await makeLab();
  hb = (
    await lab.admin.post('/api/tests', { name: 'Haemoglobin', code: 'HB', price: 100, normal_range: '12-17' })
  ).json().test.id;
  esr = (await lab.admin.post('/api/tests', { name: 'ESR', code: 'ESR', price: 100, normal_range: '0-20' })).json().test
    .id;
  patient = (
    await lab.admin.post('/api/patients', {
      first_name: 'Kavya',
      last_name: 'Rao',
      date_of_birth: '1985-06-06',
      gender: 'Female',
    })
  ).json().patient.id;
  tech = await lab.as('lab_technician');
  validator = await lab.as('validator');
});
afterAll(() => lab.close());

async function sample(test_ids: number[]): Promise<number> {
  const res = await lab.admin.post('/api/samples', { patient_id: patient, sample_type: 'Blood', test_ids });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().sample.id;
}

async function enter(by: Client, sampleId: number, testId: number, value: string): Promise<TestResult> {
  const res = await by.post('/api/test-results', { sample_id: sampleId, test_id: testId, result_value: value });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().result;
}

async function row(as: Client, id: number): Promise<TestResult> {
  const res = await as.get(`/api/test-results/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ result: TestResult }>().result;
}

async function listRows(as: Client, sampleId: number): Promise<TestResult[]> {
  const page = (await as.get('/api/test-results?limit=100')).json<ResultPage>();
  return page.results.filter((r) => r.sample_id === sampleId);
}

describe('can_verify on result rows', () => {
  it("is false on the user's own entry when self-verification is off, with the server's reason; true for another validator", async () => {
    const s = await sample([hb, esr]);
    const r = await enter(lab.admin, s, hb, '13.5');
    const own = await row(lab.admin, r.id!);
    expect(own.can_verify).toBe(false);
    expect(own.verify_refusal).toContain('another user must verify it');
    expect((await lab.admin.put(`/api/test-results/${r.id}/verify`)).statusCode).toBe(403);

    const theirs = (await listRows(validator, s)).find((x) => x.id === r.id)!;
    expect(theirs).toMatchObject({ can_verify: true, verify_refusal: null });
    // The test not entered yet is a row too, and cannot be verified.
    const pending = (await listRows(validator, s)).find((x) => x.test_id === esr)!;
    expect(pending).toMatchObject({ id: null, can_verify: false });
    expect((await validator.put(`/api/test-results/${r.id}/verify`)).statusCode).toBe(200);
    const done = await row(validator, r.id!);
    expect(done.can_verify).toBe(false);
    expect(done.verify_refusal).toContain('already verified');
  });

  it('is false for the results of a rejected sample, as the server refuses them', async () => {
    const s = await sample([hb]);
    const r = await enter(tech, s, hb, '12.9');
    expect((await lab.admin.put(`/api/samples/${s}/status`, { status: 'rejected', notes: 'Clotted' })).statusCode).toBe(
      200,
    );
    const seen = await row(validator, r.id!);
    expect(seen.can_verify).toBe(false);
    expect(seen.verify_refusal).toContain('was rejected');
    expect((await validator.put(`/api/test-results/${r.id}/verify`)).statusCode).toBe(409);
  });

  it('is false without verify_results, and on the entry sheet follows the same rules', async () => {
    const s = await sample([hb]);
    const r = await enter(tech, s, hb, '14.1');
    const techRow = await row(tech, r.id!);
    expect(techRow.can_verify).toBe(false);
    expect(techRow.verify_refusal).toContain('verify_results');
    const sheet = (await validator.get(`/api/samples/${s}/results`)).json<ResultSheet>();
    expect(sheet.tests[0]!.result).toMatchObject({ id: r.id, can_verify: true });
  });

  it('follows the lab setting that allows self-verification', async () => {
    const s = await sample([hb]);
    const r = await enter(lab.admin, s, hb, '15');
    await lab.database.db
      .updateTable('organizations')
      .set({ settings: JSON.stringify({ allowSelfVerification: true }) })
      .where('id', '=', lab.organizationId)
      .execute();
    try {
      expect((await row(lab.admin, r.id!)).can_verify).toBe(true);
    } finally {
      await lab.database.db
        .updateTable('organizations')
        .set({ settings: '{}' })
        .where('id', '=', lab.organizationId)
        .execute();
    }
  });
});
