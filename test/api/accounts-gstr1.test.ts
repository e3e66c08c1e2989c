import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { createPatient, uniqueWord } from './support.js';
import { systemActor } from '../../src/core/context.js';
import { localDate } from '../../src/shared/time.js';
import { gstr1 } from '../../src/core/accounts/gstr1.js';
import { accountsExport } from '../../src/core/accounts/service.js';
import { einvoiceDocuments } from '../../src/core/accounts/einvoice.js';
import { updateAccountsSettings } from '../../src/core/accounts/settings.js';
import type { Bill } from '../../src/shared/schemas/bills.js';
import type { Invoice } from '../../src/shared/schemas/invoices.js';

/**
 * GSTR-1 of a month: invoices to registered payers as B2B (by GSTIN), everything else as B2CS by
 * place and rate, exempt values in the nil table, every line in the HSN/SAC summary, credit notes
 * as CDNR; the figures equal the invoice register and the bills. IRN JSON only for taxed B2B invoices.
 */
/** The offline tool's sheet headers (its Excel template and CSV import), as decisions.md cites them. */
const HSN_HEADER = [
  'HSN',
  'Description',
  'UQC',
  'Total Quantity',
  'Total Value',
  'Rate',
  'Taxable Value',
  'Integrated Tax Amount',
  'Central Tax Amount',
  'State/UT Tax Amount',
  'Cess Amount',
];
const OFFLINE_TOOL_HEADERS: Record<string, string[]> = {
  b2b: [
    'GSTIN/UIN of Recipient',
    'Receiver Name',
    'Invoice Number',
    'Invoice date',
    'Invoice Value',
    'Place Of Supply',
    'Reverse Charge',
    'Applicable % of Tax Rate',
    'Invoice Type',
    'E-Commerce GSTIN',
    'Rate',
    'Taxable Value',
    'Cess Amount',
  ],
  b2cl: [
    'Invoice Number',
    'Invoice date',
    'Invoice Value',
    'Place Of Supply',
    'Applicable % of Tax Rate',
    'Rate',
    'Taxable Value',
    'Cess Amount',
    'E-Commerce GSTIN',
  ],
  b2cs: [
    'Type',
    'Place Of Supply',
    'Applicable % of Tax Rate',
    'Rate',
    'Taxable Value',
    'Cess Amount',
    'E-Commerce GSTIN',
  ],
  cdnr: [
    'GSTIN/UIN of Recipient',
    'Receiver Name',
    'Note Number',
    'Note Date',
    'Note Type',
    'Place Of Supply',
    'Reverse Charge',
    'Note Supply Type',
    'Note Value',
    'Applicable % of Tax Rate',
    'Rate',
    'Taxable Value',
    'Cess Amount',
  ],
  cdnur: [
    'UR Type',
    'Note Number',
    'Note Date',
    'Note Type',
    'Place Of Supply',
    'Note Value',
    'Applicable % of Tax Rate',
    'Rate',
    'Taxable Value',
    'Cess Amount',
  ],
  exemp: ['Description', 'Nil Rated Supplies', 'Exempted(other than nil rated/non GST supply)', 'Non-GST Supplies'],
  'hsn-b2b': HSN_HEADER,
  'hsn-b2c': HSN_HEADER,
  docs: ['Nature of Document', 'Sr. No. From', 'Sr. No. To', 'Total Number', 'Cancelled'],
};
let lab: TestLab;
let cbc: number;
let facial: number;
const today = localDate('Asia/Kolkata');
const month = today.slice(0, 7);
const LAB_GSTIN = '29AABCL1234M1Z5';
const bills: Bill[] = [];
const cents = (n: number) => Math.round(n * 100);

