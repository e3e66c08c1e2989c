import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import type { Patient } from '../../src/shared/schemas/patients.js';
import { localDate as labDate } from '../../src/shared/time.js';
import { badFields, createPatient, errorBody, localDate, patientBody, uniquePhone } from './support.js';

let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

const one = (body: string) => (JSON.parse(body) as { patient: Patient }).patient;

const FULL_REGISTRATION = {
  gender: 'Female',
  email: 'meera.iyer@example.com',
  address: '14 Residency Road',
  city: 'Bengaluru',
  state: 'Karnataka',
  pincode: '560025',
  emergency_contact: 'Ravi Iyer',
  emergency_phone: '+91 98450 00011',
  emergency_relation: 'Spouse',
  blood_group: 'B+',
  allergies: 'Penicillin',
  medical_history: 'Type 2 diabetes since 2015',
  insurance_provider: 'Star Health',
  insurance_number: 'SH-4471-22',
  membership_type: 'premium',
};

describe('registering a patient', () => {
  it('answers 201 with every registration field stored', async () => {
    const body = patientBody({ ...FULL_REGISTRATION, phone: uniquePhone() });
    const res = await lab.admin.post('/api/patients', body);
    expect(res.statusCode).toBe(201);
    const p = one(res.body);
    expect(p).toMatchObject({ ...body, status: 'active' });
    expect(p.id).toBeGreaterThan(0);
  });

  it('gives a patient code PAT + the lab’s date + a 4-digit sequence, unique and increasing', async () => {
    // The lab's day (Asia/Kolkata), read before and after in case the test runs across midnight.
    const days = new Set([labDate('Asia/Kolkata').replace(/-/g, '')]);
    const codes: string[] = [];
    for (let i = 0; i < 3; i += 1) codes.push((await createPatient(lab.admin)).patient_id);
    days.add(labDate('Asia/Kolkata').replace(/-/g, ''));
    const parts = codes.map((c) => /^PAT(\d{8})(\d{4})$/.exec(c));
    for (const m of parts) expect(days).toContain(m?.[1]);
    expect([...codes].sort()).toEqual(codes);
    expect(new Set(codes).size).toBe(3);
    for (let i = 1; i < parts.length; i += 1) {
      if (parts[i]![1] === parts[i - 1]![1]) expect(Number(parts[i]![2])).toBe(Number(parts[i - 1]![2]) + 1);
    }
  });

  it('ignores a client-sent code, id, age and created_at', async () => {
    const res = await lab.admin.post(
      '/api/patients',
      patientBody({ patient_id: 'PAT000000000001', id: 1, age: 99, created_at: '2001-01-01T00:00:00.000Z' }),
    );
    const p = one(res.body);
    expect(res.statusCode).toBe(201);
    expect(p.patient_id).not.toBe('PAT000000000001');
    expect(p.age).not.toBe(99);
    expect(p.created_at.startsWith('2001')).toBe(false);
  });

  it('accepts gender in any letter case and stores the spec’s capitalised value', async () => {
    expect((await createPatient(lab.admin, { gender: 'female' })).gender).toBe('Female');
  });

  it('treats empty optional fields as not given', async () => {
    const p = await createPatient(lab.admin, {
      email: '',
      phone: '',
      pincode: '',
      blood_group: '',
      membership_type: '',
    });
    expect(p).toMatchObject({ email: null, phone: null, pincode: null, blood_group: null, membership_type: 'none' });
  });
});

describe('validation names the bad field', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['missing first name', { first_name: undefined }, 'first_name'],
    ['blank first name', { first_name: '   ' }, 'first_name'],
    ['date of birth not a date', { date_of_birth: '15/06/1985' }, 'date_of_birth'],
    ['date of birth not on the calendar', { date_of_birth: '2021-02-29' }, 'date_of_birth'],
    ['date of birth in the future', { date_of_birth: localDate(-1) }, 'date_of_birth'],
    ['bad email', { email: 'meera@' }, 'email'],
    ['phone with letters', { phone: '98450-ABCDE' }, 'phone'],
    ['phone too short', { phone: '12345' }, 'phone'],
    ['unknown blood group', { blood_group: 'C+' }, 'blood_group'],
    ['unknown membership', { membership_type: 'gold' }, 'membership_type'],
    ['pincode not 6 digits', { pincode: '5600' }, 'pincode'],
    ['unknown gender', { gender: 'robot' }, 'gender'],
    ['unknown emergency relation', { emergency_relation: 'Neighbour' }, 'emergency_relation'],
  ];
  for (const [what, change, field] of cases) {
    it(`refuses a ${what} (400, ${field})`, async () => {
      const before = (await lab.admin.get('/api/patients?limit=1')).json<{ total: number }>().total;
      const res = await lab.admin.post('/api/patients', patientBody(change));
      expect(badFields(res)).toEqual([field]);
      expect(errorBody(res).message).toContain(field);
      expect((await lab.admin.get('/api/patients?limit=1')).json<{ total: number }>().total).toBe(before);
    });
  }

  it('says why a future date of birth is refused', async () => {
    const res = await lab.admin.post('/api/patients', patientBody({ date_of_birth: localDate(-2) }));
    expect(errorBody(res).details?.[0]?.message).toBe('Date of birth cannot be in the future');
  });

  it('accepts a date of birth of today (a newborn), aged 0', async () => {
    expect((await createPatient(lab.admin, { date_of_birth: localDate(0) })).age).toBe(0);
  });
});

