import { z } from 'zod';
import { optionalText, requiredText, rupeeAmount, strictNumber } from './common.js';
import {
  gstinField,
  gstinStateCheck,
  payerFields,
  periodPdfQuery,
  periodQuery,
  stateCodeField,
  statementFields,
} from './payers.js';
import { PAYMENT_METHODS } from '../billing.js';

/**
 * Collection centres: a partner clinic that registers patients, sends samples and settles monthly.
 * It bills through a payer of type collection_centre (rates, credit days), and has its own credit
 * limit, share of the money and, for staff of the centre, a login that sees only its patients.
 * The share is the centre's margin on its own patients; lims never computes a commission to a
 * referring doctor. See docs/decisions.md "Collection centres".
 */

export const SHARE_BASES = ['centre_commission', 'lab_share'] as const;
export type ShareBasis = (typeof SHARE_BASES)[number];
export const SHARE_BASIS_LABELS: Record<ShareBasis, string> = {
  centre_commission: 'Centre’s commission %',
  lab_share: 'Lab’s share %',
};
export const BREACH_MODES = ['refuse', 'approver'] as const;
export type BreachMode = (typeof BREACH_MODES)[number];

const sharePercent = (label: string) =>
  strictNumber(
    z
      .number({ error: `${label} must be a number` })
      .refine((n) => Number.isFinite(n) && n >= 0 && n <= 100, `${label} must be between 0 and 100`)
      .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, `${label} may have at most 2 decimals`),
  );

const centreFields = {
  name: payerFields.name,
  contact_person: payerFields.contact_person,
  phone: payerFields.phone,
  email: payerFields.email,
  address: payerFields.address,
  gstin: gstinField,
  state_code: stateCodeField,
  /** Off the lab's price for anything the centre's price list (its payer's) does not name. */
  discount_percent: payerFields.discount_percent,
  /** Days after a bill's date before it is overdue; a bill past them holds the centre. */
  credit_days: payerFields.payment_terms_days,
  /** Most the centre may owe (rupees); null: no limit. */
  credit_limit: payerFields.credit_limit,
  share_basis: z.enum(SHARE_BASES, { error: `share_basis must be one of ${SHARE_BASES.join(', ')}` }),
  /** The centre's commission, or the lab's share, of each billed line (percent of the line total). */
  share_percent: sharePercent('Share %'),
  status: payerFields.status,
};

export const centreCreateSchema = z
  .object({
    ...centreFields,
    discount_percent: centreFields.discount_percent.default(0),
    credit_days: centreFields.credit_days.default(30),
    share_basis: centreFields.share_basis.default('centre_commission'),
    share_percent: centreFields.share_percent.default(0),
    status: centreFields.status.default('active'),
  })
  .refine(...gstinStateCheck('state_code'));
export type CentreCreate = z.infer<typeof centreCreateSchema>;
/** The form's fields and rules (the dialog uses them with its own defaults). */
export const centreFormSchema = z.object(centreFields);
export const centreUpdateSchema = z.object(centreFields).partial();
export type CentreUpdate = z.infer<typeof centreUpdateSchema>;

export const centreHoldSchema = z.object({
  /** The centre is over its credit limit or has a bill past its credit days. */
  on_hold: z.boolean(),
  /** Why, in words a centre reads ("Bill OPB… is 12 days past its 30 credit days"). */
  reason: z.string().nullable(),
  over_limit: z.boolean(),
  overdue_bills: z.number(),
  oldest_due_date: z.string().nullable(),
});
export type CentreHold = z.infer<typeof centreHoldSchema>;

