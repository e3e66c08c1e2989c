import { z } from 'zod';
import { BILL_STATUSES, PAYMENT_METHODS, PAYMENT_STATUSES, type PaymentMethod } from '../billing.js';
import { isoDate, optionalText, rupeeAmount, strictNumber } from './common.js';
import { patientCreateSchema } from './patients.js';

const percent = (label: string) =>
  strictNumber(
    z
      .number({ error: `${label} must be a number` })
      .refine(Number.isFinite, `${label} must be a number`)
      .refine((n) => n >= 0 && n <= 100, `${label} must be between 0 and 100`)
      .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, `${label} may have at most 2 decimals`),
  );

const id = (label: string) =>
  strictNumber(
    z
      .number({ error: `${label} must be an id` })
      .int(`${label} must be an id`)
      .positive(`${label} must be an id`),
  );

/** The most lines a bill may have, and the largest quantity of one line (the PDFs fit what these allow). */
export const BILL_MAX_LINES = 100;
export const LINE_MAX_QTY = 1000;

export const billItemInput = z.object({
  item_type: z.enum(['test', 'profile', 'package'], { error: 'item_type must be test, profile or package' }),
  item_id: id('item_id'),
  qty: strictNumber(
    z
      .number({ error: 'Quantity must be a whole number' })
      .int('Quantity must be a whole number')
      .min(1, 'Quantity must be at least 1')
      .max(LINE_MAX_QTY, `Quantity must be at most ${LINE_MAX_QTY}`)
      .default(1),
  ),
  /** The charged unit price; when absent the catalogue's current price. */
  price: rupeeAmount('Price').optional(),
  discount_percent: percent('Discount %').default(0),
});
export type BillItemInput = z.infer<typeof billItemInput>;

/** A colleague signs off a discount above the biller's limit with their own password. */
export const discountApprovalSchema = z.object({
  approver_email: z
    .string({ error: 'Approver email is required' })
    .trim()
    .min(3, 'Approver email is required')
    .max(254),
  approver_password: z
    .string({ error: 'Approver password is required' })
    .min(1, 'Approver password is required')
    .max(200),
});
export type DiscountApproval = z.infer<typeof discountApprovalSchema>;

/**
 * What a payment method needs beside the amount: the reference where one exists, and a
 * cheque's bank. The ledger's POST /api/payments and the bill routes use the same table; the bills
 * import does not (a historical payment may lack its reference, docs/decisions.md).
 */
export const METHOD_REFERENCE: Record<PaymentMethod, { label: string; required: boolean; bank: boolean }> = {
  cash: { label: 'Reference', required: false, bank: false },
  card: { label: 'Transaction ID', required: false, bank: false },
  upi: { label: 'UPI reference', required: true, bank: false },
  bank_transfer: { label: 'UTR / transaction ID', required: true, bank: false },
  cheque: { label: 'Cheque number', required: true, bank: true },
  insurance: { label: 'Claim / settlement reference', required: true, bank: false },
};

/** Adds "<label> is required for <method>" / "Bank is required for a cheque" issues at the given paths. */
export function requireMethodReference(
  p: { method: PaymentMethod; reference?: string | null; bank?: string | null },
  ctx: z.RefinementCtx,
  paths: { reference: string; bank: string },
): void {
  const need = METHOD_REFERENCE[p.method];
  if (need.required && !p.reference)
    ctx.addIssue({ code: 'custom', path: [paths.reference], message: `${need.label} is required for ${p.method}` });
  if (need.bank && !p.bank)
    ctx.addIssue({ code: 'custom', path: [paths.bank], message: 'Bank is required for a cheque' });
}

/** Money taken when a bill is saved needs its method's reference (and a cheque's bank). */
function billPaymentReference(
  b: {
    amount_paid?: number;
    payment_method: PaymentMethod;
    payment_reference?: string | null;
    payment_bank?: string | null;
  },
  ctx: z.RefinementCtx,
): void {
  if (!(b.amount_paid !== undefined && b.amount_paid > 0)) return;
  requireMethodReference({ method: b.payment_method, reference: b.payment_reference, bank: b.payment_bank }, ctx, {
    reference: 'payment_reference',
    bank: 'payment_bank',
  });
}

