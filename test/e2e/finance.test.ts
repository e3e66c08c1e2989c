import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createUser } from '../../src/core/users/service.js';
import { createBill, updateBill } from '../../src/core/billing/service.js';
import { addPayerPrice, createPayer } from '../../src/core/payers/service.js';
import { systemActor } from '../../src/core/context.js';
import { updateBillingSettings } from '../../src/core/settings/billing.js';
import { updateSettings } from '../../src/core/settings/service.js';
import { organizationTimezone } from '../../src/core/settings/organization.js';
import { getClosing } from '../../src/core/payments/closing.js';
import { formatInr } from '../../src/shared/money.js';
import { localDate } from '../../src/shared/time.js';
import type { Bill } from '../../src/shared/schemas/bills.js';
import { MOBILE, RESULTS_DIR, screenshot, startApp, type E2eApp, screenshotFailures } from './harness.js';
import { requirePoppler } from '../../scripts/find-browser.mjs';

/**
 * Finance walk-through: a bill charged to a corporate payer at its own price on OP Bill,
 * a UPI payment and a cheque that bounces on /payments, and Advanced Billing's figures and Collect
 * Payment; then the day's end: a partial refund, the payer's monthly GST invoice (PDF, paid), the
 * cashier's closing with a miscounted drawer, and revenue agreeing with the closings to the paisa.
 * Each checked against the database.
 */

let app: E2eApp;
const CBC_PRICE = 350;
const ACME_CBC = 280;
let sitaBill: Bill;
let gopalBill: Bill;

beforeAll(async () => {
  app = await startApp({ roles: ['billing_staff'] });
  const db = app.database.db;
  const actor = systemActor(app.organizationId!);
  await createUser(db, actor, {
    first_name: 'Meera',
    last_name: 'Iyer',
    email: 'meera@lab.test',
    role: 'doctor',
    password: 'correct-horse-9',
    consultation_fee: 0,
  });
  const cbc = await createTest(db, actor, {
    name: 'Complete Blood Count',
    code: 'CBC',
    price: CBC_PRICE,
    status: 'active',
    category: 'Haematology',
  });
  const acme = await createPayer(db, actor, {
    name: 'Acme Industries',
    type: 'corporate',
    payment_terms_days: 30,
    discount_percent: 0,
    status: 'active',
  });
  await addPayerPrice(db, actor, acme.id, {
    item_type: 'test',
    item_id: cbc.id,
    price: ACME_CBC,
    effective_from: '2026-01-01',
  });
  await createPatient(db, actor, { first_name: 'Ravi', last_name: 'Kumar', date_of_birth: '1985-06-15' });
  const sita = await createPatient(db, actor, { first_name: 'Sita', last_name: 'Devi', date_of_birth: '1990-02-01' });
  const gopal = await createPatient(db, actor, { first_name: 'Gopal', last_name: 'Rao', date_of_birth: '1970-03-09' });
  const line = { item_type: 'test' as const, item_id: cbc.id, qty: 1, discount_percent: 0 };
  const bill = (patient_id: number) =>
    createBill(db, actor, {
      patient_id,
      items: [line],
      discount_percentage: 0,
      tax_percentage: 0,
      payment_method: 'cash',
    });
  sitaBill = await bill(sita.id);
  gopalBill = await bill(gopal.id);
});

afterAll(async () => {
  await app?.close();
});

const track = screenshotFailures();

async function open(
  path: string,
  heading: string,
  viewport?: { width: number; height: number },
  who = app.admin,
): Promise<Page> {
  const page = await app.signedInPage(path, who, viewport);
  track(page);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return page;
}

const textOf = async (l: Locator) => (await l.innerText()).trim();

async function paymentRows(billId: number) {
  return app.database.db
    .selectFrom('payments')
    .select(['method', 'reference', 'bank', 'status', 'amount_paise'])
    .where('bill_id', '=', billId)
    .orderBy('id')
    .execute();
}

async function paidPaise(billId: number): Promise<number> {
  const r = await app.database.db
    .selectFrom('bills')
    .select('paid_paise')
    .where('id', '=', billId)
    .executeTakeFirstOrThrow();
  return r.paid_paise;
}

