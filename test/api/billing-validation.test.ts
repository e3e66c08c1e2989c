import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';

let lab: TestLab;
let test: number;
let patient: number;
let doctor: number;
let technician: number;

async function billCount(): Promise<number> {
  const r = await lab.database.db
    .selectFrom('bills')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

beforeAll(async () => {
  lab = await makeLab();
  test = (await lab.admin.post('/api/tests', { name: 'Serum Creatinine', code: 'CREA', price: 200 })).json().test.id;
  patient = (
    await lab.admin.post('/api/patients', { first_name: 'Leela', last_name: 'Rao', date_of_birth: '1960-07-01' })
  ).json().patient.id;
  doctor = (
    await lab.admin.post('/api/users', {
      first_name: 'Anil',
      last_name: 'Kapoor',
      email: 'anil@lab.test',
      role: 'doctor',
      password: 'longpassword1',
      consultation_fee: 300,
    })
  ).json().user.id;
  technician = (
    await lab.admin.post('/api/users', {
      first_name: 'Tara',
      last_name: 'Sen',
      email: 'tara@lab.test',
      role: 'technician',
      password: 'longpassword1',
    })
  ).json().user.id;
});
afterAll(() => lab.close());

const line = (over: Record<string, unknown> = {}) => ({ item_type: 'test', item_id: test, ...over });

describe('a bill with bad input is refused with the field named and nothing stored', () => {
  const cases: [string, () => Record<string, unknown>, string][] = [
    ['no items', () => ({ patient_id: patient, items: [] }), 'items'],
    ['qty 0', () => ({ patient_id: patient, items: [line({ qty: 0 })] }), 'items.0.qty'],
    ['a fractional qty', () => ({ patient_id: patient, items: [line({ qty: 1.5 })] }), 'items.0.qty'],
    ['a negative price', () => ({ patient_id: patient, items: [line({ price: -10 })] }), 'items.0.price'],
    [
      'a line discount over 100',
      () => ({ patient_id: patient, items: [line({ discount_percent: 101 })] }),
      'items.0.discount_percent',
    ],
    // GST is per line from each test's tax category (src/shared/gst.ts), never one rate for the bill.
    ['a whole-bill tax rate', () => ({ patient_id: patient, items: [line()], tax_percentage: 18 }), 'tax_percentage'],
    [
      'a bill discount over 100',
      () => ({ patient_id: patient, items: [line()], discount_percentage: 100.5 }),
      'discount_percentage',
    ],
    ['a negative tax', () => ({ patient_id: patient, items: [line()], tax_percentage: -1 }), 'tax_percentage'],
    ['an unknown patient', () => ({ patient_id: 999999, items: [line()] }), 'patient_id'],
    ['an unknown doctor', () => ({ patient_id: patient, doctor_id: 999999, items: [line()] }), 'doctor_id'],
    [
      'a "doctor" who is a technician',
      () => ({ patient_id: patient, doctor_id: technician, items: [line()] }),
      'doctor_id',
    ],
    ['an unknown test', () => ({ patient_id: patient, items: [line({ item_id: 424242 })] }), 'items.0.item_id'],
    // Numbers from JSON are numbers or decimal strings, nothing JavaScript would coerce.
    ['a hex qty "0x10"', () => ({ patient_id: patient, items: [line({ qty: '0x10' })] }), 'items.0.qty'],
    ['a qty [3]', () => ({ patient_id: patient, items: [line({ qty: [3] })] }), 'items.0.qty'],
    ['a qty true', () => ({ patient_id: patient, items: [line({ qty: true })] }), 'items.0.qty'],
    ['a price null', () => ({ patient_id: patient, items: [line({ price: null })] }), 'items.0.price'],
    ['a price ""', () => ({ patient_id: patient, items: [line({ price: '' })] }), 'items.0.price'],
    [
      'a discount "1e2"',
      () => ({ patient_id: patient, items: [line()], discount_percentage: '1e2' }),
      'discount_percentage',
    ],
    ['a patient_id "0x1"', () => ({ patient_id: '0x1', items: [line()] }), 'patient_id'],
    [
      'an unknown payment method',
      () => ({ patient_id: patient, items: [line()], payment_method: 'bitcoin' }),
      'payment_method',
    ],
  ];
  for (const [name, body, field] of cases) {
    it(`refuses ${name}`, async () => {
      const before = await billCount();
      const res = await lab.admin.post('/api/bills', body());
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().details.map((d: { path: string }) => d.path)).toContain(field);
      expect(await billCount()).toBe(before);
    });
  }

  it('ignores totals sent by the client', async () => {
    const res = await lab.admin.post('/api/bills', {
      patient_id: patient,
      doctor_id: doctor,
      items: [line()],
      subtotal: 1,
      total_amount: 1,
      final_amount: 1,
      discount_amount: 999,
      tax_amount: 5,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().bill.final_amount).toBe(500);
  });

  it('a 100% bill discount gives a zero bill, never a negative one', async () => {
    const res = await lab.admin.post('/api/bills', {
      patient_id: patient,
      items: [line()],
      discount_percentage: 100,
    });
    expect(res.json().bill.final_amount).toBe(0);
    expect(res.json().bill.payment_status).toBe('paid');
  });
});

describe('dates are real calendar dates', () => {
  it('refuses a due date of 2026-02-30 or 0000-00-00 and keeps the bill as it was', async () => {
    const bill = (await lab.admin.post('/api/bills', { patient_id: patient, items: [line()] })).json().bill;
    for (const due of ['2026-02-30', '0000-00-00', '0001-01-01', '2026-13-01']) {
      const res = await lab.admin.put(`/api/bills/${bill.id}`, { due_date: due });
      expect(res.statusCode, due).toBe(400);
      expect(res.json().details.map((d: { path: string }) => d.path)).toEqual(['due_date']);
    }
    expect((await lab.admin.get(`/api/bills/${bill.id}`)).json().bill.due_date).toBe(bill.due_date);
    expect((await lab.admin.put(`/api/bills/${bill.id}`, { due_date: '2026-03-01' })).statusCode).toBe(200);
  });

  it('accepts a decimal string where a form sends text: qty "2"', async () => {
    const res = await lab.admin.post('/api/bills', { patient_id: patient, items: [line({ qty: '2' })] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().bill.items[0].qty).toBe(2);
  });
});

describe('payments', () => {
  it('refunds need a reason, cannot exceed what was paid, and a cancelled bill takes no payment', async () => {
    const bill = (await lab.admin.post('/api/bills', { patient_id: patient, items: [line()] })).json().bill;
    expect((await lab.admin.post(`/api/bills/${bill.id}/payments`, { amount: 200, method: 'cash' })).statusCode).toBe(
      201,
    );
    const noReason = await lab.admin.post(`/api/bills/${bill.id}/payments`, { amount: -50, method: 'cash' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().details[0].path).toBe('reason');
    const tooMuch = await lab.admin.post(`/api/bills/${bill.id}/payments`, {
      amount: -250,
      method: 'cash',
      reason: 'error',
    });
    expect(tooMuch.statusCode).toBe(400);
    const refund = await lab.admin.post(`/api/bills/${bill.id}/payments`, {
      amount: -200,
      method: 'cash',
      reason: 'Test not done',
    });
    expect(refund.statusCode).toBe(201);
    expect(refund.json().bill.payment_status).toBe('unpaid');
    expect(refund.json().bill.payments).toHaveLength(2);
    const noReasonCancel = await lab.admin.put(`/api/bills/${bill.id}`, { status: 'cancelled' });
    expect(noReasonCancel.statusCode).toBe(400);
    const cancel = await lab.admin.put(`/api/bills/${bill.id}`, { status: 'cancelled', cancel_reason: 'Patient left' });
    expect(cancel.json().bill.status).toBe('cancelled');
    const pay = await lab.admin.post(`/api/bills/${bill.id}/payments`, { amount: 10, method: 'cash' });
    expect(pay.statusCode).toBe(409);
  });

  it('a receptionist takes payments but cannot cancel or delete', async () => {
    const rec = await lab.as('receptionist');
    const bill = (await rec.post('/api/bills', { patient_id: patient, items: [line()] })).json().bill;
    expect(
      (await rec.post(`/api/bills/${bill.id}/payments`, { amount: 100, method: 'upi', reference: 'UPI123' }))
        .statusCode,
    ).toBe(201);
    expect((await rec.put(`/api/bills/${bill.id}`, { status: 'cancelled', cancel_reason: 'x' })).statusCode).toBe(403);
    expect((await rec.delete(`/api/bills/${bill.id}`)).statusCode).toBe(403);
  });
});

describe("the payment method's own reference", () => {
  const fields = (res: { statusCode: number; json: () => { details?: { path: string }[] } }) =>
    res.statusCode === 400 ? (res.json().details ?? []).map((d) => d.path) : [`status ${res.statusCode}`];
  async function paymentCount(): Promise<number> {
    const r = await lab.database.db
      .selectFrom('payments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  it('POST /api/bills with money taken by UPI, cheque, bank transfer or insurance needs the reference (and a cheque its bank)', async () => {
    const bills = await billCount();
    const payments = await paymentCount();
    const body = { patient_id: patient, items: [line()], amount_paid: 200 };
    expect(fields(await lab.admin.post('/api/bills', { ...body, payment_method: 'upi' }))).toEqual([
      'payment_reference',
    ]);
    expect(fields(await lab.admin.post('/api/bills', { ...body, payment_method: 'cheque' }))).toEqual([
      'payment_reference',
      'payment_bank',
    ]);
    expect(
      fields(await lab.admin.post('/api/bills', { ...body, payment_method: 'cheque', payment_reference: '004512' })),
    ).toEqual(['payment_bank']);
    expect(fields(await lab.admin.post('/api/bills', { ...body, payment_method: 'bank_transfer' }))).toEqual([
      'payment_reference',
    ]);
    expect(fields(await lab.admin.post('/api/bills', { ...body, payment_method: 'insurance' }))).toEqual([
      'payment_reference',
    ]);
    expect(
      fields(
        await lab.admin.post('/api/registrations', {
          patient: { first_name: 'Noor', last_name: 'Ali', date_of_birth: '1990-01-01' },
          visit_type: 'lab_only',
          ...body,
          // A registration bills the new patient (patient_id would name an existing one instead).
          patient_id: undefined,
          payment_method: 'upi',
          payment_reference: '  ',
        }),
      ),
    ).toEqual(['payment_reference']);
    expect(await billCount()).toBe(bills);
    expect(await paymentCount()).toBe(payments);

    // Cash and card need none; a bill saved without money taken needs none either.
    expect((await lab.admin.post('/api/bills', { ...body, payment_method: 'cash' })).statusCode).toBe(201);
    expect((await lab.admin.post('/api/bills', { ...body, payment_method: 'card' })).statusCode).toBe(201);
    expect(
      (await lab.admin.post('/api/bills', { patient_id: patient, items: [line()], payment_method: 'upi' })).statusCode,
    ).toBe(201);

    const cheque = await lab.admin.post('/api/bills', {
      ...body,
      payment_method: 'cheque',
      payment_reference: '004512',
      payment_bank: 'Canara Bank',
    });
    expect(cheque.statusCode, cheque.body).toBe(201);
    const row = await lab.database.db
      .selectFrom('payments')
      .select(['method', 'reference', 'bank', 'status', 'amount_paise'])
      .where('bill_id', '=', cheque.json().bill.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      method: 'cheque',
      reference: '004512',
      bank: 'Canara Bank',
      status: 'pending',
      amount_paise: 20000,
    });
  });

  it('POST /api/bills/{id}/payments needs it for a payment, not for a refund', async () => {
    const bill = (await lab.admin.post('/api/bills', { patient_id: patient, items: [line()] })).json().bill;
    const payments = await paymentCount();
    const pay = (b: Record<string, unknown>) => lab.admin.post(`/api/bills/${bill.id}/payments`, b);
    expect(fields(await pay({ amount: 100, method: 'upi' }))).toEqual(['reference']);
    expect(fields(await pay({ amount: 100, method: 'cheque', reference: '1234' }))).toEqual(['bank']);
    expect(await paymentCount()).toBe(payments);
    expect((await pay({ amount: 100, method: 'upi', reference: 'UPI-889' })).statusCode).toBe(201);
    const refund = await pay({ amount: -40, method: 'upi', reason: 'Test not done' });
    expect(refund.statusCode, refund.body).toBe(201);
    expect(refund.json().bill.paid_amount).toBe(60);
  });
});

describe('Register Patient with Bill', () => {
  it('creates the patient and the bill together', async () => {
    const res = await lab.admin.post('/api/registrations', {
      patient: {
        first_name: 'Sita',
        last_name: 'Ram',
        date_of_birth: '1999-09-09',
        gender: 'Female',
        phone: '9000000001',
      },
      visit_type: 'doctor_visit',
      doctor_id: doctor,
      items: [line()],
      discount_percentage: 10,
      tax_percentage: 0,
      payment_method: 'bank_transfer',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().patient.patient_id).toMatch(/^PAT/);
    expect(res.json().bill.final_amount).toBe(450);
    expect(res.json().bill.payment_method).toBe('bank_transfer');
  });

  it('stores neither when the bill is invalid', async () => {
    const patientsBefore = Number(
      (
        await lab.database.db
          .selectFrom('patients')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const res = await lab.admin.post('/api/registrations', {
      patient: { first_name: 'Nobody', last_name: 'Stored', date_of_birth: '1999-09-09' },
      visit_type: 'lab_only',
      items: [line({ item_id: 777777 })],
    });
    expect(res.statusCode).toBe(400);
    const patientsAfter = Number(
      (
        await lab.database.db
          .selectFrom('patients')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(patientsAfter).toBe(patientsBefore);
  });

  it('requires a doctor for a doctor visit and integer percentages', async () => {
    const base = { patient: { first_name: 'A', last_name: 'B', date_of_birth: '1999-09-09' }, items: [line()] };
    const noDoctor = await lab.admin.post('/api/registrations', { ...base, visit_type: 'doctor_visit' });
    expect(noDoctor.statusCode).toBe(400);
    expect(noDoctor.json().details[0].path).toBe('doctor_id');
    const frac = await lab.admin.post('/api/registrations', {
      ...base,
      visit_type: 'lab_only',
      discount_percentage: 5.5,
    });
    expect(frac.statusCode).toBe(400);
  });
});
