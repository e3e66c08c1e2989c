import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, pdfText, type Client, type TestLab } from '../helpers.js';
import { exec, row } from '../db.js';
import { auditRowsFor, badFields, createPatient, errorBody, uniqueWord } from './support.js';
import type { Centre, CentreReceipt, CentreStatement, ShareRule } from '../../src/shared/schemas/centres.js';
import type { Bill } from '../../src/shared/schemas/bills.js';
import { addDays, localDate } from '../../src/shared/time.js';

/**
 * Collection centres: the record (a payer underneath), its share rules, bills and patients against
 * it, payments against its statement, and the hold on a breach of limit or credit days.
 */
let lab: TestLab;
let cbc: number; // lab price 400, category Haematology
let tsh: number; // lab price 600, category Hormones
let billing: Client;
const today = localDate('Asia/Kolkata');
const GSTIN = '29AAACI1111K1Z2';

beforeAll(async () => {
  lab = await makeLab();
  cbc = (
    await lab.admin.post('/api/tests', {
      name: 'Complete Blood Count',
      code: 'CBCC',
      price: 400,
      category: 'Haematology',
    })
  ).json().test.id;
  tsh = (await lab.admin.post('/api/tests', { name: 'TSH', code: 'TSHC', price: 600, category: 'Hormones' })).json()
    .test.id;
  billing = await lab.as('billing_staff');
});
afterAll(() => lab.close());

async function addCentre(body: Record<string, unknown> = {}): Promise<Centre> {
  const res = await lab.admin.post('/api/centres', { name: uniqueWord('Centre '), credit_days: 30, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ centre: Centre }>().centre;
}

async function billFor(centre: Centre, tests: number[], as = billing) {
  const patient = await createPatient(lab.admin);
  return as.post('/api/bills', {
    patient_id: patient.id,
    items: tests.map((id) => ({ item_type: 'test', item_id: id })),
    payer_id: centre.payer_id,
  });
}

async function okBill(centre: Centre, tests: number[]): Promise<Bill> {
  const res = await billFor(centre, tests);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ bill: Bill }>().bill;
}

const centreNow = async (id: number) => (await lab.admin.get(`/api/centres/${id}`)).json<{ centre: Centre }>().centre;

describe('a centre', () => {
  it('is kept with its contact, GSTIN, rates, share, limit and credit days, audited', async () => {
    const c = await addCentre({
      contact_person: 'Ravi',
      phone: '9876543210',
      address: '4 Hill Road',
      gstin: GSTIN.toLowerCase(),
      discount_percent: 20,
      credit_limit: 5000,
      credit_days: 15,
      share_basis: 'centre_commission',
      share_percent: 12.5,
    });
    expect(c).toMatchObject({
      gstin: GSTIN,
      state_code: '29',
      discount_percent: 20,
      credit_limit: 5000,
      credit_days: 15,
      share_percent: 12.5,
      balance: 0,
      hold: { on_hold: false, reason: null },
    });
    // The centre bills through a payer of type collection_centre with its rates and days.
    const payer = (await lab.admin.get(`/api/payers/${c.payer_id}`)).json().payer;
    expect(payer).toMatchObject({
      type: 'collection_centre',
      discount_percent: 20,
      payment_terms_days: 15,
      credit_limit: null,
    });
    expect(await auditRowsFor(lab, 'centre', c.id)).toHaveLength(1);
    const edited = await lab.admin.put(`/api/centres/${c.id}`, {
      credit_limit: null,
      share_basis: 'lab_share',
      share_percent: 70,
    });
    expect(edited.json().centre).toMatchObject({ credit_limit: null, share_basis: 'lab_share', share_percent: 70 });
  });

  it('refuses a bad GSTIN, share and credit days, naming the field', async () => {
    const bad = (body: Record<string, unknown>) =>
      lab.admin.post('/api/centres', { name: uniqueWord('Bad '), ...body });
    expect(badFields(await bad({ gstin: '29ABC' }))).toEqual(['gstin']);
    expect(badFields(await bad({ gstin: '99AAACI1111K1Z2' }))).toEqual(['gstin']);
    expect(badFields(await bad({ share_percent: 101 }))).toEqual(['share_percent']);
    expect(badFields(await bad({ credit_days: -1 }))).toEqual(['credit_days']);
    expect(badFields(await bad({ credit_limit: 'lots' }))).toEqual(['credit_limit']);
    expect(badFields(await bad({ share_basis: 'doctor_commission' }))).toEqual(['share_basis']);
  });

  it('is kept by who manages bills, seen by who sees bills, hidden from others', async () => {
    const c = await addCentre();
    const reception = await lab.as('receptionist');
    expect((await reception.get(`/api/centres/${c.id}`)).statusCode).toBe(200);
    expect((await reception.post('/api/centres', { name: uniqueWord('X ') })).statusCode).toBe(403);
    const tech = await lab.as('lab_technician');
    expect((await tech.get('/api/centres')).statusCode).toBe(403);
    expect((await billing.put('/api/centre-settings', { on_breach: 'approver' })).statusCode).toBe(403);
  });
});