const billBody = {
  doctor_id: z.preprocess((v) => (v === '' || v === 0 ? null : v), id('doctor_id').nullable().optional()),
  items: z
    .array(billItemInput, { error: 'items must be a list' })
    .min(1, 'Please add at least one test, profile, or package')
    .max(BILL_MAX_LINES),
  discount_percentage: percent('Discount %').default(0),
  /**
   * GST comes from each test's tax category (src/shared/gst.ts), never one rate for the whole bill:
   * kept for clients that send 0, refused above 0.
   */
  tax_percentage: percent('Tax %')
    .refine((n) => !(n > 0), 'Tax is worked out per line from each test’s tax category; send 0 or leave it out')
    .default(0),
  /** Charge the bill to a payer (corporate, insurer, hospital, collection centre); left out: self pay. */
  payer_id: z.preprocess((v) => (v === '' || v === 0 ? null : v), id('payer_id').nullable().optional()),
  payment_method: z
    .enum(PAYMENT_METHODS, { error: `Payment method must be one of ${PAYMENT_METHODS.join(', ')}` })
    .default('cash'),
  /** Money received at the counter when the bill is saved (optional). */
  amount_paid: rupeeAmount('Amount paid').optional(),
  /** The method's own reference (UPI reference, UTR, cheque number, claim reference): required with money taken by such a method. */
  payment_reference: optionalText(100),
  /** The cheque's bank: required with money taken by cheque. */
  payment_bank: optionalText(100, 'Bank'),
  notes: optionalText(1000),
  /** Needed when the bill's effective discount is above the biller's role ceiling (lab settings). */
  discount_approval: discountApprovalSchema.optional(),
  /** Charge lines that share tests (CBC and a package holding CBC) anyway; otherwise 409 DUPLICATE_ITEM. */
  confirm_duplicates: z.boolean({ error: 'confirm_duplicates must be true or false' }).optional(),
};

export const billCreateSchema = z
  .object({
    patient_id: id('patient_id'),
    ...billBody,
    /**
     * lab_only with a doctor: the doctor referred the patient (printed on the report), no consultation
     * fee. Left out: a doctor means a consultation (doctor_visit), no doctor a lab-only visit.
     */
    visit_type: z
      .enum(['doctor_visit', 'lab_only'], { error: 'Visit type must be doctor_visit or lab_only' })
      .optional(),
  })
  .superRefine(billPaymentReference);
export type BillCreate = z.infer<typeof billCreateSchema>;

/**
 * Register Patient with Bill: the patient and the bill in one call, one transaction. `patient` is a
 * new patient (refused as a likely duplicate unless it says confirm_new); `patient_id` instead bills
 * a patient already registered (the one the desk picked from the duplicates offered).
 */
export const registerWithBillSchema = z
  .object({
    patient: patientCreateSchema.optional(),
    patient_id: id('patient_id').optional(),
    visit_type: z.enum(['doctor_visit', 'lab_only'], { error: 'Visit type must be doctor_visit or lab_only' }),
    ...billBody,
    discount_percentage: strictNumber(
      z
        .number()
        .int('Discount must be a whole number')
        .min(0, 'Discount must be between 0 and 100')
        .max(100, 'Discount must be between 0 and 100')
        .default(0),
    ),
  })
  .refine((b) => b.visit_type === 'lab_only' || (b.doctor_id ?? null) !== null, {
    path: ['doctor_id'],
    message: 'Please select a doctor for consultation',
  })
  .refine((b) => (b.patient === undefined) !== (b.patient_id === undefined), {
    path: ['patient'],
    message: 'Give the new patient, or the patient_id of a patient already registered (one of the two)',
  })
  .superRefine(billPaymentReference);
