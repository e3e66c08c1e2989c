import { z } from 'zod';
import { billCreateSchema, billItemInput } from '../../../shared/schemas/bills.js';
import {
  isoDate,
  optionalEmail,
  optionalText,
  requiredText,
  rupeeAmount,
  strictNumber,
} from '../../../shared/schemas/common.js';
import { BILL_STATUSES, PAYMENT_STATUSES, billAmounts } from '../../../shared/billing.js';
import { formatInr, rupeesToPaise } from '../../../shared/money.js';
import { DEFAULT_SAC, TAX_CATEGORIES, billTax, taxRateOf } from '../../../shared/gst.js';
import { addDays, localDate, startOfLocalDayUtc } from '../../../shared/time.js';
import { BILL_NUMBER, insertHistoricalBill, type HistoricalBill, toBill } from '../../billing/service.js';
import { billExportPage, billNumbersTaken, itemsOfBills, paymentsOfBills } from '../../billing/repository.js';
import { patientsByCodes } from '../../patients/repository.js';
import { payerRowsByNames } from '../../payers/repository.js';
import { organizationTimezone } from '../../settings/service.js';
import type { EntityError, TransferColumn, TransferEntity } from '../entity.js';
import { billPaymentSchema, overdrawnAccounts, planPayments, type AccountMove } from './bill-payments.js';
import { billDoctors, billRecord, byBill, nameKey } from './bill-records.js';
import { catalogueItemsNamed, insertEach, oneOf, pastInstant, upperKey, keysetPages } from './common.js';

/**
 * Bills with their lines and payments, keyed by bill number. An imported bill is history: it keeps
 * its number, time, prices, percentages and payments as the earlier system had them. Its amounts
 * must add up by the lab's bill rule (src/shared/billing.ts): amount columns the file gives
 * (subtotal ... final_amount) are checked against its lines, and a bill that does not add up is
 * refused naming the column. Lines name catalogue items by type and code (the item must be in the
 * catalogue, active or not). A line with a `tax_category` is taxed as the counter taxes it (GST per
 * line on its value after its share of the bill discount, src/shared/gst.ts); a bill of another
 * system may instead give one bill-wide `tax_percentage`, not both. The patient is named by code,
 * the doctor by email or, without one, by first and last name; the payer it was charged to by name
 * (active or not; its credit limit is not applied to history). Payments are ledger rows as the
 * counter records them (bill-payments.ts). No visit or sample order is made. A stored bill is not
 * changed by an import (--update is refused): payments and cancellation are made on the bill.
 */

const columns: TransferColumn[] = [
  { name: 'bill_number' },
  { name: 'bill_date', kind: 'date' },
  { name: 'created_at', kind: 'timestamp' },
  { name: 'patient_patient_id' },
  { name: 'patient_first_name', readOnly: true },
  { name: 'patient_last_name', readOnly: true },
  { name: 'doctor_email' },
  { name: 'doctor_first_name' },
  { name: 'doctor_last_name' },
  { name: 'payer_name' },
  { name: 'visit_type' },
  { name: 'subtotal', kind: 'number' },
  { name: 'consultation_fee', kind: 'number' },
  { name: 'total_before_discount', kind: 'number' },
  { name: 'discount_percentage', kind: 'number' },
  { name: 'discount_amount', kind: 'number' },
  { name: 'tax_percentage', kind: 'number' },
  { name: 'tax_amount', kind: 'number' },
  { name: 'final_amount', kind: 'number' },
  { name: 'paid_amount', kind: 'number', readOnly: true },
  { name: 'balance', kind: 'number', readOnly: true },
  { name: 'status', readOnly: true },
  { name: 'payment_status', readOnly: true },
  { name: 'payment_method' },
  { name: 'due_date', kind: 'date' },
  { name: 'notes' },
  { name: 'cancelled_at', kind: 'timestamp' },
  { name: 'cancel_reason' },
  { name: 'items', kind: 'json' },
  { name: 'payments', kind: 'json' },
];

/** A historical bill keeps the tax it was made with (another system's flat rate included); it is never re-taxed. */
const historicalPercent = (label: string) =>
  strictNumber(
    z
      .number({ error: `${label} must be a number` })
      .refine((n) => Number.isFinite(n) && n >= 0 && n <= 100, `${label} must be between 0 and 100`)
      .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, `${label} may have at most 2 decimals`),
  );

/** Days after the bill date an imported bill without a due date is due in (the default of the lab setting). */
const IMPORT_DUE_DAYS = 7;

