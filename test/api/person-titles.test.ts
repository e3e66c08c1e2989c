import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, pdfText, type TestLab } from '../helpers.js';
import { createPatient } from './support.js';
import { doctorName } from '../../src/core/doctors/mappers.js';

/** Titles (Dr, Prof, Mr, ...) are a field of their own, never the first word of the first name. */
let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

const staff = (extra: Record<string, unknown>) => ({
  last_name: 'Kulkarni',
  role: 'lab_technician',
  password: 'Bench-work-2026',
  ...extra,
});

describe('a staff member with a title', () => {
  it('keeps the title apart: given as "Dr." or typed in front of the first name', async () => {
    const given = await lab.admin.post(
      '/api/users',
      staff({ title: 'Dr.', first_name: 'Meena', email: 'meena@lab.test' }),
    );
    expect(given.statusCode, given.body).toBe(201);
    expect(given.json().user).toMatchObject({ title: 'Dr', first_name: 'Meena', last_name: 'Kulkarni' });

    const typed = await lab.admin.post('/api/users', staff({ first_name: 'Prof. Ravi', email: 'ravi@lab.test' }));
    expect(typed.statusCode, typed.body).toBe(201);
    expect(typed.json().user).toMatchObject({ title: 'Prof', first_name: 'Ravi' });

    // A first name that only looks like a title stays a name.
    const plain = await lab.admin.post('/api/users', staff({ first_name: 'Mrinal', email: 'mrinal@lab.test' }));
    expect(plain.json().user).toMatchObject({ title: null, first_name: 'Mrinal' });

    const id = typed.json().user.id as number;
    const changed = await lab.admin.put(`/api/users/${id}`, { title: '' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().user).toMatchObject({ title: null, first_name: 'Ravi' });
  });

  it('refuses a title lims does not know, naming the field', async () => {
    const res = await lab.admin.post('/api/users', staff({ title: 'Sir', first_name: 'A', email: 'a@lab.test' }));
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('title');
    expect(res.body).toContain('Title must be one of Dr, Prof, Mr, Mrs, Ms, Miss');
  });
});

describe('a doctor with a title', () => {
  it('"Dr. Meena" as the first name is Dr Meena, shown once as "Dr. Meena Kulkarni"', async () => {
    const res = await lab.admin.post('/api/doctors', {
      first_name: 'Dr. Meena',
      last_name: 'Kulkarni',
      status: 'active',
    });
    expect(res.statusCode, res.body).toBe(201);
    const doctor = res.json().doctor as { title: string | null; first_name: string; last_name: string };
    expect(doctor).toMatchObject({ title: 'Dr', first_name: 'Meena' });
    expect(doctorName(doctor)).toBe('Dr. Meena Kulkarni');
    // A professor is called so; a doctor without a title is Dr. as before.
    expect(doctorName({ title: 'Prof', first_name: 'Ravi', last_name: 'Rao' })).toBe('Prof. Ravi Rao');
    expect(doctorName({ title: null, first_name: 'Ravi', last_name: 'Rao' })).toBe('Dr. Ravi Rao');
  });
});

describe("a doctor's own title where lims names them", () => {
  it('prints "Prof. Ravi Rao" on the bill, not "Dr. Ravi Rao", and "Dr." for a doctor without a title', async () => {
    const test = (
      await lab.admin.post('/api/tests', { name: 'Serum Calcium', code: 'CA', price: 250, category: 'Biochemistry' })
    ).json().test.id as number;
    const doctorOf = async (title: string | null, first: string) => {
      const res = await lab.admin.post('/api/doctors', {
        title,
        first_name: first,
        last_name: 'Rao',
        status: 'active',
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().doctor.id as number;
    };
    const billText = async (doctorId: number) => {
      const patient = await createPatient(lab.admin);
      const bill = await lab.admin.post('/api/bills', {
        patient_id: patient.id,
        doctor_id: doctorId,
        items: [{ item_type: 'test', item_id: test }],
      });
      expect(bill.statusCode, bill.body).toBe(201);
      const pdf = await lab.admin.get(`/api/bills/${bill.json().bill.id}/pdf`);
      expect(pdf.statusCode).toBe(200);
      return pdfText(pdf);
    };
    const professor = await billText(await doctorOf('Prof', 'Ravi'));
    expect(professor).toContain('Prof. Ravi Rao');
    expect(professor).not.toContain('Dr. Ravi Rao');
    expect(await billText(await doctorOf(null, 'Kiran'))).toContain('Dr. Kiran Rao');
  });
});
