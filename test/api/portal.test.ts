import { exec, row, rows } from '../db.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeLab, tempDir, type TestLab } from '../helpers.js';
import { createPatient } from './support.js';
import { seedResult, seedSample } from './lab-records.js';
import type { Bill } from '../../src/shared/schemas/bills.js';
import type { Patient } from '../../src/shared/schemas/patients.js';
import type {
  PortalAppointment,
  PortalBill,
  PortalPinIssued,
  PortalPinStatus,
  PortalResult,
} from '../../src/shared/schemas/portal.js';

let lab: TestLab;
let testId: number;
let test2Id: number;
let doctorId: number;
let ipSeq = 0;

/** Each call from its own address unless told, so the per-address throttle only counts where a test means it to. */
function freshIp(): string {
  ipSeq += 1;
  return `10.9.${Math.floor(ipSeq / 250)}.${(ipSeq % 250) + 1}`;
}

interface Login {
  patient_id: string;
  mobile: string;
  pin: string;
}

function portalLogin(
  body: Login,
  ip = freshIp(),
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return lab.app.inject({ method: 'POST', url: '/api/portal/login', payload: body, remoteAddress: ip, headers });
}

function cookieOf(res: LightMyRequestResponse): string {
  const c = res.cookies.find((x) => x.name === 'lims_portal');
  if (!c) throw new Error(`no portal cookie: ${res.statusCode} ${res.body}`);
  return `lims_portal=${c.value}`;
}

function asPatient(cookie: string, url: string): Promise<LightMyRequestResponse> {
  return lab.app.inject({ method: 'GET', url, headers: { cookie } });
}

async function issuePin(patientId: number): Promise<string> {
  const res = await lab.admin.post(`/api/patients/${patientId}/portal-pin`);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<PortalPinIssued>().pin;
}

const sample = (patientId: number, testIds: number[]) =>
  seedSample(lab.database.db, lab.organizationId, { patientId, testIds, prefix: 'SMPPORT' });

const result = (
  sampleId: number,
  patientId: number,
  testId: number,
  value: string,
  status: 'verified' | 'completed' | 'pending',
) =>
  seedResult(lab.database.db, lab.organizationId, {
    sampleId,
    patientId,
    testId,
    value,
    flag: Number(value) > 110 ? 'high' : 'normal',
    status,
    verifiedBy: lab.admin.userId,
  });

