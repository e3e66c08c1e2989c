import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, tempDir, type TestLab } from '../helpers.js';
import type { Actor } from '../../src/core/context.js';
import { entityNamed, runImport, type ImportResult } from '../../src/core/transfer/service.js';
import { describeRowError } from '../../src/core/transfer/errors.js';

/**
 * Money in an imported bills file is money taken at the counter: its payments and refunds count
 * on their lab day in Revenue, Daily Collection, the monthly report and the Payments list, with the
 * patient and the one who imported them, and a cheque's state and an advance's use come across.
 */

let lab: TestLab;
let importer: Actor;
let dir: string;
let patientCode: string;
let n = 0;

beforeAll(async () => {
  lab = await makeLab();
  importer = { userId: lab.admin.userId, email: lab.admin.email, role: 'admin', organizationId: lab.organizationId };
  dir = tempDir('lims-bills-money-');
  const p = await lab.admin.post('/api/patients', {
    first_name: 'Kavya',
    last_name: 'Iyer',
    date_of_birth: '1985-04-02',
  });
  expect(p.statusCode, p.body).toBe(201);
  patientCode = p.json().patient.patient_id;
  const t = await lab.admin.post('/api/tests', {
    name: 'Glucose Random',
    code: 'GLUX',
    price: 350,
    category: 'Biochemistry',
  });
  expect(t.statusCode, t.body).toBe(201);
});
afterAll(() => lab.close());

const cell = (v: unknown) => `"${JSON.stringify(v).replace(/"/g, '""')}"`;

async function importBills(rows: { number: string; at: string; price: number; payments: unknown[] }[]) {
  n += 1;
  const sub = join(dir, String(n));
  mkdirSync(sub);
  const path = join(sub, 'bills.csv');
  const lines = rows.map(
    (r) =>
      `${r.number},${r.at},${patientCode},lab_only,${cell([{ item_type: 'test', code: 'GLUX', qty: 1, price: r.price }])},${cell(r.payments)}`,
  );
  writeFileSync(path, ['bill_number,created_at,patient_patient_id,visit_type,items,payments', ...lines].join('\n'));
  return runImport(lab.database.db, importer, {
    entity: entityNamed('bills')!,
    path,
    dryRun: false,
    update: false,
    origin: 'cli',
    reportPath: (id) => join(sub, `report-${id}.csv`),
  });
}
const messages = (r: ImportResult) => r.first_errors.map((e) => describeRowError(e, r.unit));

async function get<T>(url: string): Promise<T> {
  const res = await lab.admin.get(url);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json<T>();
}

