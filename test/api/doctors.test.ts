import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, login, makeLab, type Client, type TestLab } from '../helpers.js';
import { rows } from '../db.js';
import {
  auditRowsFor,
  badFields,
  createPatient,
  errorBody,
  otherLabAdmin,
  uniqueEmail,
  uniqueWord,
} from './support.js';
import { localDate } from '../../src/shared/time.js';
import type { Doctor, DoctorAnalytics, DoctorPage, DoctorSummary } from '../../src/shared/schemas/doctors.js';
import type { User } from '../../src/shared/schemas/users.js';
import type { Bill } from '../../src/shared/schemas/bills.js';

let lab: TestLab;
let testA: number;
let testB: number;

beforeAll(async () => {
  lab = await makeLab();
  testA = (await lab.admin.post('/api/tests', { name: 'Haemoglobin', code: 'HBX', price: 150 })).json().test.id;
  testB = (await lab.admin.post('/api/tests', { name: 'Lipid Panel', code: 'LPX', price: 420.5 })).json().test.id;
});
afterAll(() => lab.close());

function doctorBody(overrides: Record<string, unknown> = {}) {
  return {
    first_name: uniqueWord('Dr'),
    last_name: uniqueWord('Rao'),
    phone: '+91 98450 12345',
    specialization: 'Cardiology',
    qualification: 'MBBS, MD',
    experience_years: 12,
    consultation_fee: 500,
    registration_number: 'KMC 45821',
    ...overrides,
  };
}

