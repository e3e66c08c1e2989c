import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import type { Bill } from '../../src/shared/schemas/bills.js';
import type { Sample } from '../../src/shared/schemas/samples.js';
import type { BillReport } from '../../src/shared/schemas/results.js';
import { uniqueWord } from './support.js';

/**
 * The front desk prints and hands over released reports (print_reports), without the results lists
 * or a report not yet released.
 */
let lab: TestLab;
let desk: Client;
let tech: Client;
let validator: Client;
let hb = 0;
let tsh = 0;
let bill: Bill;
let edta: Sample;
let serum: Sample;

beforeAll(async () => {
  lab = await makeLab();
  desk = await lab.as('receptionist');
  tech = await lab.as('lab_technician');
  validator = await lab.as('validator');
  const add = async (name: string, code: string, container: string) =>
    (
      await lab.admin.post('/api/tests', {
        name,
        code,
        price: 200,
        category: 'General',
        container,
        unit: 'u',
        normal_range: '1-100',
      })
    ).json().test.id as number;
  hb = await add('Haemoglobin', 'HB', 'edta');
  tsh = await add('TSH', 'TSH', 'serum');
  const patient = (
    await desk.post('/api/patients', {
      first_name: uniqueWord('Pr'),
      last_name: uniqueWord('Rp'),
      date_of_birth: '1980-03-03',
      gender: 'male',
    })
  ).json().patient.id;
  const res = await desk.post('/api/bills', {
    patient_id: patient,
    items: [
      { item_type: 'test', item_id: hb },
      { item_type: 'test', item_id: tsh },
    ],
    amount_paid: 400,
  });
  expect(res.statusCode, res.body).toBe(201);
  bill = res.json().bill;
  const samples = (await tech.get(`/api/samples?patient_id=${patient}`)).json<{ samples: Sample[] }>().samples;
  edta = samples.find((s) => s.container === 'edta')!;
  serum = samples.find((s) => s.container === 'serum')!;
  expect((await tech.post('/api/samples/collect', { ids: [edta.id, serum.id] })).statusCode).toBe(200);
  // Haemoglobin is entered and verified (released); TSH is entered, not verified.
  const r1 = await tech.post('/api/test-results', { sample_id: edta.id, test_id: hb, result_value: '13.5' });
  expect(r1.statusCode, r1.body).toBe(201);
  const v = await validator.put(`/api/test-results/${r1.json().result.id}/verify`);
  expect(v.statusCode, v.body).toBe(200);
  const r2 = await tech.post('/api/test-results', { sample_id: serum.id, test_id: tsh, result_value: '2.1' });
  expect(r2.statusCode, r2.body).toBe(201);
});
afterAll(() => lab.close());

describe('print_reports at the front desk', () => {
  it('a receptionist downloads a released report PDF', async () => {
    const status = await desk.get(`/api/samples/${edta.id}/report/status`);
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json().releasable).toBe(true);
    const pdf = await desk.get(`/api/samples/${edta.id}/report.pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
  });

  it('but not a report still awaiting verification (409), which the bench still may print as interim', async () => {
    const pdf = await desk.get(`/api/samples/${serum.id}/report.pdf`);
    expect(pdf.statusCode).toBe(409);
    expect(pdf.json().code).toBe('REPORT_NOT_RELEASED');
    const status = (await desk.get(`/api/samples/${serum.id}/report/status`)).json();
    expect(status).toMatchObject({ releasable: false, code: 'REPORT_NOT_RELEASED' });
    expect((await tech.get(`/api/samples/${serum.id}/report.pdf`)).statusCode).toBe(200);
  });

  it('nor the results lists, sheets or the Lab Reports register', async () => {
    expect((await desk.get('/api/test-results')).statusCode).toBe(403);
    expect((await desk.get(`/api/samples/${edta.id}/results`)).statusCode).toBe(403);
    expect((await desk.get('/api/lab-reports')).statusCode).toBe(403);
  });

  it("lists a bill's reports with what can be handed over, and no values", async () => {
    const res = await desk.get(`/api/bills/${bill.id}/reports`);
    expect(res.statusCode, res.body).toBe(200);
    const reports = res.json<{ reports: BillReport[] }>().reports;
    expect(reports.map((r) => [r.sample_code, r.tests, r.printable])).toEqual([
      [edta.sample_id, ['Haemoglobin'], true],
      [serum.sample_id, ['TSH'], false],
    ]);
    expect(reports[1]!.reason).toMatch(/not released yet/);
    // The value must not travel in any field; a timestamp may by chance hold the digits 13.5.
    const leaves: unknown[] = [];
    JSON.parse(res.body, (_key: string, value: unknown) => {
      if (value === null || typeof value !== 'object') leaves.push(value);
      return value;
    });
    expect(leaves.filter((v) => v === '13.5' || v === 13.5)).toEqual([]);
    expect(res.body).not.toMatch(/"(result_)?value"/);
    const collector = await lab.as('collector');
    expect((await collector.get(`/api/bills/${bill.id}/reports`)).statusCode).toBe(403);
    expect((await collector.get(`/api/samples/${edta.id}/report.pdf`)).statusCode).toBe(403);
  });

  it('names a rejected tube as rejected and recollected, not as a report still to come', async () => {
    const patient = (
      await desk.post('/api/patients', {
        first_name: uniqueWord('Rj'),
        last_name: uniqueWord('Rc'),
        date_of_birth: '1990-05-05',
        gender: 'female',
        confirm_new: true,
      })
    ).json().patient.id;
    const res = await desk.post('/api/bills', { patient_id: patient, items: [{ item_type: 'test', item_id: hb }] });
    expect(res.statusCode, res.body).toBe(201);
    const billId = res.json().bill.id as number;
    const [tube] = (await tech.get(`/api/samples?patient_id=${patient}`)).json<{ samples: Sample[] }>().samples;
    expect((await tech.post('/api/samples/collect', { ids: [tube!.id] })).statusCode).toBe(200);
    const rejected = await tech.put(`/api/samples/${tube!.id}/status`, { status: 'rejected', notes: 'Clotted' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    let reports = (await desk.get(`/api/bills/${billId}/reports`)).json<{ reports: BillReport[] }>().reports;
    expect(reports[0]).toMatchObject({ printable: false, status: 'rejected' });
    expect(reports[0]!.reason).toBe(`Sample ${tube!.sample_id} was rejected (Clotted): no report; recollect it`);
    const again = await tech.post(`/api/samples/${tube!.id}/recollect`, {});
    expect(again.statusCode, again.body).toBe(201);
    const fresh = again.json<{ sample: Sample }>().sample;
    reports = (await desk.get(`/api/bills/${billId}/reports`)).json<{ reports: BillReport[] }>().reports;
    expect(reports.map((r) => r.sample_code)).toEqual([tube!.sample_id, fresh.sample_id]);
    expect(reports[0]!.reason).toBe(
      `Sample ${tube!.sample_id} was rejected (Clotted): no report; recollected as ${fresh.sample_id}`,
    );
    expect(reports[1]!.reason).toMatch(/not released yet/);
  });
});
