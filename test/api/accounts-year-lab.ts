import { expect } from 'vitest';
import type { TestLab } from '../helpers.js';
import { createPatient } from './support.js';
import { shiftBill } from './accounts-support.js';

/**
 * A lab's year of money, month by month, through the API the screens use: self-pay bills exempt
 * only and taxed at 5, 12 and 18 % (bill and line discounts), bills to a collection centre, to a
 * registered payer in the lab's state whose bills are all exempt (its invoices are bills of supply)
 * and to one in another state (IGST), to an unregistered payer in another state (B2C, a bill above
 * ₹1,00,000 being B2C Large); payments by every method, cheques pending, cleared and bounced,
 * refunds, an advance kept and spent, amended bills, bills cancelled in their month and in a later
 * one, a payer's invoice issued each month and one cancelled by a credit note and invoiced again.
 * Each bill is moved to its month with its ledger rows, as if made then; invoices are issued in
 * order of date, as the lab's series requires.
 */

export const LAB_GSTIN = '27AABCL1234M1Z5';

export interface YearLab {
  months: string[];
  /** Registered payer whose bills are all exempt: its invoices are bills of supply. */
  exemptPayerGstin: string;
  /** Bills whose lines are all exempt (each should print as a bill of supply). */
  exemptBills: number[];
  /** Invoices whose lines are all exempt. */
  exemptInvoices: number[];
  payerNames: string[];
}

type Res = { statusCode: number; body: string; json: <X>() => X };
async function ok<T>(res: Promise<Res>, what: string): Promise<T> {
  const r = await res;
  expect(r.statusCode, `${what}: ${r.body}`).toBeLessThan(300);
  return r.json<T>();
}