export const centreSchema = z.object({
  id: z.number(),
  payer_id: z.number(),
  name: z.string(),
  contact_person: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  address: z.string().nullable(),
  gstin: z.string().nullable(),
  state_code: z.string().nullable(),
  discount_percent: z.number(),
  credit_days: z.number(),
  credit_limit: z.number().nullable(),
  share_basis: z.enum(SHARE_BASES),
  share_percent: z.number(),
  status: z.enum(['active', 'inactive']),
  /** What the centre owes now: its bills less what was paid on them. */
  balance: z.number(),
  bills: z.number(),
  patients: z.number(),
  hold: centreHoldSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Centre = z.infer<typeof centreSchema>;

export const centreListQuery = z.object({
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
  status: z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(['active', 'inactive'], { error: 'status must be active or inactive' }).optional(),
  ),
});
export type CentreListQuery = z.infer<typeof centreListQuery>;

export const shareRuleCreateSchema = z
  .object({
    test_id: strictNumber(z.number({ error: 'test_id must be an id' }).int().positive('test_id must be an id'))
      .nullable()
      .optional(),
    category: optionalText(100, 'Category'),
    share_percent: sharePercent('Share %'),
  })
  .refine((r) => (r.test_id ? 1 : 0) + (r.category ? 1 : 0) === 1, {
    path: ['test_id'],
    message: 'Name either a test or a category',
  });
export type ShareRuleCreate = z.infer<typeof shareRuleCreateSchema>;
export const shareRuleSchema = z.object({
  id: z.number(),
  test_id: z.number().nullable(),
  test_name: z.string().nullable(),
  category: z.string().nullable(),
  share_percent: z.number(),
});
export type ShareRule = z.infer<typeof shareRuleSchema>;
export const shareRuleParams = z.object({
  id: strictNumber(z.number({ error: 'id must be a number' }).int().positive('id must be positive')),
  ruleId: strictNumber(z.number({ error: 'ruleId must be a number' }).int().positive('ruleId must be positive')),
});

export const centreSettingsSchema = z.object({
  on_breach: z.enum(BREACH_MODES, { error: 'on_breach must be refuse or approver' }),
});
export type CentreSettings = z.infer<typeof centreSettingsSchema>;

export const centreApprovalCreateSchema = z.object({ reason: requiredText('Reason', 300) });
export const centreApprovalSchema = z.object({
  id: z.number(),
  reason: z.string(),
  approved_by: z.string().nullable(),
  approved_at: z.string(),
  bill_number: z.string().nullable(),
  used_at: z.string().nullable(),
});
export type CentreApproval = z.infer<typeof centreApprovalSchema>;

export const centreReceiptCreateSchema = z.object({
  amount: rupeeAmount('Amount').refine((n) => n > 0, 'Amount must be more than zero'),
  method: z.enum(PAYMENT_METHODS, { error: `method must be one of ${PAYMENT_METHODS.join(', ')}` }),
  reference: optionalText(100, 'Reference'),
  /** Settle these bills, in this order; left out: the oldest unpaid bills first. */
  bill_ids: z
    .array(strictNumber(z.number({ error: 'bill_ids must be bill ids' }).int().positive('bill_ids must be bill ids')))
    .max(500, 'bill_ids may name at most 500 bills')
    .optional(),
});
export type CentreReceiptCreate = z.infer<typeof centreReceiptCreateSchema>;
export const centreReceiptSchema = z.object({
  id: z.number(),
  amount: z.number(),
  method: z.string(),
  reference: z.string().nullable(),
  created_at: z.string(),
  allocations: z.array(z.object({ bill_id: z.number(), bill_number: z.string(), amount: z.number() })),
});
export type CentreReceipt = z.infer<typeof centreReceiptSchema>;

export const centreBillSchema = z.object({
  id: z.number(),
  bill_number: z.string(),
  patient_id: z.number(),
  patient_name: z.string(),
  created_at: z.string(),
  due_date: z.string(),
  amount: z.number(),
  paid: z.number(),
  due: z.number(),
  /** Days past the due date today (0: not overdue). */
  days_overdue: z.number(),
});
export type CentreBill = z.infer<typeof centreBillSchema>;

export const centrePatientSchema = z.object({
  id: z.number(),
  patient_code: z.string(),
  name: z.string(),
  registered_at: z.string(),
});

export const AGEING_BUCKETS = ['not_due', 'd1_30', 'd31_60', 'd61_90', 'over_90'] as const;
export const AGEING_LABELS: Record<(typeof AGEING_BUCKETS)[number], string> = {
  not_due: 'Not yet due',
  d1_30: '1-30 days overdue',
  d31_60: '31-60 days overdue',
  d61_90: '61-90 days overdue',
  over_90: 'Over 90 days overdue',
};

export const centreStatementQuery = periodQuery;
export const centreStatementPdfQuery = periodPdfQuery;

export const centreStatementSchema = z.object({
  centre: centreSchema,
  ...statementFields,
  /** What was owed at the end of the period, by how far past the due date each bill was then. */
  ageing: z.object(
    Object.fromEntries(AGEING_BUCKETS.map((b) => [b, z.number()])) as Record<
      (typeof AGEING_BUCKETS)[number],
      z.ZodNumber
    >,
  ),
  /** The period's bills split: the centre's share (its margin) and the lab's. */
  share: z.object({ billed: z.number(), centre: z.number(), lab: z.number() }),
});
export type CentreStatement = z.infer<typeof centreStatementSchema>;
