import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, pdfText, type Client, type TestLab } from '../helpers.js';
import { addDays, localDate } from '../../src/shared/time.js';
import type { RevenueDaily } from '../../src/shared/schemas/revenue.js';
import type { Closing } from '../../src/shared/schemas/payments.js';

/** Revenue in the lab's calendar days and the cashier's day-end closing. */

let lab: TestLab;
let testId: number;
let cashier: Client;
let zone: string;
let today: string;

async function bill(): Promise<{ id: number; patient_id: number }> {
  const p = // A new patient each time (the same details would be offered as the first one).
    (
      await lab.admin.post('/api/patients', {
        first_name: 'Ravi',
        last_name: 'Nair',
        date_of_birth: '1975-05-05',
        confirm_new: true,
      })
    ).json().patient.id;
  const res = await lab.admin.post('/api/bills', {
    patient_id: p,
    items: [{ item_type: 'test', item_id: testId, gst_percent: 0 }],
    discount_percentage: 10,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().bill;
}

const pay = async (as: Client, billId: number, amount: number, extra: Record<string, unknown> = {}) => {
  const res = await as.post('/api/payments', { bill_id: billId, amount, method: 'cash', ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().payment;
};

beforeAll(async () => {
  lab = await makeLab();
  // A lab far from UTC, on the side where its calendar day differs from UTC's right now: a payment
  // must count on the lab's day, not the server's or UTC's.
  // Kiritimati (UTC+14) is a day ahead from 10:00 UTC, Pago Pago (UTC-11) a day behind until 11:00 UTC.
  zone = new Date().getUTCHours() >= 11 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
  const tz = await lab.admin.put('/api/settings', { timezone: zone });
  expect(tz.statusCode, tz.body).toBe(200);
  today = localDate(zone);
  expect(today).not.toBe(new Date().toISOString().slice(0, 10));
  testId = (
    await lab.admin.post('/api/tests', { name: 'HbA1c', code: 'HBA1C', price: 500, category: 'Diabetes' })
  ).json().test.id;
  cashier = await lab.as('billing_staff');
});
afterAll(() => lab.close());

describe('revenue and closing', () => {
  it('counts every ledger row on the lab day; totals equal the ledger; the closing shows the same figures', async () => {
    const utcDay = new Date().toISOString().slice(0, 10);
    const b1 = await bill(); // 450.00 after 10%
    const b2 = await bill();
    const b3 = await bill();
    const cash = await pay(cashier, b1.id, 450);
    await pay(cashier, b2.id, 200.25, { method: 'upi', reference: 'UPI-42' });
    const chq = await pay(cashier, b3.id, 450, { method: 'cheque', reference: '000777', bank: 'Canara Bank' });
    expect((await cashier.post(`/api/payments/${chq.id}/bounce`, { reason: 'Insufficient funds' })).statusCode).toBe(
      200,
    );
    const chq2 = await pay(cashier, b3.id, 100, { method: 'cheque', reference: '000778', bank: 'Canara Bank' });
    expect((await cashier.post(`/api/payments/${chq2.id}/clear`)).statusCode).toBe(200);
    expect(
      (await cashier.post(`/api/payments/${cash.id}/refund`, { amount: 50.5, reason: 'Test not done' })).statusCode,
    ).toBe(201);
    await pay(lab.admin, b3.id, 10, { method: 'card' }); // another cashier's money: revenue yes, this closing no

    const rev = (
      await cashier.get(`/api/revenue/daily?from=${addDays(today, -1)}&to=${addDays(today, 1)}`)
    ).json<RevenueDaily>();
    const day = rev.days.find((d) => d.date === today)!;
    expect(day).toMatchObject({
      cash: 450,
      upi: 200.25,
      cheque: 100,
      card: 10,
      bank_transfer: 0,
      insurance: 0,
      refunds: 50.5,
      total: 709.75,
      discounts: 150,
      patients: 3,
      average_bill: 450,
    });
    for (const d of rev.days.filter((x) => x.date !== today)) expect(d.total).toBe(0);
    if (utcDay !== today && rev.days.some((d) => d.date === utcDay))
      expect(rev.days.find((d) => d.date === utcDay)!.total).toBe(0);
    expect(rev.totals.total).toBe(709.75);

    // The sum of the ledger rows (completed and later refunded payments, less refunds) on that day.
    const rows = (await cashier.get(`/api/payments?from=${today}&to=${today}&limit=200`)).json().payments as {
      amount: number;
      status: string;
      payment_date: string;
    }[];
    const ledgerSum = rows
      .filter((r) => r.status !== 'pending' && r.status !== 'failed' && r.payment_date === today)
      .reduce((s, r) => s + Math.round(r.amount * 100), 0);
    expect(ledgerSum / 100).toBe(rev.totals.total);

    const preview = (await cashier.get(`/api/closings?date=${today}`)).json<{ closing: Closing }>().closing;
    expect(preview).toMatchObject({ closed: false, cash: 450, upi: 200.25, cheque: 100, refunds: 50.5, net: 699.75 });

    // A drawer 20.25 short: float 500 + cash 450 - cash refund 50.50 = 899.50 expected.
    const closed = await cashier.post('/api/closings', {
      date: today,
      opening_float: 500,
      counted_cash: 879.25,
      notes: 'Short',
    });
    expect(closed.statusCode, closed.body).toBe(201);
    expect(closed.json().closing).toMatchObject({
      closed: true,
      expected_cash: 899.5,
      counted_cash: 879.25,
      difference: -20.25,
      net: 699.75,
      payments_count: 3,
    });
    // Both cashiers' closings add up to the revenue day.
    const adminDay = (await lab.admin.get(`/api/closings?date=${today}`)).json().closing;
    expect(Math.round((closed.json().closing.net + adminDay.net) * 100)).toBe(Math.round(day.total * 100));

    // Locked: a second close is refused.
    expect((await cashier.post('/api/closings', { date: today, opening_float: 0, counted_cash: 0 })).statusCode).toBe(
      409,
    );
    // Money the patient brings after the close is still taken: by default it counts on the cashier's
    // next open day, from the bill screen's path as from the ledger's, and the closed day does not move.
    const b4 = await bill();
    const later = await pay(cashier, b4.id, 10);
    expect(later.payment_date).toBe(addDays(today, 1));
    const onBill = await cashier.post(`/api/bills/${b4.id}/payments`, { amount: 5.5, method: 'cash' });
    expect(onBill.statusCode, onBill.body).toBe(201);
    expect(onBill.json().bill.payments.at(-1)).toMatchObject({ amount: 5.5, value_date: addDays(today, 1) });
    const again = (await cashier.get(`/api/closings?date=${today}`)).json().closing;
    expect(again).toMatchObject({ cash: 450, net: 699.75, difference: -20.25, payments_count: 3 });
    const after = (await cashier.get(`/api/revenue/daily?from=${today}&to=${addDays(today, 1)}`)).json<RevenueDaily>();
    expect(after.days.find((d) => d.date === today)!.total).toBe(709.75);
    expect(after.days.find((d) => d.date === addDays(today, 1))!.cash).toBe(15.5);
    // A lab may still choose to refuse them.
    expect((await lab.admin.put('/api/closings/settings', { closed_day_payments: 'refuse' })).statusCode).toBe(200);
    const refused = await cashier.post('/api/payments', { bill_id: b4.id, amount: 10, method: 'cash' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('DAY_CLOSED');
    expect((await lab.admin.put('/api/closings/settings', { closed_day_payments: 'next_day' })).statusCode).toBe(200);

    const pdf = await cashier.get(`/api/closings/${closed.json().closing.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    // For the owner: the day and the closing time in the lab's date format and time zone, the drawer said as it is.
    const text = pdfText(pdf);
    const dmy = today.split('-').reverse().join('/');
    expect(text).toContain(`Day-end closing report: ${dmy}`);
    expect(text).toMatch(new RegExp(`At: ${dmy.replace(/\//g, '\\/')} \\d\\d:\\d\\d`));
    expect(text).not.toMatch(/\d{4}-\d\d-\d\dT|\(UTC\)/);
    expect(text).toMatch(/Difference \(counted - expected\)\s+₹20\.25 short/);
    expect(text).toMatch(/^Notes: Short$/m);
    const history = (await cashier.get('/api/closings/history')).json().closings;
    expect(history.map((c: Closing) => c.date)).toEqual([today]);
  });

  it('analytics: cards with change against the previous period, by category and doctor, a labelled forecast', async () => {
    const a = (await cashier.get(`/api/revenue/analytics?from=${today}&to=${today}`)).json();
    expect(a.previous_from).toBe(addDays(today, -1));
    expect(a.cards.total.previous).toBe(0);
    expect(a.cards.total.change_percent).toBeNull();
    expect(a.by_category[0].category).toBe('Diabetes');
    expect(a.by_doctor[0].doctor_name).toBe('No referring doctor');
    expect(a.forecast.method).toMatch(/^Projection/);
    expect(a.forecast.next_7_days).toBe(Math.round(a.forecast.daily_average * 700) / 100);
  });

  it('the forecast projects the period’s net to the paisa, not its rounded daily average', async () => {
    // 30 days whose net (₹709.75 today, after the tests above) does not divide into whole paise a day.
    const from = addDays(today, -29);
    const a = (await cashier.get(`/api/revenue/analytics?from=${from}&to=${today}`)).json();
    const net = (await cashier.get(`/api/revenue/daily?from=${from}&to=${today}`)).json<RevenueDaily>().totals.total;
    expect(Math.round(net * 100) % 30).not.toBe(0);
    expect(a.forecast.next_30_days).toBe(net);
    expect(a.forecast.next_7_days).toBe(Math.round((Math.round(net * 100) * 7) / 30) / 100);
    expect(a.forecast.daily_average).toBe(Math.round((Math.round(net * 100) * 1) / 30) / 100);
    // Its dates read as the lab writes them, like every other date on the screen.
    const dmy = (d: string) => d.split('-').reverse().join('/');
    expect(a.forecast.method).toContain(`over the 30 days from ${dmy(from)} to ${dmy(today)}`);
  });

  it('exports CSV, XLSX and PDF, audited', async () => {
    const csv = await lab.admin.get(`/api/revenue/export?format=csv&from=${today}&to=${today}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\n')[0]).toContain('Date,Total (net),Cash');
    expect(csv.body).toContain(`${today},709.75,450`);
    const xlsx = await lab.admin.get(`/api/revenue/export?format=xlsx&from=${today}&to=${today}`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const pdf = await lab.admin.get(`/api/revenue/export?format=pdf&from=${today}&to=${today}`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
