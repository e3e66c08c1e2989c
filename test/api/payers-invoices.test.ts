import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeLab, pdfText, tempDir, type Client, type TestLab } from '../helpers.js';
import { exec, row, rows } from '../db.js';
import { auditRowsFor, badFields, createPatient, errorBody, otherLabAdmin, uniqueWord } from './support.js';
import type { Payer, PayerPrice, PayerStatement } from '../../src/shared/schemas/payers.js';
import type { InvoiceDetail } from '../../src/shared/schemas/invoices.js';
import type { Bill } from '../../src/shared/schemas/bills.js';
import { addDays, localDate } from '../../src/shared/time.js';
import { financialYearOf } from '../../src/shared/gst.js';

/**
 * Payers, their price lists and credit limits; GST invoices (numbering, CGST/SGST or IGST, exempt
 * lines, mark-paid, cancel with a credit note); discount limits per role.
 */
let lab: TestLab;
let cbc: number; // exempt diagnostic test, lab price 400
let facial: number; // a taxable service at 18%, lab price 1000
let lipid: number; // exempt, lab price 800, never on a payer list
let staff: Client;
const today = localDate('Asia/Kolkata');

const LAB_GSTIN = '29AABCL1234M1Z5'; // Karnataka
const KA_GSTIN = '29AAACI1111K1Z2';
const MH_GSTIN = '27AAACM2222L1Z9'; // Maharashtra

beforeAll(async () => {
  lab = await makeLab();
  cbc = (await lab.admin.post('/api/tests', { name: 'Complete Blood Count', code: 'CBCX', price: 400 })).json().test.id;
  facial = (
    await lab.admin.post('/api/tests', {
      name: 'Skin Glow Facial',
      code: 'FACX',
      price: 1000,
      tax_category: 'gst_18',
      sac_code: '999721',
    })
  ).json().test.id;
  lipid = (await lab.admin.post('/api/tests', { name: 'Lipid Profile', code: 'LIPX', price: 800 })).json().test.id;
  staff = await lab.as('billing_staff');
  // A tax invoice carries the lab's address (issuing without one is refused; tested below).
  const address = { labAddress: '12 MG Road, Bengaluru, Karnataka 560001' };
  expect((await lab.admin.put('/api/settings', address)).statusCode).toBe(200);
});
afterAll(() => lab.close());

async function addPayer(body: Record<string, unknown> = {}): Promise<Payer> {
  const res = await lab.admin.post('/api/payers', { name: uniqueWord('Acme '), type: 'corporate', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ payer: Payer }>().payer;
}

async function billFor(
  payerId: number | null,
  items: [number, number?][],
  extra: Record<string, unknown> = {},
  as = lab.admin,
) {
  const patient = await createPatient(lab.admin);
  return as.post('/api/bills', {
    patient_id: patient.id,
    items: items.map(([id, price]) => ({ item_type: 'test', item_id: id, ...(price !== undefined ? { price } : {}) })),
    ...(payerId ? { payer_id: payerId } : {}),
    ...extra,
  });
}

async function okBill(payerId: number | null, items: [number, number?][]): Promise<Bill> {
  const res = await billFor(payerId, items);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ bill: Bill }>().bill;
}

async function count(table: string): Promise<number> {
  const r = await row<{ n: number }>(lab.database, `SELECT count(*) AS n FROM ${table}`);
  return Number(r?.n ?? 0);
}

