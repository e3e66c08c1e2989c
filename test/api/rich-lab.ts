import { expect } from 'vitest';
import type { Client, TestLab } from '../helpers.js';
import { systemActor } from '../../src/core/context.js';
import { createSupplier } from '../../src/core/inventory/suppliers.js';
import { createInventoryItem } from '../../src/core/inventory/service.js';
import { createEquipment } from '../../src/core/equipment/service.js';
import { completeService, createService } from '../../src/core/equipment/work.js';
import { addDays, localDate } from '../../src/shared/time.js';

/**
 * A lab with every kind of row the product has, made through the API the screens use (stock and
 * equipment through their services): users of several roles, doctors with and without an email,
 * tests exempt and taxed (GST per line), a profile and a package, a payer with a price list and a
 * GSTIN, bills self-paid, charged to the payer, discounted, cancelled; payments in cash and UPI,
 * cheques pending, cleared and bounced, an advance kept and later spent, refunds with reasons; an
 * issued invoice; samples collected and rejected; results entered, verified and amended; stock in
 * lots; equipment with calibrations and maintenance. Answers what it made, for the checks.
 */

export interface RichLab {
  bills: Record<string, number>;
  today: string;
}

async function ok<T = Record<string, unknown>>(
  res: Promise<{ statusCode: number; body: string; json: <X>() => X }>,
  what: string,
): Promise<T> {
  const r = await res;
  expect(r.statusCode, `${what}: ${r.body}`).toBeLessThan(300);
  return r.json<T>();
}