describe('reading a patient', () => {
  it('GET answers {patient} with the age computed from the date of birth', async () => {
    const p = await createPatient(lab.admin, { date_of_birth: localDate(40) });
    const res = await lab.admin.get(`/api/patients/${p.id}`);
    expect(res.statusCode).toBe(200);
    expect(one(res.body)).toEqual(p);
    expect(p.age).toBe(40);
  });

  it('counts one year less while this year’s birthday has not come', async () => {
    expect((await createPatient(lab.admin, { date_of_birth: localDate(30, 1) })).age).toBe(29);
    expect((await createPatient(lab.admin, { date_of_birth: localDate(30, -1) })).age).toBe(30);
  });

  it('answers 404 for an unknown id, and 400 for an id that is not a number', async () => {
    const res = await lab.admin.get('/api/patients/987654');
    expect(res.statusCode).toBe(404);
    expect(errorBody(res).message).toBe('Patient 987654 not found');
    expect(badFields(await lab.admin.get('/api/patients/abc'))).toEqual(['id']);
  });
});

describe('updating a patient', () => {
  it('PUT accepts the record exactly as GET returned it, with a field changed', async () => {
    const p = await createPatient(lab.admin, FULL_REGISTRATION);
    const got = one((await lab.admin.get(`/api/patients/${p.id}`)).body);
    const res = await lab.admin.put(`/api/patients/${p.id}`, { ...got, city: 'Mysuru' });
    expect(res.statusCode).toBe(200);
    const updated = one(res.body);
    expect(updated).toEqual({ ...got, city: 'Mysuru', updated_at: updated.updated_at });
  });

  it('ignores server-managed fields in the body', async () => {
    const p = await createPatient(lab.admin, { date_of_birth: '1970-03-03' });
    const res = await lab.admin.put(`/api/patients/${p.id}`, {
      ...p,
      id: p.id + 1000,
      patient_id: 'PAT199901010001',
      age: 3,
      created_at: '1999-01-01T00:00:00.000Z',
      status: 'deleted',
      last_name: 'Changed',
    });
    expect(res.statusCode).toBe(200);
    const after = one((await lab.admin.get(`/api/patients/${p.id}`)).body);
    expect(after).toMatchObject({
      id: p.id,
      patient_id: p.patient_id,
      age: p.age,
      created_at: p.created_at,
      status: 'active',
      last_name: 'Changed',
    });
  });

  it('keeps absent fields, and clears a field sent as empty', async () => {
    const p = await createPatient(lab.admin, { allergies: 'Dust', city: 'Pune' });
    const res = await lab.admin.put(`/api/patients/${p.id}`, { allergies: '' });
    expect(one(res.body)).toMatchObject({ allergies: null, city: 'Pune', first_name: p.first_name });
  });

  it('validates like create, naming the field, and changes nothing', async () => {
    const p = await createPatient(lab.admin);
    expect(badFields(await lab.admin.put(`/api/patients/${p.id}`, { date_of_birth: localDate(-1) }))).toEqual([
      'date_of_birth',
    ]);
    expect(badFields(await lab.admin.put(`/api/patients/${p.id}`, { first_name: '' }))).toEqual(['first_name']);
    expect(one((await lab.admin.get(`/api/patients/${p.id}`)).body)).toEqual(p);
  });

  it('answers 404 for an unknown id', async () => {
    expect((await lab.admin.put('/api/patients/987654', { city: 'Goa' })).statusCode).toBe(404);
  });
});

describe('deleting a patient', () => {
  it('removes the patient: GET then answers 404', async () => {
    const p = await createPatient(lab.admin);
    const res = await lab.admin.delete(`/api/patients/${p.id}`);
    expect(res.statusCode).toBe(200);
    expect(one(res.body).id).toBe(p.id);
    expect((await lab.admin.get(`/api/patients/${p.id}`)).statusCode).toBe(404);
    expect((await lab.admin.delete(`/api/patients/${p.id}`)).statusCode).toBe(404);
  });
});

describe('who may do what with patients', () => {
  it('a receptionist registers and edits patients', async () => {
    const rec = await lab.as('receptionist');
    const p = await createPatient(rec);
    expect((await rec.put(`/api/patients/${p.id}`, { city: 'Chennai' })).statusCode).toBe(200);
  });

  it('a lab technician can view patients but not register, edit or delete them (403)', async () => {
    const tech = await lab.as('lab_technician');
    const p = await createPatient(lab.admin);
    expect((await tech.get('/api/patients')).statusCode).toBe(200);
    expect((await tech.get(`/api/patients/${p.id}`)).statusCode).toBe(200);
    expect((await tech.get('/api/patients/search?search=a')).statusCode).toBe(200);
    expect((await tech.post('/api/patients', patientBody())).statusCode).toBe(403);
    expect((await tech.put(`/api/patients/${p.id}`, { city: 'X' })).statusCode).toBe(403);
    expect((await tech.delete(`/api/patients/${p.id}`)).statusCode).toBe(403);
  });

  it('a doctor views patients but does not register them', async () => {
    const doc = await lab.as('doctor');
    expect((await doc.get('/api/patients')).statusCode).toBe(200);
    expect((await doc.post('/api/patients', patientBody())).statusCode).toBe(403);
  });

  it('an inventory manager cannot see patients at all (403)', async () => {
    const inv = await lab.as('inventory_manager');
    const p = await createPatient(lab.admin);
    expect((await inv.get('/api/patients')).statusCode).toBe(403);
    expect((await inv.get(`/api/patients/${p.id}`)).statusCode).toBe(403);
    expect((await inv.get('/api/patients/search?search=a')).statusCode).toBe(403);
  });
});
