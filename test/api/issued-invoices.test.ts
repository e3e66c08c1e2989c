import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, pdfText, type TestLab } from '../helpers.js';
import { row } from '../db.js';
import { createPatient, errorBody } from './support.js';
import type { InvoiceDetail } from '../../src/shared/schemas/invoices.js';
import type { PayerStatement } from '../../src/shared/schemas/payers.js';
import type { Bill } from '../../src/shared/schemas/bills.js';
import { addDays, localDate } from '../../src/shared/time.js';

/**
 * An issued invoice never changes: its bills cannot be cancelled, deleted or re-priced (a credit note
 * corrects it), it prints the lab as it was at issue, and its IGST is the rate applied once.
 */
let lab: TestLab;
let cbc: number; // exempt, 400
let kit: number; // taxable at 12%, 308.74
const today = localDate('Asia/Kolkata');
const LAB_GSTIN = '29AABCL1234M1Z5'; // Karnataka
const MH_GSTIN = '27AAACM2222L1Z9'; // Maharashtra

beforeAll(async () => {
  lab = await makeLab();
  cbc = (await lab.admin.post('/api/tests', { name: 'Complete Blood Count', code: 'CBCI', price: 400 })).json().test.id;
  kit = (
    await lab.admin.post('/api/tests', {
      name: 'Home Collection Kit',
      code: 'KITI',
      price: 308.74,
      tax_category: 'gst_12',
      sac_code: '998599',
    })
  ).json().test.id;
  const settings = await lab.admin.put('/api/settings', {
    labName: 'Sunrise Diagnostics',
    labAddress: '12 MG Road, Bengaluru, Karnataka 560001',
    labPhone: '080 4000 1234',
    labEmail: 'desk@sunrise.example',
  });
  expect(settings.statusCode, settings.body).toBe(200);
  expect((await lab.admin.put('/api/billing-settings', { gstin: LAB_GSTIN })).statusCode).toBe(200);
});
afterAll(() => lab.close());