describe('invoice numbers: a series per financial year, consecutive, unique under concurrency', () => {
  it('changes series on 1 April and keeps each series consecutive', async () => {
    expect((await lab.admin.put('/api/billing-settings', { gstin: LAB_GSTIN })).statusCode).toBe(200);
    const drafts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const b = await okBill(null, [[cbc]]);
      const res = await lab.admin.post('/api/invoices', { bill_id: b.id });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().invoice).toMatchObject({ status: 'draft', invoice_number: null });
      drafts.push(res.json().invoice.id);
    }
    const issue = (id: number, date: string) => lab.admin.post(`/api/invoices/${id}/issue`, { invoice_date: date });
    const a = (await issue(drafts[0]!, '2025-03-31')).json().invoice as InvoiceDetail;
    const b = (await issue(drafts[1]!, '2025-04-01')).json().invoice as InvoiceDetail;
    expect(a.invoice_number).toBe('INV2425-000001');
    expect(b.invoice_number).toBe('INV2526-000001');
    // Not dated before the lab's latest invoice: numbers and dates run together.
    const back = await issue(drafts[2]!, '2025-03-31');
    expect(badFields(back)).toEqual(['invoice_date']);
    const future = await issue(drafts[2]!, addDays(today, 1));
    expect(badFields(future)).toEqual(['invoice_date']);
    const c = (await issue(drafts[2]!, '2025-04-02')).json().invoice as InvoiceDetail;
    expect(c.invoice_number).toBe('INV2526-000002');
    for (const n of [a, b, c]) expect(n.invoice_number!.length).toBeLessThanOrEqual(16);
    // Issued twice: refused, the number stays.
    expect((await issue(drafts[0]!, '2025-04-02')).statusCode).toBe(409);
  });

  it('twelve issues at once get twelve consecutive numbers, none twice', async () => {
    const drafts: number[] = [];
    for (let i = 0; i < 12; i++) {
      const b = await okBill(null, [[cbc]]);
      drafts.push((await lab.admin.post('/api/invoices', { bill_id: b.id })).json().invoice.id);
    }
    const results = await Promise.all(drafts.map((id) => lab.admin.post(`/api/invoices/${id}/issue`, {})));
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    const fy = financialYearOf(today);
    const numbers = results.map((r) => r.json().invoice.invoice_number as string).sort();
    expect(new Set(numbers).size).toBe(12);
    const seq = numbers.map((n) => Number(n.slice(-6)));
    expect(numbers.every((n) => n.startsWith(`INV${fy}-`))).toBe(true);
    expect(seq).toEqual(seq.map((_, i) => seq[0]! + i));
  });
});