const itemSchema = billItemInput.omit({ item_id: true }).extend({
  gst_percent: historicalPercent('GST %').default(0),
  code: z.string({ error: 'code is required' }).trim().min(1, 'code is required').max(30).transform(upperKey),
  name: optionalText(120, 'Name'),
  list_price: rupeeAmount('List price').optional(),
  tax_category: z.enum(TAX_CATEGORIES, { error: `tax_category must be one of ${TAX_CATEGORIES.join(', ')}` }).nullish(),
  sac_code: optionalText(10, 'SAC code'),
});

const amount = (label: string) => rupeeAmount(label).optional();

const schema = z
  .object({
    bill_number: z
      .string({ error: 'bill_number is required' })
      .trim()
      .transform(upperKey)
      .pipe(
        z
          .string()
          .regex(
            BILL_NUMBER,
            'a bill number is OPB and its time YYYYMMDDHHmm, e.g. OPB202611211930 (-2, -3 for more bills in that minute)',
          ),
      ),
    created_at: pastInstant('The bill time'),
    bill_date: z.preprocess((v) => (v === null || v === '' ? undefined : v), isoDate('Bill date').optional()),
    patient_patient_id: requiredText('The patient code (patient_patient_id)', 30).transform(upperKey),
    doctor_email: optionalEmail,
    doctor_first_name: optionalText(100),
    doctor_last_name: optionalText(100),
    payer_name: optionalText(120),
    visit_type: billCreateSchema.shape.visit_type,
    consultation_fee: rupeeAmount('Consultation fee').default(0),
    discount_percentage: billCreateSchema.shape.discount_percentage,
    tax_percentage: historicalPercent('Tax %').default(0),
    payment_method: billCreateSchema.shape.payment_method,
    due_date: z.preprocess((v) => (v === null || v === '' ? undefined : v), isoDate('Due date').optional()),
    notes: optionalText(1000),
    cancelled_at: pastInstant('The cancellation time'),
    cancel_reason: optionalText(300),
    items: z
      .array(itemSchema, { error: 'items must be a list of lines' })
      .min(1, 'a bill has at least one line')
      .max(100),
    payments: z.array(billPaymentSchema, { error: 'payments must be a list' }).max(200).default([]),
    subtotal: amount('Subtotal'),
    total_before_discount: amount('Total before discount'),
    discount_amount: amount('Discount amount'),
    tax_amount: amount('Tax amount'),
    final_amount: amount('Final amount'),
  })
  .superRefine((b, ctx) => {
    if (b.cancelled_at && !b.cancel_reason)
      ctx.addIssue({ code: 'custom', path: ['cancel_reason'], message: 'a cancelled bill needs its reason' });
  });
type Input = z.infer<typeof schema>;