async function addDoctor(as: Client, overrides: Record<string, unknown> = {}): Promise<Doctor> {
  const res = await as.post('/api/doctors', doctorBody(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ doctor: Doctor }>().doctor;
}

function listOf(res: { statusCode: number; body: string; json: <T>() => T }): DoctorPage {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<DoctorPage>();
}

async function bill(doctorId: number, items: { id: number; qty: number }[], patientId?: number): Promise<Bill> {
  const patient = patientId ?? (await createPatient(lab.admin)).id;
  const res = await lab.admin.post('/api/bills', {
    patient_id: patient,
    doctor_id: doctorId,
    items: items.map((i) => ({ item_type: 'test', item_id: i.id, qty: i.qty })),
    payment_method: 'cash',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ bill: Bill }>().bill;
}

describe('a doctor is a user record with the role doctor', () => {
  it('creates a referring doctor without email or sign-in; fee in rupees, paise in the database', async () => {
    const d = await addDoctor(lab.admin, { consultation_fee: 350.75 });
    expect(d).toMatchObject({
      email: null,
      can_sign_in: false,
      status: 'active',
      specialization: 'Cardiology',
      qualification: 'MBBS, MD',
      experience_years: 12,
      consultation_fee: 350.75,
      registration_number: 'KMC 45821',
      referrals: 0,
    });
    const [stored] = await rows<{ role: string; consultation_fee_paise: number; password_hash: string; email: string }>(
      lab.database,
      'SELECT role, consultation_fee_paise, password_hash, email FROM users WHERE id = ?',
      d.id,
    );
    expect(stored).toMatchObject({ role: 'doctor', password_hash: '' });
    expect(Number(stored!.consultation_fee_paise)).toBe(35075);
    expect(stored!.email).toBe(`doctor-${d.id}@no-email.invalid`);
    expect((await lab.admin.get(`/api/doctors/${d.id}`)).json<{ doctor: Doctor }>().doctor).toEqual(d);
    const audit = await auditRowsFor(lab, 'doctor', d.id);
    expect(audit.map((a) => a.action)).toEqual(['create']);
  });

  it('the spec contract holds: GET /api/users?role=doctor lists them, and a bill takes their id as doctor_id', async () => {
    const d = await addDoctor(lab.admin, { consultation_fee: 400 });
    const users = (await lab.admin.get('/api/users?role=doctor')).json<{ users: User[] }>().users;
    expect(users.find((u) => u.id === d.id)).toMatchObject({
      role: 'doctor',
      first_name: d.first_name,
      specialization: 'Cardiology',
      consultation_fee: 400,
    });
    const b = await bill(d.id, [{ id: testA, qty: 1 }]);
    expect(b.doctor_id).toBe(d.id);
    expect(b.final_amount).toBe(550);
    // The OP Bill picker offers them too.
    const options = (await lab.admin.get('/api/doctors/options')).json<{ doctors: User[] }>().doctors;
    expect(options.map((o) => o.id)).toContain(d.id);
  });

  it('a doctor without sign-in is refused at /api/auth/login, even with their email and any password', async () => {
    const email = uniqueEmail('referrer');
    const d = await addDoctor(lab.admin, { email });
    expect(d).toMatchObject({ email, can_sign_in: false });
    const res = await lab.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: '' } });
    expect(res.statusCode).toBe(400);
    const res2 = await lab.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'anything-at-all' },
    });
    expect(res2.statusCode).toBe(401);
    expect(errorBody(res2).message).toBe('Invalid email or password');
    const failed = await rows<{ new_values: string }>(
      lab.database,
      "SELECT new_values FROM audit_log WHERE entity = 'session' AND user_id = ? AND status = 'failed'",
      d.id,
    );
    expect(failed.map((r) => JSON.parse(r.new_values))).toEqual([{ reason: 'no sign-in' }]);
  });

  it('sign-in can be turned on with an email and a password, and off again (sessions end)', async () => {
    const d = await addDoctor(lab.admin);
    const email = uniqueEmail('drsign');
    expect(badFields(await lab.admin.put(`/api/doctors/${d.id}`, { can_sign_in: true }))).toEqual(['email']);
    expect(badFields(await lab.admin.put(`/api/doctors/${d.id}`, { can_sign_in: true, email }))).toEqual(['password']);
    expect(
      badFields(await lab.admin.put(`/api/doctors/${d.id}`, { can_sign_in: true, email, password: 'short' })),
    ).toEqual(['password']);
    const on = await lab.admin.put(`/api/doctors/${d.id}`, { can_sign_in: true, email, password: 'stethoscope-22' });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json<{ doctor: Doctor }>().doctor).toMatchObject({ email, can_sign_in: true });
    const cookie = await login(lab.app, email, 'stethoscope-22');
    const asDoctor = client(lab.app, cookie, d.id, email);
    expect((await asDoctor.get('/api/auth/me')).statusCode).toBe(200);

    const audit = await auditRowsFor(lab, 'doctor', d.id);
    expect(audit.at(-1)!.new_values).not.toMatch(/stethoscope|scrypt/);

    const off = await lab.admin.put(`/api/doctors/${d.id}`, { can_sign_in: false });
    expect(off.json<{ doctor: Doctor }>().doctor.can_sign_in).toBe(false);
    expect((await asDoctor.get('/api/auth/me')).statusCode).toBe(401);
    const again = await lab.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'stethoscope-22' },
    });
    expect(again.statusCode).toBe(401);
  });

  it('creates a doctor who signs in when the password comes in the same request', async () => {
    expect(badFields(await lab.admin.post('/api/doctors', doctorBody({ can_sign_in: true })))).toEqual([
      'email',
      'password',
    ]);
    const email = uniqueEmail('drlogin');
    const d = await addDoctor(lab.admin, { can_sign_in: true, email, password: 'microscope-77' });
    expect(d.can_sign_in).toBe(true);
    expect(await login(lab.app, email, 'microscope-77')).toMatch(/^lims_session=/);
  });

  it('updates fields (PUT accepts what GET returned) and keeps the users row in step', async () => {
    const d = await addDoctor(lab.admin);
    const res = await lab.admin.put(`/api/doctors/${d.id}`, {
      ...d,
      specialization: 'neurology',
      experience_years: '15',
      consultation_fee: 650,
      qualification: 'MBBS, DM (Neurology)',
      registration_number: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json<{ doctor: Doctor }>().doctor;
    // A specialization of the common list is stored with its spelling.
    expect(after).toMatchObject({
      specialization: 'Neurology',
      experience_years: 15,
      consultation_fee: 650,
      qualification: 'MBBS, DM (Neurology)',
      registration_number: null,
      email: null,
      referrals: 0,
    });
    const user = (await lab.admin.get(`/api/users/${d.id}`)).json<{ user: User }>().user;
    expect(user).toMatchObject({ specialization: 'Neurology', consultation_fee: 650 });
    const audit = await auditRowsFor(lab, 'doctor', d.id);
    expect(JSON.parse(audit.at(-1)!.new_values!)).toMatchObject({ specialization: 'Neurology', experience_years: 15 });
  });

  it('a doctor added on the Users screen is managed here too (its profile is made on first save)', async () => {
    const u = (
      await lab.admin.post('/api/users', {
        first_name: 'Users',
        last_name: uniqueWord('Screen'),
        email: uniqueEmail('usersdoc'),
        role: 'doctor',
        password: 'a-good-password-1',
      })
    ).json<{ user: User }>().user;
    const got = (await lab.admin.get(`/api/doctors/${u.id}`)).json<{ doctor: Doctor }>().doctor;
    expect(got).toMatchObject({ email: u.email, can_sign_in: true, status: 'active', qualification: null });
    const res = await lab.admin.put(`/api/doctors/${u.id}`, { qualification: 'MBBS', status: 'suspended' });
    expect(res.json<{ doctor: Doctor }>().doctor).toMatchObject({ qualification: 'MBBS', status: 'suspended' });
    // A technician is no doctor: 404 here.
    const tech = (
      await lab.admin.post('/api/users', {
        first_name: 'Tech',
        last_name: 'Nician',
        email: uniqueEmail('tech'),
        role: 'technician',
        password: 'a-good-password-1',
      })
    ).json<{ user: User }>().user;
    expect((await lab.admin.get(`/api/doctors/${tech.id}`)).statusCode).toBe(404);
  });
});

