import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { buildRichLab, type RichLab } from './rich-lab.js';
import { createPatient } from './support.js';
import { shiftBill } from './accounts-support.js';
import { systemActor } from '../../src/core/context.js';
import { addDays, localDate, startOfLocalDayUtc } from '../../src/shared/time.js';
import { tallyExport, tallyVouchers } from '../../src/core/accounts/tally.js';
import { updateAccountsSettings } from '../../src/core/accounts/settings.js';
import { billedTotalsSummed } from '../../src/core/reports/money.js';
import { collectionDaily } from '../../src/core/reports/revenue.js';
import type { Voucher } from '../../src/core/accounts/vouchers.js';
import { DEFAULT_LEDGERS, LEDGER_KEYS } from '../../src/shared/schemas/accounts.js';

/**
 * A year of a rich lab as Tally vouchers: every voucher balances to the paisa, the ledgers are
 * named as the lab set them, sales net of credit notes equal the bills the revenue report sums,
 * and receipts net of refunds equal its collections.
 */
let lab: TestLab;
let rich: RichLab;
const today = localDate('Asia/Kolkata');
const LEDGERS = Object.fromEntries(LEDGER_KEYS.map((k) => [k, `ACME ${k.toUpperCase()} A/c`]));

/** Moves a bill and its ledger rows back by `days`, as if made then. */
const backdate = (billId: number, days: number) => shiftBill(lab.database.db, billId, -days * 86_400_000);

const months: string[] = [];

beforeAll(async () => {
  lab = await makeLab();
  rich = await buildRichLab(lab);
  const a = lab.admin;
  const tests = (await a.get('/api/tests?limit=100')).json<{ tests: { id: number; code: string }[] }>().tests;
  const id = (code: string) => tests.find((t) => t.code === code)!.id;
  // A payer in another state (IGST), and a bill a month for eleven months, paid by each method.
  const ka = (
    await a.post('/api/payers', { name: 'Karnataka Clinics LLP', type: 'corporate', gstin: '29AAACK7777K1Z3' })
  ).json<{ payer: { id: number } }>().payer.id;
  const methods = ['cash', 'card', 'upi', 'bank_transfer', 'insurance'];
  for (let k = 1; k <= 11; k++) {
    const patient = await createPatient(a);
    const res = await a.post('/api/bills', {
      patient_id: patient.id,
      visit_type: 'lab_only',
      payment_method: 'cash',
      discount_percentage: k % 3 === 0 ? 7.5 : 0,
      items: [
        { item_type: 'test', item_id: id('RHB'), qty: 1, discount_percent: 0 },
        { item_type: 'test', item_id: id(k % 2 ? 'RVITD' : 'RSKIN'), qty: k % 4 === 0 ? 2 : 1, discount_percent: 3 },
      ],
      ...(k % 4 === 1 ? { payer_id: ka } : {}),
    });
    expect(res.statusCode, res.body).toBe(201);
    const bill = res.json<{ bill: { id: number; final_amount: number } }>().bill;
    const pay = await a.post('/api/payments', {
      bill_id: bill.id,
      amount: 333.33,
      method: methods[k % methods.length],
      reference: `REF-${k}`,
    });
    expect(pay.statusCode, pay.body).toBe(201);
    if (k === 5) {
      const refund = await a.post(`/api/payments/${pay.json<{ payment: { id: number } }>().payment.id}/refund`, {
        amount: 33.33,
        reason: 'Sample not taken',
      });
      expect(refund.statusCode, refund.body).toBe(201);
    }
    await backdate(bill.id, k * 30);
  }
  // A bill made 45 days ago and cancelled today: last month's sale, this month's credit note.
  const late = await a.post('/api/bills', {
    patient_id: (await createPatient(a)).id,
    visit_type: 'lab_only',
    payment_method: 'cash',
    discount_percentage: 0,
    items: [{ item_type: 'test', item_id: id('RSKIN'), qty: 1, discount_percent: 0 }],
  });
  const lateId = late.json<{ bill: { id: number } }>().bill.id;
  await backdate(lateId, 45);
  expect((await a.put(`/api/bills/${lateId}`, { status: 'cancelled', cancel_reason: 'Patient left' })).statusCode).toBe(
    200,
  );
  // The rich lab's own bills spread over the year.
  await backdate(rich.bills.gst!, 300);
  await backdate(rich.bills.cheques!, 200);
  await backdate(rich.bills.first!, 100);
  await backdate(rich.bills.second!, 100);
  await updateAccountsSettings(lab.database.db, systemActor(lab.organizationId), {
    ledgers: LEDGERS,
    tally_company: 'Acme Diagnostics & Co',
  });
  for (
    let d = `${addDays(today, -365).slice(0, 7)}-01`;
    d <= today;
    d = addDays(`${d.slice(0, 7)}-28`, 4).slice(0, 7) + '-01'
  )
    months.push(d.slice(0, 7));
}, 240_000);
afterAll(() => lab.close());