describe('an imported bill with a payment and a refund', () => {
  it('counts cash 350, refunds 100, net 250 on the bill day on every screen, and the bill paid 250', async () => {
    // 10:00 IST on 5 January 2025; the payment at 10:05, the refund at 18:00.
    const r = await importBills([
      {
        number: 'OPB202501051000',
        at: '2025-01-05T04:30:00Z',
        price: 350,
        payments: [
          { amount: 350, method: 'cash', created_at: '2025-01-05T04:35:00Z' },
          { amount: -100, method: 'cash', reason: 'Test not done', created_at: '2025-01-05T12:30:00Z' },
        ],
      },
    ]);
    expect(r.status, messages(r).join('\n')).toBe('completed');
    const day = 'from=2025-01-05&to=2025-01-05';

    const revenue = await get<{ totals: Record<string, number> }>(`/api/revenue/daily?${day}`);
    expect(revenue.totals).toMatchObject({ cash: 350, refunds: 100, total: 250 });

    const collection = await get<{ report: { rows: Record<string, unknown>[] } }>(
      `/api/reports/daily-collection?${day}`,
    );
    expect(collection.report.rows).toEqual([
      expect.objectContaining({ date: '2025-01-05', cash: 350, refunds: 100, total: 250 }),
    ]);

    const monthly = await get<{ monthly: { figures: { label: string; value: number }[] } }>(
      '/api/comprehensive-reports/monthly?month=2025-01',
    );
    expect(monthly.monthly.figures.find((f) => f.label.startsWith('Collected'))?.value).toBe(250);

    const ledger = await get<{ payments: Record<string, unknown>[]; summary: Record<string, number> }>(
      `/api/payments?${day}`,
    );
    expect(ledger.summary).toMatchObject({ received: 350, refunded: 100, net: 250 });
    // As the counter records them: the patient's, on the lab day, the importer as who took them.
    expect(ledger.payments.map((p) => [p.kind, p.amount, p.payment_date, p.processed_by, p.reason])).toEqual([
      ['refund', -100, '2025-01-05', lab.admin.userId, 'Test not done'],
      ['payment', 350, '2025-01-05', lab.admin.userId, null],
    ]);
    expect(ledger.payments.every((p) => p.patient_code === patientCode)).toBe(true);

    const bill = (await get<{ bills: Record<string, unknown>[] }>('/api/bills?search=OPB202501051000')).bills[0];
    expect(bill).toMatchObject({ final_amount: 350, paid_amount: 250, payment_status: 'partial' });
  });

  it('takes the value date from the file, and keeps a cheque pending or bounced off every day', async () => {
    const r = await importBills([
      {
        number: 'OPB202501061000',
        at: '2025-01-06T04:30:00Z',
        price: 600,
        payments: [
          // Received on the 6th, counted on the 7th (the file says so).
          { amount: 100, method: 'upi', reference: 'UPI-77', value_date: '2025-01-07' },
          { amount: 200, method: 'cheque', reference: '004512', bank: 'SBI', status: 'pending' },
          {
            amount: 300,
            method: 'cheque',
            reference: '004513',
            bank: 'HDFC',
            status: 'failed',
            reason: 'Insufficient funds',
            settled_at: '2025-01-09T06:00:00Z',
          },
        ],
      },
    ]);
    expect(r.status, messages(r).join('\n')).toBe('completed');
    const revenue = await get<{ days: { date: string; upi: number; cheque: number }[] }>(
      '/api/revenue/daily?from=2025-01-06&to=2025-01-09',
    );
    expect(revenue.days.map((d) => [d.date, d.upi, d.cheque])).toEqual([
      ['2025-01-06', 0, 0],
      ['2025-01-07', 100, 0],
      ['2025-01-08', 0, 0],
      ['2025-01-09', 0, 0],
    ]);
    const ledger = await get<{ summary: Record<string, number> }>('/api/payments?from=2025-01-06&to=2025-01-09');
    expect(ledger.summary).toMatchObject({ received: 100, pending: 200, failed: 300 });
    // The pending cheque counts on the bill until it clears; the bounced one does not.
    const bill = (await get<{ bills: Record<string, unknown>[] }>('/api/bills?search=OPB202501061000')).bills[0];
    expect(bill).toMatchObject({ paid_amount: 300, balance: 300 });
  });

  it('refuses what the counter would refuse, naming the payment', async () => {
    const r = await importBills([
      {
        number: 'OPB202501101000',
        at: '2025-01-10T04:30:00Z',
        price: 100,
        payments: [
          { amount: 100, method: 'cash', status: 'pending' },
          { amount: -10, method: 'cash' },
          { amount: 50, method: 'cash', value_date: '2025-01-11', status: 'completed', advance: 60 },
        ],
      },
    ]);
    expect(r.status).toBe('failed');
    expect(messages(r)).toEqual([
      'row 2, column payments: payment 1: only a cheque is pending (pending)',
      'row 2, column payments: payment 2: a refund needs a reason',
      'row 2, column payments: payment 3: advance is the part of the payment kept on account (0 to amount)',
    ]);
    // Spends an advance the patient never had on account.
    const spent = await importBills([
      {
        number: 'OPB202501101001',
        at: '2025-01-10T04:31:00Z',
        price: 100,
        payments: [{ kind: 'advance', amount: 40 }],
      },
    ]);
    expect(messages(spent)).toEqual([
      expect.stringMatching(
        /^row 2, column payments: the advance spent is ₹40\.00 more than the patient had on account/,
      ),
    ]);
  });
});