describe('status', () => {
  it('inactive, suspended and pending doctors cannot be billed; active again they can', async () => {
    const d = await addDoctor(lab.admin);
    const patient = await createPatient(lab.admin);
    for (const status of ['inactive', 'suspended', 'pending'] as const) {
      const res = await lab.admin.put(`/api/doctors/${d.id}`, { status });
      expect(res.json<{ doctor: Doctor }>().doctor.status).toBe(status);
      const b = await lab.admin.post('/api/bills', {
        patient_id: patient.id,
        doctor_id: d.id,
        items: [{ item_type: 'test', item_id: testA }],
      });
      expect(badFields(b)).toEqual(['doctor_id']);
      const options = (await lab.admin.get('/api/doctors/options')).json<{ doctors: User[] }>().doctors;
      expect(options.map((o) => o.id)).not.toContain(d.id);
    }
    await lab.admin.put(`/api/doctors/${d.id}`, { status: 'active' });
    await bill(d.id, [{ id: testA, qty: 1 }], patient.id);
  });

  it('deactivating on the Users screen shows as inactive here', async () => {
    const d = await addDoctor(lab.admin);
    expect((await lab.admin.delete(`/api/users/${d.id}`)).statusCode).toBe(200);
    expect((await lab.admin.get(`/api/doctors/${d.id}`)).json<{ doctor: Doctor }>().doctor.status).toBe('inactive');
  });
});

