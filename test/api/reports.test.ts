import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import { auditRowsFor, badFields, createUserVia, otherLabAdmin } from './support.js';
import { seedResult, seedSample } from './lab-records.js';
import type { ReportCatalogue, ReportResult } from '../../src/shared/schemas/reports.js';

/**
 * Reports on a small hand-made data set with known answers, in a lab on Asia/Kolkata
 * (UTC+05:30): a bill at 23:59:59 IST counts on its own day, one at 00:00:00 IST on the next;
 * cancelled bills are left out; a refund lowers the day it was paid on.
 *
 * October 2026 (IST):
 *  B1 10 Oct 23:59:59  P1, doctor D: Glucose 200 + CBC 400 less 10% line discount = 560; paid 560
 *                      cash on 10 Oct, 60 refunded on 12 Oct (paid 500, due 60)
 *  B2 11 Oct 00:00:00  P2, no doctor: Glucose × 2 = 400, bill discount 10% = 360; 100 UPI on 11 Oct
 *  B3 11 Oct 10:30     P1: CBC 400, cancelled
 *  B4 30 Sep 23:59:59  P1, doctor D: Glucose 200 (September: never in October's figures)
 * Samples: S1 (P1: Glucose, CBC) 10 Oct, verified after 30 and 90 min; S2 (P2: Glucose) 11 Oct,
 * verified after 60 min, critical, called 15 min after entry; S3 (P2: CBC) and S4 (P1: Glucose)
 * 12 Oct rejected "Hemolysed"; S5 30 Sep rejected "Clotted".
 */

let lab: TestLab;
let glucose: number;
let cbc: number;
let doctorId: number;
let billing: Client;
let doctor: Client;
const OCT = 'from=2026-10-01&to=2026-10-31';

const db = () => lab.database.db;
const at = (iso: string) => new Date(iso).toISOString();

