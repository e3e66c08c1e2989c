import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import type { ResultSheet, TestResult } from '../../src/shared/schemas/results.js';
import { uniqueWord } from './support.js';

/**
 * Save Results sends the whole sheet at once: every row stored, or none, and each bad row named.
 * Saved a row at a time, a sheet was left half stored when the page closed between rows.
 */
let lab: TestLab;
let tech: Client;
let hb: number;
let fbs: number;
let hiv: number;
let patient: number;

beforeAll(async () => {
  lab = await makeLab();
  const test = async (body: Record<string, unknown>) => {
    const res = await lab.admin.post('/api/tests', { price: 100, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().test.id as number;
  };
  hb = await test({ name: 'Haemoglobin', code: 'HB', unit: 'g/dL', normal_range: '12.0-17.0' });
  fbs = await test({ name: 'Fasting Blood Sugar', code: 'FBS', unit: 'mg/dL', normal_range: '70-110' });
  hiv = await test({ name: 'HIV 1 & 2 Antibodies', code: 'HIV', normal_range: 'Non-reactive' });
  patient = (
    await lab.admin.post('/api/patients', {
      first_name: 'Meera',
      last_name: uniqueWord('Sh'),
      date_of_birth: '1980-03-01',
      gender: 'Female',
      phone: '9876500011',
    })
  ).json().patient.id;
  tech = await lab.as('lab_technician');
});
afterAll(() => lab.close());

async function collect(test_ids: number[]) {
  const res = await lab.admin.post('/api/samples', { patient_id: patient, sample_type: 'Blood', test_ids });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().sample as { id: number; sample_id: string; status: string };
}

const sheetOf = async (id: number) => (await tech.get(`/api/samples/${id}/results`)).json<ResultSheet>();
const statusOf = async (id: number) => (await tech.get(`/api/samples/${id}`)).json().sample.status as string;

describe('Save Results: the whole sheet in one transaction', () => {
  it('stores nothing when one row is bad, and names that row and its test', async () => {
    const s = await collect([hb, fbs, hiv]);
    const res = await tech.post(`/api/samples/${s.id}/results`, {
      rows: [
        { test_id: hb, result_value: '13.1' },
        { test_id: fbs, result_value: 'ninety' },
        { test_id: hiv, result_value: 'Non-reactive' },
      ],
    });
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json<{ message: string; details: { path: string; message: string }[] }>();
    expect(body.details).toHaveLength(1);
    expect(body.details[0]!.path).toBe('rows.1.result_value');
    expect(body.details[0]!.message).toMatch(/^Fasting Blood Sugar: /);
    expect(body.message).toMatch(/could not be saved, so none was/);
    // Nothing of the good rows stayed, and the sample did not move on.
    expect((await sheetOf(s.id)).tests.every((t) => t.result === null)).toBe(true);
    expect(await statusOf(s.id)).toBe('collected');
  });

  it('names every bad row at once, not the first only', async () => {
    const s = await collect([hb, fbs, hiv]);
    const other = await collect([hb]);
    const res = await tech.post(`/api/samples/${s.id}/results`, {
      rows: [
        { test_id: hb, result_value: 'high' },
        { test_id: fbs, result_value: '95' },
        { test_id: hiv, result_value: 'Non-reactive' },
        { test_id: hiv, result_value: 'Reactive' },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ details: { path: string }[] }>().details.map((d) => d.path)).toEqual([
      'rows.0.result_value',
      'rows.3.test_id',
    ]);
    // A test the sample did not order is named too.
    const stray = await tech.post(`/api/samples/${other.id}/results`, { rows: [{ test_id: fbs, result_value: '90' }] });
    expect(stray.statusCode).toBe(400);
    expect(stray.json<{ details: { path: string; message: string }[] }>().details[0]).toMatchObject({
      path: 'rows.0.test_id',
    });
  });

  it('stores every row when all are good, judged as a single entry is, and changes a result by its id', async () => {
    const s = await collect([hb, fbs, hiv]);
    const res = await tech.post(`/api/samples/${s.id}/results`, {
      rows: [
        { test_id: hb, result_value: '13.1' },
        { test_id: fbs, result_value: '130' },
        { test_id: hiv, result_value: 'Non-reactive' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const results = res.json<{ results: TestResult[] }>().results;
    expect(results.map((r) => [r.test_name, r.result_value, r.flag])).toEqual([
      ['Haemoglobin', '13.1', 'normal'],
      ['Fasting Blood Sugar', '130', 'high'],
      ['HIV 1 & 2 Antibodies', 'Non-reactive', 'normal'],
    ]);
    expect(results.every((r) => r.technician_id === tech.userId)).toBe(true);
    expect(await statusOf(s.id)).toBe('processing');

    // The second save changes one row by its result id; another sample's result id is refused.
    const fbsResult = results[1]!;
    const other = await collect([fbs]);
    const wrong = await tech.post(`/api/samples/${other.id}/results`, {
      rows: [{ test_id: fbs, result_id: fbsResult.id, result_value: '99' }],
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ details: { path: string }[] }>().details[0]!.path).toBe('rows.0.result_id');
    const again = await tech.post(`/api/samples/${s.id}/results`, {
      rows: [{ test_id: fbs, result_id: fbsResult.id, result_value: '99' }],
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<{ results: TestResult[] }>().results[0]).toMatchObject({ result_value: '99', flag: 'normal' });
  });

  it('answers 404 for another lab sample, and 400 naming rows for an empty sheet', async () => {
    expect(
      (await tech.post('/api/samples/999999/results', { rows: [{ test_id: hb, result_value: '1' }] })).statusCode,
    ).toBe(404);
    const s = await collect([hb]);
    const empty = await tech.post(`/api/samples/${s.id}/results`, { rows: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ details: { path: string }[] }>().details[0]!.path).toBe('rows');
  });
});