async function payer(gstin?: string) {
  const res = await lab.admin.post('/api/payers', {
    name: uniqueWord('Payer '),
    type: 'corporate',
    address: '3 Residency Road, Bengaluru 560025',
    ...(gstin ? { gstin } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ payer: { id: number } }>().payer.id;
}
async function bill(items: [number, number][], payerId?: number, discount = 0) {
  const res = await lab.admin.post('/api/bills', {
    patient_id: (await createPatient(lab.admin)).id,
    items: items.map(([id, qty]) => ({ item_type: 'test', item_id: id, qty })),
    discount_percentage: discount,
    ...(payerId ? { payer_id: payerId } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  bills.push(res.json<{ bill: Bill }>().bill);
}
async function invoice(payerId: number) {
  const res = await lab.admin.post('/api/invoices', { payer_id: payerId, period_from: today, period_to: today });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json<{ invoice: { id: number } }>().invoice.id;
  expect((await lab.admin.post(`/api/invoices/${id}/issue`, {})).statusCode).toBe(200);
  return id;
}

beforeAll(async () => {
  lab = await makeLab();
  cbc = (await lab.admin.post('/api/tests', { name: 'CBC', code: 'CBCG', price: 400 })).json().test.id;
  facial = (
    await lab.admin.post('/api/tests', {
      name: 'Skin analysis',
      code: 'SKNG',
      price: 308.74,
      tax_category: 'gst_12',
      sac_code: '999722',
    })
  ).json().test.id;
  await lab.admin.put('/api/settings', { labAddress: '12 MG Road, Bengaluru, Karnataka 560001' });
  await lab.admin.put('/api/billing-settings', { gstin: LAB_GSTIN });
  const ka = await payer('29AAACI1111K1Z2');
  const mh = await payer('27AAACM2222L1Z9');
  const exemptOnly = await payer('29AAACE3333E1Z1');
  const unregistered = await payer();
  await bill([[cbc, 1]]);
  await bill([
    [cbc, 1],
    [facial, 2],
  ]);
  await bill([[facial, 1]], undefined, 5);
  await bill([[facial, 3]], unregistered);
  await bill(
    [
      [cbc, 2],
      [facial, 1],
    ],
    ka,
  );
  await bill([[facial, 1]], mh);
  await bill([[cbc, 1]], exemptOnly);
  await invoice(ka);
  const mhInvoice = await invoice(mh);
  await invoice(exemptOnly);
  const cancelled = await lab.admin.post(`/api/invoices/${mhInvoice}/cancel`, { reason: 'Wrong branch' });
  expect(cancelled.statusCode, cancelled.body).toBe(200);
}, 120_000);
afterAll(() => lab.close());

describe('GSTR-1', () => {
  it('reports B2B invoices by GSTIN equal to the invoice register, the rest as B2CS, exempt and HSN', async () => {
    const g = await gstr1(lab.database.db, lab.organizationId, month);
    expect(g.gstin).toBe(LAB_GSTIN);
    expect(g.fp).toBe(`${month.slice(5)}${month.slice(0, 4)}`);
    const register = (await lab.admin.get('/api/invoices?limit=100')).json<{ invoices: Invoice[] }>().invoices;
    const b2bInvoices = register.filter((i) => i.recipient_gstin && i.taxable > 0);
    expect(g.b2b.map((r) => r.ctin).sort()).toEqual(b2bInvoices.map((i) => i.recipient_gstin).sort());
    type Itm = { itm_det: { txval: number; iamt: number; camt: number; samt: number } };
    const docs = g.b2b.flatMap((r) => r.inv as { inum: string; val: number; itms: Itm[] }[]);
    for (const inv of b2bInvoices) {
      const d = docs.find((x) => x.inum === inv.invoice_number)!;
      expect(d.val).toBe(inv.total);
      const sum = (k: keyof Itm['itm_det']) => d.itms.reduce((s, i) => s + cents(i.itm_det[k]), 0);
      expect([sum('txval'), sum('iamt'), sum('camt'), sum('samt')]).toEqual(
        [inv.taxable, inv.igst, inv.cgst, inv.sgst].map(cents),
      );
    }
    // The Maharashtra invoice was IGST, and its credit note this month is in CDNR.
    const mh = register.find((i) => i.recipient_gstin === '27AAACM2222L1Z9')!;
    expect(mh.igst).toBeGreaterThan(0);
    expect(g.cdnr).toEqual([
      { ctin: '27AAACM2222L1Z9', nt: [expect.objectContaining({ nt_num: mh.credit_note_number, val: mh.total })] },
    ]);
    // B2C: self-pay and the unregistered payer's bills, at 12% within Karnataka.
    const b2c = bills.filter(
      (b) => !b.payer_id || !register.some((i) => i.payer_id === b.payer_id && i.recipient_gstin),
    );
    expect(g.b2cs).toHaveLength(1);
    expect(g.b2cs[0]).toMatchObject({ sply_ty: 'INTRA', pos: '29', typ: 'OE', rt: 12 });
    const b2cItems = b2c.flatMap((b) => b.items ?? []).filter((i) => i.tax_category !== 'exempt');
    expect(cents(g.b2cs[0]!.txval)).toBe(b2cItems.reduce((s, i) => s + cents(i.taxable), 0));
    expect(cents(g.b2cs[0]!.camt) + cents(g.b2cs[0]!.samt)).toBe(b2c.reduce((s, b) => s + cents(b.tax_amount), 0));
    // Exempt: the registered payers' exempt lines (the bill of supply included), the B2C exempt lines.
    const nil = Object.fromEntries(g.nil.inv.map((n) => [n.sply_ty, cents(n.expt_amt)]));
    const b2bInvoicesAll = register.filter((i) => i.recipient_gstin);
    expect(nil.INTRAB2B).toBe(b2bInvoicesAll.filter((i) => !i.inter_state).reduce((s, i) => s + cents(i.exempt), 0));
    expect(nil.INTRAB2C).toBe(
      b2c.reduce((s, b) => s + cents(b.final_amount) - cents(b.tax_amount), 0) - cents(g.b2cs[0]!.txval),
    );
    // HSN: every supply of the month, once, net of the month's credit notes (the Maharashtra invoice,
    // issued and cancelled this month, nets to nothing).
    // Table 12 in its two parts: the registered recipients' invoices, and the B2C bills.
    const hsnVal = (rows: typeof g.hsn.hsn_b2b) =>
      (rows ?? []).reduce((s, h) => s + cents(h.txval) + cents(h.iamt) + cents(h.camt) + cents(h.samt), 0);
    expect(hsnVal(g.hsn.hsn_b2b)).toBe(b2bInvoicesAll.reduce((s, i) => s + cents(i.total), 0) - cents(mh.total));
    expect(hsnVal(g.hsn.hsn_b2c)).toBe(b2c.reduce((s, b) => s + cents(b.final_amount), 0));
    expect(g.hsn.hsn_b2c!.map((h) => [h.hsn_sc, h.rt])).toEqual([
      ['9993', 0],
      ['999722', 12],
    ]);
    // Services (SAC chapter 99) go with UQC NA and no quantity, as the tool validates them.
    expect(new Set([...g.hsn.hsn_b2b!, ...g.hsn.hsn_b2c!].map((h) => `${h.uqc}:${h.qty}`))).toEqual(new Set(['NA:0']));
    expect(g).toMatchObject({ version: expect.stringMatching(/^GST\d/), hash: 'hash' });
    const files = await accountsExport(lab.database.db, systemActor(lab.organizationId), 'gstr1-csv', month);
    const csv = Object.fromEntries(files.map((f) => [f.name.replace(/^gstr1-\d{4}-\d{2}-|\.csv$/g, ''), f.body]));
    expect(csv.b2b!.trim().split('\r\n')).toHaveLength(1 + docs.reduce((s, d) => s + d.itms.length, 0));
    expect(csv.b2cs).toContain('29-Karnataka');
    expect(csv['hsn-b2c']).toContain('999722');
    expect(csv['hsn-b2b']!.trim().split('\r\n')).toHaveLength(1 + g.hsn.hsn_b2b!.length);
    // A B2B row names its recipient as the invoice does.
    const ka = register.find((i) => i.recipient_gstin === '29AAACI1111K1Z2')!;
    expect(csv.b2b).toContain(`29AAACI1111K1Z2,${ka.recipient_name},${ka.invoice_number},`);
  });

  it('writes each CSV sheet with the GST offline tool’s column headers, in its order', async () => {
    const files = await accountsExport(lab.database.db, systemActor(lab.organizationId), 'gstr1-csv', month);
    const header = (s: string) =>
      files
        .find((f) => f.name === `gstr1-${month}-${s}.csv`)!
        .body.replace(/^\uFEFF/, '')
        .split('\r\n')[0];
    for (const [section, columns] of Object.entries(OFFLINE_TOOL_HEADERS))
      expect(header(section), section).toBe(columns.join(','));
  });

  it('gives IRN-ready JSON only above the turnover threshold, and never for a bill of supply', async () => {
    const db = lab.database.db;
    await expect(einvoiceDocuments(db, lab.organizationId, month)).rejects.toMatchObject({
      code: 'EINVOICE_NOT_REQUIRED',
    });
    await updateAccountsSettings(db, systemActor(lab.organizationId), { annual_turnover: 40_000_000 });
    await expect(einvoiceDocuments(db, lab.organizationId, month)).rejects.toMatchObject({
      code: 'EINVOICE_NOT_REQUIRED',
    });
    await updateAccountsSettings(db, systemActor(lab.organizationId), { annual_turnover: 60_000_000 });
    const docs = (await einvoiceDocuments(db, lab.organizationId, month)) as {
      DocDtls: { No: string };
      BuyerDtls: { Gstin: string };
      ItemList: { GstRt: number }[];
      ValDtls: { TotInvVal: number };
    }[];
    const register = (await lab.admin.get('/api/invoices?limit=100')).json<{ invoices: Invoice[] }>().invoices;
    const taxed = register.filter((i) => i.recipient_gstin && i.taxable > 0);
    expect(docs.map((d) => d.DocDtls.No).sort()).toEqual(taxed.map((i) => i.invoice_number).sort());
    expect(docs.map((d) => d.BuyerDtls.Gstin)).not.toContain('29AAACE3333E1Z1');
    for (const d of docs) expect(d.ItemList.some((l) => l.GstRt > 0)).toBe(true);
  });
});