export type RegisterWithBill = z.infer<typeof registerWithBillSchema>;

/**
 * PUT /api/bills/{id}/items: the bill's lines as they should now be (tests added or taken off before
 * the samples are drawn). A line already on the bill keeps the price it was charged unless a price
 * is sent; a new line is priced as at billing. Money paid beyond the new total is refunded.
 */
export const billItemsUpdateSchema = z.object({
  items: billBody.items,
  /** Left out: the bill's own discount stays. */
  discount_percentage: percent('Discount %').optional(),
  discount_approval: billBody.discount_approval,
  confirm_duplicates: billBody.confirm_duplicates,
  /** Why the bill changed (the audit trail and the refund keep it). */
  reason: optionalText(300),
  /** How money paid beyond the new total is handed back. */
  refund_method: z
    .enum(PAYMENT_METHODS, { error: `Refund method must be one of ${PAYMENT_METHODS.join(', ')}` })
    .default('cash'),
});
export type BillItemsUpdate = z.infer<typeof billItemsUpdateSchema>;

export const billUpdateSchema = z.object({
  status: z
    .enum(['cancelled'], { error: 'The only status you can set is cancelled; payments set paid and partial' })
    .optional(),
  cancel_reason: optionalText(300),
  payment_method: z.enum(PAYMENT_METHODS).optional(),
  due_date: isoDate('due_date').optional(),
  notes: optionalText(1000),
});
export type BillUpdate = z.infer<typeof billUpdateSchema>;

const paymentFields = {
  amount: strictNumber(
    z
      .number({ error: 'Amount must be a number' })
      .refine((n) => Number.isFinite(n) && n !== 0, 'Amount must not be zero')
      .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, 'Amount may have at most 2 decimals'),
  ),
  method: z.enum(PAYMENT_METHODS, { error: `Method must be one of ${PAYMENT_METHODS.join(', ')}` }),
  reference: optionalText(100),
  reason: optionalText(300),
};
const refundNeedsReason = (p: { amount: number; reason?: string | null }) =>
  p.amount > 0 || (p.reason ?? '').length > 0;
const refundReason = { path: ['reason'], message: 'A refund needs a reason' };

/** A payment as history keeps it (the bills import): the reference is optional, as older systems kept none. */
export const paymentCreateSchema = z.object(paymentFields).refine(refundNeedsReason, refundReason);
export type PaymentCreate = z.infer<typeof paymentCreateSchema> & { bank?: string | null };

/**
 * POST /api/bills/{id}/payments: a payment (positive) needs its method's reference and a cheque its
 * bank, as on POST /api/payments; a refund (negative) needs a reason.
 */
export const billPaymentCreateSchema = z
  .object({ ...paymentFields, bank: optionalText(100, 'Bank') })
  .refine(refundNeedsReason, refundReason)
  .superRefine((p, ctx) => {
    if (p.amount > 0) requireMethodReference(p, ctx, { reference: 'reference', bank: 'bank' });
  });

export const DATE_RANGES = ['all', 'today', 'week', 'month', 'quarter'] as const;

export const billListQuery = z.object({
  page: strictNumber(z.number().int().min(1).default(1)),
  limit: strictNumber(z.number().int().min(1).max(200).default(50)),
  search: z.string().trim().max(100).optional(),
  status: z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(BILL_STATUSES, { error: `status must be one of ${BILL_STATUSES.join(', ')}` }).optional(),
  ),
  payment_status: z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(PAYMENT_STATUSES, { error: `payment_status must be one of ${PAYMENT_STATUSES.join(', ')}` }).optional(),
  ),
  date_range: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(DATE_RANGES, { error: `date_range must be one of ${DATE_RANGES.join(', ')}` }).optional(),
  ),
  patient_id: strictNumber(z.number().int().positive().optional()),
  /** Advanced Billing's method filter: bills with money received by this method (a bounced cheque does not count). */
  payment_method: z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(PAYMENT_METHODS, { error: `payment_method must be one of ${PAYMENT_METHODS.join(', ')}` }).optional(),
  ),
});
export type BillListQuery = z.infer<typeof billListQuery>;