describe('payers', () => {
  it('keeps a payer, with its state from the GSTIN; refuses bad input naming the field and stores nothing', async () => {
    const p = await addPayer({ gstin: KA_GSTIN.toLowerCase(), credit_limit: 50000, payment_terms_days: 45 });
    expect(p).toMatchObject({ gstin: KA_GSTIN, state_code: '29', state: 'Karnataka', credit_limit: 50000, balance: 0 });
    const before = await count('payers');
    const cases: [Record<string, unknown>, string[]][] = [
      [{ type: 'corporate' }, ['name']],
      [{ name: 'X', type: 'friend' }, ['type']],
      [{ name: 'X', type: 'corporate', gstin: '29ABC' }, ['gstin']],
      [{ name: 'X', type: 'corporate', state_code: '99' }, ['state_code']],
      [{ name: 'X', type: 'corporate', gstin: KA_GSTIN, state_code: '27' }, ['state_code']],
      [{ name: 'X', type: 'corporate', credit_limit: -1 }, ['credit_limit']],
      [{ name: 'X', type: 'corporate', payment_terms_days: 1.5 }, ['payment_terms_days']],
      [{ name: 'X', type: 'corporate', discount_percent: 101 }, ['discount_percent']],
      [{ name: 'X', type: 'corporate', email: 'nope' }, ['email']],
    ];
    for (const [body, fields] of cases) expect(badFields(await lab.admin.post('/api/payers', body))).toEqual(fields);
    expect((await lab.admin.post('/api/payers', { name: p.name, type: 'insurance' })).statusCode).toBe(409);
    expect(await count('payers')).toBe(before);
    expect(badFields(await lab.admin.put(`/api/payers/${p.id}`, { credit_limit: 'lots' }))).toEqual(['credit_limit']);
    const upd = await lab.admin.put(`/api/payers/${p.id}`, { payment_terms_days: 30, status: 'inactive' });
    expect(upd.json().payer).toMatchObject({ payment_terms_days: 30, status: 'inactive' });
    const audit = await auditRowsFor(lab, 'payer', p.id);
    expect(audit.map((a) => a.action)).toEqual(['create', 'update']);
    expect(JSON.parse(audit[1]!.new_values!)).toEqual({ payment_terms_days: 30, status: 'inactive' });
    // An inactive payer takes no bills.
    expect(badFields(await billFor(p.id, [[cbc]]))).toEqual(['payer_id']);
    // Nothing refers to it: it may be erased.
    expect((await lab.admin.delete(`/api/payers/${p.id}`)).statusCode).toBe(200);
    expect((await lab.admin.get(`/api/payers/${p.id}`)).statusCode).toBe(404);
  });

  it('prices a payer’s bill from its list in force that day, else the lab’s price less its discount', async () => {
    const p = await addPayer({ discount_percent: 10 });
    const add = (body: Record<string, unknown>) => lab.admin.post(`/api/payers/${p.id}/prices`, body);
    expect((await add({ item_type: 'test', item_id: cbc, price: 250, effective_from: '2020-01-01' })).statusCode).toBe(
      201,
    );
    // A newer price from last month wins over the old one; one from next week is not in force yet; an expired one never.
    expect(
      (await add({ item_type: 'test', item_id: cbc, price: 300, effective_from: addDays(today, -30) })).statusCode,
    ).toBe(201);
    expect(
      (await add({ item_type: 'test', item_id: cbc, price: 999, effective_from: addDays(today, 7) })).statusCode,
    ).toBe(201);
    expect(
      (
        await add({
          item_type: 'test',
          item_id: facial,
          price: 1,
          effective_from: '2020-01-01',
          effective_to: '2020-12-31',
        })
      ).statusCode,
    ).toBe(201);
    // Bad input names the field and stores nothing; the same start twice is a conflict.
    const before = await count('payer_prices');
    expect(badFields(await add({ item_type: 'test', item_id: cbc, price: -5, effective_from: '2020-01-01' }))).toEqual([
      'price',
    ]);
    expect(badFields(await add({ item_type: 'test', item_id: cbc, price: 5, effective_from: '2020-02-30' }))).toEqual([
      'effective_from',
    ]);
    expect(
      badFields(
        await add({
          item_type: 'test',
          item_id: cbc,
          price: 5,
          effective_from: '2021-01-01',
          effective_to: '2020-01-01',
        }),
      ),
    ).toEqual(['effective_to']);
    expect(
      badFields(await add({ item_type: 'test', item_id: 999999, price: 5, effective_from: '2021-01-01' })),
    ).toEqual(['item_id']);
    expect((await add({ item_type: 'test', item_id: cbc, price: 5, effective_from: '2020-01-01' })).statusCode).toBe(
      409,
    );
    expect(await count('payer_prices')).toBe(before);

    const bill = await okBill(p.id, [[cbc], [facial], [lipid]]);
    // CBC 300 (its list today), facial 1000 - 10% = 900 (expired list price) + 18% GST, lipid 800 - 10% = 720.
    expect(bill.items!.map((i) => i.price)).toEqual([300, 900, 720]);
    expect(bill.items!.map((i) => i.tax)).toEqual([0, 162, 0]);
    expect(bill.final_amount).toBe(300 + 900 + 162 + 720);
    expect(bill).toMatchObject({ payer_id: p.id, payer_name: p.name, due_date: addDays(today, 30) });
    // The payer's price is its list price: it is no discount the biller gave (billing staff's limit is 20%).
    expect((await billFor(p.id, [[cbc]], {}, staff)).statusCode).toBe(201);

    const list = (await lab.admin.get(`/api/payers/${p.id}/prices`)).json().prices as PayerPrice[];
    expect(list.filter((x) => x.item_id === cbc).map((x) => x.price)).toEqual([999, 300, 250]);
    const del = await lab.admin.delete(`/api/payers/${p.id}/prices/${list[0]!.id}`);
    expect(del.json().prices).toHaveLength(list.length - 1);
    // A payer with bills is never erased.
    expect((await lab.admin.delete(`/api/payers/${p.id}`)).statusCode).toBe(409);
  });

  it('refuses a bill that would pass the payer’s credit limit, with the figures, and stores nothing', async () => {
    const p = await addPayer({ credit_limit: 1000 });
    await okBill(p.id, [[cbc]]); // 400 owed
    const before = await count('bills');
    // The same test twice on purpose (800 more: 1200 > 1000): the credit limit, not the repeat, is under test.
    const res = await billFor(p.id, [[cbc], [cbc]], { confirm_duplicates: true });
    expect(res.statusCode).toBe(409);
    expect(errorBody(res).code).toBe('CREDIT_LIMIT_EXCEEDED');
    expect(errorBody(res).message).toContain('₹400.00');
    expect(errorBody(res).message).toContain('₹1,000.00');
    expect(errorBody(res).message).toContain('₹200.00');
    expect(await count('bills')).toBe(before);
    expect((await billFor(p.id, [[cbc]])).statusCode).toBe(201); // 800 of 1000
    expect((await lab.admin.get(`/api/payers/${p.id}`)).json().payer).toMatchObject({ balance: 800, bills: 2 });
  });

  it('a statement: opening balance, the period’s bills and payments, closing balance; on screen and as PDF', async () => {
    const p = await addPayer();
    const b1 = await okBill(p.id, [[cbc]]);
    const b2 = await okBill(p.id, [[lipid]]);
    expect((await lab.admin.post(`/api/bills/${b1.id}/payments`, { amount: 150, method: 'cash' })).statusCode).toBe(
      201,
    );
    // Last month's bill makes the opening balance.
    await lab.database.db
      .updateTable('bills')
      .set({ created_at: new Date(Date.now() - 40 * 86_400_000).toISOString() })
      .where('id', '=', b2.id)
      .execute();
    const from = addDays(today, -10);
    const st = (await lab.admin.get(`/api/payers/${p.id}/statement?from=${from}&to=${today}`)).json()
      .statement as PayerStatement;
    expect(st).toMatchObject({ opening_balance: 800, billed: 400, paid: 150, closing_balance: 1050 });
    expect(st.entries.map((e) => [e.kind, e.debit, e.credit, e.balance])).toEqual([
      ['bill', 400, 0, 1200],
      ['payment', 0, 150, 1050],
    ]);
    // The method as the screens say it, never the stored code.
    expect(st.entries[1]!.description).toBe('Payment (Cash)');
    expect(badFields(await lab.admin.get(`/api/payers/${p.id}/statement?from=${today}&to=${from}`))).toEqual(['to']);
    expect(badFields(await lab.admin.get(`/api/payers/${p.id}/statement?from=2026-02-30&to=${today}`))).toEqual([
      'from',
    ]);
    const pdf = await lab.admin.get(`/api/payers/${p.id}/statement/pdf?from=${from}&to=${today}`);
    expect(pdf.statusCode).toBe(200);
    const file = join(tempDir(), 'statement.pdf');
    writeFileSync(file, pdf.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    expect(text).toContain('STATEMENT OF ACCOUNT');
    expect(text).toContain('Opening balance');
    expect(text).toContain('₹1,050.00');
    const dmy = (d: string) => d.split('-').reverse().join('/');
    expect(text.replace(/\s+/g, ' ')).toContain(`Period ${dmy(from)} to ${dmy(today)}`);
  });
});

describe('GST invoices', () => {
  it('a payer’s monthly invoice inside the lab’s state: CGST + SGST on the taxable line, exempt lines untaxed', async () => {
    const p = await addPayer({ gstin: KA_GSTIN, payment_terms_days: 15, address: '1 Residency Road, Bengaluru' });
    await okBill(p.id, [[cbc], [facial]]);
    await okBill(p.id, [[lipid]]);
    const bad = await lab.admin.post('/api/invoices', { payer_id: p.id, period_from: today });
    expect(badFields(bad)).toEqual(['period_to']);
    const res = await lab.admin.post('/api/invoices', {
      payer_id: p.id,
      period_from: addDays(today, -30),
      period_to: today,
    });
    expect(res.statusCode, res.body).toBe(201);
    const draft = res.json().invoice as InvoiceDetail;
    expect(draft).toMatchObject({
      status: 'draft',
      invoice_number: null,
      recipient_gstin: KA_GSTIN,
      place_of_supply: '29',
      inter_state: false,
      bill_count: 2,
      exempt: 1200,
      taxable: 1000,
      cgst: 90,
      sgst: 90,
      igst: 0,
      tax: 180,
      total: 2380,
    });
    expect(draft.lines.map((l) => [l.sac_code, l.rate_percent, l.taxable, l.cgst, l.sgst, l.igst])).toEqual([
      ['9993', 0, 400, 0, 0, 0],
      ['999721', 18, 1000, 90, 90, 0],
      ['9993', 0, 800, 0, 0, 0],
    ]);
    // The bills are on this draft: a second invoice of the period finds nothing.
    expect(
      (await lab.admin.post('/api/invoices', { payer_id: p.id, period_from: addDays(today, -30), period_to: today }))
        .statusCode,
    ).toBe(409);
    const issued = (await lab.admin.post(`/api/invoices/${draft.id}/issue`, {})).json().invoice as InvoiceDetail;
    expect(issued).toMatchObject({
      status: 'pending',
      invoice_date: today,
      due_date: addDays(today, 15),
      lab_gstin: LAB_GSTIN,
    });
    // An issued invoice is never deleted.
    const del = await lab.admin.delete(`/api/invoices/${draft.id}`);
    expect(del.statusCode).toBe(409);

    const pdf = await lab.admin.get(`/api/invoices/${draft.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    const file = join(tempDir(), 'invoice.pdf');
    writeFileSync(file, pdf.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    for (const s of [
      'TAX INVOICE',
      issued.invoice_number!,
      LAB_GSTIN,
      KA_GSTIN,
      'Karnataka (29)',
      '999721',
      'Exempt',
      'CGST',
      'SGST',
      'Rupees Two Thousand Three Hundred Eighty Only',
      'Authorised signatory',
    ])
      expect(text).toContain(s);
    expect(text).not.toContain('IGST');

    const paid = await lab.admin.post(`/api/invoices/${draft.id}/mark-paid`, {
      method: 'cheque',
      reference: 'CHQ 001234',
      bank: 'State Bank of India',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().invoice).toMatchObject({ status: 'paid', payment_method: 'cheque' });
    // Printed for the accountant: each GST fact whole and in the lab's format.
    const printed = pdfText(await lab.admin.get(`/api/invoices/${draft.id}/pdf`));
    const dmy = (d: string) => d.split('-').reverse().join('/');
    expect(printed).toContain(`Services from ${dmy(addDays(today, -30))} to ${dmy(today)}`);
    expect(printed).toMatch(/9993\s+1\s+₹400\.00\s+Exempt\s+₹0\.00\s+₹0\.00\s+₹400\.00/);
    expect(printed).toMatch(/Exempt supplies\s+₹1,200\.00\n/);
    expect(printed).toMatch(/Paid \d\d\/\d\d\/\d{4} \d\d:\d\d by Cheque \(CHQ 001234\)/);
    expect(printed).not.toContain('…'); // addresses are printed whole, never cut short
    const bills = await rows<{ final_amount_paise: number; paid_paise: number }>(
      lab.database,
      'SELECT final_amount_paise, paid_paise FROM bills WHERE invoice_id = ?',
      draft.id,
    );
    expect(bills.every((b) => Number(b.paid_paise) === Number(b.final_amount_paise))).toBe(true);
    expect((await lab.admin.post(`/api/invoices/${draft.id}/mark-paid`, { method: 'cash' })).statusCode).toBe(409);
    expect((await auditRowsFor(lab, 'invoice', draft.id)).map((a) => a.action)).toEqual(['create', 'update', 'update']);
  });

  it('across states it is IGST; cancelling gives a credit note and frees the bills', async () => {
    const p = await addPayer({ gstin: MH_GSTIN });
    await okBill(p.id, [[facial]]);
    const draft = (
      await lab.admin.post('/api/invoices', { payer_id: p.id, period_from: today, period_to: today })
    ).json().invoice as InvoiceDetail;
    expect(draft).toMatchObject({ place_of_supply: '27', inter_state: true, cgst: 0, sgst: 0, igst: 180, total: 1180 });
    await lab.admin.post(`/api/invoices/${draft.id}/issue`, {});
    expect(badFields(await lab.admin.post(`/api/invoices/${draft.id}/cancel`, {}))).toEqual(['reason']);
    const cancelled = (
      await lab.admin.post(`/api/invoices/${draft.id}/cancel`, { reason: 'Raised to the wrong branch' })
    ).json().invoice as InvoiceDetail;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.credit_note_number).toMatch(/^CN\d{4}-\d{6}$/);
    const again = await lab.admin.post('/api/invoices', { payer_id: p.id, period_from: today, period_to: today });
    expect(again.statusCode, again.body).toBe(201);
    // A draft may be deleted: its bills are free again.
    expect((await lab.admin.delete(`/api/invoices/${again.json().invoice.id}`)).statusCode).toBe(200);
  });

  it('overdue when the due date passes unpaid; the list filters by status, search and dates', async () => {
    const b = await okBill(null, [[cbc]]);
    const inv = (await lab.admin.post('/api/invoices', { bill_id: b.id })).json().invoice as InvoiceDetail;
    await lab.admin.post(`/api/invoices/${inv.id}/issue`, {});
    await lab.database.db
      .updateTable('invoices')
      .set({ due_date: addDays(today, -1) })
      .where('id', '=', inv.id)
      .execute();
    expect((await lab.admin.get(`/api/invoices/${inv.id}`)).json().invoice.status).toBe('overdue');
    const overdue = (await lab.admin.get('/api/invoices?status=overdue')).json();
    expect(overdue.invoices.map((i: { id: number }) => i.id)).toContain(inv.id);
    const pending = (await lab.admin.get('/api/invoices?status=pending')).json();
    expect(pending.invoices.map((i: { id: number }) => i.id)).not.toContain(inv.id);
    const number = (await lab.admin.get(`/api/invoices/${inv.id}`)).json().invoice.invoice_number;
    expect((await lab.admin.get(`/api/invoices?search=${number}`)).json().total).toBe(1);
    for (const [q, field] of [
      ['status=late', 'status'],
      ['from=2026-13-01', 'from'],
      ['from=2026-05-02&to=2026-05-01', 'to'],
      ['limit=500', 'limit'],
    ])
      expect(badFields(await lab.admin.get(`/api/invoices?${q}`))).toEqual([field]);
  });

  it('refuses bad input on every write, naming the field, and stores nothing', async () => {
    const before = await count('invoices');
    expect(badFields(await lab.admin.post('/api/invoices', {}))).toEqual(['payer_id']);
    expect(
      badFields(await lab.admin.post('/api/invoices', { payer_id: 'x', period_from: today, period_to: today })),
    ).toEqual(['payer_id']);
    expect(badFields(await lab.admin.post('/api/invoices', { bill_id: 999999 }))).toEqual(['bill_id']);
    expect(
      badFields(await lab.admin.post('/api/invoices', { payer_id: 999999, period_from: today, period_to: today })),
    ).toEqual(['payer_id']);
    expect(await count('invoices')).toBe(before);
    const b = await okBill(null, [[cbc]]);
    const inv = (await lab.admin.post('/api/invoices', { bill_id: b.id })).json().invoice as InvoiceDetail;
    expect(badFields(await lab.admin.post(`/api/invoices/${inv.id}/issue`, { invoice_date: '2026-02-30' }))).toEqual([
      'invoice_date',
    ]);
    expect((await lab.admin.post(`/api/invoices/${inv.id}/mark-paid`, { method: 'cash' })).statusCode).toBe(409);
    await lab.admin.post(`/api/invoices/${inv.id}/issue`, {});
    expect(badFields(await lab.admin.post(`/api/invoices/${inv.id}/mark-paid`, { method: 'bitcoin' }))).toEqual([
      'method',
    ]);
    expect(badFields(await lab.admin.post(`/api/invoices/${inv.id}/mark-paid`, { method: 'cheque' }))).toEqual([
      'reference',
      'bank',
    ]);
    expect(badFields(await lab.admin.post(`/api/invoices/${inv.id}/mark-paid`, { method: 'insurance' }))).toEqual([
      'reference',
    ]);
    expect((await lab.admin.get(`/api/invoices/${inv.id}`)).json().invoice.status).toBe('pending');
    expect(badFields(await lab.admin.put('/api/billing-settings', { gstin: 'ABC' }))).toEqual(['gstin']);
    expect(
      badFields(await lab.admin.put('/api/billing-settings', { discount_ceilings: { receptionist: 120 } })),
    ).toEqual(['discount_ceilings.receptionist']);
    expect(badFields(await lab.admin.put('/api/billing-settings', { bill_due_days: -1 }))).toEqual(['bill_due_days']);
    expect((await lab.admin.get('/api/billing-settings')).json().settings.gstin).toBe(LAB_GSTIN);
  });

  it('a bill made before per-line GST (migration 20) is invoiced line by line, or refused when it had one rate on the whole bill', async () => {
    const doctor = (
      await lab.admin.post('/api/users', {
        first_name: 'Old',
        last_name: uniqueWord('Bill'),
        email: `${uniqueWord('oldbill').toLowerCase()}@lab.test`,
        role: 'doctor',
        password: 'longpassword1',
        consultation_fee: 500,
      })
    ).json().user.id as number;
    // Lines 400 + 800, fee 500, 10% off: each line and the fee carry their share of the discount.
    const b = (await billFor(null, [[cbc], [lipid]], { doctor_id: doctor, discount_percentage: 10 })).json()
      .bill as Bill;
    expect(b.final_amount).toBe(1530);
    // What migration 20 left on a bill made before it: no per-line taxable value.
    await exec(lab.database, 'UPDATE bill_items SET taxable_paise = 0, tax_paise = 0 WHERE bill_id = ?', b.id);
    const res = await lab.admin.post('/api/invoices', { bill_id: b.id });
    expect(res.statusCode, res.body).toBe(201);
    const inv = res.json().invoice as InvoiceDetail;
    expect(inv.lines.map((l) => [l.description.split(' — ')[0], l.taxable, l.rate_percent])).toEqual([
      ['Complete Blood Count (CBCX)', 360, 0],
      ['Lipid Profile (LIPX)', 720, 0],
      ['Consultation fee', 450, 0],
    ]);
    expect(inv).toMatchObject({ exempt: 1530, taxable: 0, tax: 0, total: 1530 });
    expect((await lab.admin.delete(`/api/invoices/${inv.id}`)).statusCode).toBe(200);

    // An old bill taxed at one rate on the whole bill has no per-line tax to show: refused, nothing stored.
    await exec(
      lab.database,
      'UPDATE bills SET tax_percentage = 18, tax_amount_paise = 27540, final_amount_paise = 180540 WHERE id = ?',
      b.id,
    );
    const before = await count('invoices');
    const refused = await lab.admin.post('/api/invoices', { bill_id: b.id });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(errorBody(refused).code).toBe('BILL_NOT_GST_READY');
    expect(await count('invoices')).toBe(before);
  });

  it('a lab without a GSTIN cannot issue a GST invoice', async () => {
    const own = await otherLabAdmin(lab);
    const t = (await own.admin.post('/api/tests', { name: 'CBC', code: 'CBCO', price: 100 })).json().test.id;
    const patient = await createPatient(own.admin);
    const b = (
      await own.admin.post('/api/bills', { patient_id: patient.id, items: [{ item_type: 'test', item_id: t }] })
    ).json().bill;
    const inv = (await own.admin.post('/api/invoices', { bill_id: b.id })).json().invoice;
    const res = await own.admin.post(`/api/invoices/${inv.id}/issue`, {});
    expect(res.statusCode).toBe(409);
    expect(errorBody(res).code).toBe('LAB_GSTIN_MISSING');
    // With its GSTIN but no address, still refused: a tax invoice names the supplier's address.
    expect((await own.admin.put('/api/billing-settings', { gstin: '29AABCL1234M1Z5' })).statusCode).toBe(200);
    const noAddress = await own.admin.post(`/api/invoices/${inv.id}/issue`, {});
    expect(noAddress.statusCode).toBe(409);
    expect(errorBody(noAddress).code).toBe('LAB_ADDRESS_MISSING');
    expect(errorBody(noAddress).message).toContain('Lab Address');
    expect((await own.admin.get(`/api/invoices/${inv.id}`)).json().invoice.status).toBe('draft');
  });
});

describe('discount limits per role (Discount Management)', () => {
  it('the server holds billing staff to the lab’s limit, and the change is audited', async () => {
    expect((await staff.put('/api/billing-settings', { discount_ceilings: { billing_staff: 50 } })).statusCode).toBe(
      403,
    );
    const res = await lab.admin.put('/api/billing-settings', {
      discount_ceilings: { billing_staff: 5 },
      bill_due_days: 10,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().settings.discount_ceilings.billing_staff).toBe(5);
    const refused = await billFor(null, [[cbc]], { discount_percentage: 10 }, staff);
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused).code).toBe('DISCOUNT_APPROVAL_REQUIRED');
    expect(errorBody(refused).message).toContain('up to 5%');
    const ok = await billFor(null, [[cbc]], { discount_percentage: 5 }, staff);
    expect(ok.statusCode).toBe(201);
    // A patient's bill is due in the lab's days.
    expect(ok.json().bill.due_date).toBe(addDays(today, 10));
    const audit = await auditRowsFor(lab, 'billing_settings', lab.organizationId);
    expect(JSON.parse(audit.at(-1)!.new_values!)).toMatchObject({
      'discountCeilings.billing_staff': 5,
      billDueDays: 10,
    });
    await lab.admin.put('/api/billing-settings', { discount_ceilings: { billing_staff: 20 }, bill_due_days: 7 });
  });
});

describe('who may', () => {
  it('billing staff keep payers and invoices; receptionists read; technicians neither', async () => {
    const tech = await lab.as('technician');
    const recep = await lab.as('receptionist');
    const p = await addPayer();
    for (const url of ['/api/payers', `/api/payers/${p.id}`, '/api/invoices', '/api/billing-settings'])
      expect((await tech.get(url)).statusCode, url).toBe(403);
    expect((await tech.post('/api/payers', { name: 'T', type: 'corporate' })).statusCode).toBe(403);
    expect((await tech.post('/api/invoices', { bill_id: 1 })).statusCode).toBe(403);
    expect((await recep.get('/api/payers')).statusCode).toBe(200);
    expect((await recep.post('/api/payers', { name: uniqueWord('R'), type: 'corporate' })).statusCode).toBe(403);
    const made = await staff.post('/api/payers', { name: uniqueWord('Staff '), type: 'insurance' });
    expect(made.statusCode).toBe(201);
    const b = await okBill(null, [[cbc]]);
    expect((await staff.post('/api/invoices', { bill_id: b.id })).statusCode).toBe(201);
  });

  it('another lab sees none of it', async () => {
    const own = await otherLabAdmin(lab);
    const p = await addPayer();
    const b = await okBill(null, [[cbc]]);
    const inv = (await lab.admin.post('/api/invoices', { bill_id: b.id })).json().invoice;
    expect((await own.admin.get(`/api/payers/${p.id}`)).statusCode).toBe(404);
    expect((await own.admin.get(`/api/payers/${p.id}/prices`)).statusCode).toBe(404);
    expect((await own.admin.get(`/api/invoices/${inv.id}`)).statusCode).toBe(404);
    expect((await own.admin.get(`/api/invoices/${inv.id}/pdf`)).statusCode).toBe(404);
    expect((await own.admin.post(`/api/invoices/${inv.id}/issue`, {})).statusCode).toBe(404);
    expect((await own.admin.get('/api/payers')).json().total).toBe(0);
    expect((await own.admin.get('/api/invoices')).json().total).toBe(0);
    // Its bills cannot be charged to this lab's payer nor invoiced by it.
    const t = (await own.admin.post('/api/tests', { name: 'CBC', code: 'CBCZ', price: 100 })).json().test.id;
    const patient = await createPatient(own.admin);
    const res = await own.admin.post('/api/bills', {
      patient_id: patient.id,
      payer_id: p.id,
      items: [{ item_type: 'test', item_id: t }],
    });
    expect(badFields(res)).toEqual(['payer_id']);
    expect(badFields(await own.admin.post('/api/invoices', { bill_id: b.id }))).toEqual(['bill_id']);
  });
});
