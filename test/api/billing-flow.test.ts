import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeLab, tempDir, type TestLab } from '../helpers.js';

let lab: TestLab;
let testA: number;
let testB: number;
let profile: number;
let pkg: number;
let doctor: number;
let patient: number;

beforeAll(async () => {
  lab = await makeLab();
  const a = lab.admin;
  testA = (
    await a.post('/api/tests', {
      name: 'Haemoglobin',
      code: 'HB',
      price: 150,
      category: 'Haematology',
      unit: 'g/dL',
      normal_range: '13-17',
      // Taxable, to show the per-line GST rule (diagnostic tests are exempt by default).
      tax_category: 'gst_18',
      sac_code: '999316',
    })
  ).json().test.id;
  testB = (
    await a.post('/api/tests', { name: 'Fasting Blood Sugar', code: 'FBS', price: 100.5, category: 'Diabetes' })
  ).json().test.id;
  profile = (
    await a.post('/api/test-profiles', { name: 'Diabetes Profile', code: 'DIAB', price: 450, test_ids: [testB] })
  ).json().profile.id;
  pkg = (
    await a.post('/api/test-packages', {
      name: 'Health Check',
      code: 'HC1',
      price: 1999,
      test_ids: [testA],
      profile_ids: [profile],
      duration: '1 day',
    })
  ).json().package.id;
  doctor = (
    await a.post('/api/users', {
      first_name: 'Priya',
      last_name: 'Menon',
      email: 'priya@lab.test',
      role: 'doctor',
      password: 'longpassword1',
      consultation_fee: 500,
    })
  ).json().user.id;
  patient = (
    await a.post('/api/patients', {
      first_name: 'Ravi',
      last_name: 'Shankar',
      date_of_birth: '1985-02-10',
      gender: 'male',
    })
  ).json().patient.id;
});
afterAll(() => lab.close());

describe('OP bill flow', () => {
  it('bills a test, a profile and a package with discounts and tax, computed in paise on the server', async () => {
    const res = await lab.admin.post('/api/bills', {
      patient_id: patient,
      doctor_id: doctor,
      items: [
        { item_type: 'test', item_id: testA, qty: 2, discount_percent: 10 },
        { item_type: 'profile', item_id: profile },
        { item_type: 'package', item_id: pkg, discount_percent: 5 },
      ],
      discount_percentage: 10,
      payment_method: 'upi',
      total_amount: 1,
      final_amount: 1,
      // The package holds the test and the profile: charged again only when the biller confirms it.
      confirm_duplicates: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const bill = res.json().bill;
    // lines: 300 - 30 = 270; 450; 1999 - 99.95 = 1899.05 -> subtotal 2619.05; +500 fee = 3119.05
    // discount 10% = 311.905 -> 311.91; discounted 2807.14. GST per line (src/shared/gst.ts): the
    // discount shared in proportion gives the taxable Haemoglobin line 270 - 27.00 = 243.00; at 18%
    // (9% + 9%, 21.87 each) 43.74; the profile, package and fee are exempt. Final 2807.14 + 43.74 = 2850.88
    expect(bill.subtotal).toBe(2619.05);
    expect(bill.consultation_fee).toBe(500);
    expect(bill.discount_amount).toBe(311.91);
    expect(bill.tax_amount).toBe(43.74);
    expect(bill.final_amount).toBe(2850.88);
    expect(
      bill.items.map((i: { tax_category: string; taxable: number; tax: number; gst_percent: number }) => [
        i.tax_category,
        i.gst_percent,
        i.taxable,
        i.tax,
      ]),
    ).toEqual([
      ['gst_18', 18, 243, 43.74],
      ['exempt', 0, 405, 0],
      ['exempt', 0, 1709.14, 0],
    ]);
    expect(bill.payment_status).toBe('unpaid');
    expect(bill.bill_number).toMatch(/^OPB\d{12}(-\d+)?$/);
    expect(bill.items.map((i: { particulars: string }) => i.particulars)).toEqual([
      'Haemoglobin (Test)',
      'Diabetes Profile (Profile)',
      'Health Check (Package)',
    ]);

    const half = await lab.admin.post(`/api/bills/${bill.id}/payments`, { amount: 1425.44, method: 'cash' });
    expect(half.statusCode, half.body).toBe(201);
    expect(half.json().bill.payment_status).toBe('partial');
    const over = await lab.admin.post(`/api/bills/${bill.id}/payments`, { amount: 2000, method: 'cash' });
    expect(over.statusCode).toBe(409);
    const rest = await lab.admin.post(`/api/bills/${bill.id}/payments`, {
      amount: 1425.44,
      method: 'card',
      reference: 'TXN1',
    });
    expect(rest.json().bill.payment_status).toBe('paid');
    expect(rest.json().bill.status).toBe('paid');

    const pdf = await lab.admin.get(`/api/bills/${bill.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    const file = join(tempDir(), 'bill.pdf');
    writeFileSync(file, pdf.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    expect(text).toContain(bill.bill_number);
    expect(text).toContain('₹2,850.88');
    expect(text).toContain('Rupees Two Thousand Eight Hundred Fifty and Eighty Eight Paise Only');
    // One tax rule on the page: the taxable line's 18, the exempt lines, and the GST it adds up to.
    expect(text).toContain('Exempt');
    expect(text).toMatch(/GST \(per line\)\s+₹43\.74/);
    expect(text).not.toContain('Tax (0%)');
  });

  it('a lab-only bill without a doctor adds no consultation fee', async () => {
    const res = await lab.admin.post('/api/bills', {
      patient_id: patient,
      items: [{ item_type: 'test', item_id: testB }],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().bill.consultation_fee).toBe(0);
    expect(res.json().bill.final_amount).toBe(100.5);
  });

  it('a lab technician cannot bill', async () => {
    const tech = await lab.as('lab_technician');
    const res = await tech.post('/api/bills', { patient_id: patient, items: [{ item_type: 'test', item_id: testB }] });
    expect(res.statusCode).toBe(403);
  });
});

describe('records that bills keep', () => {
  it('a patient with bills cannot be deleted', async () => {
    const res = await lab.admin.delete(`/api/patients/${patient}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('bill');
    expect((await lab.admin.get(`/api/patients/${patient}`)).statusCode).toBe(200);
  });

  it('a test on a bill cannot be deleted, only deactivated', async () => {
    const res = await lab.admin.delete(`/api/tests/${testB}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/deactivate it instead/);
  });
});

describe('bill numbers', () => {
  it('concurrent saves in the same minute never collide', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        lab.admin.post('/api/bills', { patient_id: patient, items: [{ item_type: 'test', item_id: testA }] }),
      ),
    );
    for (const r of results) expect(r.statusCode, r.body).toBe(201);
    const numbers = results.map((r) => r.json().bill.bill_number as string);
    expect(new Set(numbers).size).toBe(numbers.length);
    for (const n of numbers) expect(n).toMatch(/^OPB\d{12}(-\d+)?$/);
  });

  it('exports the filtered bills as CSV', async () => {
    const res = await lab.admin.get('/api/bills/export?payment_status=paid');
    expect(res.statusCode).toBe(200);
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toContain('bill_number');
    expect(lines.length).toBe(2);
  });
});