describe('bills and patients of a centre', () => {
  it('prices the bill at the centre’s rate and makes the patient the centre’s', async () => {
    const c = await addCentre({ discount_percent: 25 });
    const bill = await okBill(c, [cbc]);
    expect(bill.final_amount).toBe(300);
    expect(bill.due_date).toBe(addDays(today, 30));
    const patients = (await lab.admin.get(`/api/centres/${c.id}/patients`)).json().patients;
    expect(patients).toEqual([expect.objectContaining({ id: bill.patient_id })]);
    expect((await centreNow(c.id)).balance).toBe(300);
  });

  it('splits the share by test, then category, then the centre’s own rate, exact to the paisa', async () => {
    const c = await addCentre({ share_basis: 'centre_commission', share_percent: 10 });
    const add = (body: Record<string, unknown>) => lab.admin.post(`/api/centres/${c.id}/share-rules`, body);
    expect((await add({ category: 'Hormones', share_percent: 33.33 })).statusCode).toBe(201);
    const rules = (await add({ test_id: cbc, share_percent: 15 })).json<{ rules: ShareRule[] }>().rules;
    expect(rules).toHaveLength(2);
    expect((await add({ category: 'hormones', share_percent: 5 })).statusCode).toBe(409);
    expect(badFields(await add({ share_percent: 5 }))).toEqual(['test_id']);
    expect(badFields(await add({ test_id: 999999, share_percent: 5 }))).toEqual(['test_id']);
    await okBill(c, [cbc, tsh]);
    const st = (await lab.admin.get(`/api/centres/${c.id}/statement?from=${today}&to=${today}`)).json<{
      statement: CentreStatement;
    }>().statement;
    // 15% of 400 = 60; 33.33% of 600 = 199.98.
    expect(st.share).toEqual({ billed: 1000, centre: 259.98, lab: 740.02 });
  });
});

describe('payments by a centre', () => {
  it('settles the oldest bills first, or the bills it names, as payments on them', async () => {
    const c = await addCentre();
    const b1 = await okBill(c, [cbc]);
    const b2 = await okBill(c, [tsh]);
    const b3 = await okBill(c, [cbc]);
    const pay = (body: Record<string, unknown>) => lab.admin.post(`/api/centres/${c.id}/receipts`, body);
    const r1 = (await pay({ amount: 700, method: 'bank_transfer', reference: 'NEFT 1' })).json<{
      receipt: CentreReceipt;
    }>().receipt;
    expect(r1.allocations.map((a) => [a.bill_id, a.amount])).toEqual([
      [b1.id, 400],
      [b2.id, 300],
    ]);
    const r2 = (await pay({ amount: 400, method: 'upi', bill_ids: [b3.id] })).json<{ receipt: CentreReceipt }>()
      .receipt;
    expect(r2.allocations).toEqual([{ bill_id: b3.id, bill_number: b3.bill_number, amount: 400 }]);
    expect(badFields(await pay({ amount: 301, method: 'cash' }))).toEqual(['amount']);
    expect(badFields(await pay({ amount: 1, method: 'cash', bill_ids: [b1.id] }))).toEqual(['bill_ids.0']);
    expect(badFields(await pay({ amount: 1, method: 'barter' }))).toEqual(['method']);
    expect((await centreNow(c.id)).balance).toBe(300);
    const bill2 = (await lab.admin.get(`/api/bills/${b2.id}`)).json().bill;
    expect(bill2).toMatchObject({ paid_amount: 300, balance: 300 });
    const st = (await lab.admin.get(`/api/centres/${c.id}/statement?from=${today}&to=${today}`)).json<{
      statement: CentreStatement;
    }>().statement;
    expect(st).toMatchObject({ opening_balance: 0, billed: 1400, paid: 1100, closing_balance: 300 });
    expect(st.ageing).toEqual({ not_due: 300, d1_30: 0, d31_60: 0, d61_90: 0, over_90: 0 });
  });
});

