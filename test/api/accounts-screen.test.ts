import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { registerForGst } from './accounts-support.js';
import { badFields, createPatient } from './support.js';
import { localDate } from '../../src/shared/time.js';
import { tallyVouchers } from '../../src/core/accounts/tally.js';
import type { AccountsSettings, AccountsSummary } from '../../src/shared/schemas/accounts.js';

/**
 * What the accountant's screen reads: the month's figures equal its Tally file's vouchers, and the
 * accounts settings edited there change what the files say (ledger names in the XML, the IRN file
 * offered or refused by turnover and threshold); only export_accounts may read or change them.
 */
let lab: TestLab;
const month = localDate('Asia/Kolkata').slice(0, 7);
const cents = (n: number) => Math.round(n * 100);

beforeAll(async () => {
  lab = await makeLab();
  const a = lab.admin;
  const id = await registerForGst(lab);
  const cbc = await id({ name: 'CBC', code: 'CBCS', price: 400 });
  const skin = await id({
    name: 'Skin analysis',
    code: 'SKNS',
    price: 308.74,
    tax_category: 'gst_12',
    sac_code: '999722',
  });
  for (const [items, pay] of [
    [[cbc], 400],
    [[cbc, skin], 250],
    [[skin], 0],
  ] as const) {
    const res = await a.post('/api/bills', {
      patient_id: (await createPatient(a)).id,
      items: items.map((item_id) => ({ item_type: 'test', item_id, qty: 1 })),
      payment_method: 'cash',
    });
    expect(res.statusCode, res.body).toBe(201);
    if (pay === 0) continue;
    const p = await a.post('/api/payments', {
      bill_id: res.json<{ bill: { id: number } }>().bill.id,
      amount: pay,
      method: 'upi',
      reference: 'UPI-1',
    });
    expect(p.statusCode, p.body).toBe(201);
    if (pay === 400) {
      const r = await a.post(`/api/payments/${p.json<{ payment: { id: number } }>().payment.id}/refund`, {
        amount: 40,
        reason: 'Sample not taken',
      });
      expect(r.statusCode, r.body).toBe(201);
    }
  }
}, 60_000);
afterAll(() => lab.close());

describe('the accountant’s screen', () => {
  it('shows the month’s figures as its Tally file has them', async () => {
    const res = await lab.admin.get(`/api/accounts/summary?month=${month}`);
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json<{ summary: AccountsSummary }>().summary;
    const vouchers = await tallyVouchers(lab.database.db, lab.organizationId, month);
    const sum = (type: string) =>
      vouchers
        .filter((v) => v.type === type)
        .reduce((t, v) => t + v.entries.reduce((d, e) => d + Math.max(0, e.paise), 0), 0);
    expect(s.bills).toBe(3);
    expect(cents(s.sales)).toBe(sum('Sales'));
    expect(cents(s.exempt) + cents(s.taxable) + cents(s.tax)).toBe(cents(s.sales));
    expect(cents(s.exempt)).toBe(80000);
    expect(s.tax).toBeGreaterThan(0);
    expect(cents(s.receipts)).toBe(65000);
    expect(cents(s.refunds)).toBe(4000);
    expect(s.credit_notes).toBe(0);
    expect(s.vouchers).toBe(vouchers.length);
    expect(s.vouchers).toBe(3 + 2 + 1);
    expect(s.einvoicing).toBe(false);
    expect(badFields(await lab.admin.get('/api/accounts/summary?month=2026-00'))).toEqual(['month']);
  });

  it('writes the Tally file with the ledger names set there', async () => {
    const billing = await lab.as('billing_staff');
    const put = await billing.put('/api/accounts/settings', {
      tally_company: 'Acme Diagnostics',
      ledgers: { cash: 'Cash in Hand', upi: 'HDFC UPI Collections', sales_exempt: 'Diagnostic Income (Exempt)' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json<{ settings: AccountsSettings }>().settings.ledgers.upi).toBe('HDFC UPI Collections');
    const xml = (await billing.get(`/api/accounts/tally/export?month=${month}`)).body;
    expect(xml).toContain('<LEDGERNAME>HDFC UPI Collections</LEDGERNAME>');
    expect(xml).toContain('<LEDGERNAME>Diagnostic Income (Exempt)</LEDGERNAME>');
    expect(xml).toContain('<SVCURRENTCOMPANY>Acme Diagnostics</SVCURRENTCOMPANY>');
    expect(xml).not.toContain('<LEDGERNAME>UPI Receipts</LEDGERNAME>');
    // A blank ledger name is refused, naming the ledger; nothing is changed.
    expect(badFields(await billing.put('/api/accounts/settings', { ledgers: { cash: '  ', upi: 'X' } }))).toEqual([
      'ledgers.cash',
    ]);
    const got = (await billing.get('/api/accounts/settings')).json<{ settings: AccountsSettings }>().settings;
    expect(got.ledgers.upi).toBe('HDFC UPI Collections');
    expect(got.tally_company).toBe('Acme Diagnostics');
  });

  it('offers the IRN file only while the turnover is above the threshold set there', async () => {
    const a = lab.admin;
    const summary = async () =>
      (await a.get(`/api/accounts/summary?month=${month}`)).json<{ summary: AccountsSummary }>().summary;
    const put = (body: object) => a.put('/api/accounts/settings', body);
    expect((await put({ annual_turnover: 60_000_000 })).statusCode).toBe(200);
    expect((await summary()).einvoicing).toBe(true);
    expect((await a.get(`/api/accounts/einvoice/export?month=${month}`)).statusCode).toBe(200);
    expect((await put({ einvoice_threshold: 100_000_000 })).statusCode).toBe(200);
    expect((await summary()).einvoicing).toBe(false);
    expect((await a.get(`/api/accounts/einvoice/export?month=${month}`)).statusCode).toBe(409);
    // An emptied turnover field is "not given", as the screen sends it.
    const cleared = await put({ einvoice_threshold: 50_000_000, annual_turnover: '' });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json<{ settings: AccountsSettings }>().settings.annual_turnover).toBeNull();
    expect(badFields(await put({ einvoice_threshold: -1 }))).toEqual(['einvoice_threshold']);
  });

  it('keeps the figures and settings from a role without export_accounts', async () => {
    const reception = await lab.as('receptionist');
    expect((await reception.get(`/api/accounts/summary?month=${month}`)).statusCode).toBe(403);
    expect((await reception.get('/api/accounts/settings')).statusCode).toBe(403);
    expect((await reception.put('/api/accounts/settings', { ledgers: { cash: 'Mine' } })).statusCode).toBe(403);
    const got = (await lab.admin.get('/api/accounts/settings')).json<{ settings: AccountsSettings }>().settings;
    expect(got.ledgers.cash).toBe('Cash in Hand');
  });
});