/** The month `back` months before this one ('YYYY-MM'). */
export function monthsBack(today: string, back: number): string {
  const [y, m] = today.split('-').map(Number) as [number, number];
  const n = y * 12 + (m - 1) - back;
  return `${Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;
}

export async function buildYearLab(lab: TestLab, today: string): Promise<YearLab> {
  const a = lab.admin;
  const db = lab.database.db;
  await ok(a.put('/api/settings', { labAddress: '4 FC Road, Pune, Maharashtra 411004' }), 'lab address');
  await ok(a.put('/api/billing-settings', { gstin: LAB_GSTIN }), 'lab GSTIN');

  const test = async (body: Record<string, unknown>) =>
    (await ok<{ test: { id: number } }>(a.post('/api/tests', body), `test ${String(body.code)}`)).test.id;
  const hb = await test({ name: 'Haemoglobin', code: 'YHB', price: 200 });
  const fbs = await test({ name: 'Glucose Fasting', code: 'YFBS', price: 150 });
  const taxed = [
    await test({ name: 'Diet consult', code: 'YDIET', price: 250, tax_category: 'gst_5', sac_code: '999799' }),
    await test({ name: 'Skin analysis', code: 'YSKIN', price: 308.74, tax_category: 'gst_12', sac_code: '999722' }),
    await test({
      name: 'Vitamin D wellness',
      code: 'YVITD',
      price: 1499.99,
      tax_category: 'gst_18',
      sac_code: '999316',
    }),
  ];
  const genome = await test({
    name: 'Genome panel',
    code: 'YGEN',
    price: 95000,
    tax_category: 'gst_18',
    sac_code: '998399',
  });

  const payer = async (body: Record<string, unknown>) =>
    (await ok<{ payer: { id: number } }>(a.post('/api/payers', { type: 'corporate', ...body }), 'payer')).payer.id;
  const exemptPayerGstin = '27AAACS1234F1Z5';
  const sunrise = await payer({
    name: 'Sunrise Corporate Health',
    gstin: exemptPayerGstin,
    address: 'Baner, Pune 411045',
  });
  const karnataka = await payer({
    name: 'Karnataka Clinics LLP',
    gstin: '29AAACK7777K1Z3',
    address: 'Indiranagar, Bengaluru 560038',
  });
  const goa = await payer({ name: 'Goa Wellness Resort', state_code: '30', address: 'Calangute, Goa 403516' });
  const centre = (
    await ok<{ centre: { payer_id: number; name: string } }>(
      a.post('/api/centres', { name: 'Hadapsar Collection Centre', credit_days: 30, share_percent: 20 }),
      'centre',
    )
  ).centre;

  const line = (id: number, extra: Record<string, unknown> = {}) => ({
    item_type: 'test',
    item_id: id,
    qty: 1,
    ...extra,
  });
  const bill = async (items: object[], extra: Record<string, unknown> = {}, patientId?: number) =>
    (
      await ok<{ bill: { id: number; final_amount: number } }>(
        a.post('/api/bills', {
          patient_id: patientId ?? (await createPatient(a)).id,
          visit_type: 'lab_only',
          payment_method: 'cash',
          discount_percentage: 0,
          items,
          ...extra,
        }),
        'bill',
      )
    ).bill;
  const pay = async (billId: number, body: Record<string, unknown>) =>
    (await ok<{ payment: { id: number } }>(a.post('/api/payments', { bill_id: billId, ...body }), 'payment')).payment
      .id;

  /** Moves a bill and its ledger rows to `at`, as if made then. */
  const moveTo = async (billId: number, at: string) => {
    const b = await db.selectFrom('bills').select('created_at').where('id', '=', billId).executeTakeFirstOrThrow();
    await shiftBill(db, billId, Date.parse(at) - Date.parse(b.created_at));
  };
  const cancelAt = async (billId: number, at: string) => {
    await ok(a.put(`/api/bills/${billId}`, { status: 'cancelled', cancel_reason: 'Sample not given' }), 'cancel bill');
    await db.updateTable('bills').set({ cancelled_at: at }).where('id', '=', billId).execute();
  };
  const invoiceOf = async (payerId: number, month: string, day: string) => {
    const inv = await ok<{ invoice: { id: number } }>(
      a.post('/api/invoices', { payer_id: payerId, period_from: `${month}-01`, period_to: day }),
      `invoice ${month}`,
    );
    await ok(a.post(`/api/invoices/${inv.invoice.id}/issue`, { invoice_date: day }), `issue ${month}`);
    return inv.invoice.id;
  };

  const months = Array.from({ length: 12 }, (_, i) => monthsBack(today, 12 - i));
  const methods = ['cash', 'card', 'upi', 'bank_transfer'];
  const exemptBills: number[] = [];
  const exemptInvoices: number[] = [];
  let laterCancel: number | null = null;
  let laterB2cl: number | null = null;
  let cancelledInvoice: number | null = null;
  for (const [k, month] of months.entries()) {
    const at = (day: number) => `${month}-${String(day).padStart(2, '0')}T05:30:00.000Z`;
    const made: number[] = [];
    const rate = taxed[k % 3]!;

    const exempt = await bill([line(hb), line(fbs)]);
    await pay(exempt.id, { amount: exempt.final_amount, method: 'cash' });
    exemptBills.push(exempt.id);
    made.push(exempt.id);

    const mixed = await bill([line(hb), line(rate, { discount_percent: 3, qty: 1 + (k % 2) })], {
      discount_percentage: k % 3 === 0 ? 7.5 : 0,
    });
    const paid = await pay(mixed.id, { amount: 100, method: methods[k % 4], reference: `REF-${k}` });
    if (k % 3 === 0)
      await ok(a.post(`/api/payments/${paid}/refund`, { amount: 12.34, reason: 'Test not done' }), 'refund');
    const cheque = await pay(mixed.id, { amount: 50, method: 'cheque', reference: `0045${k}`, bank: 'SBI' });
    if (k % 3 === 1) await ok(a.post(`/api/payments/${cheque}/clear`, {}), 'clear');
    if (k % 3 === 2) await ok(a.post(`/api/payments/${cheque}/bounce`, { reason: 'Insufficient funds' }), 'bounce');
    made.push(mixed.id);

    // A centre's bill settled by the centre (an unpaid one past its credit days would stop its next bill).
    const centreBill = await bill([line(fbs), line(taxed[(k + 1) % 3]!)], { payer_id: centre.payer_id });
    await pay(centreBill.id, { amount: centreBill.final_amount, method: 'bank_transfer', reference: `NEFT-${k}` });
    made.push(centreBill.id);

    // Amended: a taxed test added after the bill was saved.
    const amended = await bill([line(fbs)]);
    if (k % 4 === 3)
      await ok(
        a.put(`/api/bills/${amended.id}/items`, { items: [line(fbs), line(taxed[2]!)], reason: 'Doctor added a test' }),
        'amend',
      );
    else exemptBills.push(amended.id);
    made.push(amended.id);

    // An advance kept on one bill and spent on the next.
    if (k % 5 === 0) {
      const patient = (await createPatient(a)).id;
      const kept = await bill([line(hb)], {}, patient);
      await pay(kept.id, { amount: 500, method: 'cash', advance: true });
      const spent = await bill([line(fbs), line(rate)], {}, patient);
      await ok(a.post('/api/payments/advance', { bill_id: spent.id, amount: 100 }), 'advance spent');
      made.push(kept.id, spent.id);
      exemptBills.push(kept.id);
    }

    made.push((await bill([line(hb)], { payer_id: sunrise })).id);
    made.push((await bill([line(hb), line(taxed[1]!)], { payer_id: karnataka })).id);
    made.push((await bill([line(taxed[k % 3]!)], { payer_id: goa })).id);
    const large = k % 5 === 2 ? await bill([line(genome), line(hb)], { payer_id: goa }) : null;
    if (large) made.push(large.id);
    const ownMonth = k === 6 ? await bill([line(taxed[0]!)]) : null;
    if (ownMonth) made.push(ownMonth.id);
    const toCancelLater = k === 3 ? await bill([line(hb), line(rate)]) : null;
    if (toCancelLater) made.push(toCancelLater.id);

    for (const [i, id] of made.entries()) await moveTo(id, at(2 + i));
    if (ownMonth) await cancelAt(ownMonth.id, at(25));
    // Made in one month, cancelled in a later one: a credit note there (B2CS taken off, a CDNUR).
    if (toCancelLater) laterCancel = toCancelLater.id;
    if (k === 2) laterB2cl = large!.id;
    if (k === 5 && laterCancel) await cancelAt(laterCancel, at(26));
    if (k === 4 && laterB2cl) await cancelAt(laterB2cl, at(27));

    exemptInvoices.push(await invoiceOf(sunrise, month, `${month}-28`));
    // An invoice cancelled the month after (a CDNR), its bills invoiced again with that month's.
    if (k === 9 && cancelledInvoice) {
      await ok(a.post(`/api/invoices/${cancelledInvoice}/cancel`, { reason: 'Wrong branch' }), 'cancel invoice');
      await db
        .updateTable('invoices')
        .set({ cancelled_at: at(27) })
        .where('id', '=', cancelledInvoice)
        .execute();
    }
    const ka = await invoiceOf(karnataka, k === 9 ? months[8]! : month, `${month}-28`);
    if (k === 8) cancelledInvoice = ka;
  }
  return {
    months,
    exemptPayerGstin,
    exemptBills,
    exemptInvoices,
    payerNames: ['Sunrise Corporate Health', 'Karnataka Clinics LLP', 'Goa Wellness Resort', centre.name],
  };
}