async function bill(patientId: number): Promise<Bill> {
  const res = await lab.admin.post('/api/bills', {
    patient_id: patientId,
    doctor_id: doctorId,
    items: [{ item_type: 'test', item_id: testId }],
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ bill: Bill }>().bill;
}

/** Two patients with a verified and an unverified result each side, bills and visits. */
let a: Patient;
let b: Patient;
let pinA: string;
let pinB: string;
const seeded = {} as {
  aSample: { id: number; code: string };
  aPendingSample: { id: number; code: string };
  bSample: { id: number; code: string };
  aVerified: number;
  aUnverified: number;
  bVerified: number;
  aBill: Bill;
  bBill: Bill;
};

beforeAll(async () => {
  lab = await makeLab();
  testId = (await lab.admin.post('/api/tests', { name: 'Fasting Glucose', code: 'FBSP', price: 120 })).json().test.id;
  test2Id = (await lab.admin.post('/api/tests', { name: 'HbA1c', code: 'HBAP', price: 450 })).json().test.id;
  doctorId = (
    await lab.admin.post('/api/users', {
      first_name: 'Arjun',
      last_name: 'Nair',
      email: 'arjun.portal@lab.test',
      role: 'doctor',
      password: 'longpassword1',
      specialization: 'Internal Medicine',
      consultation_fee: 300,
    })
  ).json().user.id;
  a = await createPatient(lab.admin, { phone: '+91 98450-11111', blood_group: 'B+', email: 'a@example.com' });
  b = await createPatient(lab.admin, { phone: '98450 22222' });
  pinA = await issuePin(a.id);
  pinB = await issuePin(b.id);
  seeded.aSample = await sample(a.id, [testId, test2Id]);
  seeded.aPendingSample = await sample(a.id, [testId]);
  seeded.bSample = await sample(b.id, [testId]);
  seeded.aVerified = await result(seeded.aSample.id, a.id, testId, '182', 'verified');
  seeded.aUnverified = await result(seeded.aSample.id, a.id, test2Id, '6.1', 'completed');
  await result(seeded.aPendingSample.id, a.id, testId, '99', 'pending');
  seeded.bVerified = await result(seeded.bSample.id, b.id, testId, '95', 'verified');
  seeded.aBill = await bill(a.id);
  seeded.bBill = await bill(b.id);
});
afterAll(() => lab.close());

describe('portal PIN (staff)', () => {
  it('is issued once as 6 digits, stored only as a hash, reported without the PIN, audited without it', async () => {
    const p = await createPatient(lab.admin, { phone: '9000000001' });
    expect((await lab.admin.get(`/api/patients/${p.id}/portal-pin`)).json<PortalPinStatus>()).toEqual({
      issued: false,
      issued_at: null,
    });
    const res = await lab.admin.post(`/api/patients/${p.id}/portal-pin`);
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const issued = res.json<PortalPinIssued>();
    expect(issued.pin).toMatch(/^\d{6}$/);
    expect(issued.reset).toBe(false);
    const status = await lab.admin.get(`/api/patients/${p.id}/portal-pin`);
    expect(status.json()).toEqual({ issued: true, issued_at: issued.issued_at });
    expect(status.body).not.toContain(issued.pin);
    const stored = (await row<{ pin_hash: string }>(
      lab.database,
      'SELECT pin_hash FROM patient_portal_access WHERE patient_id = ?',
      p.id,
    ))!;
    expect(stored.pin_hash).toMatch(/^scrypt\$/);
    expect(stored.pin_hash).not.toContain(issued.pin);
    const audit = await rows<{ action: string; new_values: string }>(
      lab.database,
      "SELECT action, new_values FROM audit_log WHERE entity = 'portal_access' AND entity_id = ?",
      String(p.id),
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]!.action).toBe('create');
    expect(audit[0]!.new_values).toContain(p.patient_id);
    expect(audit[0]!.new_values).not.toContain(issued.pin);
    expect(audit[0]!.new_values).not.toContain('scrypt');
  });

  it('reset replaces the PIN: the old one stops working and signed-in sessions end', async () => {
    const p = await createPatient(lab.admin, { phone: '9000000002' });
    const first = await issuePin(p.id);
    const login = await portalLogin({ patient_id: p.patient_id, mobile: '9000000002', pin: first });
    expect(login.statusCode, login.body).toBe(200);
    const cookie = cookieOf(login);
    const again = await lab.admin.post(`/api/patients/${p.id}/portal-pin`);
    expect(again.json<PortalPinIssued>().reset).toBe(true);
    const second = again.json<PortalPinIssued>().pin;
    expect((await asPatient(cookie, '/api/portal/me')).statusCode).toBe(401);
    if (second !== first)
      expect((await portalLogin({ patient_id: p.patient_id, mobile: '9000000002', pin: first })).statusCode).toBe(401);
    expect((await portalLogin({ patient_id: p.patient_id, mobile: '9000000002', pin: second })).statusCode).toBe(200);
  });

  it('needs manage_patients, a known patient of this lab, and a mobile number to sign in with', async () => {
    const p = await createPatient(lab.admin);
    const tech = await lab.as('lab_technician');
    expect((await tech.post(`/api/patients/${p.id}/portal-pin`)).statusCode).toBe(403);
    expect((await tech.get(`/api/patients/${p.id}/portal-pin`)).statusCode).toBe(403);
    const reception = await lab.as('receptionist');
    const noPhone = await reception.post(`/api/patients/${p.id}/portal-pin`);
    expect(noPhone.statusCode).toBe(409);
    expect(noPhone.json().message).toContain('mobile number');
    expect((await reception.post('/api/patients/999999/portal-pin')).statusCode).toBe(404);
  });
});

