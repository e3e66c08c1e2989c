import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { registerForGst } from './accounts-support.js';
import { createPatient, uniqueWord } from './support.js';
import { addDays, localDate } from '../../src/shared/time.js';
import { gstr1 } from '../../src/core/accounts/gstr1.js';
import { gstr1Csv } from '../../src/core/accounts/gstr1-csv.js';
import type { Bill } from '../../src/shared/schemas/bills.js';
import type { Invoice } from '../../src/shared/schemas/invoices.js';

/**
 * GSTR-1 with a month holding each kind of supply: B2C Large (inter-state to an unregistered payer
 * above ₹1,00,000), B2CS both ways, a credit note to a registered payer (CDNR) and one to an
 * unregistered person for a B2C Large bill of the month before (CDNUR), a small bill of the month
 * before cancelled (taken off B2CS), a bill cancelled in its own month (a cancelled document), and
 * the documents issued. Over the two months the B2C taxable values equal the live bills'.
 */
let lab: TestLab;
const today = localDate('Asia/Kolkata');
const month = today.slice(0, 7);
const back = Number(today.slice(8, 10)) + 10;
const lastMonth = addDays(today, -back).slice(0, 7);
const cents = (n: number) => Math.round(n * 100);
const b: Record<string, Bill> = {};
let creditNote = '';
let invoiceNumber = '';