describe('finance', () => {
  it('OP Bill charges a corporate payer its own price for CBC', async () => {
    const page = await open('/op-bill', 'OP Bill');
    const patient = page.getByRole('combobox', { name: 'Patient' });
    await patient.fill('Ravi');
    await page
      .getByRole('listbox', { name: 'Patient' })
      .getByRole('option', { name: /Ravi Kumar/ })
      .click();
    await page.getByRole('combobox', { name: 'Individual Tests' }).fill('cbc');
    await page
      .getByRole('listbox', { name: 'Individual Tests' })
      .getByRole('option', { name: /Complete Blood Count/ })
      .click();
    await page.getByRole('combobox', { name: 'Doctor' }).click();
    await page
      .getByRole('listbox', { name: 'Doctor' })
      .getByRole('option', { name: /Meera Iyer/ })
      .click();
    const final = page.getByTestId('bill-final-total');
    await expect.poll(() => textOf(final)).toBe(formatInr(CBC_PRICE * 100));
    await page.getByLabel('Bill to').selectOption({ label: 'Acme Industries (Corporate client)' });
    await expect.poll(() => textOf(final)).toBe(formatInr(ACME_CBC * 100));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const number = await textOf(page.getByRole('status', { name: 'Last saved bill' }).getByTestId('saved-bill-number'));
    const row = await app.database.db
      .selectFrom('bills as b')
      .innerJoin('payers as p', 'p.id', 'b.payer_id')
      .select(['b.final_amount_paise', 'p.name'])
      .where('b.bill_number', '=', number)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ final_amount_paise: ACME_CBC * 100, name: 'Acme Industries' });
  });

  it('takes UPI with its reference and a cheque that bounces on /payments; Advanced Billing shows it and collects', async () => {
    const page = await open('/payments', 'Payment Management');
    const record = async (bill: Bill, method: string, fields: Record<string, string>) => {
      await page.getByRole('button', { name: 'Record Payment' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Record Payment' });
      await dialog.getByLabel('Bill number').fill(bill.bill_number);
      await dialog.getByRole('button', { name: 'Find' }).click();
      await dialog.getByTestId('record-bill').waitFor();
      await dialog.getByLabel('Method').selectOption(method);
      for (const [label, value] of Object.entries(fields)) await dialog.getByLabel(label).fill(value);
      await dialog.getByRole('button', { name: 'Record Payment' }).click();
      return dialog;
    };
    // UPI without its reference is refused on the form; with it, recorded.
    const upi = await record(sitaBill, 'upi', {});
    await upi.getByText('UPI reference is required').waitFor();
    await upi.getByLabel('UPI reference').fill('UPI-4471-2026');
    await upi.getByRole('button', { name: 'Record Payment' }).click();
    await upi.waitFor({ state: 'hidden' });
    expect(await paymentRows(sitaBill.id)).toEqual([
      { method: 'upi', reference: 'UPI-4471-2026', bank: null, status: 'completed', amount_paise: CBC_PRICE * 100 },
    ]);

    // A cheque is pending on the bill; bounced, the bill's balance comes back.
    const chq = await record(gopalBill, 'cheque', { 'Cheque number': '004512', Bank: 'Canara Bank' });
    await chq.waitFor({ state: 'hidden' });
    expect(await paidPaise(gopalBill.id)).toBe(CBC_PRICE * 100);
    await page.getByLabel('Search payments').fill('004512');
    await page
      .getByRole('button', { name: /^View PAY/ })
      .first()
      .click();
    const detail = page.getByRole('dialog');
    await detail.getByLabel('Bounce reason').fill('Insufficient funds');
    await detail.getByRole('button', { name: 'Mark Bounced' }).click();
    await page.getByText('Cheque marked bounced').waitFor();
    expect(await paidPaise(gopalBill.id)).toBe(0);
    expect((await paymentRows(gopalBill.id))[0]).toMatchObject({ status: 'failed', bank: 'Canara Bank' });

    // Gopal's bill passes its due date: Advanced Billing counts it overdue and collects it.
    await updateBill(app.database.db, systemActor(app.organizationId!), gopalBill.id, { due_date: '2026-01-10' });
    await page.goto('/advanced-billing');
    await page.getByRole('heading', { name: 'Advanced Billing', level: 1 }).waitFor();
    const totalBills = await app.database.db
      .selectFrom('bills')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const cards = page.getByRole('group', { name: 'Total Bills', exact: true });
    await expect.poll(() => textOf(cards)).toContain(String(Number(totalBills.n)));
    await page.getByRole('group', { name: 'Overdue Bills', exact: true }).getByText('1', { exact: true }).waitFor();
    await page.getByText(`${formatInr(CBC_PRICE * 100)} overdue`).waitFor();

    // The method filter goes by the ledger: UPI finds Sita's bill; the bounced cheque is no cheque payment.
    await page.getByLabel('Payment method').selectOption('upi');
    const table = page.getByRole('table', { name: 'Billing records' });
    await table.getByText(sitaBill.bill_number, { exact: true }).waitFor();
    await expect.poll(() => table.getByText(gopalBill.bill_number, { exact: true }).count()).toBe(0);
    await page.getByLabel('Payment method').selectOption('cheque');
    await page.getByText('No bills found').waitFor();
    await page.getByLabel('Payment method').selectOption('all');
    await screenshot(page, 'advanced-billing');

    const overdue = page.getByRole('list', { name: 'Overdue bills' });
    await overdue.getByText(gopalBill.bill_number, { exact: true }).waitFor();
    await overdue.getByRole('button', { name: `Collect payment for bill ${gopalBill.bill_number}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Record Payment' });
    expect(await dialog.getByLabel('Amount (₹)').inputValue()).toBe('350.00');
    await dialog.getByRole('button', { name: 'Record Payment' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('No overdue bills.').waitFor();
    expect(await paidPaise(gopalBill.id)).toBe(CBC_PRICE * 100);
    expect((await paymentRows(gopalBill.id)).map((p) => [p.method, p.status])).toEqual([
      ['cheque', 'failed'],
      ['cash', 'completed'],
    ]);

    // Financial Summary: this month's net is the ledger's (UPI 350 + cash 350; the cheque bounced).
    const summary = page.getByLabel('Financial summary');
    await expect
      .poll(() => textOf(summary))
      .toMatch(new RegExp(`Net this month\\s+${formatInr(2 * CBC_PRICE * 100).replace(/[.₹,]/g, '\\$&')}`));
    await page.setViewportSize(MOBILE);
    await screenshot(page, 'advanced-billing-mobile');
  });
});

describe('finance: the day’s end', () => {
  it('refunds part of a bill, invoices the payer with GST (PDF, paid), closes a short drawer; revenue equals the closings', async () => {
    const db = app.database.db;
    const org = app.organizationId!;
    const system = systemActor(org);
    const cashierAccount = app.users.billing_staff!;
    const cashierRow = await db
      .selectFrom('users')
      .select(['id'])
      .where('email', '=', cashierAccount.email)
      .executeTakeFirstOrThrow();
    const cashier = {
      userId: cashierRow.id,
      email: cashierAccount.email,
      role: 'billing_staff' as const,
      organizationId: org,
    };
    const today = localDate(await organizationTimezone(db, org));

    // Seeded (not the subject): the lab's GSTIN, a taxable test, a payer in the lab's state with its
    // own prices, a payer's bill and a patient's cash bill taken by the cashier.
    await updateBillingSettings(db, system, { gstin: '29AABCL1234M1Z5' });
    await updateSettings(db, system, { labAddress: '12 MG Road, Bengaluru, Karnataka 560001' });
    const cbc = await db.selectFrom('tests').select('id').where('code', '=', 'CBC').executeTakeFirstOrThrow();
    const skin = await createTest(db, system, {
      name: 'Cosmetic Skin Analysis',
      code: 'SKIN',
      price: 150,
      status: 'active',
      category: 'Dermatology',
      tax_category: 'gst_18',
      sac_code: '999722',
    });
    const bharat = await createPayer(db, system, {
      name: 'Bharat Textiles',
      type: 'corporate',
      gstin: '29AAACI1111K1Z2',
      address: '14 Industrial Layout, Peenya 2nd Stage, Bengaluru, Karnataka 560058',
      payment_terms_days: 30,
      discount_percent: 0,
      status: 'active',
    });
    await addPayerPrice(db, system, bharat.id, {
      item_type: 'test',
      item_id: cbc.id,
      price: 280,
      effective_from: '2026-01-01',
    });
    await addPayerPrice(db, system, bharat.id, {
      item_type: 'test',
      item_id: skin.id,
      price: 111.15,
      effective_from: '2026-01-01',
    });
    const kiran = await createPatient(db, system, {
      first_name: 'Kiran',
      last_name: 'Shetty',
      date_of_birth: '1982-08-08',
    });
    const neha = await createPatient(db, system, {
      first_name: 'Neha',
      last_name: 'Joshi',
      date_of_birth: '1995-05-05',
    });
    const line = (item_id: number) => ({ item_type: 'test' as const, item_id, qty: 1, discount_percent: 0 });
    await createBill(db, cashier, {
      patient_id: kiran.id,
      payer_id: bharat.id,
      items: [line(cbc.id), line(skin.id)],
      discount_percentage: 0,
      tax_percentage: 0,
      payment_method: 'cash',
    });
    const nehaBill = await createBill(db, cashier, {
      patient_id: neha.id,
      items: [line(cbc.id)],
      discount_percentage: 0,
      tax_percentage: 0,
      payment_method: 'cash',
      amount_paid: CBC_PRICE,
    });

    // 1. The cashier refunds part of Neha's cash payment on /payments.
    const pay = await open('/payments', 'Payment Management', undefined, cashierAccount);
    await pay.getByLabel('Search payments').fill(nehaBill.bill_number);
    await pay
      .getByRole('button', { name: /^View PAY/ })
      .first()
      .click();
    const detail = pay.getByRole('dialog');
    await detail.getByText(`Refund (up to ${formatInr(CBC_PRICE * 100)})`).waitFor();
    await detail.getByLabel('Refund amount (₹)').fill('120.25');
    await detail.getByLabel('Refund reason').fill('Second CBC not run: sample clotted');
    await detail.getByRole('button', { name: 'Record Refund' }).click();
    await detail.waitFor({ state: 'hidden' });
    expect((await paymentRows(nehaBill.id)).map((r) => [r.method, r.status, r.amount_paise])).toEqual([
      ['cash', 'completed', 35000],
      ['cash', 'completed', -12025],
    ]);
    expect(await paidPaise(nehaBill.id)).toBe(35000 - 12025);

    // 2. The payer's monthly invoice on /invoices: draft, issued with its number, PDF, paid.
    const inv = await open('/invoices', 'Invoice Management');
    await inv.getByRole('button', { name: 'New Invoice' }).click();
    const create = inv.getByRole('dialog', { name: 'New Invoice' });
    await create.getByLabel('Payer').selectOption({ label: 'Bharat Textiles' });
    await create.getByRole('button', { name: 'Create Draft' }).click();
    await create.waitFor({ state: 'hidden' });
    await inv.getByRole('button', { name: 'Issue invoice for Bharat Textiles' }).click();
    const invoiceOf = () => db.selectFrom('invoices').selectAll().where('payer_id', '=', bharat.id).executeTakeFirst();
    await expect.poll(async () => (await invoiceOf())?.status).toBe('pending');
    const row = (await invoiceOf())!;
    // CBC ₹280.00 exempt; the skin analysis ₹111.15 at 18% inside Karnataka: CGST 9% + SGST 9%, ₹10.00 each.
    expect(row).toMatchObject({
      exempt_paise: 28000,
      taxable_paise: 11115,
      cgst_paise: 1000,
      sgst_paise: 1000,
      igst_paise: 0,
      total_paise: 28000 + 11115 + 2000,
    });
    const number = row.invoice_number!;
    const table = inv.getByRole('table', { name: 'Invoices' });
    await table.getByText(number, { exact: true }).waitFor();
    const dmy = today.split('-').reverse().join('/'); // the harness lab writes DD/MM/YYYY
    expect(await textOf(table.getByRole('row').filter({ hasText: number }))).toContain(dmy);
    const pdf = await inv.request.get(`/api/invoices/${row.id}/pdf`);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    const file = join(RESULTS_DIR, 'finance-invoice.pdf');
    writeFileSync(file, await pdf.body());
    const text = execFileSync(requirePoppler('pdftotext'), ['-layout', file, '-']).toString();
    expect(text).toContain(number);
    expect(text).toContain('29AAACI1111K1Z2');
    expect(text).toMatch(/Place of supply[\s\S]*Karnataka \(29\)/);
    // Each line's tax on its own row: the exempt CBC says so in one word; the skin line has 18 and ₹10.00 twice.
    expect(text).toMatch(/Complete Blood Count \(CBC\).*₹280\.00\s+Exempt\s+₹0\.00\s+₹0\.00\s+₹280\.00/);
    expect(text).toMatch(/Cosmetic Skin Analysis \(SKIN\).*₹111\.15\s+18\s+₹10\.00\s+₹10\.00\s+₹131\.15/);
    expect(text).toMatch(/Exempt supplies\s+₹280\.00/);
    expect(text).toMatch(/CGST\s+₹10\.00\n[\s\S]*SGST\s+₹10\.00/);
    expect(text).toMatch(/Invoice total\s+₹411\.15/);
    expect(text).toContain('Rupees Four Hundred Eleven and Fifteen Paise Only');
    // The whole recipient address is printed (rule 46), not cut short.
    expect(text.replace(/\s+/g, ' ')).toContain('Peenya 2nd Stage');
    execFileSync(requirePoppler('pdftoppm'), [
      '-png',
      '-r',
      '80',
      '-singlefile',
      file,
      join(RESULTS_DIR, 'finance-invoice'),
    ]);

    await table.getByRole('button', { name: `Mark ${number} paid` }).click();
    const paid = inv.getByRole('dialog', { name: `Mark ${number} paid` });
    await paid.getByLabel('UTR / transaction ID').fill('UTR-NEFT-77120');
    await paid.getByRole('button', { name: 'Record Payment' }).click();
    await paid.waitFor({ state: 'hidden' });
    await table.getByText('Paid', { exact: true }).waitFor();
    const settled = await db
      .selectFrom('payments as p')
      .innerJoin('bills as b', 'b.id', 'p.bill_id')
      .select(['p.method', 'p.reference', 'p.amount_paise'])
      .where('b.payer_id', '=', bharat.id)
      .execute();
    expect(settled).toEqual([{ method: 'bank_transfer', reference: 'UTR-NEFT-77120', amount_paise: 41115 }]);
    await screenshot(inv, 'finance-invoices');

    // The payer's statement: the bill and its payment with the running balance, as the database has them.
    await inv.getByRole('tab', { name: 'Payers' }).click();
    await inv.getByRole('button', { name: 'Statement of Bharat Textiles' }).click();
    const st = inv.getByRole('dialog', { name: 'Bharat Textiles' });
    const payerLedger = st.getByRole('table', { name: 'Statement of Bharat Textiles' });
    await payerLedger.getByText('₹411.15').first().waitFor();
    const stFigures = await textOf(st.locator('dl').first());
    expect(stFigures).toMatch(/Billed\s*₹411\.15/);
    expect(stFigures).toMatch(/Paid\s*₹411\.15/);
    expect(stFigures).toMatch(/Closing balance\s*₹0\.00/);
    // A period that ends before it starts offers no PDF; "Last 90 days" mends it.
    await st.getByLabel('From').fill('2099-01-01');
    await expect.poll(() => st.getByRole('link', { name: 'Statement PDF' }).count()).toBe(0);
    await st.getByRole('button', { name: 'Last 90 days' }).click();
    await st.getByRole('link', { name: 'Statement PDF' }).waitFor();
    await payerLedger.getByText('₹411.15').first().waitFor();
    await screenshot(inv, 'finance-payer-statement');
    await inv.setViewportSize(MOBILE);
    await screenshot(inv, 'finance-payer-statement-mobile');
    await inv.keyboard.press('Escape');
    await inv.getByRole('tab', { name: 'Invoices' }).click();
    await screenshot(inv, 'finance-invoices-mobile');

    // 3. The cashier closes the day on /revenue with a drawer ₹49.25 short.
    const rev = await open('/revenue', 'Revenue Reports', undefined, cashierAccount);
    const closingPanel = rev.getByRole('region', { name: 'Day-end closing' });
    const mine = await db
      .selectFrom('payments')
      .select(['method', 'amount_paise'])
      .where('received_by', '=', cashier.userId)
      .where('status', 'in', ['completed', 'refunded'])
      .execute();
    const cashIn = mine.filter((r) => r.method === 'cash').reduce((s, r) => s + r.amount_paise, 0);
    const FLOAT = 50000;
    const expectedPaise = FLOAT + cashIn; // refunds are negative rows
    expect(expectedPaise).toBe(50000 + 35000 - 12025);
    await expect.poll(() => textOf(closingPanel.getByTestId('closing-refunds'))).toBe(formatInr(12025));
    await closingPanel.getByLabel('Opening float (₹)').fill('500');
    await closingPanel.getByLabel('Counted cash (₹)').fill(((expectedPaise - 4925) / 100).toFixed(2));
    await closingPanel.getByLabel('Notes').fill('Counted twice');
    await closingPanel.getByRole('button', { name: 'Close Day' }).click();
    // A locked report: the cashier confirms the day and its figures first.
    const confirm = rev.getByRole('dialog', { name: `Close ${dmy}?` });
    const figures = confirm.getByTestId('close-day-figures');
    await figures.getByText(formatInr(expectedPaise), { exact: true }).waitFor();
    await figures.getByText(`${formatInr(4925)} short`, { exact: true }).waitFor();
    expect(await rev.getByTestId('closing-locked').count()).toBe(0);
    await screenshot(rev, 'finance-close-day-confirm');
    await rev.setViewportSize(MOBILE);
    await screenshot(rev, 'finance-close-day-confirm-mobile');
    await rev.setViewportSize({ width: 1280, height: 800 });
    await confirm.getByRole('button', { name: 'Close Day' }).click();
    await closingPanel.getByTestId('closing-locked').waitFor();
    expect(await textOf(closingPanel.getByTestId('closing-expected'))).toBe(formatInr(expectedPaise));
    expect(await textOf(closingPanel.getByTestId('closing-difference'))).toBe(`${formatInr(4925)} short`);
    const closed = await db
      .selectFrom('day_closings')
      .select(['expected_cash_paise', 'counted_cash_paise', 'difference_paise', 'refunds_paise'])
      .where('user_id', '=', cashier.userId)
      .executeTakeFirstOrThrow();
    expect(closed).toEqual({
      expected_cash_paise: expectedPaise,
      counted_cash_paise: expectedPaise - 4925,
      difference_paise: -4925,
      refunds_paise: 12025,
    });

    // 4. Revenue's day equals the day's closings of everyone who took money, and the ledger, to the paisa.
    const takers = await db.selectFrom('payments').select('received_by').distinct().execute();
    const closings = await Promise.all(
      takers.map((t) => getClosing(db, system, { date: today, user_id: t.received_by! })),
    );
    const sum = (k: 'net' | 'cash' | 'refunds' | 'bank_transfer') =>
      closings.reduce((s, c) => s + Math.round(c[k] * 100), 0);
    const ledger = await db
      .selectFrom('payments')
      .select((eb) => eb.fn.sum<number>('amount_paise').as('n'))
      .where('value_date', '=', today)
      .where('status', 'in', ['completed', 'refunded'])
      .executeTakeFirstOrThrow();
    expect(sum('net')).toBe(Number(ledger.n));
    const day = rev.getByTestId(`revenue-${today}`);
    const cell = (i: number) => textOf(day.locator('td').nth(i));
    await expect.poll(() => cell(1)).toBe(formatInr(sum('net')));
    expect(await cell(2)).toBe(formatInr(sum('cash')));
    expect(await cell(5)).toBe(formatInr(sum('bank_transfer')));
    expect(await cell(8)).toBe(formatInr(sum('refunds')));
    // A day is found as the table shows it; one item is "1 item".
    await rev.getByLabel('Find a day').fill(dmy);
    await expect.poll(() => rev.getByRole('table', { name: 'Daily revenue' }).locator('tbody tr').count()).toBe(1);
    await rev.getByText(`${formatInr(11115)} · 1 item`, { exact: true }).waitFor();
    await screenshot(rev, 'finance-closing');
    await rev.setViewportSize(MOBILE);
    await closingPanel.scrollIntoViewIfNeeded();
    await screenshot(rev, 'finance-closing-mobile');
  });
});