export const billItemSchema = z.object({
  id: z.number(),
  item_type: z.enum(['test', 'profile', 'package']),
  item_id: z.number(),
  particulars: z.string(),
  name: z.string(),
  code: z.string().nullable(),
  qty: z.number(),
  list_price: z.number(),
  price: z.number(),
  gst_percent: z.number(),
  discount_percent: z.number(),
  discount_amount: z.number(),
  total: z.number(),
  /** GST: the test's category when billed, its SAC, the value after the bill discount's share, and the tax on it. */
  tax_category: z.string(),
  sac_code: z.string(),
  taxable: z.number(),
  tax: z.number(),
});
export type BillItem = z.infer<typeof billItemSchema>;

export const paymentSchema = z.object({
  id: z.number(),
  bill_id: z.number(),
  amount: z.number(),
  method: z.string(),
  reference: z.string().nullable(),
  reason: z.string().nullable(),
  received_by: z.number().nullable(),
  received_by_name: z.string().nullable(),
  created_at: z.string(),
  /** The lab day the money counts on (a later day when the cashier had closed theirs); null for a pending cheque. */
  value_date: z.string().nullable(),
  /** The ledger's: payment or refund; pending (a cheque), completed, failed (bounced) or refunded. */
  kind: z.string(),
  status: z.string(),
});
export type Payment = z.infer<typeof paymentSchema>;

export const billSchema = z.object({
  id: z.number(),
  bill_number: z.string(),
  patient_id: z.number(),
  doctor_id: z.number().nullable(),
  visit_type: z.string(),
  patient_first_name: z.string(),
  patient_last_name: z.string(),
  patient_patient_id: z.string(),
  doctor_first_name: z.string().nullable(),
  doctor_last_name: z.string().nullable(),
  /** The payer the bill is charged to (Billing Management's Insurance column); null: self pay. */
  payer_id: z.number().nullable(),
  payer_name: z.string().nullable(),
  /** The GST invoice the bill is on, if any. */
  invoice_id: z.number().nullable(),
  invoice_number: z.string().nullable(),
  /**
   * issued: the bill is what its tax invoice says and is never cancelled, deleted or re-priced (the
   * invoice is corrected by a credit note); draft: held by a draft invoice until it is deleted.
   */
  invoice_status: z.enum(['draft', 'issued']).nullable(),
  subtotal: z.number(),
  consultation_fee: z.number(),
  total_before_discount: z.number(),
  discount_percentage: z.number(),
  discount_amount: z.number(),
  tax_percentage: z.number(),
  tax_amount: z.number(),
  total_amount: z.number(),
  final_amount: z.number(),
  paid_amount: z.number(),
  balance: z.number(),
  status: z.string(),
  payment_status: z.string(),
  payment_method: z.string(),
  bill_date: z.string(),
  due_date: z.string(),
  notes: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  cancel_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  items: z.array(billItemSchema).optional(),
  payments: z.array(paymentSchema).optional(),
  /**
   * The methods money was received by, from the ledger (payments not bounced), in order of first use;
   * empty: not paid. On GET /api/bills and GET /api/bills/{id}.
   */
  paid_methods: z.array(z.string()).optional(),
});
export type Bill = z.infer<typeof billSchema>;

export const billSummarySchema = z.object({
  total_bills: z.number(),
  total_amount: z.number(),
  paid_amount: z.number(),
  outstanding_amount: z.number(),
  paid_count: z.number(),
  partial_count: z.number(),
  pending_count: z.number(),
  overdue_count: z.number(),
  /** What is still owed on overdue bills. */
  overdue_amount: z.number(),
  cancelled_count: z.number(),
  collection_rate: z.number(),
  average_bill: z.number(),
  todays_revenue: z.number(),
});
export type BillSummary = z.infer<typeof billSummarySchema>;
