import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';

let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

describe('smoke', () => {
  it('creates and finds a patient', async () => {
    const res = await lab.admin.post('/api/patients', {
      first_name: 'Ramesh',
      last_name: 'Kumar',
      date_of_birth: '1980-05-01',
      phone: '98765 43210',
    });
    expect(res.statusCode).toBe(201);
    const p = res.json().patient;
    expect(p.patient_id).toMatch(/^PAT\d{8}\d{4}$/);
    const s = await lab.admin.get('/api/patients?search=98765');
    expect(s.json().patients.map((x: { id: number }) => x.id)).toContain(p.id);
    const a = await lab.admin.get('/api/audit?entity=patient');
    expect(a.json().logs[0].entity_id).toBe(String(p.id));
  });
});