describe('portal sign-in', () => {
  it("accepts the patient code in any case and the mobile number in any format; the cookie is the portal's own", async () => {
    const res = await portalLogin({ patient_id: a.patient_id.toLowerCase(), mobile: '098450 11111', pin: pinA });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().patient).toMatchObject({
      patient_id: a.patient_id,
      first_name: a.first_name,
      blood_group: 'B+',
      mobile: '9845011111',
    });
    const c = res.cookies.find((x) => x.name === 'lims_portal')!;
    expect(c).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/portal' });
    expect(Date.parse(String(c.expires)) - Date.now()).toBeGreaterThan(11.9 * 3600_000);
    expect(Date.parse(String(c.expires)) - Date.now()).toBeLessThanOrEqual(12 * 3600_000);
    expect(res.cookies.find((x) => x.name === 'lims_session')).toBeUndefined();

    const me = await asPatient(cookieOf(res), '/api/portal/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().patient).toEqual({
      first_name: a.first_name,
      last_name: a.last_name,
      patient_id: a.patient_id,
      age: a.age,
      age_text: a.age_text,
      gender: 'Male',
      mobile: '9845011111',
      email: 'a@example.com',
      blood_group: 'B+',
      membership_status: 'none',
      registration_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  it('answers the same 401 for a wrong mobile, a wrong PIN, an unknown ID and a patient without a PIN', async () => {
    const noPin = await createPatient(lab.admin, { phone: '9000000003' });
    const wrongPin = pinA === '000000' ? '000001' : '000000';
    const attempts: Login[] = [
      { patient_id: a.patient_id, mobile: '9845022222', pin: pinA },
      { patient_id: a.patient_id, mobile: '9845011111', pin: wrongPin },
      { patient_id: 'PAT000000000000', mobile: '9845011111', pin: pinA },
      { patient_id: noPin.patient_id, mobile: '9000000003', pin: pinA },
      { patient_id: b.patient_id, mobile: '9845011111', pin: pinA },
    ];
    for (const body of attempts) {
      const res = await portalLogin(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(401);
      expect(res.json().message).toBe('Invalid patient ID, mobile number or PIN');
      expect(res.cookies.find((x) => x.name === 'lims_portal')).toBeUndefined();
    }
    const failed = (await row<{ n: number }>(
      lab.database,
      "SELECT count(*) AS n FROM audit_log WHERE entity = 'portal_session' AND status = 'failed' AND entity_id = ?",
      String(a.id),
    ))!;
    expect(failed.n).toBeGreaterThanOrEqual(2);
  });

  it('names bad shapes with 400 (before any check)', async () => {
    const res = await portalLogin({ patient_id: '', mobile: 'abc', pin: '12' });
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['mobile', 'patient_id', 'pin']);
  });

  it('locks a patient code at one address after 5 failures (429 with Retry-After), even for the right PIN', async () => {
    const p = await createPatient(lab.admin, { phone: '9000000004' });
    const pin = await issuePin(p.id);
    const wrong = pin === '111111' ? '222222' : '111111';
    const ip = freshIp();
    for (let i = 0; i < 5; i += 1)
      expect((await portalLogin({ patient_id: p.patient_id, mobile: '9000000004', pin: wrong }, ip)).statusCode).toBe(
        401,
      );
    const locked = await portalLogin({ patient_id: p.patient_id, mobile: '9000000004', pin }, ip);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(locked.json().message).toMatch(/Too many failed sign-in attempts/);
    // The patient at another address is not locked out by it.
    expect((await portalLogin({ patient_id: p.patient_id, mobile: '9000000004', pin })).statusCode).toBe(200);
  });

  it('slows, never locks, a patient code guessed from many addresses: past 10 failures each try waits', async () => {
    const p = await createPatient(lab.admin, { phone: '9000000014' });
    const pin = await issuePin(p.id);
    const wrong = pin === '111111' ? '222222' : '111111';
    for (let i = 0; i < 10; i += 1)
      expect((await portalLogin({ patient_id: p.patient_id, mobile: '9000000014', pin: wrong })).statusCode).toBe(401);
    // The 11th waits 5 s after the 10th failure (doubling after each further failure, up to 5 minutes).
    const slowed = await portalLogin({ patient_id: p.patient_id, mobile: '9000000014', pin });
    expect(slowed.statusCode).toBe(429);
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(slowed.headers['retry-after'])).toBeLessThanOrEqual(300);
  });

  it('locks an address after 20 failures across patient codes', async () => {
    const ip = '10.77.0.1';
    for (let i = 0; i < 20; i += 1) {
      expect(
        (
          await portalLogin(
            { patient_id: `PAT00000000${String(i).padStart(4, '0')}`, mobile: '9000000000', pin: '123456' },
            ip,
          )
        ).statusCode,
      ).toBe(401);
    }
    expect((await portalLogin({ patient_id: b.patient_id, mobile: '9845022222', pin: pinB }, ip)).statusCode).toBe(429);
    expect((await portalLogin({ patient_id: b.patient_id, mobile: '9845022222', pin: pinB })).statusCode).toBe(200);
  });

  it('logout ends the session on the server', async () => {
    const cookie = cookieOf(await portalLogin({ patient_id: b.patient_id, mobile: '9845022222', pin: pinB }));
    expect((await asPatient(cookie, '/api/portal/me')).statusCode).toBe(200);
    const out = await lab.app.inject({ method: 'POST', url: '/api/portal/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    expect((await asPatient(cookie, '/api/portal/me')).statusCode).toBe(401);
  });

  it('refuses cross-site requests: a foreign Origin or a form post', async () => {
    const body = { patient_id: a.patient_id, mobile: '9845011111', pin: pinA };
    expect((await portalLogin(body, freshIp(), { origin: 'https://evil.example' })).statusCode).toBe(403);
    const form = await lab.app.inject({
      method: 'POST',
      url: '/api/portal/login',
      payload: `patient_id=${a.patient_id}&mobile=9845011111&pin=${pinA}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      remoteAddress: freshIp(),
    });
    expect(form.statusCode).toBe(403);
  });
});

describe('staff and patient sessions never mix', () => {
  it('a staff cookie does not open the portal, and a portal cookie does not open staff routes', async () => {
    expect((await lab.admin.get('/api/portal/me')).statusCode).toBe(401);
    expect((await lab.admin.get('/api/portal/results')).statusCode).toBe(401);
    const portal = cookieOf(await portalLogin({ patient_id: a.patient_id, mobile: '9845011111', pin: pinA }));
    for (const url of [
      '/api/patients',
      '/api/auth/me',
      `/api/patients/${a.id}/history`,
      `/api/bills/${seeded.aBill.id}/pdf`,
    ]) {
      expect((await asPatient(portal, url)).statusCode, url).toBe(401);
    }
    // The portal session id is a hash in its own table; it is no staff session.
    const token = portal.split('=')[1]!;
    expect((await asPatient(`lims_session=${token}`, '/api/patients')).statusCode).toBe(401);
  });
});

describe('a patient sees only their own records', () => {
  let cookieA: string;
  beforeAll(async () => {
    cookieA = cookieOf(await portalLogin({ patient_id: a.patient_id, mobile: '9845011111', pin: pinA }));
  });

  it('results: only verified ones, only theirs, with the report link', async () => {
    const res = await asPatient(cookieA, '/api/portal/results');
    expect(res.statusCode).toBe(200);
    const results = res.json<{ results: PortalResult[] }>().results;
    expect(results.map((r) => r.id)).toEqual([seeded.aVerified]);
    expect(results[0]).toMatchObject({
      test_name: 'Fasting Glucose',
      result_value: '182',
      flag: 'high',
      status: 'verified',
      remarks: 'remark 182',
      sample_id: seeded.aSample.code,
      report_url: `/api/portal/samples/${seeded.aSample.id}/report.pdf`,
    });
    // Not a bare '6.1': a timestamp's seconds can hold it (…:46.123Z), which once failed this in CI.
    expect(res.body).not.toContain('"6.1"');
    expect(res.body).not.toContain('remark 6.1');
    expect(res.body).not.toContain('"95"');
  });

  it('an unverified result appears once it is verified', async () => {
    await exec(
      lab.database,
      "UPDATE test_results SET status = 'verified', verified_at = ? WHERE id = ?",
      new Date().toISOString(),
      seeded.aUnverified,
    );
    try {
      const ids = (await asPatient(cookieA, '/api/portal/results'))
        .json<{ results: PortalResult[] }>()
        .results.map((r) => r.id);
      expect(ids.sort()).toEqual([seeded.aVerified, seeded.aUnverified].sort());
    } finally {
      await exec(
        lab.database,
        "UPDATE test_results SET status = 'completed', verified_at = NULL WHERE id = ?",
        seeded.aUnverified,
      );
    }
  });

  it('report PDF of their own sample: the verified value is printed, the unverified one withheld', async () => {
    const res = await asPatient(cookieA, `/api/portal/samples/${seeded.aSample.id}/report.pdf`);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    expect(res.headers['content-disposition']).toBe(`inline; filename="report-${seeded.aSample.code}.pdf"`);
    const file = join(tempDir(), 'report.pdf');
    writeFileSync(file, res.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    expect(text).toContain(a.patient_id);
    expect(text).toContain('182');
    expect(text).toContain('HbA1c');
    expect(text).not.toContain('6.1');
    const download = await asPatient(cookieA, `/api/portal/samples/${seeded.aSample.id}/report.pdf?download=1`);
    expect(download.headers['content-disposition']).toMatch(/^attachment;/);
  });

  it("report PDFs: another patient's sample and a sample without a verified result are 404", async () => {
    expect((await asPatient(cookieA, `/api/portal/samples/${seeded.bSample.id}/report.pdf`)).statusCode).toBe(404);
    expect((await asPatient(cookieA, `/api/portal/samples/${seeded.aPendingSample.id}/report.pdf`)).statusCode).toBe(
      404,
    );
    expect((await asPatient(cookieA, '/api/portal/samples/999999/report.pdf')).statusCode).toBe(404);
  });

  it("bills: only theirs, with items; another patient's bill PDF is 404, their own is a PDF", async () => {
    const bills = (await asPatient(cookieA, '/api/portal/bills')).json<{ bills: PortalBill[] }>().bills;
    expect(bills.map((x) => x.bill_number)).toEqual([seeded.aBill.bill_number]);
    expect(bills[0]).toMatchObject({
      total_amount: seeded.aBill.final_amount,
      paid_amount: 0,
      payment_status: 'unpaid',
      payment_method: 'cash',
      items: [{ name: 'Fasting Glucose', qty: 1, price: 120, total: 120 }],
      pdf_url: `/api/portal/bills/${seeded.aBill.id}/pdf`,
    });
    const own = await asPatient(cookieA, bills[0]!.pdf_url);
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toContain('application/pdf');
    expect(own.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await asPatient(cookieA, `/api/portal/bills/${seeded.bBill.id}/pdf`)).statusCode).toBe(404);
  });

  it('appointments: only theirs (the consultation their bill recorded)', async () => {
    const appts = (await asPatient(cookieA, '/api/portal/appointments')).json<{ appointments: PortalAppointment[] }>()
      .appointments;
    expect(appts).toHaveLength(1);
    expect(appts[0]).toMatchObject({
      doctor_name: 'Arjun Nair',
      doctor_specialization: 'Internal Medicine',
      status: 'completed',
      type: 'consultation',
      date: seeded.aBill.bill_date,
    });
    const cookieB = cookieOf(await portalLogin({ patient_id: b.patient_id, mobile: '9845022222', pin: pinB }));
    const bAppts = (await asPatient(cookieB, '/api/portal/appointments')).json<{ appointments: PortalAppointment[] }>()
      .appointments;
    expect(bAppts.map((x) => x.id)).not.toContain(appts[0]!.id);
    const bResults = (await asPatient(cookieB, '/api/portal/results')).json<{ results: PortalResult[] }>().results;
    expect(bResults.map((r) => r.id)).toEqual([seeded.bVerified]);
  });

  it('every portal data route needs the portal session', async () => {
    // The lab's own name and contact (the portal's header) is the one public read.
    const routes = lab.app.routeList.filter(
      (r) => r.url.startsWith('/api/portal/') && r.method === 'GET' && r.url !== '/api/portal/lab',
    );
    expect(routes.length).toBeGreaterThanOrEqual(6);
    for (const r of routes) {
      const url = r.url.replace(/:[A-Za-z_]+/g, String(seeded.aSample.id));
      expect((await lab.app.inject({ url })).statusCode, url).toBe(401);
    }
  });
});
