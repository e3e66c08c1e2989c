import { z } from 'zod';
import { PAYMENT_METHODS, type PaymentMethod } from '../billing.js';
import { requireMethodReference } from './bills.js';
import { isoDate, optionalText, pageQuery, requiredText, rupeeAmount, strictNumber } from './common.js';

/** Ledger row statuses (spec section 4): a cheque is pending until cleared, failed when it bounced. */
export const LEDGER_STATUSES = ['pending', 'completed', 'failed', 'refunded'] as const;
export type LedgerStatus = (typeof LEDGER_STATUSES)[number];
/** advance: a patient's advance spent on (or returned from) a bill; no money moves, so it never counts as revenue. */
export const LEDGER_KINDS = ['payment', 'refund', 'advance'] as const;

export { METHOD_REFERENCE } from './bills.js';

const positiveId = (label: string) =>
  strictNumber(
    z
      .number({ error: `${label} must be an id` })
      .int(`${label} must be an id`)
      .positive(`${label} must be an id`),
  );

const positiveAmount = (label: string) => rupeeAmount(label).refine((n) => n > 0, `${label} must be more than zero`);

const method = z.enum(PAYMENT_METHODS, { error: `Method must be one of ${PAYMENT_METHODS.join(', ')}` });

/** POST /api/payments: money received against a bill. */
export const ledgerPaymentCreateSchema = z
  .object({
    bill_id: positiveId('bill_id'),
    amount: positiveAmount('Amount'),
    method,
    reference: optionalText(100, 'Reference'),
    bank: optionalText(100, 'Bank'),
    /** The part beyond the bill's balance is kept as an advance on the patient's account; without it an over-payment is refused (409). */
    advance: z.boolean({ error: 'advance must be true or false' }).default(false),
    notes: optionalText(300, 'Notes'),
  })
  .superRefine((p, ctx) => requireMethodReference(p, ctx, { reference: 'reference', bank: 'bank' }));
export type LedgerPaymentCreate = z.infer<typeof ledgerPaymentCreateSchema>;

/** POST /api/payments/advance: pays (part of) a bill from the patient's advance on account. */
export const advanceUseSchema = z.object({
  bill_id: positiveId('bill_id'),
  amount: positiveAmount('Amount'),
  notes: optionalText(300, 'Notes'),
});
export type AdvanceUse = z.infer<typeof advanceUseSchema>;

export const refundCreateSchema = z.object({
  amount: positiveAmount('Amount'),
  reason: requiredText('Reason', 300),
  /** How the money goes back; the payment's own method when left out (a cheque's refund: cash or bank transfer). */
  method: method.optional(),
});
export type RefundCreate = z.infer<typeof refundCreateSchema>;

export const chequeBounceSchema = z.object({ reason: requiredText('Reason', 300) });

const emptyToUndefined = (v: unknown) => (v === '' || v === 'all' ? undefined : v);

export const ledgerListQuery = pageQuery
  .extend({
    limit: pageQuery.shape.limit.default(25),
    search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
    status: z.preprocess(
      emptyToUndefined,
      z.enum(LEDGER_STATUSES, { error: `status must be one of ${LEDGER_STATUSES.join(', ')}` }).optional(),
    ),
    method: z.preprocess(emptyToUndefined, method.optional()),
    kind: z.preprocess(
      emptyToUndefined,
      z.enum(LEDGER_KINDS, { error: `kind must be one of ${LEDGER_KINDS.join(', ')}` }).optional(),
    ),
    from: z.preprocess(emptyToUndefined, isoDate('from').optional()),
    to: z.preprocess(emptyToUndefined, isoDate('to').optional()),
    bill_id: strictNumber(
      z
        .number({ error: 'bill_id must be an id' })
        .int('bill_id must be an id')
        .positive('bill_id must be an id')
        .optional(),
    ),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'to must be on or after from' });
export type LedgerListQuery = z.infer<typeof ledgerListQuery>;

export const ledgerEntrySchema = z.object({
  id: z.number(),
  payment_number: z.string(),
  kind: z.enum(LEDGER_KINDS),
  bill_id: z.number(),
  bill_number: z.string(),
  patient_id: z.number().nullable(),
  patient_name: z.string(),
  patient_code: z.string().nullable(),
  amount: z.number(),
  advance_amount: z.number(),
  refunded_amount: z.number(),
  method: z.string(),
  status: z.enum(LEDGER_STATUSES),
  reference: z.string().nullable(),
  bank: z.string().nullable(),
  reason: z.string().nullable(),
  refund_of: z.number().nullable(),
  payment_date: z.string().nullable(),
  processed_by: z.number().nullable(),
  processed_by_name: z.string().nullable(),
  settled_at: z.string().nullable(),
  created_at: z.string(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

export const ledgerSummarySchema = z.object({
  received: z.number(),
  refunded: z.number(),
  net: z.number(),
  pending: z.number(),
  failed: z.number(),
  count: z.number(),
  by_method: z.array(z.object({ method: z.string(), amount: z.number(), count: z.number() })),
});
export type LedgerSummary = z.infer<typeof ledgerSummarySchema>;

export const patientAdvanceSchema = z.object({ patient_id: z.number(), advance: z.number() });

// Day-end closing ---------------------------------------------------------------------------

export const CLOSED_DAY_PAYMENTS = ['refuse', 'next_day'] as const;
export type ClosedDayPayments = (typeof CLOSED_DAY_PAYMENTS)[number];

export const closingSettingsSchema = z.object({
  closed_day_payments: z.enum(CLOSED_DAY_PAYMENTS, {
    error: `closed_day_payments must be one of ${CLOSED_DAY_PAYMENTS.join(', ')}`,
  }),
});
export type ClosingSettings = z.infer<typeof closingSettingsSchema>;

export const closingQuery = z.object({
  date: isoDate('date'),
  user_id: strictNumber(
    z
      .number({ error: 'user_id must be an id' })
      .int('user_id must be an id')
      .positive('user_id must be an id')
      .optional(),
  ),
});

export const closingCreateSchema = z.object({
  date: isoDate('date'),
  user_id: positiveId('user_id').optional(),
  opening_float: rupeeAmount('Opening float', 10_000_000),
  counted_cash: rupeeAmount('Counted cash', 100_000_000),
  notes: optionalText(500, 'Notes'),
});
export type ClosingCreate = z.infer<typeof closingCreateSchema>;

export const closingListQuery = z
  .object({
    from: z.preprocess(emptyToUndefined, isoDate('from').optional()),
    to: z.preprocess(emptyToUndefined, isoDate('to').optional()),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'to must be on or after from' });

/**
 * An amount per payment method, in PAYMENT_METHODS order: a counter's day closing and a revenue
 * day both break their money down this way.
 */
export const methodAmounts = Object.fromEntries(PAYMENT_METHODS.map((m) => [m, z.number()])) as Record<
  PaymentMethod,
  z.ZodNumber
>;

export const closingSchema = z.object({
  id: z.number().nullable(),
  closed: z.boolean(),
  date: z.string(),
  user_id: z.number(),
  user_name: z.string(),
  opening_float: z.number().nullable(),
  ...methodAmounts,
  collections: z.number(),
  refunds: z.number(),
  cash_refunds: z.number(),
  net: z.number(),
  payments_count: z.number(),
  pending_cheques: z.number(),
  expected_cash: z.number().nullable(),
  counted_cash: z.number().nullable(),
  difference: z.number().nullable(),
  notes: z.string().nullable(),
  closed_by_name: z.string().nullable(),
  closed_at: z.string().nullable(),
});
export type Closing = z.infer<typeof closingSchema>;