const debits = (v: Voucher) => v.entries.filter((e) => e.paise > 0).reduce((s, e) => s + e.paise, 0);

describe('Tally day book', () => {
  it('balances every voucher to the paisa over a year, and its sales equal the revenue report', async () => {
    const db = lab.database.db;
    const all: Voucher[] = [];
    for (const m of months) all.push(...(await tallyVouchers(db, lab.organizationId, m)));
    expect(months.length).toBe(13);
    for (const v of all) {
      expect(
        v.entries.reduce((s, e) => s + e.paise, 0),
        `${v.type} ${v.number}`,
      ).toBe(0);
      expect(v.entries.every((e) => Number.isInteger(e.paise) && e.paise !== 0)).toBe(true);
    }
    const total = (type: Voucher['type']) => all.filter((v) => v.type === type).reduce((s, v) => s + debits(v), 0);
    const from = startOfLocalDayUtc('Asia/Kolkata', `${months[0]}-01`).toISOString();
    const to = startOfLocalDayUtc('Asia/Kolkata', addDays(today, 1)).toISOString();
    const billed = await billedTotalsSummed(db, lab.organizationId, from, to);
    expect(total('Credit Note')).toBeGreaterThan(0);
    expect(total('Sales') - total('Credit Note')).toBe(billed.amount_paise);
    const collected = await collectionDaily(db, lab.organizationId, { from: `${months[0]}-01`, to: today });
    expect(total('Payment')).toBeGreaterThan(0);
    expect(total('Receipt') - total('Payment')).toBe(Math.round(collected.totals.total * 100));
    // Each kind of voucher is there: sales taxed both ways, every money method.
    const ledgers = new Set(all.flatMap((v) => v.entries.map((e) => e.ledger)));
    for (const k of LEDGER_KEYS) expect(ledgers, k).toContain(LEDGERS[k]);
    for (const name of Object.values(DEFAULT_LEDGERS)) expect(ledgers).not.toContain(name);
    expect(ledgers).toContain('Karnataka Clinics LLP');
  });

  it('writes the Tally import envelope with debits negative and deemed positive', async () => {
    const types = new Set<string>();
    for (const month of months) {
      const { xml, vouchers } = await tallyExport(lab.database.db, lab.organizationId, month);
      expect(xml).toMatch(
        /^<\?xml[^>]*>\s*<ENVELOPE>\s*<HEADER>\s*<TALLYREQUEST>Import Data<\/TALLYREQUEST>\s*<\/HEADER>\s*<BODY>\s*<IMPORTDATA>\s*<REQUESTDESC>\s*<REPORTNAME>Vouchers<\/REPORTNAME>/,
      );
      expect(xml).toContain('<SVCURRENTCOMPANY>Acme Diagnostics &amp; Co</SVCURRENTCOMPANY>');
      const blocks = xml.split('<VOUCHER ').slice(1);
      expect(blocks.length).toBe(vouchers.length);
      for (const block of blocks) {
        types.add(/VCHTYPE="([^"]+)"/.exec(block)![1]!);
        let sum = 0;
        for (const m of block.matchAll(
          /<ISDEEMEDPOSITIVE>(Yes|No)<\/ISDEEMEDPOSITIVE>[\s\S]*?<AMOUNT>(-?\d+\.\d{2})<\/AMOUNT>/g,
        )) {
          const paise = Math.round(Number(m[2]) * 100);
          expect(m[1] === 'Yes').toBe(paise < 0);
          sum += paise;
        }
        expect(sum).toBe(0);
      }
    }
    expect([...types].sort()).toEqual(['Credit Note', 'Payment', 'Receipt', 'Sales']);
  });

  it('posts sales one voucher a day when the lab says so, to the same total', async () => {
    const db = lab.database.db;
    const byBill = await tallyVouchers(db, lab.organizationId, months[1]!);
    await updateAccountsSettings(db, systemActor(lab.organizationId), { sales_voucher_mode: 'day' });
    const byDay = await tallyVouchers(db, lab.organizationId, months[1]!);
    await updateAccountsSettings(db, systemActor(lab.organizationId), { sales_voucher_mode: 'bill' });
    const sales = (vs: Voucher[]) => vs.filter((v) => v.type === 'Sales');
    const sum = (vs: Voucher[]) => sales(vs).reduce((s, v) => s + debits(v), 0);
    expect(sum(byDay)).toBe(sum(byBill));
    expect(sales(byDay).every((v) => v.number.startsWith('SALES-'))).toBe(true);
    expect(new Set(sales(byDay).map((v) => v.date)).size).toBe(sales(byDay).length);
  });
});