describe('the hold', () => {
  it('refuses a bill past the credit limit, with the figures', async () => {
    const c = await addCentre({ credit_limit: 900 });
    await okBill(c, [tsh]);
    const res = await billFor(c, [tsh]);
    expect(res.statusCode).toBe(409);
    expect(errorBody(res).code).toBe('CENTRE_ON_HOLD');
    expect(errorBody(res).message).toContain('credit limit of ₹900.00');
    expect((await centreNow(c.id)).balance).toBe(600);
  });

  it('refuses a bill while an older bill is past its credit days, and holds the centre’s reports', async () => {
    const c = await addCentre({ credit_days: 10 });
    const old = await okBill(c, [cbc]);
    const sample = await row<{ id: number }>(lab.database, 'SELECT id FROM samples WHERE bill_id = ?', old.id);
    const status = async () => (await lab.admin.get(`/api/samples/${sample!.id}/report/status`)).json();
    expect((await status()).code).not.toBe('REPORT_HELD_CENTRE');
    await exec(lab.database, 'UPDATE bills SET due_date = ? WHERE id = ?', addDays(today, -3), old.id);
    const hold = (await centreNow(c.id)).hold;
    expect(hold).toMatchObject({ on_hold: true, overdue_bills: 1, oldest_due_date: addDays(today, -3) });
    expect(hold.reason).toContain(`${old.bill_number}`);
    expect(hold.reason).toContain('3 days past its 10 credit days');
    const refused = await billFor(c, [cbc]);
    expect(refused.statusCode).toBe(409);
    expect(errorBody(refused).code).toBe('CENTRE_ON_HOLD');
    expect(await status()).toMatchObject({ releasable: false, code: 'REPORT_HELD_CENTRE' });
    // Paid: the hold lifts, bills and reports go again.
    await lab.admin.post(`/api/centres/${c.id}/receipts`, { amount: 400, method: 'cash' });
    expect((await centreNow(c.id)).hold.on_hold).toBe(false);
    expect((await status()).code).not.toBe('REPORT_HELD_CENTRE');
    expect((await billFor(c, [cbc])).statusCode).toBe(201);
  });

  it('lets one bill through per approval when the lab chooses an approver', async () => {
    const c = await addCentre({ credit_limit: 500 });
    await okBill(c, [cbc]);
    const approve = () => lab.admin.post(`/api/centres/${c.id}/approvals`, { reason: 'Health camp' });
    // The lab refuses outright: there is nothing to approve.
    expect(errorBody(await approve()).code).toBe('APPROVALS_OFF');
    expect((await lab.admin.put('/api/centre-settings', { on_breach: 'approver' })).statusCode).toBe(200);
    try {
      const asked = await billFor(c, [cbc]);
      expect(errorBody(asked).code).toBe('CENTRE_APPROVAL_NEEDED');
      expect((await billing.post(`/api/centres/${c.id}/approvals`, { reason: 'x' })).statusCode).toBe(403);
      expect(badFields(await lab.admin.post(`/api/centres/${c.id}/approvals`, {}))).toEqual(['reason']);
      expect((await approve()).statusCode).toBe(201);
      const passed = await okBill(c, [cbc]);
      const approvals = (await lab.admin.get(`/api/centres/${c.id}/approvals`)).json().approvals;
      expect(approvals[0]).toMatchObject({ reason: 'Health camp', bill_number: passed.bill_number });
      expect(approvals[0].used_at).not.toBeNull();
      // One approval, one bill: the next asks again.
      expect(errorBody(await billFor(c, [cbc])).code).toBe('CENTRE_APPROVAL_NEEDED');
    } finally {
      await lab.admin.put('/api/centre-settings', { on_breach: 'refuse' });
    }
  });
});

describe('the statement PDF', () => {
  it('prints the ledger, the ageing and the share of the period', async () => {
    const c = await addCentre({ gstin: GSTIN, credit_limit: 9000, share_percent: 10 });
    const bill = await okBill(c, [tsh]);
    await lab.admin.post(`/api/centres/${c.id}/receipts`, { amount: 250, method: 'upi', reference: 'UTR77' });
    const res = await lab.admin.get(`/api/centres/${c.id}/statement/pdf?from=${today}&to=${today}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    const text = pdfText(res);
    expect(text).toContain('COLLECTION CENTRE STATEMENT');
    expect(text).toContain(c.name);
    expect(text).toContain(`GSTIN ${GSTIN}`);
    expect(text).toContain(bill.bill_number);
    expect(text).toMatch(/Closing balance\s+₹600\.00\s+₹250\.00\s+₹350\.00/);
    expect(text).toContain('Not yet due');
    expect(text).toMatch(/₹600\.00\s+₹60\.00\s+₹540\.00/);
    expect(badFields(await lab.admin.get(`/api/centres/${c.id}/statement/pdf?from=${today}&to=2020-01-01`))).toEqual([
      'to',
    ]);
  });
});
