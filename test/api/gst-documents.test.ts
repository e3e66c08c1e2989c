import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { makeLab, pdfText, type TestLab } from '../helpers.js';
import { createPatient, uniqueWord } from './support.js';
import type { Bill } from '../../src/shared/schemas/bills.js';
import type { InvoiceDetail } from '../../src/shared/schemas/invoices.js';
import { addDays, localDate } from '../../src/shared/time.js';

/** Which GST document a supply prints as: a bill of supply when every line is exempt, else a tax invoice. */
let lab: TestLab;
let cbc: number;
let facial: number;
const LAB_GSTIN = '29AABCL1234M1Z5';
const today = localDate('Asia/Kolkata');

beforeAll(async () => {
  lab = await makeLab();
  cbc = (await lab.admin.post('/api/tests', { name: 'Complete Blood Count', code: 'CBCD', price: 400 })).json().test.id;
  facial = (
    await lab.admin.post('/api/tests', {
      name: 'Skin Glow Facial',
      code: 'FACD',
      price: 1000,
      tax_category: 'gst_18',
      sac_code: '999721',
    })
  ).json().test.id;
  expect((await lab.admin.put('/api/settings', { labAddress: '12 MG Road, Bengaluru 560001' })).statusCode).toBe(200);
  expect((await lab.admin.put('/api/billing-settings', { gstin: LAB_GSTIN })).statusCode).toBe(200);
});
afterAll(() => lab.close());

async function bill(items: number[], payerId?: number): Promise<Bill> {
  const patient = await createPatient(lab.admin);
  const res = await lab.admin.post('/api/bills', {
    patient_id: patient.id,
    items: items.map((id) => ({ item_type: 'test', item_id: id })),
    ...(payerId ? { payer_id: payerId } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ bill: Bill }>().bill;
}

async function printed(path: string, save: string): Promise<string> {
  const res = await lab.admin.get(path);
  expect(res.statusCode).toBe(200);
  if (process.env.SAVE_PDFS) writeFileSync(`${process.env.SAVE_PDFS}/${save}.pdf`, res.rawPayload);
  return pdfText(res);
}

describe('GST documents', () => {
  it('prints a bill whose lines are all exempt as a bill of supply, never a tax invoice', async () => {
    const b = await bill([cbc]);
    const text = await printed(`/api/bills/${b.id}/pdf`, 'bill-of-supply');
    expect(text).toContain('BILL OF SUPPLY');
    expect(text).not.toContain('TAX INVOICE');
    expect(text).toContain('Exempt supply');
    expect(text).not.toContain(LAB_GSTIN);
  });

  it('prints a bill with a taxable line as a tax invoice carrying the lab GSTIN', async () => {
    const b = await bill([cbc, facial]);
    const text = await printed(`/api/bills/${b.id}/pdf`, 'bill-tax-invoice');
    expect(text).toContain('TAX INVOICE');
    expect(text).not.toContain('BILL OF SUPPLY');
    expect(text).toContain(`GSTIN: ${LAB_GSTIN}`);
  });

  it('prints a payer invoice of exempt bills only as a bill of supply, a taxable one as a tax invoice', async () => {
    for (const [items, title, other] of [
      [[cbc], 'BILL OF SUPPLY', 'TAX INVOICE'],
      [[facial], 'TAX INVOICE', 'BILL OF SUPPLY'],
    ] as const) {
      const payer = (
        await lab.admin.post('/api/payers', { name: uniqueWord('Acme '), type: 'corporate', gstin: '29AAACI1111K1Z2' })
      ).json().payer as { id: number };
      await bill([...items], payer.id);
      const res = await lab.admin.post('/api/invoices', {
        payer_id: payer.id,
        period_from: addDays(today, -1),
        period_to: today,
      });
      expect(res.statusCode, res.body).toBe(201);
      const inv = res.json<{ invoice: InvoiceDetail }>().invoice;
      expect((await lab.admin.post(`/api/invoices/${inv.id}/issue`, {})).statusCode).toBe(200);
      const text = await printed(`/api/invoices/${inv.id}/pdf`, `invoice-${title.replace(/ /g, '-')}`);
      expect(text).toContain(title);
      expect(text).not.toContain(other);
    }
  });
});
