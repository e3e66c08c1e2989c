import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, pdfText, type TestLab } from '../helpers.js';
import { createPatient } from './support.js';
import { sql } from 'kysely';
import { moveTitlesSql } from '../../src/core/db/migrations/047_person_titles.js';
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

  it('moves a title saved in the first name before titles were a field, as the migration does', async () => {
    const ids: Record<string, number> = {};
    for (const [key, email] of [
      ['dr', 'old-dr@lab.test'],
      ['mrs', 'old-mrs@lab.test'],
      ['alone', 'old-alone@lab.test'],
      ['name', 'old-name@lab.test'],
    ] as const) {
      const res = await lab.admin.post('/api/users', staff({ first_name: 'Asha', email }));
      expect(res.statusCode, res.body).toBe(201);
      ids[key] = res.json().user.id as number;
    }
    // As such accounts were stored: the title typed into the first name, no title.
    const old = { dr: 'dr. Asha', mrs: 'Mrs Latha', alone: 'Dr', name: 'Drishti' };
    for (const [key, first] of Object.entries(old))
      await lab.database.db
        .updateTable('users')
        .set({ first_name: first, title: null })
        .where('id', '=', ids[key]!)
        .execute();
    for (const statement of moveTitlesSql.split('\n')) await sql.raw(statement).execute(lab.database.db);
    const rows = await lab.database.db
      .selectFrom('users')
      .select(['id', 'title', 'first_name'])
      .where('id', 'in', Object.values(ids))
      .execute();
    const byId = new Map(rows.map((r) => [r.id, { title: r.title, first_name: r.first_name }]));
    expect(byId.get(ids.dr!)).toEqual({ title: 'Dr', first_name: 'Asha' });
    expect(byId.get(ids.mrs!)).toEqual({ title: 'Mrs', first_name: 'Latha' });
    // A title alone, or a name that begins like one, stays the name.
    expect(byId.get(ids.alone!)).toEqual({ title: null, first_name: 'Dr' });
    expect(byId.get(ids.name!)).toEqual({ title: null, first_name: 'Drishti' });
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