describe('delete', () => {
  it('erases a doctor nothing refers to', async () => {
    const d = await addDoctor(lab.admin);
    const res = await lab.admin.delete(`/api/doctors/${d.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect((await lab.admin.get(`/api/doctors/${d.id}`)).statusCode).toBe(404);
    expect(await rows(lab.database, 'SELECT user_id FROM doctor_profiles WHERE user_id = ?', d.id)).toEqual([]);
    expect((await auditRowsFor(lab, 'doctor', d.id)).map((a) => a.action)).toEqual(['create', 'delete']);
  });

  it('is refused with 409 while a bill (even a cancelled one) names the doctor: deactivate instead', async () => {
    const d = await addDoctor(lab.admin);
    const b = await bill(d.id, [{ id: testA, qty: 1 }]);
    await lab.admin.put(`/api/bills/${b.id}`, { status: 'cancelled', cancel_reason: 'Entered twice' });
    const res = await lab.admin.delete(`/api/doctors/${d.id}`);
    expect(res.statusCode).toBe(409);
    expect(errorBody(res)).toMatchObject({ code: 'DOCTOR_HAS_BILLS' });
    expect(errorBody(res).message).toMatch(/named on 1 bill .*deactivate/);
    expect((await lab.admin.get(`/api/doctors/${d.id}`)).statusCode).toBe(200);
  });

  it('is refused with 409 when another record (a booked visit) names the doctor', async () => {
    const d = await addDoctor(lab.admin);
    const p = await createPatient(lab.admin);
    const visit = await lab.admin.post(`/api/patients/${p.id}/visits`, {
      doctor_id: d.id,
      visit_date: localDate('Asia/Kolkata'),
    });
    expect(visit.statusCode, visit.body).toBe(201);
    const res = await lab.admin.delete(`/api/doctors/${d.id}`);
    expect(res.statusCode, res.body).toBe(409);
    expect(errorBody(res).code).toBe('DOCTOR_IN_USE');
    expect((await lab.admin.get(`/api/doctors/${d.id}`)).statusCode).toBe(200);
    expect((await auditRowsFor(lab, 'doctor', d.id)).map((a) => a.action)).toEqual(['create']);
  });
});

describe('list', () => {
  it('searches, filters by specialization and status, and pages', async () => {
    const tag = uniqueWord('Zq');
    const made: Doctor[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(
        await addDoctor(lab.admin, {
          first_name: `${tag}${String.fromCharCode(97 + i)}`,
          specialization: i < 3 ? 'Pediatrics' : 'Orthopedics',
          registration_number: `TNMC ${tag}${i}`,
        }),
      );
    }
    await lab.admin.put(`/api/doctors/${made[4]!.id}`, { status: 'suspended' });

    const all = listOf(await lab.admin.get(`/api/doctors?search=${tag.toUpperCase()}&limit=2`));
    expect(all).toMatchObject({ total: 5, totalPages: 3, currentPage: 1, hasNextPage: true, hasPrevPage: false });
    expect(all.doctors.map((d) => d.id)).toEqual([made[0]!.id, made[1]!.id]);
    const last = listOf(await lab.admin.get(`/api/doctors?search=${tag}&limit=2&page=3`));
    expect(last.doctors.map((d) => d.id)).toEqual([made[4]!.id]);
    expect(last).toMatchObject({ hasNextPage: false, hasPrevPage: true });

    const peds = listOf(await lab.admin.get(`/api/doctors?search=${tag}&specialization=pediatrics`));
    expect(peds.doctors.map((d) => d.id)).toEqual(made.slice(0, 3).map((d) => d.id));
    const suspended = listOf(await lab.admin.get(`/api/doctors?search=${tag}&status=suspended`));
    expect(suspended.doctors.map((d) => d.id)).toEqual([made[4]!.id]);
    const activeOrtho = listOf(
      await lab.admin.get(`/api/doctors?search=${tag}&specialization=Orthopedics&status=active`),
    );
    expect(activeOrtho.doctors.map((d) => d.id)).toEqual([made[3]!.id]);
    // The registration number is searched too; "all" means no filter.
    const byReg = listOf(await lab.admin.get(`/api/doctors?search=${encodeURIComponent(`TNMC ${tag}2`)}&status=all`));
    expect(byReg.doctors.map((d) => d.id)).toEqual([made[2]!.id]);
  });

  it('each row carries its referrals (cancelled bills left out)', async () => {
    const d = await addDoctor(lab.admin, { first_name: uniqueWord('Ref') });
    await bill(d.id, [{ id: testA, qty: 1 }]);
    const second = await bill(d.id, [{ id: testB, qty: 1 }]);
    const cancelled = await bill(d.id, [{ id: testB, qty: 1 }]);
    await lab.admin.put(`/api/bills/${cancelled.id}`, { status: 'cancelled', cancel_reason: 'Wrong patient' });
    const row = listOf(await lab.admin.get(`/api/doctors?search=${d.first_name}`)).doctors[0]!;
    expect(row.referrals).toBe(2);
    expect(row.last_referral_at).toBe(second.created_at);
  });
});

describe('summary and analytics come from the bills', () => {
  it('cards count doctors by status, specializations and this month’s referrals', async () => {
    const before = (await lab.admin.get('/api/doctors/summary')).json<{ summary: DoctorSummary }>().summary;
    const spec = `Nephrology ${uniqueWord('Sp')}`;
    const a = await addDoctor(lab.admin, { specialization: spec });
    await addDoctor(lab.admin, { specialization: spec, status: 'pending' });
    await bill(a.id, [{ id: testA, qty: 1 }]);
    const after = (await lab.admin.get('/api/doctors/summary')).json<{ summary: DoctorSummary }>().summary;
    expect(after.total - before.total).toBe(2);
    expect(after.active - before.active).toBe(1);
    expect(after.pending - before.pending).toBe(1);
    expect(after.referrals_this_month - before.referrals_this_month).toBe(1);
    expect(after.specializations.find((s) => s.specialization === spec)).toEqual({ specialization: spec, doctors: 2 });
    expect(after.total).toBe(after.active + after.inactive + after.suspended + after.pending);
  });

  it('analytics add up to what the bills of the range add up to; cancelled bills and other days are left out', async () => {
    // A lab of its own, so the figures are exactly this test's bills.
    const own = await makeLab();
    try {
      const a = own.admin;
      const t1 = (await a.post('/api/tests', { name: 'CBC', code: 'CBC1', price: 300 })).json().test.id as number;
      const t2 = (await a.post('/api/tests', { name: 'TSH', code: 'TSH1', price: 250.5 })).json().test.id as number;
      const make = async (body: Record<string, unknown>) =>
        (await a.post('/api/doctors', doctorBody(body))).json<{ doctor: Doctor }>().doctor;
      const cardio = await make({ specialization: 'Cardiology', consultation_fee: 500 });
      const cardio2 = await make({ specialization: 'Cardiology', consultation_fee: 0 });
      const peds = await make({ specialization: 'Pediatrics', consultation_fee: 200 });
      await make({ specialization: null });
      const p1 = (
        await a.post('/api/patients', { first_name: 'Asha', last_name: 'K', date_of_birth: '1990-01-01' })
      ).json().patient.id as number;
      const p2 = (
        await a.post('/api/patients', { first_name: 'Ravi', last_name: 'M', date_of_birth: '1980-01-01' })
      ).json().patient.id as number;
      const billOf = async (doctor: number, patient: number, items: [number, number][]) => {
        const res = await a.post('/api/bills', {
          patient_id: patient,
          doctor_id: doctor,
          items: items.map(([id, qty]) => ({ item_type: 'test', item_id: id, qty, discount_percent: 5 })),
          discount_percentage: 10,
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json<{ bill: Bill }>().bill;
      };
      const b1 = await billOf(cardio.id, p1, [
        [t1, 2],
        [t2, 1],
      ]);
      const b2 = await billOf(cardio.id, p1, [[t2, 3]]);
      const b3 = await billOf(cardio2.id, p2, [[t1, 1]]);
      const b4 = await billOf(peds.id, p2, [
        [t1, 1],
        [t2, 1],
      ]);
      const cancelled = await billOf(peds.id, p1, [[t1, 4]]);
      expect(
        (await a.put(`/api/bills/${cancelled.id}`, { status: 'cancelled', cancel_reason: 'Test' })).statusCode,
      ).toBe(200);
      // A bill of last year is outside this month's range.
      const old = await billOf(cardio.id, p2, [[t1, 1]]);
      await own.database.db
        .updateTable('bills')
        .set({ created_at: '2020-03-10T06:00:00.000Z' })
        .where('id', '=', old.id)
        .execute();

      const today = localDate('Asia/Kolkata');
      const res = await a.get(`/api/doctors/analytics?from=${today.slice(0, 8)}01&to=${today}`);
      expect(res.statusCode, res.body).toBe(200);
      const an = res.json<{ analytics: DoctorAnalytics }>().analytics;
      const sum = (bs: Bill[]) => Math.round(bs.reduce((n, b) => n + b.final_amount * 100, 0)) / 100;

      expect(an.totals).toEqual({
        referrals: 4,
        patients: 2,
        tests: 2 + 1 + 3 + 1 + 1 + 1,
        revenue: sum([b1, b2, b3, b4]),
        doctors: 3,
      });
      expect(an.top_doctors.map((d) => [d.id, d.referrals, d.patients, d.tests, d.revenue])).toEqual(
        [
          [cardio.id, 2, 1, 6, sum([b1, b2])],
          [peds.id, 1, 1, 2, sum([b4])],
          [cardio2.id, 1, 1, 1, sum([b3])],
        ].sort((x, y) => (y[4] as number) - (x[4] as number)),
      );
      expect(an.specializations).toEqual(
        expect.arrayContaining([
          { specialization: 'Cardiology', doctors: 2, referrals: 3, patients: 2, tests: 7, revenue: sum([b1, b2, b3]) },
          { specialization: 'Pediatrics', doctors: 1, referrals: 1, patients: 1, tests: 2, revenue: sum([b4]) },
          { specialization: null, doctors: 1, referrals: 0, patients: 0, tests: 0, revenue: 0 },
        ]),
      );
      // The old bill counts in its own range, and only there.
      const then = (await a.get('/api/doctors/analytics?from=2020-03-10&to=2020-03-10')).json<{
        analytics: DoctorAnalytics;
      }>().analytics;
      expect(then.totals).toEqual({ referrals: 1, patients: 1, tests: 1, revenue: sum([old]), doctors: 1 });
      // The summary card agrees with the month's range.
      const summary = (await a.get('/api/doctors/summary')).json<{ summary: DoctorSummary }>().summary;
      expect(summary.referrals_this_month).toBe(4);
      expect(summary).toMatchObject({ total: 4, active: 4, specializations: expect.any(Array) });

      expect(badFields(await a.get('/api/doctors/analytics?from=2026-05-10&to=2026-05-01'))).toEqual(['from']);
      expect(badFields(await a.get('/api/doctors/analytics?from=2026-02-30'))).toEqual(['from']);
    } finally {
      await own.close();
    }
  });
});

describe('bad input is refused with the field named', () => {
  it.each([
    ['consultation_fee', { consultation_fee: -5 }],
    ['consultation_fee', { consultation_fee: 10.555 }],
    ['experience_years', { experience_years: 2.5 }],
    ['experience_years', { experience_years: -1 }],
    ['experience_years', { experience_years: '0x10' }],
    ['status', { status: 'retired' }],
    ['email', { email: 'not-an-email' }],
    ['email', { email: 'someone@no-email.invalid' }],
    ['first_name', { first_name: '   ' }],
    ['phone', { phone: 'call me' }],
    ['registration_number', { registration_number: 'KMC#1' }],
    ['can_sign_in', { can_sign_in: 'yes' }],
  ])('%s: %j', async (field, body) => {
    const before = listOf(await lab.admin.get('/api/doctors?limit=1')).total;
    expect(badFields(await lab.admin.post('/api/doctors', doctorBody(body)))).toEqual([field]);
    expect(listOf(await lab.admin.get('/api/doctors?limit=1')).total).toBe(before);
  });

  it('PUT refuses the same, and leaves the doctor as it was', async () => {
    const d = await addDoctor(lab.admin);
    expect(badFields(await lab.admin.put(`/api/doctors/${d.id}`, { consultation_fee: -1 }))).toEqual([
      'consultation_fee',
    ]);
    expect(badFields(await lab.admin.put(`/api/doctors/${d.id}`, { status: 'gone' }))).toEqual(['status']);
    expect((await lab.admin.get(`/api/doctors/${d.id}`)).json<{ doctor: Doctor }>().doctor).toEqual(d);
  });

  it('list filters: unknown status 400', async () => {
    expect(badFields(await lab.admin.get('/api/doctors?status=retired'))).toEqual(['status']);
    expect(badFields(await lab.admin.get('/api/doctors?limit=0'))).toEqual(['limit']);
  });

  it('a duplicate email is 409, whether it belongs to a doctor or any other user', async () => {
    const email = uniqueEmail('dup');
    await addDoctor(lab.admin, { email });
    const again = await lab.admin.post('/api/doctors', doctorBody({ email: email.toUpperCase() }));
    expect(again.statusCode).toBe(409);
    expect(errorBody(again).code).toBe('EMAIL_TAKEN');
    const staff = await lab.admin.post('/api/doctors', doctorBody({ email: 'admin@lab.test' }));
    expect(staff.statusCode).toBe(409);
    const other = await addDoctor(lab.admin);
    expect((await lab.admin.put(`/api/doctors/${other.id}`, { email })).statusCode).toBe(409);
  });

  it('an unknown id is 404', async () => {
    expect((await lab.admin.get('/api/doctors/987654')).statusCode).toBe(404);
    expect((await lab.admin.put('/api/doctors/987654', { qualification: 'MD' })).statusCode).toBe(404);
    expect((await lab.admin.delete('/api/doctors/987654')).statusCode).toBe(404);
  });
});

describe('permissions', () => {
  it('a receptionist reads doctors (the OP Bill picker) but cannot create, change or delete them', async () => {
    const d = await addDoctor(lab.admin);
    const rec = await lab.as('receptionist');
    expect((await rec.get('/api/doctors')).statusCode).toBe(200);
    expect((await rec.get(`/api/doctors/${d.id}`)).statusCode).toBe(200);
    expect((await rec.get('/api/doctors/options')).statusCode).toBe(200);
    expect((await rec.get('/api/doctors/summary')).statusCode).toBe(200);
    expect((await rec.post('/api/doctors', doctorBody())).statusCode).toBe(403);
    expect((await rec.put(`/api/doctors/${d.id}`, { qualification: 'x' })).statusCode).toBe(403);
    expect((await rec.delete(`/api/doctors/${d.id}`)).statusCode).toBe(403);
  });

  it('revenue analytics need view_bills as well: a lab technician (view_users only) is refused', async () => {
    const tech = await lab.as('lab_technician');
    expect((await tech.get('/api/doctors')).statusCode).toBe(200);
    expect((await tech.get('/api/doctors/analytics')).statusCode).toBe(403);
    const billing = await lab.as('billing_staff');
    expect((await billing.get('/api/doctors/analytics')).statusCode).toBe(200);
  });

  it('a doctor (no view_users) cannot list doctors; a lab manager can read but not manage', async () => {
    expect((await (await lab.as('doctor')).get('/api/doctors')).statusCode).toBe(403);
    const mgr = await lab.as('lab_manager');
    expect((await mgr.get('/api/doctors')).statusCode).toBe(200);
    expect((await mgr.post('/api/doctors', doctorBody())).statusCode).toBe(403);
  });

  it('without a session: 401', async () => {
    expect((await lab.app.inject({ method: 'GET', url: '/api/doctors' })).statusCode).toBe(401);
  });
});

describe('tenant isolation', () => {
  it("another lab's doctor is 404 everywhere and never listed, counted or analysed", async () => {
    const { admin: other } = await otherLabAdmin(lab);
    const tag = uniqueWord('Far');
    const foreign = await addDoctor(other, { first_name: tag, specialization: `Tropical ${tag}` });

    expect((await lab.admin.get(`/api/doctors/${foreign.id}`)).statusCode).toBe(404);
    expect((await lab.admin.put(`/api/doctors/${foreign.id}`, { qualification: 'MD' })).statusCode).toBe(404);
    expect((await lab.admin.delete(`/api/doctors/${foreign.id}`)).statusCode).toBe(404);
    expect(listOf(await lab.admin.get(`/api/doctors?search=${tag}`)).total).toBe(0);
    const summary = (await lab.admin.get('/api/doctors/summary')).json<{ summary: DoctorSummary }>().summary;
    expect(summary.specializations.map((s) => s.specialization)).not.toContain(`Tropical ${tag}`);
    const options = (await lab.admin.get('/api/doctors/options')).json<{ doctors: User[] }>().doctors;
    expect(options.map((o) => o.id)).not.toContain(foreign.id);
    // Our lab cannot bill the other lab's doctor, and the other lab sees none of ours.
    const p = await createPatient(lab.admin);
    const b = await lab.admin.post('/api/bills', {
      patient_id: p.id,
      doctor_id: foreign.id,
      items: [{ item_type: 'test', item_id: testA }],
    });
    expect(badFields(b)).toEqual(['doctor_id']);
    expect(listOf(await other.get('/api/doctors')).doctors.map((d) => d.id)).toEqual([foreign.id]);
    const theirs = (await other.get('/api/doctors/analytics')).json<{ analytics: DoctorAnalytics }>().analytics;
    expect(theirs.totals).toEqual({ referrals: 0, patients: 0, tests: 0, revenue: 0, doctors: 0 });
  });
});
