import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, pdfText, type TestLab } from '../helpers.js';
import { createPatient } from './support.js';
import { RUPEE_AMOUNT_MAX } from '../../src/shared/schemas/common.js';
import { BILL_MAX_LINES, LINE_MAX_QTY } from '../../src/shared/schemas/bills.js';
import { formatInr } from '../../src/shared/money.js';
import type { Bill } from '../../src/shared/schemas/bills.js';

/**
 * Amounts on the bill and invoice PDFs are printed whole, on one line, up to the largest bill the
 * product accepts (the largest price, quantity and number of lines of its schemas).
 */
let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
  await lab.admin.put('/api/settings', { labAddress: '12 MG Road, Bengaluru' });
  await lab.admin.put('/api/billing-settings', { gstin: '29AABCL1234M1Z5' });
});
afterAll(() => lab.close());

async function test(price: number, code: string): Promise<number> {
  const res = await lab.admin.post('/api/tests', { name: `Test ${code}`, code, price });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().test.id;
}

async function bill(items: { item_id: number; qty?: number }[]): Promise<Bill> {
  const patient = await createPatient(lab.admin);
  const res = await lab.admin.post('/api/bills', {
    patient_id: patient.id,
    items: items.map((i) => ({ item_type: 'test', ...i })),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().bill;
}

/** Every amount on its own line of the text, whole. */
function expectWhole(text: string, amounts: string[]) {
  for (const a of amounts) expect(text, a).toContain(a);
}

describe('amounts on the bill PDF never wrap', () => {
  it('the audit’s 10,00,00,320.76: Total, Paid and Balance each whole on their line', async () => {
    const big = await test(RUPEE_AMOUNT_MAX, 'BIGA');
    const small = await test(320.76, 'SMLA');
    const b = await bill([{ item_id: big }, { item_id: small }]);
    expect(b.final_amount).toBe(100_000_320.76);
    await lab.admin.post(`/api/bills/${b.id}/payments`, { amount: 50_000_000.5, method: 'cash' });
    const text = pdfText(await lab.admin.get(`/api/bills/${b.id}/pdf`));
    expect(text).toMatch(/Total\s+₹10,00,00,320\.76\n/);
    expect(text).toMatch(/Paid\s+₹5,00,00,000\.50\n/);
    expect(text).toMatch(/Balance\s+₹5,00,00,320\.26\n/);
    expect(text).toMatch(/Subtotal\s+₹10,00,00,320\.76\n/);
  });

  it('the largest bill the product accepts prints every amount whole, on the bill and on its invoice', async () => {
    const ids: number[] = [];
    for (let i = 0; i < BILL_MAX_LINES; i++) ids.push(await test(RUPEE_AMOUNT_MAX, `MAX${i}`));
    const b = await bill(ids.map((item_id) => ({ item_id, qty: LINE_MAX_QTY })));
    const linePaise = RUPEE_AMOUNT_MAX * 100 * LINE_MAX_QTY;
    expect(b.final_amount * 100).toBe(linePaise * BILL_MAX_LINES);
    const text = pdfText(await lab.admin.get(`/api/bills/${b.id}/pdf`));
    const rate = formatInr(RUPEE_AMOUNT_MAX * 100);
    const line = formatInr(linePaise);
    const total = formatInr(linePaise * BILL_MAX_LINES);
    expectWhole(text, [rate, line, total]);
    // Each line's rate and amount on the line of its test.
    expect(text).toMatch(new RegExp(`Test MAX0 \\(Test\\)\\s+${LINE_MAX_QTY}\\s+${rate}\\s+Exempt\\s+0\\s+${line}\\n`));
    expect(text).toMatch(new RegExp(`Total\\s+${total}\\n`));

    const inv = await lab.admin.post('/api/invoices', { bill_id: b.id });
    expect(inv.statusCode, inv.body).toBe(201);
    const invText = pdfText(await lab.admin.get(`/api/invoices/${inv.json().invoice.id}/pdf`));
    expect(invText).toMatch(
      new RegExp(`9993\\s+${LINE_MAX_QTY}\\s+${line}\\s+Exempt\\s+₹0\\.00\\s+₹0\\.00\\s+${line}\\n`),
    );
    expect(invText).toMatch(new RegExp(`Invoice total\\s+${total}\\n`));
  });
});
