import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import { auditRowsFor, badFields, errorBody, otherLabAdmin } from './support.js';
import { localDate } from '../../src/shared/time.js';
import type { LedgerEntry } from '../../src/shared/schemas/payments.js';

/**
 * Spending an advance: money a patient left on account pays a later bill of theirs, as a
 * ledger row of its own that moves no money (so revenue and the closing do not count it twice).
 */

let lab: TestLab;
let testId: number;
let staff: Client;
const today = localDate('Asia/Kolkata');

beforeAll(async () => {
  lab = await makeLab();
  testId = (await lab.admin.post('/api/tests', { name: 'Thyroid Panel', code: 'THYADV', price: 1000 })).json().test.id;
  staff = await lab.as('billing_staff');
});
afterAll(() => lab.close());

async function patient(): Promise<number> {
  const res = await lab.admin.post('/api/patients', {
    first_name: 'Anil',
    last_name: 'Rao',
    date_of_birth: '1975-05-05',
    // A new patient each time (the same details would be offered as the first one).
    confirm_new: true,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().patient.id;
}

async function bill(patientId: number): Promise<{ id: number; bill_number: string }> {
  const res = await lab.admin.post('/api/bills', {
    patient_id: patientId,
    items: [{ item_type: 'test', item_id: testId }],
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().bill;
}

const advanceOf = async (p: number) => (await staff.get(`/api/patients/${p}/advance`)).json().advance as number;
const billOf = async (id: number) => {
  const b = (await lab.admin.get(`/api/bills/${id}`)).json().bill;
  return { paid: b.paid_amount as number, balance: b.balance as number };
};
const revenueTotal = async () =>
  (await lab.admin.get(`/api/revenue/daily?from=${today}&to=${today}`)).json().totals.total as number;
const ledgerReceived = async () =>
  (await lab.admin.get(`/api/payments?from=${today}&to=${today}`)).json().summary.received as number;

describe('spending an advance on a later bill', () => {
  it('pays the later bill from the account, moves no money, is audited, and can be returned to the account', async () => {
    const p = await patient();
    const first = await bill(p);
    const over = await staff.post('/api/payments', {
      bill_id: first.id,
      amount: 1250.5,
      method: 'cash',
      advance: true,
    });
    expect(over.statusCode, over.body).toBe(201);
    expect(await advanceOf(p)).toBe(250.5);
    const revenueBefore = await revenueTotal();
    const receivedBefore = await ledgerReceived();

    const later = await bill(p);
    // More than the patient has on account, or than the bill's balance: 409, nothing stored.
    const tooMuch = await staff.post('/api/payments/advance', { bill_id: later.id, amount: 300 });
    expect(tooMuch.statusCode).toBe(409);
    expect(errorBody(tooMuch).code).toBe('ADVANCE_TOO_LOW');
    expect(errorBody(tooMuch).message).toContain('₹250.50');
    expect(await billOf(later.id)).toEqual({ paid: 0, balance: 1000 });

    const used = await staff.post('/api/payments/advance', { bill_id: later.id, amount: 200.25, notes: 'From April' });
    expect(used.statusCode, used.body).toBe(201);
    const row = used.json().payment as LedgerEntry;
    expect(row).toMatchObject({
      kind: 'advance',
      method: 'advance',
      status: 'completed',
      amount: 0,
      advance_amount: -200.25,
      bill_id: later.id,
      payment_date: null,
    });
    expect(await billOf(later.id)).toEqual({ paid: 200.25, balance: 799.75 });
    expect(await advanceOf(p)).toBe(50.25);
    // No money came in: revenue and the ledger's received figure are as they were.
    expect(await revenueTotal()).toBe(revenueBefore);
    expect(await ledgerReceived()).toBe(receivedBefore);
    const audit = await auditRowsFor(lab, 'payment', row.id);
    expect(audit.map((a) => a.action)).toEqual(['create']);

    // The advance already spent cannot be refunded from the first payment.
    const refundAll = await lab.admin.post(`/api/payments/${over.json().payment.id}/refund`, {
      amount: 250.5,
      reason: 'Patient asked for it back',
    });
    expect(refundAll.statusCode).toBe(409);
    expect(errorBody(refundAll).code).toBe('ADVANCE_SPENT');

    // Returning the advance from the later bill (before cancelling it) puts it back on the account.
    const back = await lab.admin.post(`/api/payments/${row.id}/refund`, {
      amount: 200.25,
      reason: 'Bill to be cancelled',
    });
    expect(back.statusCode, back.body).toBe(201);
    expect(back.json().payment).toMatchObject({
      kind: 'advance',
      amount: 0,
      advance_amount: 200.25,
      refund_of: row.id,
    });
    expect(await billOf(later.id)).toEqual({ paid: 0, balance: 1000 });
    expect(await advanceOf(p)).toBe(250.5);
    expect((await lab.admin.get(`/api/payments/${row.id}`)).json().payment.status).toBe('refunded');
    expect((await lab.admin.post(`/api/payments/${row.id}/refund`, { amount: 1, reason: 'again' })).statusCode).toBe(
      409,
    );
    expect(await revenueTotal()).toBe(revenueBefore);

    // Now the first payment's advance may be refunded in cash: the account is empty again.
    const refunded = await lab.admin.post(`/api/payments/${over.json().payment.id}/refund`, {
      amount: 250.5,
      reason: 'Patient asked for it back',
    });
    expect(refunded.statusCode, refunded.body).toBe(201);
    expect(await advanceOf(p)).toBe(0);
  });

  it('the advance is the patient’s own: another patient’s bill cannot take it', async () => {
    const a = await patient();
    const b = await patient();
    const first = await bill(a);
    await staff.post('/api/payments', { bill_id: first.id, amount: 1100, method: 'cash', advance: true });
    const other = await bill(b);
    const res = await staff.post('/api/payments/advance', { bill_id: other.id, amount: 50 });
    expect(res.statusCode).toBe(409);
    expect(errorBody(res).code).toBe('ADVANCE_TOO_LOW');
    expect(await advanceOf(a)).toBe(100);
  });

  it('refuses bad input naming the field, a paid bill, and other labs; technicians may not', async () => {
    const p = await patient();
    const b = await bill(p);
    expect(badFields(await staff.post('/api/payments/advance', { bill_id: b.id, amount: 0 }))).toEqual(['amount']);
    expect(badFields(await staff.post('/api/payments/advance', { amount: 5 }))).toEqual(['bill_id']);
    expect(badFields(await staff.post('/api/payments/advance', { bill_id: 999999, amount: 5 }))).toEqual(['bill_id']);
    await staff.post('/api/payments', { bill_id: b.id, amount: 1000, method: 'cash' });
    const paid = await staff.post('/api/payments/advance', { bill_id: b.id, amount: 1 });
    expect(paid.statusCode).toBe(409);
    expect(errorBody(paid).code).toBe('OVERPAYMENT');
    const tech = await lab.as('lab_technician');
    expect((await tech.post('/api/payments/advance', { bill_id: b.id, amount: 1 })).statusCode).toBe(403);
    const other = await otherLabAdmin(lab);
    expect(badFields(await other.admin.post('/api/payments/advance', { bill_id: b.id, amount: 1 }))).toEqual([
      'bill_id',
    ]);
  });
});
