import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { nextSequence } from '../sequences.js';
import { formatInr, rupeesToPaise } from '../../shared/money.js';
import type {
  Bill,
  BillCreate,
  BillListQuery,
  BillSummary,
  BillUpdate,
  PaymentCreate,
  RegisterWithBill,
} from '../../shared/schemas/bills.js';
import type { Patient } from '../../shared/schemas/patients.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import { findPatient, toPatient } from '../patients/repository.js';
import { insertPatient } from '../patients/service.js';
import { labSettings, labToday, organizationTimezone } from '../settings/service.js';
import { assertWithinCredit, payerForBill } from '../payers/service.js';
import { addDays, localDate, localMinuteStamp } from '../../shared/time.js';
import { resolveDoctor } from '../users/service.js';
import { priceBill } from './pricing.js';
import { announce } from '../events.js';
import { toBill, toBillItem, toPayment } from './mappers.js';
import { recordBillRefund, recordPayment } from '../payments/service.js';
import {
  applyBillFilters,
  billsQuery,
  countPaymentsOfBill,
  deleteBillRow,
  findBill,
  insertBillItemRows,
  insertBillRow,
  itemsOfBill,
  paidMethodsOfBills,
  paymentsOfBill,
  selectBillColumns,
  summaryRow,
  updateBillRow,
} from './repository.js';
import { snapshotBill } from '../printing/service.js';
import { onPage } from '../db/paging.js';

type BillBody = Omit<BillCreate, 'patient_id'>;

/** OPB + YYYYMMDDHHmm in the lab's zone; the 2nd bill in the same minute gets -2, and so on. */
async function nextBillNumber(trx: Db, organizationId: number, timeZone: string, now: Date): Promise<string> {
  const stamp = localMinuteStamp(timeZone, now);
  const n = await nextSequence(trx, organizationId, `bill:${stamp}`);
  return n === 1 ? `OPB${stamp}` : `OPB${stamp}-${n}`;
}

/** Inside an open transaction: computes every amount from the catalogue and the rule, stores bill, lines, optional payment. */
async function insertBill(
  trx: Db,
  actor: Actor,
  patientId: number,
  body: BillBody,
  visitType: 'doctor_visit' | 'lab_only',
): Promise<number> {
  const timeZone = await organizationTimezone(trx, actor.organizationId);
  const now = new Date();
  const today = localDate(timeZone, now);
  const payer = body.payer_id ? await payerForBill(trx, actor.organizationId, body.payer_id) : null;
  const doctor = body.doctor_id ? await resolveDoctor(trx, actor.organizationId, body.doctor_id) : null;
  const feePaise = doctor && visitType === 'doctor_visit' ? doctor.feePaise : 0;
  const { lines, amounts, tax, finalPaise, discount } = await priceBill(trx, actor, {
    items: body.items,
    payer,
    feePaise,
    discountPercent: body.discount_percentage,
    approval: body.discount_approval,
    today,
    confirmDuplicates: body.confirm_duplicates === true,
  });
  if (payer) assertWithinCredit(payer, finalPaise);
  const dueDays = payer ? payer.payment_terms_days : (await labSettings(trx, actor.organizationId)).billDueDays;
  const nowStr = now.toISOString();
  const bill = await insertBillRow(trx, {
    organization_id: actor.organizationId,
    bill_number: await nextBillNumber(trx, actor.organizationId, timeZone, now),
    patient_id: patientId,
    doctor_id: doctor?.id ?? null,
    visit_type: visitType,
    subtotal_paise: amounts.subtotalPaise,
    consultation_fee_paise: amounts.consultationFeePaise,
    total_before_discount_paise: amounts.totalBeforeDiscountPaise,
    discount_percentage: body.discount_percentage,
    discount_amount_paise: amounts.discountPaise,
    tax_percentage: 0,
    tax_amount_paise: tax.taxPaise,
    final_amount_paise: finalPaise,
    paid_paise: 0,
    payment_method: body.payment_method,
    due_date: addDays(today, dueDays),
    payer_id: payer?.id ?? null,
    notes: body.notes ?? null,
    cancelled_at: null,
    cancel_reason: null,
    created_by: actor.userId,
    created_at: nowStr,
    updated_at: nowStr,
  });
  await insertBillItemRows(
    trx,
    lines.map((l, i) => ({
      bill_id: bill.id,
      position: i,
      ...l,
      discount_amount_paise: amounts.lines[i]!.discountPaise,
      total_paise: amounts.lines[i]!.totalPaise,
      taxable_paise: tax.lines[i]!.taxablePaise,
      tax_paise: tax.lines[i]!.taxPaise,
    })),
  );
  await writeAudit(trx, actor, {
    action: 'create',
    entity: 'bill',
    entityId: bill.id,
    newValues: { ...bill, items: lines, ...(discount.effective_percent > 0 ? { discount } : {}) },
  });
  // The bill prints as issued: its header (lab, patient, doctor) is kept now.
  await snapshotBill(trx, actor.organizationId, bill, nowStr);
  await announce(trx, actor, 'bill.created', { bill, lines });
  if (body.amount_paid !== undefined && body.amount_paid > 0) {
    await insertPayment(trx, actor, bill.id, {
      amount: body.amount_paid,
      method: body.payment_method,
      reference: body.payment_reference ?? null,
      bank: body.payment_bank ?? null,
      reason: null,
    });
  }
  return bill.id;
}

