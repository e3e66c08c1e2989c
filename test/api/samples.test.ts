import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';

let lab: TestLab;
let patient: number;
let hb: number;
let fbs: number;

beforeAll(async () => {
  lab = await makeLab();
  hb = (
    await lab.admin.post('/api/tests', { name: 'Haemoglobin', code: 'HB', price: 150, sample_type: 'Blood' })
  ).json().test.id;
  fbs = (await lab.admin.post('/api/tests', { name: 'Fasting Blood Sugar', code: 'FBS', price: 100 })).json().test.id;
  patient = (
    await lab.admin.post('/api/patients', {
      first_name: 'Gita',
      last_name: 'Bose',
      date_of_birth: '1975-04-04',
      gender: 'Female',
    })
  ).json().patient.id;
});
afterAll(() => lab.close());

async function collect(over: Record<string, unknown> = {}) {
  const res = await lab.admin.post('/api/samples', {
    patient_id: patient,
    sample_type: 'Blood',
    test_ids: [hb, fbs],
    location: 'Main Lab',
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().sample;
}

describe('sample collection', () => {
  it('collecting assigns a sample code and a barcode in the spec format, with the ordered tests and custody history', async () => {
    const s = await collect({ priority: 'urgent' });
    expect(s.sample_id).toMatch(/^SMP\d{12}$/);
    expect(s.barcode).toMatch(/^BCBL\d{11}$/);
    expect(s.status).toBe('collected');
    expect(s.tests.map((t: { name: string }) => t.name)).toEqual(['Haemoglobin', 'Fasting Blood Sugar']);
    expect(s.history).toHaveLength(1);
    expect(s.history[0]).toMatchObject({ from_status: null, to_status: 'collected', location: 'Main Lab' });
    expect(s.priority).toBe('urgent');
    expect(s.eta).toBe(new Date(Date.parse(s.collection_date) + 2 * 3600_000).toISOString());
  });

  it('requires a patient and a sample type', async () => {
    const res = await lab.admin.post('/api/samples', { sample_type: 'Blood' });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].path).toBe('patient_id');
    const bad = await lab.admin.post('/api/samples', { patient_id: patient, sample_type: 'Saliva' });
    expect(bad.json().details[0].path).toBe('sample_type');
  });

  it('a pending sample gets its barcode when it is collected', async () => {
    const s = await collect({ status: 'pending', sample_type: 'Urine' });
    expect(s.barcode).toBeNull();
    const res = await lab.admin.put(`/api/samples/${s.id}/status`, { status: 'collected', notes: 'drawn at counter' });
    expect(res.json().sample.barcode).toMatch(/^BCUR\d{11}$/);
  });

  it('barcodes are unique under concurrent collection', async () => {
    const many = await Promise.all(
      Array.from({ length: 25 }, () => lab.admin.post('/api/samples', { patient_id: patient, sample_type: 'Blood' })),
    );
    const codes = many.map((r) => r.json().sample.barcode as string);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('the status machine over the API', () => {
  it('moves collected -> processing -> completed and refuses illegal moves with 409', async () => {
    const s = await collect();
    expect((await lab.admin.put(`/api/samples/${s.id}/status`, { status: 'completed' })).statusCode).toBe(409);
    expect((await lab.admin.put(`/api/samples/${s.id}/status`, { status: 'processing' })).statusCode).toBe(200);
    expect((await lab.admin.put(`/api/samples/${s.id}/status`, { status: 'collected' })).statusCode).toBe(409);
    const done = await lab.admin.put(`/api/samples/${s.id}/status`, { status: 'completed', notes: 'all tests run' });
    expect(done.json().sample.status).toBe('completed');
    expect(done.json().sample.history.map((h: { to_status: string }) => h.to_status)).toEqual([
      'collected',
      'processing',
      'completed',
    ]);
    const again = await lab.admin.put(`/api/samples/${s.id}/status`, { status: 'rejected', notes: 'x' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('closed');
  });

  it('rejection needs a reason and is kept', async () => {
    const s = await collect();
    expect((await lab.admin.put(`/api/samples/${s.id}/status`, { status: 'rejected' })).statusCode).toBe(400);
    const rej = await lab.admin.put(`/api/samples/${s.id}/status`, { status: 'rejected', notes: 'Haemolysed' });
    expect(rej.json().sample.rejection_reason).toBe('Haemolysed');
  });
});

describe('barcodes', () => {
  it('looks a sample up by barcode; malformed is 400, unknown 404', async () => {
    const s = await collect();
    expect((await lab.admin.get(`/api/samples/by-barcode/${s.barcode}`)).json().sample.id).toBe(s.id);
    expect((await lab.admin.get('/api/samples/by-barcode/NOTABARCODE')).statusCode).toBe(400);
    expect((await lab.admin.get('/api/samples/by-barcode/BCBL00000000000')).statusCode).toBe(404);
    expect((await lab.admin.get(`/api/samples/check-barcode/${s.barcode}`)).json()).toEqual({
      isUnique: false,
      valid: true,
    });
    expect((await lab.admin.get('/api/samples/check-barcode/BCBL00000000001')).json()).toEqual({
      isUnique: true,
      valid: true,
    });
  });

  it('setting a barcode: malformed 400, duplicate 409; generate-missing fills the rest', async () => {
    const a = await collect();
    const p = await collect({ status: 'pending' });
    expect((await lab.admin.put(`/api/samples/${p.id}`, { barcode: 'BC123' })).statusCode).toBe(400);
    expect((await lab.admin.put(`/api/samples/${p.id}`, { barcode: a.barcode })).statusCode).toBe(409);
    const gen = await lab.admin.post('/api/samples/generate-barcodes');
    expect(gen.json().generated).toBeGreaterThanOrEqual(1);
    const after = await lab.admin.get(`/api/samples/${p.id}`);
    expect(after.json().sample.barcode).toMatch(/^BCBL\d{11}$/);
    expect((await lab.admin.post('/api/samples/generate-barcodes')).json().generated).toBe(0);
  });

  it('serves barcode and QR images and the label PDF', async () => {
    const s = await collect();
    const png = await lab.admin.get(`/api/barcodes/${s.barcode}.png`);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    const qr = await lab.admin.get(`/api/barcodes/${s.barcode}.png?type=qrcode`);
    expect(qr.statusCode).toBe(200);
    const label = await lab.admin.get(`/api/samples/${s.id}/label.pdf`);
    expect(label.statusCode).toBe(200);
    expect(label.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('lists and permissions', () => {
  it('filters by status, priority and search; summary counts', async () => {
    const list = await lab.admin.get('/api/samples?priority=urgent');
    expect(list.json().samples.every((s: { priority: string }) => s.priority === 'urgent')).toBe(true);
    expect(list.json().samples.length).toBeGreaterThan(0);
    const byName = await lab.admin.get('/api/samples?search=gita');
    expect(byName.json().total).toBeGreaterThan(0);
    const sum = (await lab.admin.get('/api/samples/summary')).json().summary;
    expect(sum.total).toBe(sum.pending + sum.collected + sum.processing + sum.completed + sum.rejected);
    // Completed samples exist by now (status machine tests): the mean collection-to-completion time is measured.
    expect(sum.timed_completed).toBe(sum.completed);
    expect(sum.completed).toBeGreaterThan(0);
    expect(sum.avg_processing_minutes).toBeGreaterThanOrEqual(0);
    expect((await lab.admin.get('/api/samples?status=bogus')).statusCode).toBe(400);
  });

  it('a receptionist can view but not collect; an inventory manager cannot view', async () => {
    const rec = await lab.as('receptionist');
    expect((await rec.get('/api/samples')).statusCode).toBe(200);
    expect((await rec.post('/api/samples', { patient_id: patient, sample_type: 'Blood' })).statusCode).toBe(403);
    const inv = await lab.as('inventory_manager');
    expect((await inv.get('/api/samples')).statusCode).toBe(403);
  });

  it('the 15 collection locations are there and editable', async () => {
    const locs = (await lab.admin.get('/api/collection-locations')).json().locations;
    expect(locs).toHaveLength(15);
    expect(locs[0].name).toBe('Home Collection');
    const add = await lab.admin.post('/api/collection-locations', { name: 'Airport Kiosk', kind: 'centre' });
    expect(add.statusCode).toBe(201);
    expect((await lab.admin.post('/api/collection-locations', { name: 'airport kiosk' })).statusCode).toBe(409);
  });
});
