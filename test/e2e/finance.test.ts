import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createUser } from '../../src/core/users/service.js';
import { createBill, updateBill } from '../../src/core/billing/service.js';
import { addPayerPrice, createPayer } from '../../src/core/payers/service.js';
import { systemActor } from '../../src/core/context.js';
import { formatInr } from '../../src/shared/money.js';
import type { Bill } from '../../src/shared/schemas/bills.js';
import { MOBILE, screenshot, startApp, type E2eApp, screenshotFailures } from './harness.js';

/**
 * Finance walk-through (issue 16): a bill charged to a corporate payer at its own price on OP Bill,
 * a UPI payment and a cheque that bounces on /payments, and Advanced Billing's figures and Collect
 * Payment, each checked against the database.
 */

let app: E2eApp;
const CBC_PRICE = 350;
const ACME_CBC = 280;
let sitaBill: Bill;
let gopalBill: Bill;

beforeAll(async () => {
  app = await startApp();
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

async function open(path: string, heading: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await app.signedInPage(path, app.admin, viewport);
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