describe('an advance kept on one bill and spent on another', () => {
  it('is read across the whole file: a bill may spend what a later row of the file kept', async () => {
    const r = await importBills([
      // Billed first, paid later from the advance the next bill's over-payment left on account.
      {
        number: 'OPB202503011000',
        at: '2025-03-01T04:30:00Z',
        price: 200,
        payments: [{ kind: 'advance', amount: 150 }],
      },
      {
        number: 'OPB202503011001',
        at: '2025-03-01T04:31:00Z',
        price: 100,
        payments: [{ amount: 300, method: 'cash', advance: 200 }],
      },
    ]);
    expect(r.status, messages(r).join('\n')).toBe('completed');
    const bills = (await get<{ bills: Record<string, unknown>[] }>('/api/bills?search=OPB20250301')).bills;
    expect(bills.map((b) => [b.bill_number, b.paid_amount])).toEqual([
      ['OPB202503011001', 100],
      ['OPB202503011000', 150],
    ]);
    // The cash counted once, on its day; the advance spent is no money received.
    const revenue = await get<{ totals: Record<string, number> }>('/api/revenue/daily?from=2025-03-01&to=2025-03-01');
    expect(revenue.totals).toMatchObject({ cash: 300, total: 300 });
  });
});

describe('lines with GST and a doctor without an email', () => {
  it('taxes each line by its category, finds the doctor by name, and refuses what is unclear', async () => {
    const doctor = (body: Record<string, unknown>) =>
      lab.admin.post('/api/doctors', { status: 'active', can_sign_in: false, ...body });
    expect((await doctor({ first_name: 'Suresh', last_name: 'Rao' })).statusCode).toBe(201);
    expect((await doctor({ first_name: 'Anil', last_name: 'Shah' })).statusCode).toBe(201);
    expect((await doctor({ first_name: 'anil', last_name: 'SHAH' })).statusCode).toBe(201);
    const items = cell([
      { item_type: 'test', code: 'GLUX', qty: 1, price: 308.74, tax_category: 'gst_12', sac_code: '999722' },
      { item_type: 'test', code: 'GLUX', qty: 1, price: 100, tax_category: 'exempt' },
    ]);
    const header =
      'bill_number,created_at,patient_patient_id,doctor_first_name,doctor_last_name,tax_percentage,tax_amount,items\n';
    n += 1;
    const sub = join(dir, String(n));
    mkdirSync(sub);
    const path = join(sub, 'gst.csv');
    writeFileSync(
      path,
      header +
        `OPB202502011000,2025-02-01T04:30:00Z,${patientCode},Suresh,Rao,0,37.04,${items}\n` +
        `OPB202502011001,2025-02-01T04:31:00Z,${patientCode},Anil,Shah,0,,${items}\n` +
        `OPB202502011002,2025-02-01T04:32:00Z,${patientCode},,,5,,${items}\n`,
    );
    const r = await runImport(lab.database.db, importer, {
      entity: entityNamed('bills')!,
      path,
      dryRun: false,
      update: false,
      origin: 'cli',
      reportPath: (id) => join(sub, `report-${id}.csv`),
    });
    expect(messages(r)).toEqual([
      'row 3, column doctor_first_name: 2 doctors are named Anil Shah: give doctor_email',
      "row 4, column tax_percentage: a bill is taxed per line (the items' tax_category) or at one bill-wide tax %, not both",
    ]);
    // Alone, the first row is stored: 12% of 308.74 as the counter works it, the 100 exempt.
    writeFileSync(path, header + `OPB202502011000,2025-02-01T04:30:00Z,${patientCode},Suresh,Rao,0,37.04,${items}\n`);
    const ok = await runImport(lab.database.db, importer, {
      entity: entityNamed('bills')!,
      path,
      dryRun: false,
      update: false,
      origin: 'cli',
      reportPath: (id) => join(sub, `report-ok-${id}.csv`),
    });
    expect(ok.status, messages(ok).join('\n')).toBe('completed');
    const bill = (await get<{ bills: { id: number }[] }>('/api/bills?search=OPB202502011000')).bills[0]!;
    const full = await get<{ bill: Record<string, unknown> & { items: Record<string, unknown>[] } }>(
      `/api/bills/${bill.id}`,
    );
    expect(full.bill).toMatchObject({
      doctor_first_name: 'Suresh',
      doctor_last_name: 'Rao',
      tax_amount: 37.04,
      final_amount: 445.78,
    });
    expect(full.bill.items.map((i) => i.tax_category)).toEqual(['gst_12', 'exempt']);
  });
});