async function payer(gstin: string): Promise<number> {
  const res = await lab.admin.post('/api/payers', {
    name: `Payer ${gstin} ${Math.random()}`,
    type: 'corporate',
    gstin,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().payer.id;
}

async function bill(payerId: number, items: number[]): Promise<Bill> {
  const patient = await createPatient(lab.admin);
  const res = await lab.admin.post('/api/bills', {
    patient_id: patient.id,
    payer_id: payerId,
    items: items.map((id) => ({ item_type: 'test', item_id: id })),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().bill;
}

async function issuedInvoice(payerId: number): Promise<InvoiceDetail> {
  const draft = await lab.admin.post('/api/invoices', { payer_id: payerId, period_from: today, period_to: today });
  expect(draft.statusCode, draft.body).toBe(201);
  const issued = await lab.admin.post(`/api/invoices/${draft.json().invoice.id}/issue`, {});
  expect(issued.statusCode, issued.body).toBe(200);
  return issued.json().invoice;
}

const statement = async (payerId: number) =>
  (await lab.admin.get(`/api/payers/${payerId}/statement?from=${addDays(today, -1)}&to=${today}`)).json()
    .statement as PayerStatement;

describe('a bill on an issued invoice is never changed', () => {
  it('refuses cancel, new tests, a new discount and delete with 409 naming the credit note; the invoice, the statement and Mark paid stay whole', async () => {
    const p = await payer('29AAACI1111K1Z2');
    const a = await bill(p, [cbc]);
    const b = await bill(p, [cbc, kit]);
    const inv = await issuedInvoice(p);
    expect(inv.bill_count).toBe(2);
    const seen = (await lab.admin.get(`/api/bills/${a.id}`)).json().bill as Bill;
    expect(seen).toMatchObject({ invoice_id: inv.id, invoice_number: inv.invoice_number, invoice_status: 'issued' });
    const stBefore = await statement(p);
    const stored = await row<{ n: number }>(
      lab.database,
      'SELECT count(*) AS n FROM bill_items WHERE bill_id = ?',
      a.id,
    );

    const attempts = [
      lab.admin.put(`/api/bills/${a.id}`, { status: 'cancelled', cancel_reason: 'Patient left' }),
      lab.admin.put(`/api/bills/${a.id}/items`, { items: [{ item_type: 'test', item_id: kit }] }),
      lab.admin.put(`/api/bills/${a.id}/items`, {
        items: [{ item_type: 'test', item_id: cbc }],
        discount_percentage: 10,
      }),
      lab.admin.delete(`/api/bills/${a.id}`),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode, res.body).toBe(409);
      const body = errorBody(res) as { code?: string; message: string };
      expect(body.code).toBe('BILL_ON_ISSUED_INVOICE');
      expect(body.message).toContain(inv.invoice_number!);
      expect(body.message).toContain('credit note');
    }
    // Nothing moved: the bill, the invoice, the payer's statement.
    const after = (await lab.admin.get(`/api/bills/${a.id}`)).json().bill as Bill;
    expect(after).toMatchObject({ status: seen.status, final_amount: seen.final_amount, cancelled_at: null });
    expect(
      (await row<{ n: number }>(lab.database, 'SELECT count(*) AS n FROM bill_items WHERE bill_id = ?', a.id))?.n,
    ).toBe(stored?.n);
    const again = (await lab.admin.get(`/api/invoices/${inv.id}`)).json().invoice as InvoiceDetail;
    expect(again).toMatchObject({ total: inv.total, bill_count: 2, status: 'pending' });
    expect(await statement(p)).toEqual(stBefore);
    // Notes are not on the invoice: they may still change.
    expect((await lab.admin.put(`/api/bills/${a.id}`, { notes: 'sent by courier' })).statusCode).toBe(200);

    const paid = await lab.admin.post(`/api/invoices/${inv.id}/mark-paid`, { method: 'cash' });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().invoice.total).toBe(inv.total);
    const bills = [a, b].map(async (x) => (await lab.admin.get(`/api/bills/${x.id}`)).json().bill as Bill);
    for (const x of await Promise.all(bills)) expect(x.balance).toBe(0);
  });

  it('on a draft the bill is held until the draft is deleted; after a credit note it may change again', async () => {
    const p = await payer('29AAACI1111K1Z2');
    const a = await bill(p, [cbc]);
    const draft = (await lab.admin.post('/api/invoices', { payer_id: p, period_from: today, period_to: today })).json()
      .invoice as InvoiceDetail;
    const held = await lab.admin.put(`/api/bills/${a.id}`, { status: 'cancelled', cancel_reason: 'Wrong patient' });
    expect(held.statusCode).toBe(409);
    expect((errorBody(held) as { code?: string }).code).toBe('BILL_INVOICED');
    await lab.admin.post(`/api/invoices/${draft.id}/issue`, {});
    const cancelled = await lab.admin.post(`/api/invoices/${draft.id}/cancel`, { reason: 'Raised in error' });
    expect(cancelled.json().invoice.credit_note_number).toMatch(/^CN/);
    const freed = await lab.admin.put(`/api/bills/${a.id}`, { status: 'cancelled', cancel_reason: 'Wrong patient' });
    expect(freed.statusCode, freed.body).toBe(200);
  });
});

describe('an issued invoice prints the lab as it was at issue', () => {
  it('a change of the lab’s name, address, phone, email and GSTIN leaves the issued PDF’s text as it was; a draft shows today’s', async () => {
    const p = await payer('29AAACI1111K1Z2');
    await bill(p, [kit]);
    const inv = await issuedInvoice(p);
    const before = pdfText(await lab.admin.get(`/api/invoices/${inv.id}/pdf`));
    expect(before).toContain('Sunrise Diagnostics');
    expect(before).toContain('12 MG Road');
    const changed = await lab.admin.put('/api/settings', {
      labName: 'Moonrise Labs',
      labAddress: '99 New Street, Mysuru',
      labPhone: '0821 555 0000',
      labEmail: 'hello@moonrise.example',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await lab.admin.put('/api/billing-settings', { gstin: '29AABCL9999M1Z5' })).statusCode).toBe(200);
    const after = pdfText(await lab.admin.get(`/api/invoices/${inv.id}/pdf`));
    // The footer prints today's date; everything else is the same text.
    const body = (t: string) => t.replace(/printed \d\d\/\d\d\/\d{4}/g, 'printed');
    expect(body(after)).toEqual(body(before));
    expect(after).not.toContain('Moonrise');
    // A draft is not issued yet: it shows the lab as it is now.
    await bill(p, [cbc]);
    const draft = (await lab.admin.post('/api/invoices', { payer_id: p, period_from: today, period_to: today })).json()
      .invoice as InvoiceDetail;
    expect(pdfText(await lab.admin.get(`/api/invoices/${draft.id}/pdf`))).toContain('Moonrise Labs');
    await lab.admin.delete(`/api/invoices/${draft.id}`);
    await lab.admin.put('/api/settings', {
      labName: 'Sunrise Diagnostics',
      labAddress: '12 MG Road, Bengaluru, Karnataka 560001',
    });
    await lab.admin.put('/api/billing-settings', { gstin: LAB_GSTIN });
  });
});

describe('IGST is the rate applied once', () => {
  it('308.74 at 12% to a payer in another state: the bill and its invoice carry IGST 37.05', async () => {
    const p = await payer(MH_GSTIN);
    const b = await bill(p, [kit]);
    expect(b).toMatchObject({ tax_amount: 37.05, final_amount: 345.79 });
    const inv = await issuedInvoice(p);
    expect(inv).toMatchObject({ inter_state: true, taxable: 308.74, igst: 37.05, cgst: 0, sgst: 0, total: 345.79 });
    expect(inv.lines.map((l) => [l.taxable, l.igst, l.total])).toEqual([[308.74, 37.05, 345.79]]);
    // Within the state it stays two rounded halves.
    const k = await payer('29AAACI1111K1Z2');
    const kb = await bill(k, [kit]);
    expect(kb).toMatchObject({ tax_amount: 37.04, final_amount: 345.78 });
    const kinv = await issuedInvoice(k);
    expect(kinv).toMatchObject({ inter_state: false, cgst: 18.52, sgst: 18.52, igst: 0, total: 345.78 });
  });

  it('a bill taxed within the state is not invoiced across states for a different tax; saved again for the new state it is', async () => {
    // A payer in the lab's state is billed (CGST + SGST 37.04), then moves to Maharashtra.
    const p = await payer('29AAACI1111K1Z2');
    const b = await bill(p, [kit]);
    expect(b.tax_amount).toBe(37.04);
    expect((await lab.admin.put(`/api/payers/${p}`, { gstin: MH_GSTIN, state_code: '27' })).statusCode).toBe(200);
    const refused = await lab.admin.post('/api/invoices', { payer_id: p, period_from: today, period_to: today });
    expect(refused.statusCode).toBe(409);
    expect((errorBody(refused) as { code?: string }).code).toBe('BILL_TAXED_FOR_OTHER_STATE');
    expect(errorBody(refused).message).toContain(b.bill_number);
    // Its tests saved again as they are: taxed for the payer's state now, IGST at the rate once.
    const saved = await lab.admin.put(`/api/bills/${b.id}/items`, { items: [{ item_type: 'test', item_id: kit }] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().bill).toMatchObject({ tax_amount: 37.05, final_amount: 345.79 });
    const inv = await issuedInvoice(p);
    expect(inv).toMatchObject({ inter_state: true, igst: 37.05, total: 345.79 });
  });
});