export async function createBill(db: Db, actor: Actor, input: BillCreate): Promise<Bill> {
  const id = await db.transaction().execute((trx) => createBillIn(trx, actor, input));
  return getBill(db, actor.organizationId, id);
}

/** createBill inside a transaction the caller holds (a home visit's tubes become a bill with them); answers its id. */
export async function createBillIn(trx: Db, actor: Actor, input: BillCreate): Promise<number> {
  const patient = await findPatient(trx, actor.organizationId, input.patient_id);
  if (!patient) throw ValidationError.field('patient_id', `Unknown patient ${input.patient_id}`);
  if (input.visit_type === 'doctor_visit' && !input.doctor_id)
    throw ValidationError.field('doctor_id', 'Please select a doctor for consultation');
  return insertBill(trx, actor, patient.id, input, input.visit_type ?? (input.doctor_id ? 'doctor_visit' : 'lab_only'));
}

/** Register Patient with Bill: both or neither (or a bill for a patient picked instead of registering again). */
export async function registerPatientWithBill(
  db: Db,
  actor: Actor,
  input: RegisterWithBill,
): Promise<{ patient: Patient; bill: Bill }> {
  const { patientId, billId } = await db.transaction().execute(async (trx) => {
    const patient = input.patient_id
      ? await findPatient(trx, actor.organizationId, input.patient_id)
      : await insertPatient(trx, actor, input.patient!);
    if (!patient) throw ValidationError.field('patient_id', `Unknown patient ${input.patient_id}`);
    // Lab tests only may still name the referring doctor (printed on the report); no fee is added
    // for it (insertBill adds the fee to doctor visits only). Dropping it here printed "Self".
    const billId = await insertBill(trx, actor, patient.id, input, input.visit_type);
    return { patientId: patient.id, billId };
  });
  const patient = await findPatient(db, actor.organizationId, patientId);
  return {
    patient: toPatient(patient!, await labToday(db, actor.organizationId)),
    bill: await getBill(db, actor.organizationId, billId),
  };
}

async function today(db: Db, organizationId: number): Promise<{ timeZone: string; today: string }> {
  const timeZone = await organizationTimezone(db, organizationId);
  return { timeZone, today: localDate(timeZone) };
}

export async function getBill(db: Db, organizationId: number, id: number): Promise<Bill> {
  const row = await findBill(db, organizationId, id);
  if (!row) throw new NotFoundError('Bill', id);
  const { timeZone, today: t } = await today(db, organizationId);
  const items = await itemsOfBill(db, id);
  const payments = await paymentsOfBill(db, id);
  return {
    ...toBill(row, timeZone, t),
    items: items.map(toBillItem),
    payments: payments.map((p) => toPayment({ ...p, received_by_name: p.received_by_name ?? null })),
    paid_methods: (await paidMethodsOfBills(db, [id])).get(id) ?? [],
  };
}

export async function listBills(db: Db, organizationId: number, q: BillListQuery) {
  const { timeZone, today: t } = await today(db, organizationId);
  const filtered = applyBillFilters(billsQuery(db, organizationId), q, timeZone, t);
  const { n } = await filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await selectBillColumns(filtered)
    .orderBy('b.created_at', 'desc')
    .orderBy('b.id', 'desc')
    .$call(onPage(q))
    .execute();
  const methods = await paidMethodsOfBills(
    db,
    rows.map((r) => r.id),
  );
  return {
    bills: rows.map((r) => ({ ...toBill(r, timeZone, t), paid_methods: methods.get(r.id) ?? [] })),
    ...pageEnvelope(Number(n), q.page, q.limit),
  };
}

export async function billSummary(db: Db, organizationId: number): Promise<BillSummary> {
  const { timeZone, today: t } = await today(db, organizationId);
  const s = await summaryRow(db, organizationId, timeZone, t);
  const live = s.total_bills - s.cancelled_count;
  return {
    total_bills: s.total_bills,
    total_amount: s.total_paise / 100,
    paid_amount: s.paid_paise / 100,
    outstanding_amount: (s.total_paise - s.paid_paise) / 100,
    paid_count: s.paid_count,
    partial_count: s.partial_count,
    pending_count: s.unpaid_count,
    overdue_count: s.overdue_count,
    overdue_amount: s.overdue_paise / 100,
    cancelled_count: s.cancelled_count,
    collection_rate: live ? Math.round((s.paid_count / live) * 1000) / 10 : 0,
    average_bill: live ? Math.round(s.total_paise / live) / 100 : 0,
    todays_revenue: s.today_paise / 100,
  };
}

