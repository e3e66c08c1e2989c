import { rows } from '../db.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, login, makeLab, type TestLab } from '../helpers.js';
import { createPatient, insertOtherLab, uniqueWord } from './support.js';
import { seedResult, seedSample } from './lab-records.js';
import type { Bill } from '../../src/shared/schemas/bills.js';
import type { PatientHistory, Visit } from '../../src/shared/schemas/history.js';
import { addDays, localDate as labDate } from '../../src/shared/time.js';

let lab: TestLab;
let testId: number;
let test2Id: number;
let doctorId: number;

const sample = (patientId: number, status: 'pending' | 'completed', testIds: number[]) =>
  seedSample(lab.database.db, lab.organizationId, { patientId, status, testIds, prefix: 'SMPHIST' });

const result = (
  sampleId: number,
  patientId: number,
  testId: number,
  value: string,
  flag: 'normal' | 'high',
  status: 'verified' | 'completed',
) =>
  seedResult(lab.database.db, lab.organizationId, {
    sampleId,
    patientId,
    testId,
    value,
    flag,
    status,
    verifiedBy: lab.admin.userId,
  });

async function bill(patientId: number, withDoctor: boolean): Promise<Bill> {
  const res = await lab.admin.post('/api/bills', {
    patient_id: patientId,
    ...(withDoctor ? { doctor_id: doctorId } : {}),
    items: [{ item_type: 'test', item_id: testId }],
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ bill: Bill }>().bill;
}

/** Tomorrow in the lab's calendar (the test lab is in Asia/Kolkata). */
function tomorrow(): string {
  return addDays(labDate('Asia/Kolkata'), 1);
}

beforeAll(async () => {
  lab = await makeLab();
  testId = (
    await lab.admin.post('/api/tests', {
      name: 'Fasting Glucose',
      code: 'FBSH',
      price: 120,
      unit: 'mg/dL',
      normal_range: '70-110',
    })
  ).json().test.id;
  test2Id = (await lab.admin.post('/api/tests', { name: 'Serum Creatinine', code: 'CREH', price: 250 })).json().test.id;
  doctorId = (
    await lab.admin.post('/api/users', {
      first_name: 'Kavita',
      last_name: 'Desai',
      email: 'kavita.history@lab.test',
      role: 'doctor',
      password: 'longpassword1',
      specialization: 'Cardiology',
      consultation_fee: 400,
    })
  ).json().user.id;
});
afterAll(() => lab.close());

describe('GET /api/patients/{id}/history', () => {
  it('answers the patient, every list and totals computed from the real records', async () => {
    const patient = await createPatient(lab.admin, { phone: '98111 22233' });
    const other = await createPatient(lab.admin);
    const doctorBill = await bill(patient.id, true);
    const labBill = await bill(patient.id, false);
    const cancelled = await bill(patient.id, true);
    expect(
      (await lab.admin.put(`/api/bills/${cancelled.id}`, { status: 'cancelled', cancel_reason: 'Entered twice' }))
        .statusCode,
    ).toBe(200);
    await bill(other.id, true);
    const booked = await lab.admin.post(`/api/patients/${patient.id}/visits`, {
      doctor_id: doctorId,
      visit_date: tomorrow(),
      visit_time: '10:30',
      visit_type: 'follow_up',
      chief_complaint: 'Review sugar levels',
    });
    expect(booked.statusCode, booked.body).toBe(201);

    const drawn = await sample(patient.id, 'completed', [testId, test2Id]);
    await sample(patient.id, 'pending', [test2Id]);
    const high = await result(drawn.id, patient.id, testId, '182', 'high', 'verified');
    await result(drawn.id, patient.id, test2Id, '0.9', 'normal', 'completed');
    const otherSample = await sample(other.id, 'completed', [testId]);
    await result(otherSample.id, other.id, testId, '95', 'normal', 'verified');

    const res = await lab.admin.get(`/api/patients/${patient.id}/history`);
    expect(res.statusCode, res.body).toBe(200);
    const h = res.json<PatientHistory>();
    expect(h.patient.patient_id).toBe(patient.patient_id);
    expect(h.totals).toEqual({
      visits: 3,
      test_results: 2,
      samples_collected: 1,
      bills: 3,
      total_amount: doctorBill.final_amount + labBill.final_amount,
    });

    // Visits: the booked appointment (tomorrow) first, then the consultations the two doctor bills recorded.
    expect(h.visits.map((v) => [v.status, v.bill_number])).toEqual([
      ['scheduled', null],
      ['cancelled', cancelled.bill_number],
      ['completed', doctorBill.bill_number],
    ]);
    const consult = h.visits[2]!;
    expect(consult).toMatchObject({
      visit_type: 'consultation',
      visit_date: doctorBill.bill_date,
      doctor_id: doctorId,
      doctor_name: 'Kavita Desai',
      doctor_specialization: 'Cardiology',
      bill_id: doctorBill.id,
    });
    expect(consult.visit_time).toMatch(/^\d{2}:\d{2}$/);
    expect(h.visits[0]).toMatchObject({
      visit_type: 'follow_up',
      visit_time: '10:30',
      chief_complaint: 'Review sugar levels',
    });

    expect(h.test_results.map((r) => r.id)).toContain(high);
    const hr = h.test_results.find((r) => r.id === high)!;
    expect(hr).toMatchObject({
      test_name: 'Fasting Glucose',
      result_value: '182',
      flag: 'high',
      status: 'verified',
      unit: 'mg/dL',
      normal_range: '70-110',
      sample_id: drawn.code,
    });
    expect(h.test_results.every((r) => r.sample_id.startsWith('SMPHIST'))).toBe(true);

    expect(h.samples.find((s) => s.id === drawn.id)?.tests).toEqual(['Fasting Glucose', 'Serum Creatinine']);
    expect(h.bills.map((b) => b.bill_number).sort()).toEqual(
      [doctorBill.bill_number, labBill.bill_number, cancelled.bill_number].sort(),
    );
    expect(h.bills.find((b) => b.id === cancelled.id)).toMatchObject({ status: 'cancelled', payment_status: 'unpaid' });
    expect(h.bills.find((b) => b.id === labBill.id)).toMatchObject({
      total_amount: labBill.final_amount,
      paid_amount: 0,
      payment_method: 'cash',
    });
  });

  it('totals are zero for a new patient', async () => {
    const p = await createPatient(lab.admin);
    const h = (await lab.admin.get(`/api/patients/${p.id}/history`)).json<PatientHistory>();
    expect(h.totals).toEqual({ visits: 0, test_results: 0, samples_collected: 0, bills: 0, total_amount: 0 });
    expect([h.visits, h.test_results, h.samples, h.bills]).toEqual([[], [], [], []]);
  });

  it('paid amounts follow payments', async () => {
    const p = await createPatient(lab.admin);
    const b = await bill(p.id, false);
    await lab.admin.post(`/api/bills/${b.id}/payments`, {
      amount: b.final_amount,
      method: 'upi',
      reference: 'UPI-4417',
    });
    const h = (await lab.admin.get(`/api/patients/${p.id}/history`)).json<PatientHistory>();
    expect(h.bills[0]).toMatchObject({ paid_amount: b.final_amount, status: 'paid', payment_status: 'paid' });
  });

  it("is scoped to the lab: another lab's patient is 404, as is an unknown id", async () => {
    const now = new Date().toISOString();
    const org = { id: await insertOtherLab(lab.database.db) };
    const foreign = await lab.database.db
      .insertInto('patients')
      .values({
        organization_id: org.id,
        patient_code: `PAT${uniqueWord('X').toUpperCase()}`,
        first_name: 'Far',
        last_name: 'Away',
        date_of_birth: '1990-01-01',
        gender: 'Male',
        phone: null,
        email: null,
        address: null,
        city: null,
        state: null,
        pincode: null,
        emergency_contact: null,
        emergency_phone: null,
        emergency_relation: null,
        blood_group: null,
        allergies: null,
        medical_history: null,
        insurance_provider: null,
        insurance_number: null,
        membership_type: 'none',
        created_by: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await lab.admin.get(`/api/patients/${foreign.id}/history`)).statusCode).toBe(404);
    expect((await lab.admin.get(`/api/patients/${foreign.id}/visits`)).statusCode).toBe(404);
    expect((await lab.admin.get('/api/patients/999999/history')).statusCode).toBe(404);
  });

  it('needs view_patients: any signed-in role that has it may read; none without a session', async () => {
    const p = await createPatient(lab.admin);
    const user = await lab.as('user');
    expect((await user.get(`/api/patients/${p.id}/history`)).statusCode).toBe(200);
    const inventory = await lab.as('inventory_manager');
    expect((await inventory.get(`/api/patients/${p.id}/history`)).statusCode).toBe(403);
    expect((await lab.app.inject({ url: `/api/patients/${p.id}/history` })).statusCode).toBe(401);
  });
});

describe('visits', () => {
  it('schedules, completes with findings, and refuses illegal changes', async () => {
    const p = await createPatient(lab.admin);
    const res = await lab.admin.post(`/api/patients/${p.id}/visits`, {
      doctor_id: doctorId,
      visit_date: tomorrow(),
      visit_type: 'consultation',
    });
    expect(res.statusCode, res.body).toBe(201);
    const v = res.json<{ visit: Visit }>().visit;
    expect(v).toMatchObject({ status: 'scheduled', doctor_name: 'Kavita Desai', visit_time: null });

    const early = await lab.admin.put(`/api/visits/${v.id}`, { follow_up_date: '2000-01-01' });
    expect(early.statusCode).toBe(400);
    expect(early.json().details[0].path).toBe('follow_up_date');

    const done = await lab.admin.put(`/api/visits/${v.id}`, {
      status: 'completed',
      diagnosis: 'Type 2 diabetes',
      treatment: 'Metformin 500 mg',
      follow_up_date: tomorrow(),
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<{ visit: Visit }>().visit).toMatchObject({
      status: 'completed',
      diagnosis: 'Type 2 diabetes',
      follow_up_date: tomorrow(),
    });

    expect((await lab.admin.put(`/api/visits/${v.id}`, { status: 'cancelled' })).statusCode).toBe(409);
    const listed = (await lab.admin.get(`/api/patients/${p.id}/visits`)).json<{ visits: Visit[] }>().visits;
    expect(listed.map((x) => x.id)).toEqual([v.id]);

    const second = (
      await lab.admin.post(`/api/patients/${p.id}/visits`, { doctor_id: doctorId, visit_date: tomorrow() })
    ).json<{ visit: Visit }>().visit;
    expect((await lab.admin.put(`/api/visits/${second.id}`, { status: 'cancelled' })).json().visit.status).toBe(
      'cancelled',
    );
    expect((await lab.admin.put(`/api/visits/${second.id}`, { diagnosis: 'late note' })).statusCode).toBe(409);
    expect((await lab.admin.put(`/api/visits/${second.id}`, { status: 'scheduled' })).statusCode).toBe(400);
  });

  it('validates the booking: past dates, times, doctors', async () => {
    const p = await createPatient(lab.admin);
    const past = await lab.admin.post(`/api/patients/${p.id}/visits`, {
      doctor_id: doctorId,
      visit_date: '2020-01-01',
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().details[0]).toEqual({
      path: 'visit_date',
      message: 'An appointment cannot be booked in the past',
    });
    const time = await lab.admin.post(`/api/patients/${p.id}/visits`, {
      doctor_id: doctorId,
      visit_date: tomorrow(),
      visit_time: '25:00',
    });
    expect(time.statusCode).toBe(400);
    expect(time.json().details[0].path).toBe('visit_time');
    const notDoctor = await lab.admin.post(`/api/patients/${p.id}/visits`, {
      doctor_id: lab.admin.userId,
      visit_date: tomorrow(),
    });
    expect(notDoctor.statusCode).toBe(400);
    expect(notDoctor.json().details[0].path).toBe('doctor_id');
    const today = labDate('Asia/Kolkata');
    expect(
      (await lab.admin.post(`/api/patients/${p.id}/visits`, { doctor_id: doctorId, visit_date: today })).statusCode,
    ).toBe(201);
    expect(
      (await lab.admin.post('/api/patients/999999/visits', { doctor_id: doctorId, visit_date: tomorrow() })).statusCode,
    ).toBe(404);
  });

  it('booking needs manage_appointments; every change is audited', async () => {
    const p = await createPatient(lab.admin);
    const tech = await lab.as('lab_technician');
    expect(
      (await tech.post(`/api/patients/${p.id}/visits`, { doctor_id: doctorId, visit_date: tomorrow() })).statusCode,
    ).toBe(403);
    const reception = await lab.as('receptionist');
    const res = await reception.post(`/api/patients/${p.id}/visits`, { doctor_id: doctorId, visit_date: tomorrow() });
    expect(res.statusCode).toBe(201);
    const id = res.json<{ visit: Visit }>().visit.id;
    await reception.put(`/api/visits/${id}`, { status: 'cancelled' });
    const audit = await rows(
      lab.database,
      "SELECT action, user_email FROM audit_log WHERE entity = 'visit' AND entity_id = ? ORDER BY id",
      String(id),
    );
    expect(audit).toEqual([
      { action: 'create', user_email: reception.email },
      { action: 'update', user_email: reception.email },
    ]);
  });

  it('a lab-only bill records no visit; deleting a doctor bill cancels its visit', async () => {
    const p = await createPatient(lab.admin);
    await bill(p.id, false);
    expect((await lab.admin.get(`/api/patients/${p.id}/visits`)).json().visits).toEqual([]);
    const b = await bill(p.id, true);
    expect((await lab.admin.delete(`/api/bills/${b.id}`)).statusCode).toBe(200);
    const visits = (await lab.admin.get(`/api/patients/${p.id}/visits`)).json<{ visits: Visit[] }>().visits;
    expect(visits.map((v) => [v.status, v.bill_id])).toEqual([['cancelled', null]]);
  });
});

describe('a doctor limited to their own patients', () => {
  it('is listed only the patients whose history they can open; the lab may let doctors see everyone', async () => {
    const word = uniqueWord('Scope');
    const mine = await createPatient(lab.admin, { first_name: word });
    const theirs = await createPatient(lab.admin, { first_name: word });
    await bill(mine.id, true);
    const doctor = client(
      lab.app,
      await login(lab.app, 'kavita.history@lab.test', 'longpassword1'),
      doctorId,
      'kavita',
    );
    const listed = async (url: string) => (await doctor.get(url)).json<{ patients: { id: number }[]; total: number }>();

    // What Patient History lists (GET /api/patients, with and without a search) is what it can open.
    for (const url of [
      `/api/patients?search=${word}`,
      '/api/patients?limit=100',
      `/api/patients/search?search=${word}`,
    ]) {
      const page = await listed(url);
      expect(page.patients.map((p) => p.id)).toContain(mine.id);
      expect(page.patients.map((p) => p.id)).not.toContain(theirs.id);
      for (const p of page.patients) expect((await doctor.get(`/api/patients/${p.id}/history`)).statusCode).toBe(200);
    }
    expect((await listed(`/api/patients?search=${word}`)).total).toBe(1);
    for (const url of [
      `/api/patients/${theirs.id}`,
      `/api/patients/${theirs.id}/history`,
      `/api/patients/${theirs.id}/visits`,
    ]) {
      expect((await doctor.get(url)).statusCode, url).toBe(404);
    }
    expect(
      (await doctor.post(`/api/patients/${theirs.id}/visits`, { doctor_id: doctorId, visit_date: tomorrow() }))
        .statusCode,
    ).toBe(404);
    expect((await doctor.get(`/api/patients/${mine.id}`)).statusCode).toBe(200);

    const { settings } = await lab.database.db
      .selectFrom('organizations')
      .select('settings')
      .where('id', '=', lab.organizationId)
      .executeTakeFirstOrThrow();
    await lab.database.db
      .updateTable('organizations')
      .set({ settings: JSON.stringify({ ...JSON.parse(settings), doctorsSeeAllPatients: true }) })
      .where('id', '=', lab.organizationId)
      .execute();
    try {
      expect((await listed(`/api/patients?search=${word}`)).total).toBe(2);
      expect((await doctor.get(`/api/patients/${theirs.id}/history`)).statusCode).toBe(200);
    } finally {
      await lab.database.db
        .updateTable('organizations')
        .set({ settings })
        .where('id', '=', lab.organizationId)
        .execute();
    }
  });
});