export async function buildRichLab(lab: TestLab): Promise<RichLab> {
  const a: Client = lab.admin;
  const today = localDate('Asia/Kolkata');

  const drMeena = (
    await ok<{ doctor: { id: number } }>(
      a.post('/api/doctors', {
        first_name: 'Meena',
        last_name: 'Kulkarni',
        email: 'dr.meena@clinic.in',
        specialization: 'Cardiology',
        consultation_fee: 400,
        status: 'active',
        can_sign_in: false,
      }),
      'doctor',
    )
  ).doctor.id;
  // A referring doctor as most are: no email.
  const drRao = (
    await ok<{ doctor: { id: number } }>(
      a.post('/api/doctors', { first_name: 'Suresh', last_name: 'Rao', status: 'active', can_sign_in: false }),
      'doctor without email',
    )
  ).doctor.id;

  // Staff who joined after the doctors: the empty lab, loading users first, numbers them differently.
  const tech = await lab.as('lab_technician');
  const validator = await lab.as('validator');

  const test = async (body: Record<string, unknown>) =>
    (await ok<{ test: { id: number } }>(a.post('/api/tests', body), `test ${String(body.code)}`)).test.id;
  const hb = await test({ name: 'Haemoglobin', code: 'RHB', price: 200, category: 'Haematology' });
  const fbs = await test({ name: 'Glucose Fasting', code: 'RFBS', price: 150, category: 'Biochemistry' });
  const vitd = await test({
    name: 'Vitamin D (wellness)',
    code: 'RVITD',
    price: 1499.99,
    category: 'Biochemistry',
    tax_category: 'gst_18',
    sac_code: '999316',
  });
  const spa = await test({
    name: 'Skin analysis',
    code: 'RSKIN',
    price: 308.74,
    category: 'Wellness',
    tax_category: 'gst_12',
    sac_code: '999722',
  });
  const profile = (
    await ok<{ profile: { id: number } }>(
      a.post('/api/test-profiles', { name: 'Sugar Profile', code: 'RSUGAR', price: 300, test_ids: [fbs, hb] }),
      'profile',
    )
  ).profile.id;
  const pkg = (
    await ok<{ package: { id: number } }>(
      a.post('/api/test-packages', {
        name: 'Wellness Check',
        code: 'RWELL',
        price: 1800,
        test_ids: [vitd],
        profile_ids: [profile],
      }),
      'package',
    )
  ).package.id;

  const payer = (
    await ok<{ payer: { id: number } }>(
      a.post('/api/payers', {
        name: 'Sunrise Corporate Health',
        type: 'corporate',
        gstin: '27AAACS1234F1Z5',
        address: '12 MG Road, Pune',
        credit_limit: 50000,
        payment_terms_days: 45,
        discount_percent: 10,
        status: 'active',
      }),
      'payer',
    )
  ).payer.id;
  await ok(
    a.post(`/api/payers/${payer}/prices`, {
      item_type: 'test',
      item_id: hb,
      price: 150,
      effective_from: addDays(today, -400),
      effective_to: addDays(today, -11),
    }),
    'old payer price',
  );
  await ok(
    a.post(`/api/payers/${payer}/prices`, {
      item_type: 'test',
      item_id: hb,
      price: 120,
      effective_from: addDays(today, -10),
    }),
    'payer price',
  );

  const patient = async (first: string, last: string, extra: Record<string, unknown> = {}) =>
    (
      await ok<{ patient: { id: number } }>(
        a.post('/api/patients', { first_name: first, last_name: last, date_of_birth: '1980-02-03', ...extra }),
        `patient ${first}`,
      )
    ).patient.id;
  const p1 = await patient('राजेश', 'वर्मा', { gender: 'Male', phone: '9845012345' });
  const p2 = await patient('Anita', 'Desai', { gender: 'Female' });
  const p3 = await patient('Walk', 'In');
  const p4 = await patient('Corporate', 'Staff');

  const line = (type: 'test' | 'profile' | 'package', id: number, extra: Record<string, unknown> = {}) => ({
    item_type: type,
    item_id: id,
    qty: 1,
    discount_percent: 0,
    ...extra,
  });
  const bill = async (what: string, body: Record<string, unknown>) =>
    (
      await ok<{ bill: { id: number; final_amount: number } }>(
        a.post('/api/bills', { visit_type: 'lab_only', payment_method: 'cash', discount_percentage: 0, ...body }),
        `bill ${what}`,
      )
    ).bill;
  const pay = (billId: number, body: Record<string, unknown>) =>
    ok<{ payment: { id: number } }>(a.post('/api/payments', { bill_id: billId, ...body }), `payment on ${billId}`);

  // GST lines with a bill discount and a line discount; a doctor with an email; cash, then a refund.
  const gst = await bill('gst', {
    patient_id: p1,
    visit_type: 'doctor_visit',
    doctor_id: drMeena,
    items: [line('test', hb), line('test', vitd, { discount_percent: 10 }), line('test', spa)],
    discount_percentage: 5,
  });
  const cash = await pay(gst.id, { amount: 1000, method: 'cash' });
  await ok(a.post(`/api/payments/${cash.payment.id}/refund`, { amount: 120.5, reason: 'Test not done' }), 'refund');
  await pay(gst.id, { amount: 200.25, method: 'upi', reference: 'UPI-4471' });

  // A referring doctor without an email; cheques pending, cleared and bounced.
  const cheques = await bill('cheques', {
    patient_id: p2,
    visit_type: 'doctor_visit',
    doctor_id: drRao,
    items: [line('test', hb, { qty: 3 }), line('test', fbs)],
  });
  await pay(cheques.id, { amount: 152.16, method: 'cheque', reference: '004512', bank: 'SBI' });
  const cleared = await pay(cheques.id, { amount: 100, method: 'cheque', reference: '004513', bank: 'HDFC' });
  await ok(a.post(`/api/payments/${cleared.payment.id}/clear`, {}), 'clear');
  const bounced = await pay(cheques.id, { amount: 300, method: 'cheque', reference: '004514', bank: 'ICICI' });
  await ok(a.post(`/api/payments/${bounced.payment.id}/bounce`, { reason: 'Insufficient funds' }), 'bounce');

  // An over-payment kept as advance, spent on the patient's next bill, part of it returned.
  const first = await bill('advance kept', { patient_id: p3, items: [line('test', fbs)] });
  await pay(first.id, { amount: 500, method: 'cash', advance: true });
  const second = await bill('advance spent', { patient_id: p3, items: [line('package', pkg)] });
  const use = await ok<{ payment: { id: number } }>(
    a.post('/api/payments/advance', { bill_id: second.id, amount: 300 }),
    'advance use',
  );
  await ok(a.post(`/api/payments/${use.payment.id}/refund`, { amount: 50, reason: 'Back to account' }), 'return');
  await pay(second.id, { amount: 1000, method: 'card', reference: 'CARD-88' });

  // Charged to the payer (its price list), invoiced and issued by a lab with a GSTIN and an address.
  await ok(a.put('/api/settings', { labAddress: '4 FC Road, Pune, Maharashtra 411004' }), 'lab address');
  await ok(a.put('/api/billing-settings', { gstin: '27AABCL1234M1Z5' }), 'lab GSTIN');
  const payerBill = await bill('payer', {
    patient_id: p4,
    payer_id: payer,
    items: [line('test', hb), line('test', spa)],
  });
  const invoice = await ok<{ invoice: { id: number } }>(
    a.post('/api/invoices', { payer_id: payer, period_from: today, period_to: today }),
    'invoice',
  );
  await ok(a.post(`/api/invoices/${invoice.invoice.id}/issue`, {}), 'issue');

  // Cancelled.
  const cancelled = await bill('cancelled', { patient_id: p4, items: [line('test', fbs)] });
  await ok(a.put(`/api/bills/${cancelled.id}`, { status: 'cancelled', cancel_reason: 'Duplicate bill' }), 'cancel');

  // Samples: one collected with results verified and amended, one rejected.
  const sample = (
    await ok<{ sample: { id: number } }>(
      a.post('/api/samples', { patient_id: p1, sample_type: 'Blood', test_ids: [hb, fbs], bill_id: gst.id }),
      'sample',
    )
  ).sample.id;
  const rejected = (
    await ok<{ sample: { id: number } }>(
      a.post('/api/samples', { patient_id: p2, sample_type: 'Blood', test_ids: [fbs] }),
      'sample to reject',
    )
  ).sample.id;
  await ok(a.put(`/api/samples/${rejected}/status`, { status: 'rejected', notes: 'Haemolysed' }), 'reject');
  const result = async (testId: number, value: string) =>
    (
      await ok<{ result: { id: number } }>(
        tech.post('/api/test-results', { sample_id: sample, test_id: testId, result_value: value }),
        'result',
      )
    ).result.id;
  const hbResult = await result(hb, '13.5');
  await result(fbs, '182');
  await ok(validator.put(`/api/test-results/${hbResult}/verify`, {}), 'verify');
  await ok(a.put(`/api/test-results/${hbResult}`, { result_value: '12.9', reason: 'Transcription error' }), 'amend');

  // Stock in lots, equipment with its calibration and maintenance.
  const system = systemActor(lab.organizationId);
  const db = lab.database.db;
  await createSupplier(db, system, { name: 'Medisource Diagnostics', contact_person: 'Anil Mehta', lead_time_days: 5 });
  const reagent = await createInventoryItem(db, system, {
    item_code: 'GLU-R1',
    item_name: 'Glucose reagent (GOD-POD)',
    kind: 'reagent',
    category: 'Biochemistry',
    unit: 'tests',
    current_stock: 480,
    minimum_stock: 100,
    maximum_stock: 1000,
    unit_cost: 12.5,
    supplier: 'Medisource Diagnostics',
    status: 'active',
    expiry_date: addDays(today, 200),
    lot_number: 'LOT-7',
  });
  await ok(
    a.post(`/api/inventory/${reagent.id}/movements`, {
      type: 'receive',
      quantity: 200,
      lot_number: 'LOT-8',
      expiry_date: addDays(today, 300),
    }),
    'second lot',
  );
  await ok(a.post(`/api/inventory/${reagent.id}/movements`, { type: 'consume', quantity: 30 }), 'use stock');
  const analyser = await createEquipment(db, system, {
    kind: 'machine',
    name: 'Chemistry analyser',
    model: 'AU480',
    serial_number: 'AU480-2210-0042',
    type: 'Chemistry Analyzer',
    location: 'Biochemistry',
    installed_on: '2024-04-01',
    status: 'operational',
  });
  const cal = await createService(db, system, 'calibration', {
    equipment_id: analyser.id,
    type: 'Routine',
    due_date: addDays(today, -30),
    interval_days: 180,
    description: 'Two-point',
  });
  await completeService(db, system, 'calibration', cal.id, {
    performed_by: 'Ravi (Beckman)',
    performed_at: addDays(today, -29),
    accuracy: 99.1,
  });
  await createService(db, system, 'maintenance', {
    equipment_id: analyser.id,
    type: 'Preventive',
    due_date: addDays(today, 10),
    interval_days: 90,
  });
  return {
    today,
    bills: { gst: gst.id, cheques: cheques.id, first: first.id, second: second.id, payer: payerBill.id },
  };
}