export const bills: TransferEntity<Input, true, HistoricalBill & { row: number }> = {
  name: 'bills',
  label: 'bill',
  auditEntity: 'bill',
  columns,
  key: 'bill_number',
  normalizeKey: upperKey,
  requiredColumns: ['bill_number', 'patient_patient_id', 'items'],
  createSchema: schema,
  noUpdate: 'a stored bill is financial history; record payments, refunds and cancellations on the bill itself',
  batchSize: 200,

  async findExisting(ctx, keys) {
    const taken = await billNumbersTaken(ctx.db, ctx.organizationId, keys);
    return new Map([...taken].map((k) => [k, true as const]));
  },

  async plan(ctx, rows) {
    const patients = await patientsByCodes(ctx.db, ctx.organizationId, [
      ...new Set(rows.map((r) => r.input.patient_patient_id)),
    ]);
    const { doctors, doctorsByName } = await billDoctors(
      ctx,
      rows.map((r) => r.input),
    );
    const payers = await payerRowsByNames(ctx.db, ctx.organizationId, [
      ...new Set(rows.map((r) => r.input.payer_name?.toLowerCase()).filter((n): n is string => !!n)),
    ]);
    const catalogue = await catalogueItemsNamed<{ id: number; name: string; code: string; price_paise: number }>(
      ctx.db,
      ctx.organizationId,
      rows.flatMap((r) => r.input.items.map((i) => ({ type: i.item_type, code: i.code }))),
    );
    return rows.map((r) => {
      const b = r.input;
      const errors: EntityError[] = [];
      const patient = patients.get(b.patient_patient_id);
      if (!patient)
        errors.push({
          column: 'patient_patient_id',
          message: `no patient with code ${b.patient_patient_id} (import the patients first)`,
        });
      // A doctor without an email (most referring doctors) is named by first and last name.
      const named = !b.doctor_email && b.doctor_first_name ? nameKey(b.doctor_first_name, b.doctor_last_name) : null;
      const byName = named ? (doctorsByName.get(named) ?? []) : [];
      const doctor = b.doctor_email ? doctors.get(b.doctor_email) : byName.length === 1 ? byName[0] : undefined;
      if (b.doctor_email && !doctor)
        errors.push({
          column: 'doctor_email',
          message: `no doctor or lab technician with email ${b.doctor_email} in this lab`,
        });
      if (named && byName.length !== 1)
        errors.push({
          column: 'doctor_first_name',
          message: byName.length
            ? `${byName.length} doctors are named ${b.doctor_first_name} ${b.doctor_last_name ?? ''}: give doctor_email`
            : `no doctor named ${b.doctor_first_name} ${b.doctor_last_name ?? ''} in this lab (import the doctors first)`,
        });
      // A bill charged to a payer is history: an inactive payer or a passed credit limit does not refuse it.
      const payer = b.payer_name ? payers.get(b.payer_name.toLowerCase()) : undefined;
      if (b.payer_name && !payer)
        errors.push({
          column: 'payer_name',
          message: `no payer named ${b.payer_name} in this lab (import the payers first)`,
        });
      const namesDoctor = !!(b.doctor_email || named);
      const visitType = b.visit_type ?? (namesDoctor ? 'doctor_visit' : 'lab_only');
      if (visitType === 'doctor_visit' && !namesDoctor)
        errors.push({
          column: 'doctor_email',
          message: 'a doctor visit names its doctor (doctor_email, or its first and last name), or make it lab_only',
        });
      if (visitType === 'lab_only' && b.consultation_fee > 0)
        errors.push({ column: 'consultation_fee', message: 'a lab-only visit has no consultation fee' });
      // A bill taxed line by line (lims's own, GST per test category) names each line's category;
      // another system's bill may instead carry one bill-wide tax % (tax_percentage).
      const perLine = b.items.some((i) => i.tax_category != null);
      if (perLine && b.tax_percentage > 0)
        errors.push({
          column: 'tax_percentage',
          message: "a bill is taxed per line (the items' tax_category) or at one bill-wide tax %, not both",
        });
      const lines = b.items.map((item, i) => {
        const rate = perLine ? taxRateOf(item.tax_category ?? 'exempt') : item.gst_percent;
        if (perLine && item.gst_percent !== 0 && item.gst_percent !== rate)
          errors.push({
            column: 'items',
            message: `line ${i + 1}: gst_percent ${item.gst_percent} is not the rate of ${item.tax_category ?? 'exempt'} (${rate})`,
          });
        const found = catalogue.get(`${item.item_type}:${item.code}`);
        if (!found)
          errors.push({
            column: 'items',
            message: `line ${i + 1}: no ${item.item_type} with code ${item.code} in the catalogue`,
          });
        const unit = item.price === undefined ? (found?.price_paise ?? 0) : rupeesToPaise(item.price);
        return {
          item_type: item.item_type,
          test_id: item.item_type === 'test' ? (found?.id ?? null) : null,
          profile_id: item.item_type === 'profile' ? (found?.id ?? null) : null,
          package_id: item.item_type === 'package' ? (found?.id ?? null) : null,
          name: item.name ?? found?.name ?? item.code,
          code: found?.code ?? item.code,
          qty: item.qty,
          list_price_paise: item.list_price === undefined ? unit : rupeesToPaise(item.list_price),
          unit_price_paise: unit,
          gst_percent: rate,
          discount_percent: item.discount_percent,
          tax_category: item.tax_category ?? 'exempt',
          sac_code: item.sac_code ?? DEFAULT_SAC,
        };
      });
      const a = billAmounts({
        lines: lines.map((l) => ({
          unitPricePaise: l.unit_price_paise,
          qty: l.qty,
          discountPercent: l.discount_percent,
        })),
        consultationFeePaise: rupeesToPaise(b.consultation_fee),
        discountPercent: b.discount_percentage,
        taxPercent: perLine ? 0 : b.tax_percentage,
      });
      const tax = perLine
        ? billTax(
            lines.map((l, i) => ({ totalPaise: a.lines[i]!.totalPaise, ratePercent: l.gst_percent })),
            a.consultationFeePaise,
            a.discountPaise,
          )
        : null;
      if (tax) {
        a.taxPaise = tax.taxPaise;
        a.finalPaise = a.discountedPaise + tax.taxPaise;
      }
      const checks: [keyof Input, number][] = [
        ['subtotal', a.subtotalPaise],
        ['total_before_discount', a.totalBeforeDiscountPaise],
        ['discount_amount', a.discountPaise],
        ['tax_amount', a.taxPaise],
        ['final_amount', a.finalPaise],
      ];
      for (const [col, paise] of checks) {
        const given = b[col] as number | undefined;
        if (given !== undefined && rupeesToPaise(given) !== paise)
          errors.push({
            column: col,
            message: `${formatInr(rupeesToPaise(given))} does not add up: the lines and percentages give ${formatInr(paise)}`,
          });
      }
      // A file from another system may date its bills by day only: the start of that day in the lab's zone.
      const created =
        b.created_at ??
        (b.bill_date ? startOfLocalDayUtc(ctx.timeZone, b.bill_date).toISOString() : new Date().toISOString());
      if (b.created_at && b.bill_date && localDate(ctx.timeZone, new Date(b.created_at)) !== b.bill_date)
        errors.push({
          column: 'bill_date',
          message: `${b.bill_date} is not the day of created_at in the lab's time zone`,
        });
      const money = planPayments(b.payments, { createdAt: created, timeZone: ctx.timeZone });
      errors.push(...money.errors);
      const paid = money.paidPaise;
      if (paid > a.finalPaise)
        errors.push({
          column: 'payments',
          message: `the payments (${formatInr(paid)}) are more than the bill (${formatInr(a.finalPaise)})`,
        });
      if (b.cancelled_at && paid > 0)
        errors.push({ column: 'cancelled_at', message: 'a cancelled bill keeps no payment; refund it first' });
      if (errors.length) return { row: r.row, errors };
      const plan: HistoricalBill & { row: number } = {
        row: r.row,
        bill_number: b.bill_number,
        patient_id: patient!.id,
        doctor_id: doctor?.id ?? null,
        payer_id: payer?.id ?? null,
        visit_type: visitType,
        subtotal_paise: a.subtotalPaise,
        consultation_fee_paise: a.consultationFeePaise,
        total_before_discount_paise: a.totalBeforeDiscountPaise,
        discount_percentage: b.discount_percentage,
        discount_amount_paise: a.discountPaise,
        tax_percentage: b.tax_percentage,
        tax_amount_paise: a.taxPaise,
        final_amount_paise: a.finalPaise,
        payment_method: b.payment_method,
        due_date:
          b.due_date ??
          addDays(localDate(ctx.timeZone, new Date(created)), payer ? payer.payment_terms_days : IMPORT_DUE_DAYS),
        notes: b.notes ?? null,
        cancelled_at: b.cancelled_at ?? null,
        cancel_reason: b.cancel_reason ?? null,
        created_at: created,
        lines: lines.map((l, i) => ({
          ...l,
          discount_amount_paise: a.lines[i]!.discountPaise,
          total_paise: a.lines[i]!.totalPaise,
          ...(tax && { taxable_paise: tax.lines[i]!.taxablePaise, tax_paise: tax.lines[i]!.taxPaise }),
        })),
        payments: money.payments,
      };
      // What the bill moves on the patient's account is checked once the whole file is in (finish).
      const advance = money.payments.filter((p) => p.status !== 'failed').reduce((t, p) => t + p.advance_paise, 0);
      if (money.payments.some((p) => p.advance_paise !== 0))
        ctx.deferred.push({ row: r.row, plan: { patientId: patient!.id, advance } satisfies AccountMove });
      return { row: r.row, plan };
    });
  },

  /**
   * An advance spent must have been on the patient's account: after the whole file (a bill may
   * spend what a later row of the file kept), no patient's account is below zero.
   */
  async finish(ctx, write) {
    const errors = write || ctx.dryRun ? await overdrawnAccounts(ctx, write) : [];
    return { inserted: 0, updated: 0, errors };
  },

  async write(ctx, plans) {
    return insertEach(ctx, plans, (bill) => insertHistoricalBill(ctx.db, ctx.actor, bill));
  },

  filters: {
    status: oneOf(BILL_STATUSES),
    payment_status: oneOf(PAYMENT_STATUSES),
    patient_patient_id: z.string().trim().min(1).transform(upperKey),
  },
  dateField: 'bill date (created_at)',
  async *exportPages(db, organizationId, q) {
    const tz = await organizationTimezone(db, organizationId);
    const today = localDate(tz);
    yield* keysetPages(db, organizationId, q, billExportPage, async (rows) => {
      const ids = rows.map((r) => r.id);
      const items = byBill(await itemsOfBills(db, ids));
      const pays = byBill(await paymentsOfBills(db, ids));
      return rows
        .map((r) => ({ bill: toBill(r, tz, today), r }))
        .filter(({ bill }) => !q.where.status || bill.status === q.where.status)
        .filter(({ bill }) => !q.where.payment_status || bill.payment_status === q.where.payment_status)
        .filter(({ bill }) => !q.where.patient_patient_id || bill.patient_patient_id === q.where.patient_patient_id)
        .map(({ bill, r }) => billRecord(columns, bill, r.doctor_email, items.get(r.id) ?? [], pays.get(r.id) ?? []));
    });
  },
};
