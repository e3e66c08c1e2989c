import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import type { Sample } from '../../src/shared/schemas/samples.js';
import type { AuditLog } from '../../src/shared/schemas/audit.js';

/** A rejected sample is drawn again: a new tube for the same tests, linked both ways, on the same bill, at no charge. */
let lab: TestLab;
let collector: Client;
let patient: number;
let hb: number;
let fbs: number;

beforeAll(async () => {
  lab = await makeLab();
  hb = (await lab.admin.post('/api/tests', { name: 'Haemoglobin', code: 'HB', price: 150, container: 'edta' })).json()
    .test.id;
  fbs = (
    await lab.admin.post('/api/tests', { name: 'Glucose Fasting', code: 'FBS', price: 100, container: 'edta' })
  ).json().test.id;
  patient = (
    await lab.admin.post('/api/patients', {
      first_name: 'Meena',
      last_name: 'Iyer',
      date_of_birth: '1980-02-02',
      gender: 'Female',
    })
  ).json().patient.id;
  collector = await lab.as('collector');
});
afterAll(() => lab.close());

async function billedTube(): Promise<{ bill: { id: number; final_amount: number }; sample: Sample }> {
  const res = await lab.admin.post('/api/bills', {
    patient_id: patient,
    items: [
      { item_type: 'test', item_id: hb },
      { item_type: 'test', item_id: fbs },
    ],
  });
  expect(res.statusCode, res.body).toBe(201);
  const bill = res.json().bill;
  const samples = (await lab.admin.get(`/api/samples?patient_id=${patient}`)).json<{ samples: Sample[] }>().samples;
  const sample = samples.find((s) => s.bill_id === bill.id)!;
  return { bill, sample };
}

async function reject(id: number) {
  await collector.post('/api/samples/collect', { ids: [id] });
  const res = await collector.put(`/api/samples/${id}/status`, { status: 'rejected', notes: 'Haemolysed' });
  expect(res.statusCode, res.body).toBe(200);
}

describe('recollect a rejected sample', () => {
  it('makes a new pending sample with a new barcode for the same tests and bill, linked both ways, no new charge', async () => {
    const { bill, sample } = await billedTube();
    await reject(sample.id);
    const before = (await lab.admin.get(`/api/bills/${bill.id}`)).json().bill;

    const res = await collector.post(`/api/samples/${sample.id}/recollect`, { notes: 'Redraw: haemolysed' });
    expect(res.statusCode, res.body).toBe(201);
    const fresh = res.json<{ sample: Sample }>().sample;
    expect(fresh.id).not.toBe(sample.id);
    expect(fresh.status).toBe('pending');
    expect(fresh.barcode).toMatch(/^BCBL\d{11}$/);
    expect(fresh.barcode).not.toBe(sample.barcode);
    expect(fresh.test_ids).toEqual(sample.test_ids);
    expect(fresh).toMatchObject({
      patient_id: patient,
      bill_id: bill.id,
      container: sample.container,
      recollect_of: sample.id,
      recollect_of_code: sample.sample_id,
    });

    const old = (await lab.admin.get(`/api/samples/${sample.id}`)).json<{ sample: Sample }>().sample;
    expect(old.status).toBe('rejected');
    expect(old).toMatchObject({ recollected_as: fresh.id, recollected_as_code: fresh.sample_id });

    const after = (await lab.admin.get(`/api/bills/${bill.id}`)).json().bill;
    expect(after.final_amount).toBe(before.final_amount);
    expect(after.items).toHaveLength(before.items.length);

    const logs = (await lab.admin.get(`/api/audit?entity=sample&limit=100`)).json<{ logs: AuditLog[] }>().logs;
    const created = logs.find((l) => l.entity_id === String(fresh.id) && l.action === 'create');
    expect(created?.new_values).toMatchObject({ recollect_of: sample.id });
    expect(logs.some((l) => l.entity_id === String(sample.id) && l.new_values?.recollected_as === fresh.id)).toBe(true);
  });

  it('refuses a sample that is not rejected (409) and a second recollection, leaving the data as it was', async () => {
    const { sample } = await billedTube();
    const pending = await collector.post(`/api/samples/${sample.id}/recollect`, {});
    expect(pending.statusCode).toBe(409);
    expect(pending.json().code).toBe('NOT_REJECTED');

    await reject(sample.id);
    expect((await collector.post(`/api/samples/${sample.id}/recollect`, {})).statusCode).toBe(201);
    const count = (await lab.admin.get(`/api/samples?patient_id=${patient}`)).json().total;
    const again = await collector.post(`/api/samples/${sample.id}/recollect`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('ALREADY_RECOLLECTED');
    expect((await lab.admin.get(`/api/samples?patient_id=${patient}`)).json().total).toBe(count);
  });

  it('needs manage_samples and an existing sample of this lab', async () => {
    const { sample } = await billedTube();
    await reject(sample.id);
    const reception = await lab.as('receptionist');
    expect((await reception.post(`/api/samples/${sample.id}/recollect`, {})).statusCode).toBe(403);
    expect((await collector.post(`/api/samples/999999/recollect`, {})).statusCode).toBe(404);
  });
});

describe('collecting pending tubes', () => {
  it('records the collector chosen, else the signed-in user', async () => {
    const a = await billedTube();
    const b = await billedTube();
    const other = await lab.as('collector');
    const chosen = await collector.post('/api/samples/collect', { ids: [a.sample.id], collector_id: other.userId });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().samples[0].collector_id).toBe(other.userId);
    const self = await collector.post('/api/samples/collect', { ids: [b.sample.id] });
    expect(self.json().samples[0].collector_id).toBe(collector.userId);
    const bad = await collector.post('/api/samples/collect', { ids: [b.sample.id], collector_id: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('collector_id');
  });
});
