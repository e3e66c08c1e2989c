import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';

let lab: TestLab;
let test1: number;

beforeAll(async () => {
  lab = await makeLab();
  test1 = (
    await lab.admin.post('/api/tests', { name: 'Glucose', code: 'GLUD', price: 100, category: 'Biochemistry' })
  ).json().test.id;
});
afterAll(() => lab.close());

const sunita = {
  first_name: 'Sunita',
  last_name: 'Sharma',
  age: 42,
  gender: 'Female',
  phone: '9876501234',
};

describe('registering a patient already registered', () => {
  let first: { id: number; patient_id: string };

  beforeAll(async () => {
    const res = await lab.admin.post('/api/patients', sunita);
    expect(res.statusCode).toBe(201);
    first = res.json().patient;
  });

  it('answers 409 POSSIBLE_DUPLICATE with the candidate for the same mobile, name and age', async () => {
    const res = await lab.admin.post('/api/patients', sunita);
    expect(res.statusCode).toBe(409);
    const body = res.json();
    expect(body.code).toBe('POSSIBLE_DUPLICATE');
    expect(body.candidates).toHaveLength(1);
    expect(body.candidates[0]).toMatchObject({
      id: first.id,
      patient_id: first.patient_id,
      first_name: 'Sunita',
      last_name: 'Sharma',
      age: 42,
      gender: 'Female',
      phone: '9876501234',
      last_visit: null,
      matched_on: ['mobile'],
    });
  });

  it.each([
    ['case and spaces', { first_name: 'SUNITA ', last_name: ' sharma' }],
    ['another spelling', { first_name: 'Suneeta', last_name: 'Sharma' }],
    ['Devanagari', { first_name: 'सुनीता', last_name: 'शर्मा' }],
    ['an age a year off', { age: 43 }],
  ])('finds her written with %s', async (_what, change) => {
    const res = await lab.admin.post('/api/patients', { ...sunita, ...change });
    expect(res.statusCode).toBe(409);
    expect(res.json().candidates.map((c: { id: number }) => c.id)).toEqual([first.id]);
  });

  it('lets a family share a mobile: another name, another sex or an age far apart is someone new', async () => {
    for (const other of [{ first_name: 'Anita' }, { first_name: 'Sunil', gender: 'Male' }, { age: 12 }]) {
      const res = await lab.admin.post('/api/patients', { ...sunita, ...other });
      expect(res.statusCode, JSON.stringify(other)).toBe(201);
    }
  });

  it('the same known birth date and name with another mobile is a candidate too', async () => {
    const a = await lab.admin.post('/api/patients', {
      first_name: 'Ravi',
      last_name: 'Kumar',
      date_of_birth: '1979-03-05',
      gender: 'Male',
    });
    expect(a.statusCode).toBe(201);
    const res = await lab.admin.post('/api/patients', {
      first_name: 'Ravi',
      last_name: 'Kumar',
      date_of_birth: '1979-03-05',
      phone: '9000000001',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().candidates[0]).toMatchObject({ id: a.json().patient.id, matched_on: ['date_of_birth'] });
  });

  it('confirm_new: true registers the patient, and nothing was stored by the refusals', async () => {
    const before = (await lab.admin.get('/api/patients?search=9876501234&limit=50')).json().total;
    const res = await lab.admin.post('/api/patients', { ...sunita, confirm_new: true });
    expect(res.statusCode).toBe(201);
    expect(res.json().patient.id).not.toBe(first.id);
    expect((await lab.admin.get('/api/patients?search=9876501234&limit=50')).json().total).toBe(before + 1);
  });

  it('Register with Bill answers the same 409, and bills the patient picked instead', async () => {
    const bill = { visit_type: 'lab_only', items: [{ item_type: 'test', item_id: test1 }] };
    const dup = await lab.admin.post('/api/registrations', { ...bill, patient: { ...sunita, first_name: 'sunitha' } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('POSSIBLE_DUPLICATE');
    const picked = await lab.admin.post('/api/registrations', { ...bill, patient_id: first.id });
    expect(picked.statusCode).toBe(201);
    expect(picked.json().patient.id).toBe(first.id);
    expect(picked.json().bill.patient_id).toBe(first.id);
    // The candidate now shows when she was last here.
    const again = (await lab.admin.post('/api/patients', sunita)).json();
    const c = again.candidates.find((x: { id: number }) => x.id === first.id);
    expect(c.last_visit).toBe(picked.json().bill.created_at);
  });

  it('Register with Bill takes one of patient or patient_id', async () => {
    const bill = { visit_type: 'lab_only', items: [{ item_type: 'test', item_id: test1 }] };
    const none = await lab.admin.post('/api/registrations', bill);
    expect(none.statusCode).toBe(400);
    expect(none.json().details[0].path).toBe('patient');
    const both = await lab.admin.post('/api/registrations', { ...bill, patient: sunita, patient_id: first.id });
    expect(both.statusCode).toBe(400);
  });
});
