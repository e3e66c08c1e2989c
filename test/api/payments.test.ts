import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import { auditRowsFor, badFields, otherLabAdmin } from './support.js';
import { localDate } from '../../src/shared/time.js';
import type { LedgerEntry } from '../../src/shared/schemas/payments.js';

/** The payments ledger: arithmetic, cheques, refunds, advances, filters, access. */

let lab: TestLab;
let testId: number;
let staff: Client;

async function patient(): Promise<number> {
  const res = await lab.admin.post('/api/patients', {
    first_name: 'Meera',
    last_name: 'Iyer',
    date_of_birth: '1980-01-01',
    // A new patient each time (the same details would be offered as the first one).
    confirm_new: true,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().patient.id;
}

/** A bill of ₹1,000.00 for a new patient. */
async function bill(): Promise<{ id: number; patient_id: number; bill_number: string }> {
  const res = await lab.admin.post('/api/bills', {
    patient_id: await patient(),
    items: [{ item_type: 'test', item_id: testId, gst_percent: 0 }],
  });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().bill.final_amount).toBe(1000);
  return res.json().bill;
}

async function count(table: 'payments' | 'day_closings'): Promise<number> {
  const r = await lab.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

async function billState(id: number) {
  const b = (await lab.admin.get(`/api/bills/${id}`)).json().bill;
  return { paid: b.paid_amount as number, balance: b.balance as number, payment_status: b.payment_status as string };
}

beforeAll(async () => {
  lab = await makeLab();
  testId = (
    await lab.admin.post('/api/tests', { name: 'Lipid Panel', code: 'LIPID', price: 1000, category: 'Biochemistry' })
  ).json().test.id;
  staff = await lab.as('billing_staff');
});
afterAll(() => lab.close());

type Op =
  | { pay: number; method?: string; advance?: boolean; reference?: string; bank?: string }
  | { refund: number; of: number }
  | { clear: number }
  | { bounce: number };

interface Case {
  name: string;
  ops: Op[];
  paid: number;
  balance: number;
  status: string;
  advance: number;
  statuses: string[];
}

const cheque = { method: 'cheque', reference: '000123', bank: 'State Bank of India' };

const cases: Case[] = [
  {
    name: 'part cash',
    ops: [{ pay: 400.5 }],
    paid: 400.5,
    balance: 599.5,
    status: 'partial',
    advance: 0,
    statuses: ['completed'],
  },
  {
    name: 'cash then UPI to the paisa',
    ops: [{ pay: 333.33 }, { pay: 666.67, method: 'upi', reference: 'UPI-1' }],
    paid: 1000,
    balance: 0,
    status: 'paid',
    advance: 0,
    statuses: ['completed', 'completed'],
  },
  {
    name: 'a part refund',
    ops: [{ pay: 1000 }, { refund: 250.25, of: 0 }],
    paid: 749.75,
    balance: 250.25,
    status: 'partial',
    advance: 0,
    statuses: ['completed', 'completed'],
  },
  {
    name: 'refunded in two steps',
    ops: [{ pay: 600 }, { refund: 100, of: 0 }, { refund: 500, of: 0 }],
    paid: 0,
    balance: 1000,
    status: 'unpaid',
    advance: 0,
    statuses: ['refunded', 'completed', 'completed'],
  },
  {
    name: 'a cheque pending counts on the bill',
    ops: [{ pay: 1000, ...cheque }],
    paid: 1000,
    balance: 0,
    status: 'paid',
    advance: 0,
    statuses: ['pending'],
  },
  {
    name: 'a cheque cleared',
    ops: [{ pay: 700, ...cheque }, { clear: 0 }],
    paid: 700,
    balance: 300,
    status: 'partial',
    advance: 0,
    statuses: ['completed'],
  },
  {
    name: 'a bounced cheque gives the balance back',
    ops: [{ pay: 200 }, { pay: 800, ...cheque }, { bounce: 1 }],
    paid: 200,
    balance: 800,
    status: 'partial',
    advance: 0,
    statuses: ['completed', 'failed'],
  },
  {
    name: 'an over-payment kept as advance',
    ops: [{ pay: 1200.1, advance: true }],
    paid: 1000,
    balance: 0,
    status: 'paid',
    advance: 200.1,
    statuses: ['completed'],
  },
  {
    name: 'a refund takes the advance first',
    ops: [
      { pay: 1200, advance: true },
      { refund: 300, of: 0 },
    ],
    paid: 900,
    balance: 100,
    status: 'partial',
    advance: 0,
    statuses: ['completed', 'completed'],
  },
  {
    name: 'a bounced cheque with an advance takes the advance back too',
    ops: [{ pay: 1500, advance: true, ...cheque }, { bounce: 0 }],
    paid: 0,
    balance: 1000,
    status: 'unpaid',
    advance: 0,
    statuses: ['failed'],
  },
];

describe('ledger arithmetic, paise-exact', () => {
  it.each(cases)('$name', async (c) => {
    const b = await bill();
    const rows: LedgerEntry[] = [];
    for (const op of c.ops) {
      if ('pay' in op) {
        const { pay, ...rest } = op;
        const res = await staff.post('/api/payments', { bill_id: b.id, amount: pay, method: 'cash', ...rest });
        expect(res.statusCode, res.body).toBe(201);
        rows.push(res.json().payment);
      } else if ('refund' in op) {
        const res = await staff.post(`/api/payments/${rows[op.of]!.id}/refund`, {
          amount: op.refund,
          reason: 'Test cancelled',
        });
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json().payment.kind).toBe('refund');
        expect(res.json().payment.amount).toBe(-op.refund);
        rows.push(res.json().payment);
      } else if ('clear' in op) {
        const res = await staff.post(`/api/payments/${rows[op.clear]!.id}/clear`);
        expect(res.statusCode, res.body).toBe(200);
      } else {
        const res = await staff.post(`/api/payments/${rows[op.bounce]!.id}/bounce`, { reason: 'Insufficient funds' });
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    expect(await billState(b.id)).toEqual({ paid: c.paid, balance: c.balance, payment_status: c.status });
    const list = (await staff.get(`/api/payments?bill_id=${b.id}&limit=50`)).json();
    expect(list.payments.map((p: LedgerEntry) => p.status).reverse()).toEqual(c.statuses);
    expect((await staff.get(`/api/patients/${b.patient_id}/advance`)).json().advance).toBe(c.advance);
  });

  it('refuses an over-payment with 409 and stores nothing; the bill screen too', async () => {
    const b = await bill();
    await staff.post('/api/payments', { bill_id: b.id, amount: 900, method: 'cash' });
    const before = await count('payments');
    const res = await staff.post('/api/payments', { bill_id: b.id, amount: 100.01, method: 'cash' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('Amount exceeds the balance of ₹100.00');
    expect((await staff.post(`/api/bills/${b.id}/payments`, { amount: 150, method: 'cash' })).statusCode).toBe(409);
    expect(await count('payments')).toBe(before);
  });

  it('refunds: never more than is left, never of a pending or bounced cheque, never of a refund', async () => {
    const b = await bill();
    const p = (await staff.post('/api/payments', { bill_id: b.id, amount: 500, method: 'cash' })).json().payment;
    const r1 = await staff.post(`/api/payments/${p.id}/refund`, { amount: 400, reason: 'Duplicate' });
    expect(r1.statusCode).toBe(201);
    expect(badFields(await staff.post(`/api/payments/${p.id}/refund`, { amount: 100.01, reason: 'x' }))).toEqual([
      'amount',
    ]);
    expect(
      (await staff.post(`/api/payments/${r1.json().payment.id}/refund`, { amount: 1, reason: 'x' })).statusCode,
    ).toBe(409);
    const chq = (await staff.post('/api/payments', { bill_id: b.id, amount: 100, ...cheque })).json().payment;
    expect((await staff.post(`/api/payments/${chq.id}/refund`, { amount: 10, reason: 'x' })).statusCode).toBe(409);
    expect((await staff.post(`/api/payments/${chq.id}/bounce`, { reason: 'Signature mismatch' })).statusCode).toBe(200);
    expect((await staff.post(`/api/payments/${chq.id}/refund`, { amount: 10, reason: 'x' })).statusCode).toBe(409);
    expect((await staff.post(`/api/payments/${chq.id}/clear`)).statusCode).toBe(409);
    expect((await staff.post(`/api/payments/${p.id}/clear`)).statusCode).toBe(409);
  });

  it('is audited in the same transaction', async () => {
    const b = await bill();
    const p = (await staff.post('/api/payments', { bill_id: b.id, amount: 10, method: 'cash' })).json().payment;
    const rows = await auditRowsFor(lab, 'payment', p.id);
    expect(rows.map((r) => r.action)).toEqual(['create']);
  });
});

describe('list, search and filters', () => {
  it('finds by bill number, reference, patient and method, with totals of all pages', async () => {
    const b = await bill();
    await staff.post('/api/payments', { bill_id: b.id, amount: 100, method: 'upi', reference: 'UPIREF778899' });
    await staff.post('/api/payments', { bill_id: b.id, amount: 50, method: 'card' });
    const byRef = (await staff.get('/api/payments?search=upiref7788')).json();
    expect(byRef.payments).toHaveLength(1);
    expect(byRef.payments[0].bill_number).toBe(b.bill_number);
    const byBill = (await staff.get(`/api/payments?search=${b.bill_number}&limit=1`)).json();
    expect(byBill.total).toBe(2);
    expect(byBill.payments).toHaveLength(1);
    expect(byBill.summary.received).toBe(150);
    const card = (await staff.get(`/api/payments?search=${b.bill_number}&method=card`)).json();
    expect(card.payments.map((p: LedgerEntry) => p.amount)).toEqual([50]);
    const today = localDate('Asia/Kolkata');
    const dated = (await staff.get(`/api/payments?search=${b.bill_number}&from=${today}&to=${today}`)).json();
    expect(dated.total).toBe(2);
    const tomorrow = (await staff.get(`/api/payments?search=${b.bill_number}&from=2999-01-01`)).json();
    expect(tomorrow.total).toBe(0);
  });
});

describe('Advanced Billing: bills by the method money came by', () => {
  it('filters bills by a method of their ledger rows (not a bounced cheque), lists each bill’s methods, and sums what is overdue', async () => {
    const before = (await staff.get('/api/bills/summary')).json().summary;
    const [a, b, c] = [await bill(), await bill(), await bill()];
    await staff.post('/api/payments', { bill_id: a.id, amount: 300, method: 'upi', reference: 'UPI-AB-1' });
    await staff.post('/api/payments', { bill_id: a.id, amount: 200, method: 'cash' });
    const chq = (
      await staff.post('/api/payments', {
        bill_id: b.id,
        amount: 1000,
        method: 'cheque',
        reference: '000451',
        bank: 'Indian Bank',
      })
    ).json().payment;
    const numbers = (q: string) =>
      staff.get(`/api/bills?${q}&limit=200`).then((r) => {
        expect(r.statusCode, r.body).toBe(200);
        return (r.json().bills as { bill_number: string }[]).map((x) => x.bill_number);
      });
    expect(await numbers('payment_method=upi')).toContain(a.bill_number);
    expect(await numbers('payment_method=cash')).toContain(a.bill_number);
    expect(await numbers('payment_method=card')).not.toContain(a.bill_number);
    expect(await numbers('payment_method=cheque')).toContain(b.bill_number);
    expect(await numbers('payment_method=cheque')).not.toContain(a.bill_number);
    expect((await staff.post(`/api/payments/${chq.id}/bounce`, { reason: 'Insufficient funds' })).statusCode).toBe(200);
    expect(await numbers('payment_method=cheque')).not.toContain(b.bill_number);

    // Bills of one minute share a number's prefix (-2, -3 after it): find A's row by its exact number.
    const listed = (await staff.get(`/api/bills?search=${a.bill_number}`))
      .json()
      .bills.find((x: { bill_number: string }) => x.bill_number === a.bill_number);
    expect(listed.paid_methods).toEqual(['upi', 'cash']);
    expect((await staff.get(`/api/bills/${a.id}`)).json().bill.paid_methods).toEqual(['upi', 'cash']);
    expect((await staff.get(`/api/bills/${b.id}`)).json().bill.paid_methods).toEqual([]);

    // C becomes overdue when its due date passes: ₹1,000 more overdue, one more overdue bill.
    expect((await lab.admin.put(`/api/bills/${c.id}`, { due_date: '2020-01-01' })).statusCode).toBe(200);
    const after = (await staff.get('/api/bills/summary')).json().summary;
    expect(after.overdue_count).toBe(before.overdue_count + 1);
    expect(after.overdue_amount).toBe(before.overdue_amount + 1000);
    expect(await numbers('status=overdue')).toContain(c.bill_number);

    expect(badFields(await staff.get('/api/bills?payment_method=bitcoin'))).toEqual(['payment_method']);
  });
});

describe('bad input: 400 naming the field, nothing stored', () => {
  const bodies: [string, () => Promise<Record<string, unknown>>, string][] = [
    ['no bill', async () => ({ amount: 10, method: 'cash' }), 'bill_id'],
    ['an unknown bill', async () => ({ bill_id: 999999, amount: 10, method: 'cash' }), 'bill_id'],
    ['a zero amount', async () => ({ bill_id: (await bill()).id, amount: 0, method: 'cash' }), 'amount'],
    ['a negative amount', async () => ({ bill_id: (await bill()).id, amount: -5, method: 'cash' }), 'amount'],
    ['three decimals', async () => ({ bill_id: (await bill()).id, amount: 1.005, method: 'cash' }), 'amount'],
    ['an unknown method', async () => ({ bill_id: (await bill()).id, amount: 10, method: 'bitcoin' }), 'method'],
    ['UPI without its reference', async () => ({ bill_id: (await bill()).id, amount: 10, method: 'upi' }), 'reference'],
    [
      'a cheque without its bank',
      async () => ({ bill_id: (await bill()).id, amount: 10, method: 'cheque', reference: '12' }),
      'bank',
    ],
    [
      'a bank transfer without its UTR',
      async () => ({ bill_id: (await bill()).id, amount: 10, method: 'bank_transfer' }),
      'reference',
    ],
    [
      'advance not a boolean',
      async () => ({ bill_id: (await bill()).id, amount: 10, method: 'cash', advance: 'yes' }),
      'advance',
    ],
  ];
  it.each(bodies)('record: %s', async (_n, body, field) => {
    const b = await body();
    const before = await count('payments');
    expect(badFields(await staff.post('/api/payments', b))).toContain(field);
    expect(await count('payments')).toBe(before);
  });

  it('refund, bounce, list, closing and revenue name the field', async () => {
    const b = await bill();
    const p = (await staff.post('/api/payments', { bill_id: b.id, amount: 100, method: 'cash' })).json().payment;
    const before = await count('payments');
    expect(badFields(await staff.post(`/api/payments/${p.id}/refund`, { amount: 10 }))).toEqual(['reason']);
    expect(badFields(await staff.post(`/api/payments/${p.id}/refund`, { amount: 0, reason: 'x' }))).toEqual(['amount']);
    expect(
      badFields(await staff.post(`/api/payments/${p.id}/refund`, { amount: 1, reason: 'x', method: 'gold' })),
    ).toEqual(['method']);
    expect(badFields(await staff.post(`/api/payments/${p.id}/bounce`, {}))).toEqual(['reason']);
    expect(await count('payments')).toBe(before);
    expect(badFields(await staff.get('/api/payments?status=lost'))).toEqual(['status']);
    expect(badFields(await staff.get('/api/payments?from=2026-02-30'))).toEqual(['from']);
    expect(badFields(await staff.get('/api/payments?from=2026-03-02&to=2026-03-01'))).toEqual(['to']);
    expect(badFields(await staff.get('/api/payments/abc'))).toEqual(['id']);
    expect(badFields(await staff.get('/api/revenue/daily?from=2026-13-01'))).toEqual(['from']);
    expect(badFields(await staff.get('/api/revenue/daily?from=2026-03-02&to=2026-03-01'))).toEqual(['to']);
    expect(badFields(await staff.get('/api/revenue/daily?from=2024-01-01&to=2026-01-01'))).toEqual(['to']);
    expect(badFields(await lab.admin.get('/api/revenue/export?format=doc'))).toEqual(['format']);
    const closings = await count('day_closings');
    expect(badFields(await staff.post('/api/closings', { date: '2026-01-01', counted_cash: 10 }))).toEqual([
      'opening_float',
    ]);
    expect(badFields(await staff.post('/api/closings', { date: 'today', opening_float: 0, counted_cash: 10 }))).toEqual(
      ['date'],
    );
    expect(
      badFields(await staff.post('/api/closings', { date: '2999-01-01', opening_float: 0, counted_cash: 10 })),
    ).toEqual(['date']);
    expect(
      badFields(await staff.post('/api/closings', { date: '2026-01-01', opening_float: 0, counted_cash: -1 })),
    ).toEqual(['counted_cash']);
    expect(badFields(await staff.get('/api/closings'))).toEqual(['date']);
    expect(badFields(await lab.admin.put('/api/closings/settings', { closed_day_payments: 'maybe' }))).toEqual([
      'closed_day_payments',
    ]);
    expect(await count('day_closings')).toBe(closings);
  });
});

describe('permissions and labs', () => {
  it('billing staff record, refund and settle; receptionists record but do not refund; technicians see nothing', async () => {
    const b = await bill();
    const reception = await lab.as('receptionist');
    const tech = await lab.as('technician');
    const p = (await reception.post('/api/payments', { bill_id: b.id, amount: 100, method: 'cash' })).json().payment;
    expect(p.processed_by).toBe(reception.userId);
    expect((await reception.post(`/api/payments/${p.id}/refund`, { amount: 1, reason: 'x' })).statusCode).toBe(403);
    expect((await reception.get('/api/revenue/daily')).statusCode).toBe(403);
    for (const url of [
      '/api/payments',
      `/api/payments/${p.id}`,
      '/api/revenue/daily',
      '/api/closings?date=2026-01-01',
    ]) {
      expect((await tech.get(url)).statusCode, url).toBe(403);
    }
    expect((await tech.post('/api/payments', { bill_id: b.id, amount: 1, method: 'cash' })).statusCode).toBe(403);
    expect((await staff.get('/api/revenue/daily')).statusCode).toBe(200);
    expect((await staff.put('/api/closings/settings', { closed_day_payments: 'next_day' })).statusCode).toBe(403);
    // A cashier sees only their own closing; billing staff (manage_bills) anyone's.
    expect((await reception.get(`/api/closings?date=2026-01-01&user_id=${staff.userId}`)).statusCode).toBe(403);
    expect((await staff.get(`/api/closings?date=2026-01-01&user_id=${reception.userId}`)).statusCode).toBe(200);
  });

  it("another lab's payments, bills and closings are invisible", async () => {
    const b = await bill();
    const p = (await staff.post('/api/payments', { bill_id: b.id, amount: 100, method: 'cash' })).json().payment;
    const other = await otherLabAdmin(lab);
    expect((await other.admin.get(`/api/payments/${p.id}`)).statusCode).toBe(404);
    expect((await other.admin.get('/api/payments')).json().total).toBe(0);
    expect((await other.admin.post(`/api/payments/${p.id}/refund`, { amount: 1, reason: 'x' })).statusCode).toBe(404);
    expect(badFields(await other.admin.post('/api/payments', { bill_id: b.id, amount: 1, method: 'cash' }))).toEqual([
      'bill_id',
    ]);
    expect((await other.admin.get(`/api/patients/${b.patient_id}/advance`)).statusCode).toBe(404);
    expect((await other.admin.get('/api/revenue/daily')).json().totals.total).toBe(0);
  });
});
