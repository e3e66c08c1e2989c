import { z } from 'zod';
import { isoDate, optionalText, pagedShape, pageQuery, strictNumber } from './common.js';
import { PAYMENT_METHODS } from '../billing.js';
import { requireMethodReference } from './bills.js';

/**
 * GST invoices (docs/decisions.md "Payers, invoices and GST"). A draft has no number; issuing
 * gives it the next number of the financial year's series. Status on screen: draft, pending, paid,
 * overdue (pending past its due date), cancelled (with a credit note).
 */
export const INVOICE_STATUSES = ['draft', 'pending', 'paid', 'overdue', 'cancelled'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const INVOICE_STATUS_LABELS: Record<InvoiceStatus, string> = {
  draft: 'Draft',
  pending: 'Pending',
  paid: 'Paid',
  overdue: 'Overdue',
  cancelled: 'Cancelled',
};

const id = (label: string) =>
  strictNumber(
    z
      .number({ error: `${label} must be an id` })
      .int(`${label} must be an id`)
      .positive(`${label} must be an id`),
  );

/** For a payer's bills of a period, or for one patient's bill (a tax invoice the patient asks for). */
export const invoiceCreateSchema = z
  .object({
    payer_id: id('payer_id').optional(),
    period_from: isoDate('period_from').optional(),
    period_to: isoDate('period_to').optional(),
    bill_id: id('bill_id').optional(),
    /** A patient's own GSTIN (a business patient asking for input credit). */
    recipient_gstin: optionalText(15, 'recipient_gstin'),
    notes: optionalText(500, 'Notes'),
  })
  .superRefine((b, ctx) => {
    if (b.payer_id === undefined && b.bill_id === undefined)
      ctx.addIssue({ code: 'custom', path: ['payer_id'], message: 'Choose a payer (with a period) or a bill' });
    if (b.payer_id !== undefined && b.bill_id !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['bill_id'],
        message: 'An invoice is for a payer’s period or for one bill, not both',
      });
    if (b.payer_id !== undefined) {
      if (!b.period_from) ctx.addIssue({ code: 'custom', path: ['period_from'], message: 'period_from is required' });
      if (!b.period_to) ctx.addIssue({ code: 'custom', path: ['period_to'], message: 'period_to is required' });
      if (b.period_from && b.period_to && b.period_from > b.period_to)
        ctx.addIssue({ code: 'custom', path: ['period_to'], message: 'period_to must be on or after period_from' });
    }
  });
export type InvoiceCreate = z.infer<typeof invoiceCreateSchema>;

export const invoiceListQuery = pageQuery
  .extend({
    limit: pageQuery.shape.limit.default(20),
    search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
    status: z.preprocess(
      (v) => (v === '' || v === 'all' ? undefined : v),
      z.enum(INVOICE_STATUSES, { error: `status must be one of ${INVOICE_STATUSES.join(', ')}` }).optional(),
    ),
    payer_id: id('payer_id').optional(),
    from: z.preprocess((v) => (v === '' ? undefined : v), isoDate('from').optional()),
    to: z.preprocess((v) => (v === '' ? undefined : v), isoDate('to').optional()),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'to must be on or after from' });
export type InvoiceListQuery = z.infer<typeof invoiceListQuery>;

export const invoiceMarkPaidSchema = z
  .object({
    method: z.enum(PAYMENT_METHODS, { error: `Method must be one of ${PAYMENT_METHODS.join(', ')}` }),
    reference: optionalText(100, 'Reference'),
    bank: optionalText(100, 'Bank'),
  })
  .superRefine((p, ctx) => requireMethodReference(p, ctx, { reference: 'reference', bank: 'bank' }));
export type InvoiceMarkPaid = z.infer<typeof invoiceMarkPaidSchema>;

export const invoiceCancelSchema = z.object({
  reason: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ error: 'A reason is required' })
      .min(3, 'A reason is required')
      .max(300, 'Reason must be at most 300 characters'),
  ),
});

export const invoiceLineSchema = z.object({
  position: z.number(),
  bill_id: z.number(),
  bill_number: z.string(),
  description: z.string(),
  sac_code: z.string(),
  qty: z.number(),
  rate_percent: z.number(),
  taxable: z.number(),
  cgst: z.number(),
  sgst: z.number(),
  igst: z.number(),
  total: z.number(),
});
export type InvoiceLine = z.infer<typeof invoiceLineSchema>;

export const invoiceSchema = z.object({
  id: z.number(),
  invoice_number: z.string().nullable(),
  status: z.enum(INVOICE_STATUSES),
  payer_id: z.number().nullable(),
  patient_id: z.number().nullable(),
  period_from: z.string().nullable(),
  period_to: z.string().nullable(),
  recipient_name: z.string(),
  recipient_gstin: z.string().nullable(),
  recipient_address: z.string().nullable(),
  recipient_state_code: z.string().nullable(),
  lab_gstin: z.string().nullable(),
  lab_state_code: z.string().nullable(),
  /** The supplier as at issue (null on a draft, which prints the lab as it is today). */
  lab_name: z.string().nullable(),
  lab_address: z.string().nullable(),
  lab_phone: z.string().nullable(),
  lab_email: z.string().nullable(),
  /** GST state code of the place of supply; inter_state when it is not the lab's state. */
  place_of_supply: z.string().nullable(),
  inter_state: z.boolean(),
  /** Before tax: taxable plus exempt. */
  amount: z.number(),
  taxable: z.number(),
  exempt: z.number(),
  cgst: z.number(),
  sgst: z.number(),
  igst: z.number(),
  tax: z.number(),
  total: z.number(),
  invoice_date: z.string().nullable(),
  due_date: z.string().nullable(),
  notes: z.string().nullable(),
  issued_at: z.string().nullable(),
  paid_at: z.string().nullable(),
  payment_method: z.string().nullable(),
  payment_reference: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  cancel_reason: z.string().nullable(),
  credit_note_number: z.string().nullable(),
  bill_count: z.number(),
  created_at: z.string(),
});
export type Invoice = z.infer<typeof invoiceSchema>;
export const invoiceDetailSchema = invoiceSchema.extend({ lines: z.array(invoiceLineSchema) });
export type InvoiceDetail = z.infer<typeof invoiceDetailSchema>;
export const invoicePageSchema = z.object({ invoices: z.array(invoiceSchema), ...pagedShape });