async function patient(first: string, dob: string, gender: string, createdAt: string): Promise<number> {
  const res = await lab.admin.post('/api/patients', {
    first_name: first,
    last_name: 'Rao',
    date_of_birth: dob,
    gender,
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().patient.id as number;
  await db()
    .updateTable('patients')
    .set({ created_at: at(createdAt) })
    .where('id', '=', id)
    .execute();
  return id;
}

async function bill(body: Record<string, unknown>, createdAt: string): Promise<{ id: number }> {
  const res = await lab.admin.post('/api/bills', { visit_type: 'lab_only', ...body });
  expect(res.statusCode, res.body).toBe(201);
  const b = res.json().bill as { id: number };
  await db()
    .updateTable('bills')
    .set({ created_at: at(createdAt) })
    .where('id', '=', b.id)
    .execute();
  return b;
}

async function pay(
  billId: number,
  amount: number,
  method: string,
  valueDate: string,
  extra: Record<string, unknown> = {},
) {
  const res = await lab.admin.post('/api/payments', { bill_id: billId, amount, method, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().payment.id as number;
  await db().updateTable('payments').set({ value_date: valueDate }).where('id', '=', id).execute();
  return id;
}

async function sample(patientId: number, testIds: number[], collectedAt: string, rejected?: string) {
  const s = await seedSample(db(), lab.organizationId, {
    patientId,
    testIds,
    status: rejected ? 'rejected' : 'processing',
  });
  await db()
    .updateTable('samples')
    .set({ collection_date: at(collectedAt), created_at: at(collectedAt), rejection_reason: rejected ?? null })
    .where('id', '=', s.id)
    .execute();
  return s.id;
}

async function verified(sampleId: number, patientId: number, testId: number, collectedAt: string, minutes: number) {
  const id = await seedResult(db(), lab.organizationId, {
    sampleId,
    patientId,
    testId,
    value: '100',
    flag: 'normal',
    status: 'verified',
  });
  const t = Date.parse(collectedAt);
  await db()
    .updateTable('test_results')
    .set({
      entered_at: new Date(t + 10 * 60_000).toISOString(),
      verified_at: new Date(t + minutes * 60_000).toISOString(),
    })
    .where('id', '=', id)
    .execute();
  return id;
}

const run = async (as: Client, id: string, q = OCT) => {
  const res = await as.get(`/api/reports/${id}?${q}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ report: ReportResult }>().report;
};

beforeAll(async () => {
  lab = await makeLab();
  glucose = (
    await lab.admin.post('/api/tests', { name: 'Glucose Fasting', code: 'GLUF', price: 200, category: 'Biochemistry' })
  ).json().test.id;
  cbc = (
    await lab.admin.post('/api/tests', {
      name: 'Complete Blood Count',
      code: 'CBCX',
      price: 400,
      category: 'Hematology',
    })
  ).json().test.id;
  await db().updateTable('tests').set({ turnaround_hours: 2 }).where('id', '=', glucose).execute();
  await db().updateTable('tests').set({ turnaround_hours: 1 }).where('id', '=', cbc).execute();
  doctorId = (await createUserVia(lab.admin, { role: 'doctor', first_name: 'Devi', last_name: 'Menon' })).id;

  const p1 = await patient('Arun', '1980-01-01', 'Male', '2026-10-05T06:00:00Z');
  const p2 = await patient('Bina', '2010-06-15', 'Female', '2026-10-31T18:29:00Z'); // 31 Oct 23:59 IST
  await patient('Chitra', '1990-02-02', 'Female', '2026-10-31T18:30:00Z'); // 1 Nov 00:00 IST

  const b1 = await bill(
    {
      patient_id: p1,
      doctor_id: doctorId,
      items: [
        { item_type: 'test', item_id: glucose },
        { item_type: 'test', item_id: cbc, discount_percent: 10 },
      ],
    },
    '2026-10-10T18:29:59Z',
  );
  const cash = await pay(b1.id, 560, 'cash', '2026-10-10');
  const refund = await lab.admin.post(`/api/payments/${cash}/refund`, { amount: 60, reason: 'Test not done' });
  expect(refund.statusCode, refund.body).toBe(201);
  await db().updateTable('payments').set({ value_date: '2026-10-12' }).where('refund_of', '=', cash).execute();
  const b2 = await bill(
    { patient_id: p2, items: [{ item_type: 'test', item_id: glucose, qty: 2 }], discount_percentage: 10 },
    '2026-10-10T18:30:00Z',
  );
  await pay(b2.id, 100, 'upi', '2026-10-11', { reference: 'UPI-1001' });
  const b3 = await bill({ patient_id: p1, items: [{ item_type: 'test', item_id: cbc }] }, '2026-10-11T05:00:00Z');
  await db()
    .updateTable('bills')
    .set({ cancelled_at: at('2026-10-11T06:00:00Z'), cancel_reason: 'Duplicate' })
    .where('id', '=', b3.id)
    .execute();
  await bill(
    { patient_id: p1, doctor_id: doctorId, items: [{ item_type: 'test', item_id: glucose }] },
    '2026-09-30T18:29:59Z',
  );
  // The bills' own tubes (pending, made now) are not part of October's lab work.
  await db().deleteFrom('sample_tests').execute();
  await db().deleteFrom('samples').execute();

  const s1 = await sample(p1, [glucose, cbc], '2026-10-10T04:00:00Z');
  await verified(s1, p1, glucose, '2026-10-10T04:00:00Z', 30);
  await verified(s1, p1, cbc, '2026-10-10T04:00:00Z', 90);
  const s2 = await sample(p2, [glucose], '2026-10-11T04:00:00Z');
  const critical = await verified(s2, p2, glucose, '2026-10-11T04:00:00Z', 60);
  await db().updateTable('test_results').set({ is_critical: 1 }).where('id', '=', critical).execute();
  await db()
    .insertInto('critical_calls')
    .values({
      organization_id: lab.organizationId,
      result_id: critical,
      called_to: 'Dr Menon',
      called_at: at('2026-10-11T04:25:00Z'), // entered 04:10, called 15 minutes later
      read_back: 1,
      notes: null,
      recorded_by: null,
      recorded_by_name: 'Asha Admin',
      created_at: at('2026-10-11T04:25:00Z'),
    })
    .execute();
  await sample(p2, [cbc], '2026-10-12T04:00:00Z', 'Hemolysed');
  await sample(p1, [glucose], '2026-10-12T06:00:00Z', 'Hemolysed');
  await sample(p1, [glucose], '2026-09-30T18:29:00Z', 'Clotted');

  billing = await lab.as('billing_staff');
  doctor = await lab.as('doctor');
});
afterAll(() => lab.close());

const byKey = (r: ReportResult, key: string) => r.rows.map((row) => row[key]);

describe('built-in reports on known data', () => {
  const cases: { id: string; q: string; rows: Record<string, unknown>[]; totals?: Record<string, unknown> }[] = [
    {
      id: 'revenue-by-test',
      q: OCT,
      rows: [
        { test_name: 'Glucose Fasting', category: 'Biochemistry', count: 3, revenue: 600 },
        { test_name: 'Complete Blood Count', category: 'Hematology', count: 1, revenue: 360 },
      ],
      totals: { count: 4, revenue: 960 },
    },
    // 23:59:59 IST on the 10th is the 10th; 00:00:00 IST is the 11th (the cancelled bill is left out).
    {
      id: 'revenue-by-test',
      q: 'from=2026-10-10&to=2026-10-10',
      rows: [
        { test_name: 'Complete Blood Count', count: 1, revenue: 360 },
        { test_name: 'Glucose Fasting', count: 1, revenue: 200 },
      ],
      totals: { count: 2, revenue: 560 },
    },
    {
      id: 'revenue-by-test',
      q: 'from=2026-10-11&to=2026-10-11',
      rows: [{ test_name: 'Glucose Fasting', count: 2, revenue: 400 }],
      totals: { count: 2, revenue: 400 },
    },
    { id: 'revenue-by-test', q: 'from=2026-08-01&to=2026-08-31', rows: [], totals: { count: 0, revenue: 0 } },
    {
      id: 'daily-collection',
      q: 'from=2026-10-10&to=2026-10-12',
      rows: [
        { date: '2026-10-10', cash: 560, upi: 0, refunds: 0, total: 560 },
        { date: '2026-10-11', cash: 0, upi: 100, refunds: 0, total: 100 },
        { date: '2026-10-12', cash: 0, upi: 0, refunds: 60, total: -60 },
      ],
      totals: { cash: 560, upi: 100, refunds: 60, total: 600 },
    },
    {
      id: 'dues',
      q: OCT,
      rows: [
        { bill_date: '2026-10-10', amount: 560, paid: 500, due: 60 },
        { bill_date: '2026-10-11', amount: 360, paid: 100, due: 260 },
      ],
      totals: { bills: 2, amount: 920, paid: 600, due: 320 },
    },
    {
      id: 'discounts',
      q: OCT,
      rows: [
        {
          user: 'Asha Admin',
          bills: 2,
          discounted_bills: 2,
          line_discounts: 40,
          bill_discounts: 40,
          total_discount: 80,
        },
      ],
      totals: { bills: 2, total_discount: 80 },
    },
    {
      id: 'referrals-by-doctor',
      q: OCT,
      rows: [
        { doctor_name: 'Devi Menon', referrals: 1, patients: 1, revenue: 560, collected: 500 },
        {
          doctor_id: null,
          doctor_name: 'No referring doctor',
          referrals: 1,
          patients: 1,
          revenue: 360,
          collected: 100,
        },
      ],
      totals: { referrals: 2, revenue: 920 },
    },
    {
      id: 'patient-register',
      q: OCT,
      rows: [
        { name: 'Arun Rao', gender: 'Male', age: 46 },
        { name: 'Bina Rao', gender: 'Female', age: 16 },
      ],
      totals: { patients: 2, male: 1, female: 1 },
    },
    {
      id: 'workload-by-test',
      q: OCT,
      rows: [
        { test_name: 'Glucose Fasting', department: 'Biochemistry', ordered: 3, resulted: 2, verified: 2, rejected: 1 },
        {
          test_name: 'Complete Blood Count',
          department: 'Hematology',
          ordered: 2,
          resulted: 1,
          verified: 1,
          rejected: 1,
        },
      ],
      totals: { ordered: 5, resulted: 3, verified: 3 },
    },
    {
      id: 'tat-by-test',
      q: OCT,
      rows: [
        {
          test_name: 'Complete Blood Count',
          results: 1,
          median_minutes: 90,
          p90_minutes: 90,
          target_minutes: 60,
          over_target: 1,
        },
        {
          test_name: 'Glucose Fasting',
          results: 2,
          median_minutes: 45,
          p90_minutes: 57,
          target_minutes: 120,
          over_target: 0,
        },
      ],
      totals: { results: 3, median_minutes: 60, p90_minutes: 84 },
    },
    {
      id: 'rejections',
      q: OCT,
      rows: [{ reason: 'Hemolysed', rejected: 2, percent_of_samples: 50 }],
      totals: { samples: 4, rejected: 2, percent_of_samples: 50 },
    },
    {
      id: 'rejections',
      q: 'from=2026-09-30&to=2026-09-30',
      rows: [{ reason: 'Clotted', rejected: 1, percent_of_samples: 100 }],
    },
    {
      id: 'rejections',
      q: 'from=2026-08-01&to=2026-08-31',
      rows: [],
      totals: { samples: 0, rejected: 0, percent_of_samples: 0 },
    },
    {
      id: 'critical-values',
      q: OCT,
      rows: [{ test_name: 'Glucose Fasting', minutes_to_call: 15 }],
      totals: { critical: 1, called: 1, not_called: 0, median_minutes_to_call: 15 },
    },
  ];

  it.each(cases)('$id ($q)', async ({ id, q, rows, totals }) => {
    const r = await run(lab.admin, id, q);
    expect(r.id).toBe(id);
    expect(r.rows).toHaveLength(rows.length);
    rows.forEach((row, i) => expect(r.rows[i]).toMatchObject(row));
    if (totals) expect(r.totals).toMatchObject(totals);
    expect(r.chart).not.toBeNull();
    for (const c of r.columns) expect(typeof c.label).toBe('string');
  });

  it('revenue-by-test rows carry test_id, test_name, count and revenue; the sum equals the bill lines', async () => {
    const r = await run(lab.admin, 'revenue-by-test');
    expect(byKey(r, 'test_id')).toEqual([glucose, cbc]);
    const lines = await db()
      .selectFrom('bill_items as i')
      .innerJoin('bills as b', 'b.id', 'i.bill_id')
      .select((eb) => eb.fn.sum<number>('i.total_paise').as('s'))
      .where('b.organization_id', '=', lab.organizationId)
      .where('b.cancelled_at', 'is', null)
      .where('b.created_at', '>=', '2026-09-30T18:30:00.000Z')
      .where('b.created_at', '<', '2026-10-31T18:30:00.000Z')
      .executeTakeFirstOrThrow();
    expect(Number(lines.s) / 100).toBe(r.totals!.revenue);
  });

  it('the last 7/30 days by range: nothing of October 2026 in a range ending today far later', async () => {
    const r = await run(lab.admin, 'revenue-by-test', 'range=7');
    expect(r.rows).toEqual([]);
    expect(r.to >= '2026-11-26').toBe(true);
  });
});

describe('files, runs and the catalogue', () => {
  it('CSV, XLSX and PDF downloads; each run recorded and the downloads audited', async () => {
    const before = (await lab.admin.get('/api/reports')).json<ReportCatalogue>();
    const was = before.reports.find((r) => r.id === 'revenue-by-test')!;
    const csv = await lab.admin.get(`/api/reports/revenue-by-test?${OCT}&format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toContain('revenue-by-test-2026-10-01-to-2026-10-31.csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Test ID,Test,Category,Count,Revenue');
    expect(lines[1]).toBe(`${glucose},Glucose Fasting,Biochemistry,3,600`);
    expect(lines.at(-1)).toBe(',Total,,4,960');
    const xlsx = await lab.admin.get(`/api/reports/dues?${OCT}&format=xlsx`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const pdf = await lab.admin.get(`/api/reports/tat-by-test?${OCT}&format=pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const after = (await lab.admin.get('/api/reports')).json<ReportCatalogue>();
    const now = after.reports.find((r) => r.id === 'revenue-by-test')!;
    expect(now.count).toBe(was.count + 1);
    expect(now.last_generated).not.toBeNull();
    expect(after.cards.total_reports).toBe(before.cards.total_reports + 3);
    expect(after.cards.generated_today).toBe(before.cards.generated_today + 3);
    expect(after.cards.active_reports).toBe(10);
    expect(after.data_summary).toMatchObject({ patients: 3, doctors: 2, samples: 5, test_results: 3, bills: 4 });
    const audit = await auditRowsFor(lab, 'report', 'revenue-by-test');
    expect(audit.some((a) => a.action === 'export' && String(a.new_values).includes('"format":"csv"'))).toBe(true);
  });

  it('the JSON view pages its rows on request: the totals and chart stay the whole period, a later page is not another run', async () => {
    for (const id of ['patient-register', 'dues', 'revenue-by-test', 'daily-collection']) {
      const all = await run(lab.admin, id);
      expect(all.page).toBeNull();
      expect(all.row_count, id).toBe(all.rows.length);
      expect(all.row_count, id).toBeGreaterThan(1);
      const before = (await lab.admin.get('/api/reports')).json<ReportCatalogue>();
      const pages = [];
      for (let page = 1; page <= all.row_count + 1; page++) {
        const r = await run(lab.admin, id, `${OCT}&page=${page}&limit=1`);
        expect(r.page).toEqual({ page, limit: 1 });
        expect(r.row_count, id).toBe(all.row_count);
        expect(r.totals, id).toEqual(all.totals);
        expect(r.chart, id).toEqual(all.chart);
        pages.push(...r.rows);
      }
      // Every row once, in the same order; past the last page, no rows.
      expect(pages, id).toEqual(all.rows);
      const after = (await lab.admin.get('/api/reports')).json<ReportCatalogue>();
      expect(after.cards.total_reports, id).toBe(before.cards.total_reports + 1);
    }
    // A limit alone is the first page; a page alone has 50 rows.
    const first = await run(lab.admin, 'patient-register', `${OCT}&limit=1`);
    expect(first.page).toEqual({ page: 1, limit: 1 });
    expect((await run(lab.admin, 'patient-register', `${OCT}&page=1`)).page).toEqual({ page: 1, limit: 50 });
  });

  it('filters the catalogue by type; Total Revenue is the net collected in the period', async () => {
    const c = (await lab.admin.get(`/api/reports?type=laboratory&${OCT}`)).json<ReportCatalogue>();
    expect(c.reports.map((r) => r.id).sort()).toEqual([
      'critical-values',
      'rejections',
      'tat-by-test',
      'workload-by-test',
    ]);
    expect(c.cards.total_revenue).toBe(600);
  });

  it('custom report: saved to the catalogue, runs with its columns and filters, deleted', async () => {
    const made = await lab.admin.post('/api/reports', {
      name: 'Part-paid bills',
      entity: 'bills',
      columns: ['bill_number', 'final_amount', 'due'],
      filters: { status: 'partial' },
      range_days: 90,
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().report.id as string;
    expect(id).toMatch(/^custom-\d+$/);
    const listed = (await lab.admin.get('/api/reports?type=financial')).json<ReportCatalogue>().reports;
    expect(listed.find((r) => r.id === id)).toMatchObject({ name: 'Part-paid bills', custom: true, count: 0 });
    const r = await run(lab.admin, id);
    expect(r.columns.map((c) => c.key)).toEqual(['bill_number', 'final_amount', 'due']);
    // B1 (refunded 60: paid 500 of 560) and B2 (100 of 360) are part paid; the cancelled bill is not.
    expect(r.rows.map((x) => [x.final_amount, x.due])).toEqual([
      [560, 60],
      [360, 260],
    ]);
    const other = await otherLabAdmin(lab);
    expect((await other.admin.get(`/api/reports/${id}`)).statusCode).toBe(404);
    expect((await other.admin.delete(`/api/reports/${id}`)).statusCode).toBe(404);
    expect((await lab.admin.delete(`/api/reports/${id}`)).statusCode).toBe(200);
    expect((await lab.admin.get(`/api/reports/${id}`)).statusCode).toBe(404);
    expect((await lab.admin.delete('/api/reports/dues')).statusCode).toBe(403);
  });

  it('another lab sees none of these rows', async () => {
    const other = await otherLabAdmin(lab);
    for (const id of ['revenue-by-test', 'daily-collection', 'workload-by-test', 'patient-register']) {
      const r = await run(other.admin, id);
      expect(r.rows.filter((x) => Object.values(x).some((v) => typeof v === 'number' && v !== 0))).toEqual([]);
    }
    expect((await other.admin.get('/api/reports')).json<ReportCatalogue>().data_summary.patients).toBe(0);
  });

  it('the monthly management report: figures as JSON and one PDF', async () => {
    const m = await lab.admin.get('/api/comprehensive-reports/monthly?month=2026-10');
    expect(m.statusCode, m.body).toBe(200);
    const monthly = m.json().monthly;
    expect(monthly).toMatchObject({ month: '2026-10', from: '2026-10-01', to: '2026-10-31' });
    const fig = (label: string) => monthly.figures.find((f: { label: string }) => f.label === label)?.value;
    expect(fig('Collected (net of refunds)')).toBe(600);
    expect(fig('Bills made')).toBe(2);
    expect(fig('Sample rejection rate')).toBe(50);
    expect(fig('Median turnaround (minutes)')).toBe(60);
    const pdf = await lab.admin.get('/api/comprehensive-reports/monthly?month=2026-10&format=pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('permissions and bad parameters', () => {
  it('view_reports to read; each report also needs the permissions of its rows; CSV needs export_data', async () => {
    const receptionist = await lab.as('receptionist');
    expect((await receptionist.get('/api/reports')).statusCode).toBe(403);
    expect((await receptionist.get('/api/reports/dues')).statusCode).toBe(403);
    const anon = await lab.app.inject({ method: 'GET', url: '/api/reports' });
    expect(anon.statusCode).toBe(401);

    const ids = (await billing.get('/api/reports')).json<ReportCatalogue>().reports.map((r) => r.id);
    expect(ids).toContain('revenue-by-test');
    expect(ids).not.toContain('tat-by-test');
    expect((await billing.get('/api/reports/tat-by-test')).statusCode).toBe(403);
    expect((await billing.get(`/api/reports/dues?${OCT}`)).statusCode).toBe(200);
    expect((await billing.get(`/api/reports/dues?${OCT}&format=csv`)).statusCode).toBe(403);
    expect((await billing.get(`/api/reports/dues?${OCT}&format=pdf`)).statusCode).toBe(200);
    // Saving a custom report needs create_reports.
    expect(
      (await billing.post('/api/reports', { name: 'x', entity: 'bills', columns: ['bill_number'] })).statusCode,
    ).toBe(403);

    // A doctor limited to their own patients gets the lab's aggregates, not its patient registers.
    expect((await doctor.get(`/api/reports/workload-by-test?${OCT}`)).statusCode).toBe(200);
    expect((await doctor.get(`/api/reports/patient-register?${OCT}`)).statusCode).toBe(403);
    const docIds = (await doctor.get('/api/reports')).json<ReportCatalogue>().reports.map((r) => r.id);
    expect(docIds).not.toContain('patient-register');
    expect(docIds).not.toContain('revenue-by-test');
  });

  const bad: [string, string][] = [
    ['/api/reports/dues?from=2026-13-01', 'from'],
    ['/api/reports/dues?from=2026-10-10&to=2026-10-01', 'to'],
    ['/api/reports/dues?from=2025-01-01&to=2026-10-01', 'to'],
    ['/api/reports/dues?range=15', 'range'],
    ['/api/reports/dues?range=7&from=2026-10-01', 'range'],
    ['/api/reports/dues?format=doc', 'format'],
    ['/api/reports/dues?page=0', 'page'],
    ['/api/reports/dues?page=1.5', 'page'],
    ['/api/reports/dues?limit=201', 'limit'],
    ['/api/reports/dues?limit=x', 'limit'],
    ['/api/reports/dues?page=2&format=csv', 'page'],
    ['/api/reports/Not_An_Id', 'id'],
    ['/api/reports?type=weekly', 'type'],
    ['/api/comprehensive-reports/monthly?month=2026-13', 'month'],
    ['/api/comprehensive-reports/monthly', 'month'],
  ];
  it.each(bad)('%s -> 400 naming %s', async (url, field) => {
    const res = await lab.admin.get(url);
    expect(res.statusCode, res.body).toBe(400);
    expect(badFields(res)).toContain(field);
  });

  it('unknown report -> 404; a bad custom report -> 400 naming the field, nothing saved', async () => {
    expect((await lab.admin.get('/api/reports/no-such-report')).statusCode).toBe(404);
    const before = (await lab.admin.get('/api/reports')).json<ReportCatalogue>().reports.length;
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'X', entity: 'bills', columns: ['bill_number', 'secret'] }, 'columns.1'],
      [{ name: 'X', entity: 'bills', columns: [] }, 'columns'],
      [{ name: 'X', entity: 'invoices', columns: ['id'] }, 'entity'],
      [{ name: 'X', entity: 'bills', columns: ['bill_number'], filters: { status: 'lost' } }, 'filters.status'],
      [{ name: 'X', entity: 'bills', columns: ['bill_number'], filters: { doctor: '1' } }, 'filters.doctor'],
      [{ name: '', entity: 'bills', columns: ['bill_number'] }, 'name'],
      [{ name: 'X', entity: 'bills', columns: ['bill_number'], range_days: 45 }, 'range_days'],
    ];
    for (const [body, field] of cases) {
      const res = await lab.admin.post('/api/reports', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(badFields(res)).toContain(field);
    }
    expect((await lab.admin.get('/api/reports')).json<ReportCatalogue>().reports.length).toBe(before);
  });
});