async function bill(name: string, items: number[], payerId?: number) {
  const res = await lab.admin.post('/api/bills', {
    patient_id: (await createPatient(lab.admin)).id,
    items: items.map((item_id) => ({ item_type: 'test', item_id, qty: 1 })),
    ...(payerId ? { payer_id: payerId } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  b[name] = res.json<{ bill: Bill }>().bill;
}
async function backdate(name: string) {
  const db = lab.database.db;
  const row = await db.selectFrom('bills').select('created_at').where('id', '=', b[name]!.id).executeTakeFirstOrThrow();
  const at = new Date(Date.parse(row.created_at) - back * 86_400_000).toISOString();
  await db.updateTable('bills').set({ created_at: at }).where('id', '=', b[name]!.id).execute();
}
async function cancel(name: string) {
  const res = await lab.admin.put(`/api/bills/${b[name]!.id}`, { status: 'cancelled', cancel_reason: 'Not done' });
  expect(res.statusCode, res.body).toBe(200);
}
const taxable = (x: Bill) =>
  (x.items ?? []).filter((i) => i.tax_category !== 'exempt').reduce((s, i) => s + cents(i.taxable), 0);

beforeAll(async () => {
  lab = await makeLab();
  const a = lab.admin;
  const id = await registerForGst(lab);
  const cbc = await id({ name: 'CBC', code: 'CBCK', price: 400 });
  const genome = await id({
    name: 'Genome panel',
    code: 'GENK',
    price: 100000,
    tax_category: 'gst_18',
    sac_code: '998399',
  });
  const skin = await id({
    name: 'Skin analysis',
    code: 'SKNK',
    price: 308.74,
    tax_category: 'gst_12',
    sac_code: '999722',
  });
  const payer = async (body: object) =>
    (await a.post('/api/payers', { name: uniqueWord('Payer '), type: 'corporate', ...body })).json<{
      payer: { id: number };
    }>().payer.id;
  const mumbai = await payer({ state_code: '27', address: 'Andheri, Mumbai 400053' });
  const registered = await payer({ gstin: '29AAACI1111K1Z2', address: '3 Residency Road, Bengaluru 560025' });

  // The month before: a B2C Large bill and a small one, both cancelled this month.
  await bill('largeEarlier', [genome], mumbai);
  await bill('smallEarlier', [skin]);
  await backdate('largeEarlier');
  await backdate('smallEarlier');
  await cancel('largeEarlier');
  await cancel('smallEarlier');
  // This month.
  await bill('large', [genome], mumbai);
  await bill('largeWithExempt', [genome, cbc], mumbai);
  await bill('smallInter', [skin], mumbai);
  await bill('intra', [skin, cbc]);
  await bill('voided', [cbc]);
  await cancel('voided');
  await bill('registered', [skin, cbc], registered);
  const inv = await a.post('/api/invoices', { payer_id: registered, period_from: today, period_to: today });
  expect(inv.statusCode, inv.body).toBe(201);
  const invId = inv.json<{ invoice: { id: number } }>().invoice.id;
  expect((await a.post(`/api/invoices/${invId}/issue`, {})).statusCode).toBe(200);
  const cancelled = await a.post(`/api/invoices/${invId}/cancel`, { reason: 'Wrong branch' });
  expect(cancelled.statusCode, cancelled.body).toBe(200);
  const issued = cancelled.json<{ invoice: Invoice }>().invoice;
  creditNote = issued.credit_note_number!;
  invoiceNumber = issued.invoice_number!;
}, 120_000);
afterAll(() => lab.close());

describe('GSTR-1 sections', () => {
  it('reports B2C Large invoice by invoice, the rest of B2C by place and rate, and both credit notes', async () => {
    const g = await gstr1(lab.database.db, lab.organizationId, month);
    expect(g.b2cl).toEqual([
      {
        pos: '27',
        inv: [b.large, b.largeWithExempt].map((x) => ({
          inum: x!.bill_number,
          idt: `${today.slice(8, 10)}-${today.slice(5, 7)}-${today.slice(0, 4)}`,
          val: x!.final_amount,
          itms: [{ num: 1801, itm_det: { rt: 18, txval: 100000, iamt: 18000, csamt: 0 } }],
        })),
      },
    ]);
    const row = (pos: string, rt: number) => g.b2cs.find((s) => s.pos === pos && s.rt === rt);
    expect(row('27', 12)).toMatchObject({ sply_ty: 'INTER', txval: b.smallInter!.items![0]!.taxable, camt: 0 });
    expect(row('27', 18)).toBeUndefined();
    // Within the state: this month's bills less the small bill of last month cancelled now (here the
    // same test, so they net to nothing and the row is left out rather than written as zeros).
    expect(cents(row('29', 12)?.txval ?? 0)).toBe(taxable(b.intra!) - taxable(b.smallEarlier!));
    expect(row('29', 12)).toBeUndefined();
    expect(g.cdnur).toEqual([
      expect.objectContaining({
        typ: 'B2CL',
        ntty: 'C',
        nt_num: `CN-${b.largeEarlier!.bill_number}`,
        pos: '27',
        val: 118000,
        itms: [{ num: 1801, itm_det: { rt: 18, txval: 100000, iamt: 18000, csamt: 0 } }],
      }),
    ]);
    expect(g.cdnr).toEqual([{ ctin: '29AAACI1111K1Z2', nt: [expect.objectContaining({ nt_num: creditNote })] }]);
    // The exempt line of the B2C Large bill is an inter-state exempt supply.
    const nil = Object.fromEntries(g.nil.inv.map((n) => [n.sply_ty, cents(n.expt_amt)]));
    expect(nil.INTRB2C).toBe(40000);
    expect(nil.INTRAB2C).toBe(40000);
  });

  it('lists the documents issued: bills (one cancelled), the invoice, and the credit notes', async () => {
    const g = await gstr1(lab.database.db, lab.organizationId, month);
    const made = [b.large, b.largeWithExempt, b.smallInter, b.intra, b.voided, b.registered];
    expect(g.doc_issue.doc_det).toEqual([
      {
        doc_num: 1,
        doc_typ: 'Invoices for outward supply',
        docs: [
          {
            num: 1,
            from: made[0]!.bill_number,
            to: made[made.length - 1]!.bill_number,
            totnum: 6,
            cancel: 1,
            net_issue: 5,
          },
          { num: 2, from: invoiceNumber, to: invoiceNumber, totnum: 1, cancel: 0, net_issue: 1 },
        ],
      },
      {
        doc_num: 5,
        doc_typ: 'Credit Note',
        docs: [
          { num: 1, from: creditNote, to: creditNote, totnum: 1, cancel: 0, net_issue: 1 },
          expect.objectContaining({ from: `CN-${b.largeEarlier!.bill_number}`, totnum: 1 }),
        ],
      },
    ]);
  });

  it('nets to the live bills over the two months, and writes each section as the offline tool’s sheet', async () => {
    const db = lab.database.db;
    const [before, now] = [await gstr1(db, lab.organizationId, lastMonth), await gstr1(db, lab.organizationId, month)];
    expect(before.b2cl.flatMap((r) => r.inv.map((i) => i.inum))).toEqual([b.largeEarlier!.bill_number]);
    expect(before.b2cs.map((s) => [s.pos, s.rt, cents(s.txval)])).toEqual([['29', 12, taxable(b.smallEarlier!)]]);
    const b2c = (g: typeof now) =>
      g.b2cs.reduce((s, r) => s + cents(r.txval), 0) +
      g.b2cl.reduce(
        (s, r) => s + r.inv.reduce((t, i) => t + i.itms.reduce((u, x) => u + cents(x.itm_det.txval), 0), 0),
        0,
      ) -
      g.cdnur.reduce((s, n) => s + n.itms.reduce((u, x) => u + cents(x.itm_det.txval), 0), 0);
    const live = [b.large, b.largeWithExempt, b.smallInter, b.intra].reduce((s, x) => s + taxable(x!), 0);
    expect(b2c(before) + b2c(now)).toBe(live);

    const csv = gstr1Csv(now);
    const lines = (sheet: string) => sheet.trim().split('\r\n');
    expect(lines(csv.b2cl)[0]).toBe(
      'Invoice Number,Invoice date,Invoice Value,Place Of Supply,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount,E-Commerce GSTIN',
    );
    expect(lines(csv.b2cl).slice(1)).toEqual(
      [b.large, b.largeWithExempt].map(
        (x) => `${x!.bill_number},${now.b2cl[0]!.inv[0]!.idt},${x!.final_amount},27-Maharashtra,,18,100000,0,`,
      ),
    );
    expect(lines(csv.cdnur)).toHaveLength(2);
    expect(lines(csv.cdnur)[1]).toContain(`B2CL,CN-${b.largeEarlier!.bill_number},`);
    expect(lines(csv.cdnur)[1]).toContain(',C,27-Maharashtra,118000,,18,100000,0');
    expect(lines(csv.docs)).toEqual([
      'Nature of Document,Sr. No. From,Sr. No. To,Total Number,Cancelled',
      `Invoices for outward supply,${b.large!.bill_number},${b.registered!.bill_number},6,1`,
      `Invoices for outward supply,${invoiceNumber},${invoiceNumber},1,0`,
      `Credit Note,${creditNote},${creditNote},1,0`,
      `Credit Note,CN-${b.largeEarlier!.bill_number},CN-${b.largeEarlier!.bill_number},1,0`,
    ]);
  });
});