export async function updateBill(db: Db, actor: Actor, id: number, input: BillUpdate): Promise<Bill> {
  await db.transaction().execute(async (trx) => {
    const before = await findBill(trx, actor.organizationId, id);
    if (!before) throw new NotFoundError('Bill', id);
    if (before.cancelled_at)
      throw new ConflictError(`Bill ${before.bill_number} is cancelled and cannot be changed`, 'BILL_CANCELLED');
    const patch: Record<string, unknown> = {};
    if (input.status === 'cancelled') {
      if (!input.cancel_reason) throw ValidationError.field('cancel_reason', 'A reason is required to cancel a bill');
      await announce(trx, actor, 'bill.changing', { bill: before, change: 'cancelled' });
      if (before.paid_paise > 0) {
        throw new ConflictError(
          `Bill ${before.bill_number} has ${formatInr(before.paid_paise)} paid; refund it before cancelling`,
          'BILL_HAS_PAYMENTS',
        );
      }
      patch.cancelled_at = nowIso();
      patch.cancel_reason = input.cancel_reason;
      await announce(trx, actor, 'bill.cancelled', {
        billId: id,
        billNumber: before.bill_number,
        reason: `bill ${before.bill_number} cancelled: ${input.cancel_reason}`,
      });
    }
    if (input.payment_method !== undefined) patch.payment_method = input.payment_method;
    if (input.due_date !== undefined) patch.due_date = input.due_date;
    if (input.notes !== undefined) patch.notes = input.notes ?? null;
    if (!Object.keys(patch).length) return;
    const oldValues: Record<string, unknown> = {};
    for (const k of Object.keys(patch)) oldValues[k] = (before as Record<string, unknown>)[k] ?? null;
    await updateBillRow(trx, id, { ...patch, updated_at: nowIso() });
    await writeAudit(trx, actor, { action: 'update', entity: 'bill', entityId: id, oldValues, newValues: patch });
  });
  return getBill(db, actor.organizationId, id);
}

export async function deleteBill(db: Db, actor: Actor, id: number): Promise<Bill> {
  const bill = await getBill(db, actor.organizationId, id);
  await db.transaction().execute(async (trx) => {
    await announce(trx, actor, 'bill.changing', { bill, change: 'deleted' });
    if ((await countPaymentsOfBill(trx, id)) > 0)
      throw new ConflictError(
        `Bill ${bill.bill_number} has payments recorded; cancel it instead of deleting it`,
        'BILL_HAS_PAYMENTS',
      );
    await announce(trx, actor, 'bill.cancelled', {
      billId: id,
      billNumber: bill.bill_number,
      reason: `bill ${bill.bill_number} deleted`,
    });
    await deleteBillRow(trx, actor.organizationId, id);
    await writeAudit(trx, actor, {
      action: 'delete',
      entity: 'bill',
      entityId: id,
      oldValues: bill as unknown as Record<string, unknown>,
    });
  });
  return bill;
}

/** Inside an open transaction: one payment on a bill (an invoice's mark-paid records its bills' payments so). */
export async function recordBillPayment(trx: Db, actor: Actor, billId: number, p: PaymentCreate): Promise<void> {
  await insertPayment(trx, actor, billId, p);
}

/** A payment (positive) or a refund (negative, with a reason) on the ledger (src/core/payments/ledger.ts). */
async function insertPayment(trx: Db, actor: Actor, billId: number, p: PaymentCreate) {
  const amount = rupeesToPaise(p.amount);
  if (amount < 0) {
    await recordBillRefund(trx, actor, billId, {
      amountPaise: -amount,
      method: p.method,
      reference: p.reference ?? null,
      reason: p.reason ?? '',
    });
    return;
  }
  await recordPayment(trx, actor, billId, {
    amountPaise: amount,
    method: p.method,
    reference: p.reference ?? null,
    bank: p.bank ?? null,
    advance: false,
    reason: p.reason ?? null,
  });
}

/** Records a payment (or, negative with a reason, a refund) and answers the bill as it now stands. */
export async function addPayment(db: Db, actor: Actor, billId: number, p: PaymentCreate): Promise<Bill> {
  await db.transaction().execute((trx) => insertPayment(trx, actor, billId, p));
  return getBill(db, actor.organizationId, billId);
}

export { toBill } from './mappers.js';
export { billPdfById } from './print.js';
export { priceBill } from './pricing.js';

/** What the import and export engine (transfer/) writes and reads through. */
export { BILL_NUMBER, insertHistoricalBill, type HistoricalBill, type HistoricalPayment } from './history.js';
