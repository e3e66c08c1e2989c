import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, tempDir, type Client, type TestLab } from '../helpers.js';
import { auditRowsFor, badFields, otherLabAdmin, uniqueWord } from './support.js';
import type { LabReport, LabReportAnalytics, LabReportPage } from '../../src/shared/schemas/lab-reports.js';
import { labReportStatus } from '../../src/shared/schemas/lab-reports.js';
import { verificationUrl } from '../../src/core/lab-reports/verification.js';
import type { TestResult } from '../../src/shared/schemas/results.js';

/**
 * Lab Reports: the register's statuses computed from the results, its filters and
 * permissions, the templates and signatories that change the report PDF, the signed verification
 * link, and the referring doctor of a registration printed on the report.
 */
let lab: TestLab;
let tech: Client;
let validator: Client;
const t = { hb: 0, glu: 0, crp: 0 };

// The smallest valid PNG (1x1), for the signature upload.
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

beforeAll(async () => {
  lab = await makeLab();
  const test = async (body: Record<string, unknown>) => {
    const res = await lab.admin.post('/api/tests', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().test.id as number;
  };
  t.hb = await test({
    name: 'Haemoglobin',
    code: 'LRHB',
    price: 150,
    category: 'Haematology',
    unit: 'g/dL',
    normal_range: '13-17',
    result_type: 'numeric',
    critical_low: 7,
  });
  t.glu = await test({ name: 'Glucose Fasting', code: 'LRGLU', price: 90, category: 'Diabetes', unit: 'mg/dL' });
  t.crp = await test({ name: 'C-Reactive Protein', code: 'LRCRP', price: 300, category: 'Serology', unit: 'mg/L' });
  tech = await lab.as('lab_technician');
  validator = await lab.as('validator');
});
afterAll(() => lab.close());

async function patient(first = uniqueWord('Pa')): Promise<number> {
  const res = await lab.admin.post('/api/patients', {
    first_name: first,
    last_name: uniqueWord('Ku'),
    date_of_birth: '1980-02-02',
    gender: 'Female',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().patient.id;
}

async function sample(testIds: number[], patientId?: number): Promise<{ id: number; code: string; patient: number }> {
  const p = patientId ?? (await patient());
  const res = await tech.post('/api/samples', { patient_id: p, sample_type: 'Blood', test_ids: testIds });
  expect(res.statusCode, res.body).toBe(201);
  const s = res.json().sample;
  return { id: s.id, code: s.sample_id, patient: p };
}

async function enter(sampleId: number, testId: number, value: string): Promise<TestResult> {
  const res = await tech.post('/api/test-results', { sample_id: sampleId, test_id: testId, result_value: value });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().result;
}

async function verify(resultId: number) {
  const res = await validator.put(`/api/test-results/${resultId}/verify`, {});
  expect(res.statusCode, res.body).toBe(200);
}

async function reportOf(sampleId: number, code: string): Promise<LabReport> {
  const res = await lab.admin.get(`/api/lab-reports?search=${code}`);
  expect(res.statusCode, res.body).toBe(200);
  const found = res.json<LabReportPage>().reports.find((r) => r.id === sampleId);
  expect(found, `report of sample ${code}`).toBeTruthy();
  return found!;
}

async function pdfText(url: string, as: Client = lab.admin): Promise<string> {
  const res = await as.get(url);
  expect(res.statusCode, res.body).toBe(200);
  const file = join(tempDir(), 'r.pdf');
  writeFileSync(file, res.rawPayload);
  return execFileSync('pdftotext', ['-layout', file, '-']).toString();
}

describe('status derivation', () => {
  it.each([
    [{ sample_status: 'collected', ordered: 2, entered: 0, verified: 0 }, 'draft'],
    [{ sample_status: 'processing', ordered: 2, entered: 1, verified: 0 }, 'in_progress'],
    [{ sample_status: 'processing', ordered: 2, entered: 1, verified: 1 }, 'in_progress'],
    [{ sample_status: 'processing', ordered: 2, entered: 2, verified: 1 }, 'pending_review'],
    [{ sample_status: 'completed', ordered: 2, entered: 2, verified: 2 }, 'completed'],
    [{ sample_status: 'rejected', ordered: 2, entered: 1, verified: 0 }, 'cancelled'],
    [{ sample_status: 'pending', ordered: 0, entered: 0, verified: 0 }, 'draft'],
  ] as const)('%o is %s', (counts, status) => {
    expect(labReportStatus(counts)).toBe(status);
  });

  it('the register computes each status from the sample and its results, as the rule says', async () => {
    const draft = await sample([t.hb, t.glu]);
    const progress = await sample([t.hb, t.glu]);
    await enter(progress.id, t.hb, '14.1');
    const review = await sample([t.hb, t.glu]);
    const r1 = await enter(review.id, t.hb, '14.2');
    await enter(review.id, t.glu, '92');
    await verify(r1.id!);
    const done = await sample([t.glu]);
    await verify((await enter(done.id, t.glu, '95')).id!);
    const rejected = await sample([t.glu]);
    const rej = await tech.put(`/api/samples/${rejected.id}/status`, { status: 'rejected', notes: 'Haemolysed' });
    expect(rej.statusCode, rej.body).toBe(200);

    expect((await reportOf(draft.id, draft.code)).status).toBe('draft');
    const p = await reportOf(progress.id, progress.code);
    expect([p.status, p.result_count, p.test_count, p.verified_count]).toEqual(['in_progress', 1, 2, 0]);
    expect(p.generated_by).toMatch(/^lab_technician /);
    expect(p.reviewed_by).toBeNull();
    expect((await reportOf(review.id, review.code)).status).toBe('pending_review');
    const d = await reportOf(done.id, done.code);
    expect(d.status).toBe('completed');
    expect(d.reviewed_by).toMatch(/^validator /);
    expect(d.reviewed_at).not.toBeNull();
    expect(d.departments).toEqual(['biochemistry']);
    expect(d.report_number).toBe(`LR-${done.code}`);
    expect((await reportOf(rejected.id, rejected.code)).status).toBe('cancelled');
  });
});

describe('filters, paging, summary and permissions', () => {
  it('the status filter, search, dates and paging agree with each other', async () => {
    const p = await patient(uniqueWord('Fi'));
    const a = await sample([t.glu], p);
    const b = await sample([t.glu], p);
    await enter(b.id, t.glu, '99');
    const mine = async (q: string) => {
      const res = await lab.admin.get(`/api/lab-reports?${q}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<LabReportPage>();
    };
    const all = await mine('limit=200');
    const byStatus = await mine('status=pending_review&limit=200');
    expect(byStatus.reports.every((r) => r.status === 'pending_review')).toBe(true);
    expect(byStatus.reports.map((r) => r.id)).toContain(b.id);
    expect(byStatus.reports.map((r) => r.id)).not.toContain(a.id);
    expect(byStatus.total).toBe(all.reports.filter((r) => r.status === 'pending_review').length);

    const patientCode = (await reportOf(a.id, a.code)).patient_number;
    const searched = await mine(`search=${patientCode}`);
    expect(searched.reports.map((r) => r.id).sort()).toEqual([a.id, b.id].sort());

    const paged = await mine(`search=${patientCode}&limit=1&page=2`);
    expect([paged.total, paged.totalPages, paged.currentPage, paged.hasPrevPage, paged.hasNextPage]).toEqual([
      2,
      2,
      2,
      true,
      false,
    ]);
    expect(paged.reports).toHaveLength(1);

    expect((await mine(`search=${patientCode}&from=2020-01-01&to=2020-01-31`)).total).toBe(0);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
    expect((await mine(`search=${patientCode}&from=${today}&to=${today}`)).total).toBe(2);

    const summary = (await lab.admin.get('/api/lab-reports/summary')).json().summary;
    expect(summary.total).toBe(all.total);
    expect(summary.by_status.pending_review).toBe(all.reports.filter((r) => r.status === 'pending_review').length);
  });

  it('bad filters are refused naming the field', async () => {
    expect(badFields(await lab.admin.get('/api/lab-reports?status=finished'))).toEqual(['status']);
    expect(badFields(await lab.admin.get('/api/lab-reports?from=2026-02-30'))).toEqual(['from']);
    expect(badFields(await lab.admin.get('/api/lab-reports?from=2026-03-02&to=2026-03-01'))).toEqual(['from']);
    expect(badFields(await lab.admin.get('/api/lab-reports?limit=500'))).toEqual(['limit']);
    expect(badFields(await lab.admin.get('/api/lab-reports/analytics?days=12'))).toEqual(['days']);
  });

  it('reading needs view_results, changing templates manage_lab; other labs see nothing', async () => {
    const receptionist = await lab.as('receptionist');
    expect((await receptionist.get('/api/lab-reports')).statusCode).toBe(403);
    expect((await receptionist.get('/api/lab-reports/analytics')).statusCode).toBe(403);
    expect((await tech.get('/api/lab-reports')).statusCode).toBe(200);
    expect((await tech.put('/api/lab-reports/templates/hematology', { group_by: 'none' })).statusCode).toBe(403);
    expect((await validator.put('/api/lab-reports/settings', { accreditation_number: 'X' })).statusCode).toBe(403);
    const manager = await lab.as('lab_manager');
    expect((await manager.put('/api/lab-reports/templates/hematology', { group_by: 'category' })).statusCode).toBe(200);
    const unauth = await lab.app.inject({ method: 'GET', url: '/api/lab-reports' });
    expect(unauth.statusCode).toBe(401);

    await sample([t.glu]);
    const other = await otherLabAdmin(lab);
    const theirs = (await other.admin.get('/api/lab-reports')).json<LabReportPage>();
    expect(theirs.total).toBe(0);
    expect((await other.admin.get('/api/lab-reports/summary')).json().summary.total).toBe(0);
  });
});

describe('critical values, analytics and quality metrics', () => {
  it('a critical value is counted until its call is logged; figures come from the rows', async () => {
    const s = await sample([t.hb]);
    const r = await enter(s.id, t.hb, '5.1');
    expect(r.is_critical).toBe(true);
    const before = await reportOf(s.id, s.code);
    expect([before.critical_values, before.critical_uncalled]).toEqual([1, 1]);
    const uncalled = (await lab.admin.get('/api/lab-reports?critical=uncalled&limit=200')).json<LabReportPage>();
    expect(uncalled.reports.map((x) => x.id)).toContain(s.id);
    const call = await tech.post(`/api/test-results/${r.id}/critical-call`, {
      called_to: 'Dr Rao (ward)',
      read_back: true,
    });
    expect(call.statusCode, call.body).toBe(201);
    const after = await reportOf(s.id, s.code);
    expect([after.critical_values, after.critical_uncalled]).toEqual([1, 0]);

    const a = (await lab.admin.get('/api/lab-reports/analytics?days=7')).json<{ analytics: LabReportAnalytics }>()
      .analytics;
    expect(a.per_day).toHaveLength(7);
    const registeredInRange = a.per_day.reduce((n, d) => n + d.registered, 0);
    expect(registeredInRange).toBe(a.quality.samples);
    expect(a.quality.rejected_samples).toBeGreaterThanOrEqual(1);
    expect(a.quality.rejection_rate).toBe(Math.round((a.quality.rejected_samples / a.quality.samples) * 1000) / 10);
    expect(a.quality.critical_called).toBeGreaterThanOrEqual(1);
    expect(a.recent.some((x) => x.kind === 'called' && x.sample_id === s.id)).toBe(true);
  });
});

describe('the report PDF', () => {
  it('a registration for lab tests only keeps its referring doctor, printed on the report', async () => {
    const doctor = (
      await lab.admin.post('/api/doctors', {
        first_name: 'Meera',
        last_name: uniqueWord('Iyer'),
        specialization: 'Cardiology',
        consultation_fee: 500,
      })
    ).json().doctor;
    const reg = await lab.admin.post('/api/registrations', {
      patient: { first_name: 'Ravi', last_name: uniqueWord('Ku'), date_of_birth: '1980-01-01', gender: 'Male' },
      visit_type: 'lab_only',
      doctor_id: doctor.id,
      items: [{ item_type: 'test', item_id: t.glu }],
    });
    expect(reg.statusCode, reg.body).toBe(201);
    const bill = reg.json().bill;
    expect(bill.doctor_id).toBe(doctor.id);
    expect(bill.consultation_fee).toBe(0);
    const s = (await lab.admin.get(`/api/samples?patient_id=${bill.patient_id}`)).json().samples[0];
    const text = await pdfText(`/api/samples/${s.id}/report.pdf`);
    expect(text).toMatch(new RegExp(`Referred by\\s+Dr\\. Meera ${doctor.last_name}`));
    expect(text).not.toMatch(/Referred by\s+Self/);
  });

  it('templates, signatories and settings change the report; the method and condition print', async () => {
    const s = await sample([t.hb, t.glu]);
    await verify((await enter(s.id, t.hb, '14.5')).id!);
    // Glucose is verified after the settings change: the report is released with the settings of that moment.
    const glu = await enter(s.id, t.glu, '88');
    const m = await lab.admin.put(`/api/tests/${t.hb}`, { method: 'Cyanmethaemoglobin' });
    expect(m.statusCode, m.body).toBe(200);
    expect(m.json().test.method).toBe('Cyanmethaemoglobin');
    const url = `/api/samples/${s.id}/report.pdf`;
    const plain = await pdfText(url);
    expect(plain).toContain('HEMATOLOGY');
    expect(plain).toContain('BIOCHEMISTRY');
    expect(plain).toContain('Method: Cyanmethaemoglobin');
    expect(plain).toContain('No authorised signatory is set up');
    expect(plain).not.toContain('no signature is required');

    const saved = await lab.admin.put('/api/lab-reports/templates/hematology', {
      group_by: 'none',
      header_text: 'Automated five-part haematology analyser',
      footer_text: 'Hematology reports are valid for clinical correlation only',
      interpretation_notes: 'Haemoglobin below 7 g/dL is a critical value.',
      signatory_name: 'Dr. Kavya Nair',
      signatory_qualification: 'MD (Pathology)',
      signatory_registration: 'KMC 77881',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const sig = await lab.admin.put('/api/lab-reports/templates/hematology/signature', {
      file_name: 'sign.png',
      content_base64: PNG_1PX,
    });
    expect(sig.statusCode, sig.body).toBe(200);
    expect(sig.json().template.signature_type).toBe('image/png');
    const settings = await lab.admin.put('/api/lab-reports/settings', {
      accreditation_body: 'NABL',
      accreditation_number: 'MC-4521',
    });
    expect(settings.statusCode, settings.body).toBe(200);
    await verify(glu.id!);

    const text = await pdfText(url);
    expect(text).toContain('NABL · Certificate No. MC-4521');
    expect(text).toContain('Automated five-part haematology analyser');
    expect(text).toContain('Interpretation: Haemoglobin below 7 g/dL is a critical value.');
    expect(text).toContain('Hematology reports are valid for clinical correlation only');
    expect(text).toContain('Dr. Kavya Nair');
    expect(text).toContain('Reg. No. KMC 77881');
    expect(text).toContain('Authorised Signatory · Hematology');
    // The Biochemistry section has no template: no signatory is printed for it.
    expect(text).not.toContain('Authorised Signatory · Biochemistry');
    expect(text).toMatch(/Condition\s+Not recorded/);
    const cond = await tech.put(`/api/samples/${s.id}`, { receipt_condition: 'Mildly haemolysed' });
    expect(cond.statusCode, cond.body).toBe(200);
    expect(cond.json().sample.receipt_condition).toBe('Mildly haemolysed');
    expect(await pdfText(url)).toMatch(/Condition\s+Mildly haemolysed/);
    expect(text).toContain('Scan to verify this report');

    const audit = await auditRowsFor(lab, 'report_template', 'hematology');
    expect(audit.map((a) => a.action)).toContain('update');
    expect(audit.every((a) => !String(a.new_values).includes(PNG_1PX))).toBe(true);
  });

  it('refuses a signature that is not an image, or a half-named signatory', async () => {
    expect(
      badFields(
        await lab.admin.put('/api/lab-reports/templates/pathology/signature', {
          file_name: 'x.png',
          content_base64: Buffer.from('<svg onload=alert(1)>').toString('base64'),
        }),
      ),
    ).toEqual(['content_base64']);
    expect(
      badFields(
        await lab.admin.put('/api/lab-reports/templates/pathology', { group_by: 'none', signatory_name: 'Dr X' }),
      ),
    ).toEqual(['signatory_qualification', 'signatory_registration']);
    expect(badFields(await lab.admin.put('/api/lab-reports/templates/pathology', { group_by: 'rows' }))).toEqual([
      'group_by',
    ]);
    expect((await lab.admin.put('/api/lab-reports/templates/dentistry', { group_by: 'none' })).statusCode).toBe(400);
    expect(badFields(await lab.admin.put('/api/lab-reports/settings', { public_url: 'javascript:alert(1)' }))).toEqual([
      'public_url',
    ]);
    const tpl = (await lab.admin.get('/api/lab-reports/templates')).json().templates;
    expect(tpl.find((x: { department: string }) => x.department === 'pathology').signatory_name).toBeNull();
  });
});

describe('the signed verification link', () => {
  it('a genuine link shows initials, sample and tests; a changed one is refused', async () => {
    await lab.admin.put('/api/lab-reports/settings', { public_url: 'https://lab.example.in' });
    const p = await patient('Sunita');
    const s = await sample([t.glu], p);
    await verify((await enter(s.id, t.glu, '101')).id!);
    expect(await pdfText(`/api/samples/${s.id}/report.pdf`)).toContain('Scan to verify this report');
    // The QR code opens the lab's public address with the signed token after '#'.
    const link = await verificationUrl(lab.database.db, lab.organizationId, s.id, 'http://ignored');
    expect(link).toMatch(/^https:\/\/lab\.example\.in\/report-link#\d+\.\d+\.[A-Za-z0-9_-]{43}$/);
    const token = link!.split('#')[1]!;

    const ok = await lab.app.inject({ method: 'GET', url: `/api/report-verification?token=${token}` });
    expect(ok.statusCode, ok.body).toBe(200);
    const v = ok.json().verification;
    expect(v.genuine).toBe(true);
    expect(v.sample_code).toBe(s.code);
    expect(v.patient_initials).toMatch(/^S\. [A-Z]\.$/);
    expect(v.tests.map((x: { name: string }) => x.name)).toEqual(['Glucose Fasting']);
    expect(ok.body).not.toContain('Sunita');
    expect(ok.body).not.toContain('"value"');

    const [orgId, sampleId, sig] = token.split('.');
    const tampered = [
      `${orgId}.${Number(sampleId) - 1}.${sig}`,
      `${orgId}.${sampleId}.${sig!.slice(0, -1)}${sig!.endsWith('A') ? 'B' : 'A'}`,
      `${Number(orgId) + 1}.${sampleId}.${sig}`,
      'nonsense',
    ];
    for (const bad of tampered) {
      const res = await lab.app.inject({
        method: 'GET',
        url: `/api/report-verification?token=${encodeURIComponent(bad)}`,
      });
      expect(res.statusCode, bad).toBe(404);
    }
  });
});
