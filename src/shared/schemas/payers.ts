import { z } from 'zod';
import {
  downloadQuery,
  isoDate,
  optionalEmail,
  optionalPhone,
  optionalText,
  pagedShape,
  pageQuery,
  requiredText,
  rupeeAmount,
  strictNumber,
} from './common.js';
import { GST_STATES, GSTIN_PATTERN, GSTIN_STATE_MISMATCH, gstinFitsState } from '../gst.js';

/**
 * Payers: organisations that pay for patients. A bill charged to a payer takes the
 * payer's prices (its price list, effective dates; else the lab's price less the payer's discount)
 * and goes on the payer's account, within its credit limit. See docs/decisions.md "Payers".
 */
export const PAYER_TYPES = ['corporate', 'insurance', 'hospital', 'collection_centre'] as const;
export type PayerType = (typeof PAYER_TYPES)[number];
export const PAYER_TYPE_LABELS: Record<PayerType, string> = {
  corporate: 'Corporate client',
  insurance: 'Insurance / TPA',
  hospital: 'Referring hospital',
  collection_centre: 'Collection centre',
};
export const PAYER_STATUSES = ['active', 'inactive'] as const;

const percent = (label: string) =>
  strictNumber(
    z
      .number({ error: `${label} must be a number` })
      .refine((n) => Number.isFinite(n) && n >= 0 && n <= 100, `${label} must be between 0 and 100`)
      .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, `${label} may have at most 2 decimals`),
  );

export const gstinField = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim().toUpperCase()) : v),
  z
    .string({ error: 'GSTIN must be text' })
    .regex(GSTIN_PATTERN, 'GSTIN must be 15 characters: state code, PAN, entity number, Z, check character')
    .refine((g) => GST_STATES[g.slice(0, 2)] !== undefined, 'GSTIN must start with an Indian state code')
    .nullable()
    .optional(),
);

export const stateCodeField = z.preprocess(
  (v) => (v === '' ? null : v),
  z
    .string({ error: 'State must be a GST state code such as 29' })
    .refine((s) => GST_STATES[s] !== undefined, 'State must be a GST state code such as 29 (Karnataka)')
    .nullable()
    .optional(),
);

export const payerFields = {
  name: requiredText('Name', 120),
  type: z.enum(PAYER_TYPES, { error: `Type must be one of ${PAYER_TYPES.join(', ')}` }),
  gstin: gstinField,
  address: optionalText(300, 'Address'),
  /** GST state code (place of supply); taken from the GSTIN when left out. */
  state_code: stateCodeField,
  contact_person: optionalText(100, 'Contact person'),
  phone: optionalPhone('Phone'),
  email: optionalEmail,
  /** Most the payer may owe (rupees); null: no limit. */
  credit_limit: z.preprocess((v) => (v === '' ? null : v), rupeeAmount('Credit limit').nullable().optional()),
  payment_terms_days: strictNumber(
    z
      .number({ error: 'Payment terms must be a number of days' })
      .int('Payment terms must be whole days')
      .min(0, 'Payment terms cannot be negative')
      .max(365, 'Payment terms must be at most 365 days'),
  ),
  /** Off the lab's price for anything the payer's price list does not name. */
  discount_percent: percent('Discount %'),
  status: z.enum(PAYER_STATUSES, { error: 'Status must be active or inactive' }),
};

/**
 * The refinement of a form with a GSTIN and a state field: the two must agree, and the error is
 * the state field's (the GSTIN is what the customer's papers say).
 */
export function gstinStateCheck<K extends string>(
  stateField: K,
): [
  (v: { gstin?: string | null } & Partial<Record<K, string | null>>) => boolean,
  { path: string[]; message: string },
] {
  return [(v) => gstinFitsState(v.gstin, v[stateField]), { path: [stateField], message: GSTIN_STATE_MISMATCH }];
}

export const payerCreateSchema = z
  .object({
    ...payerFields,
    payment_terms_days: payerFields.payment_terms_days.default(30),
    discount_percent: payerFields.discount_percent.default(0),
    status: payerFields.status.default('active'),
  })
  .refine(...gstinStateCheck('state_code'));
export type PayerCreate = z.infer<typeof payerCreateSchema>;
export const payerUpdateSchema = z.object(payerFields).partial();
export type PayerUpdate = z.infer<typeof payerUpdateSchema>;

export const payerSchema = z.object({
  id: z.number(),
  name: z.string(),
  type: z.enum(PAYER_TYPES),
  gstin: z.string().nullable(),
  address: z.string().nullable(),
  state_code: z.string().nullable(),
  state: z.string().nullable(),
  contact_person: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  credit_limit: z.number().nullable(),
  payment_terms_days: z.number(),
  discount_percent: z.number(),
  status: z.enum(PAYER_STATUSES),
  /** What the payer owes now: its bills less what was paid on them. */
  balance: z.number(),
  bills: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Payer = z.infer<typeof payerSchema>;

export const payerListQuery = pageQuery.extend({
  limit: pageQuery.shape.limit.default(20),
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
  type: z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(PAYER_TYPES, { error: `type must be one of ${PAYER_TYPES.join(', ')}` }).optional(),
  ),
  status: z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(PAYER_STATUSES, { error: 'status must be active or inactive' }).optional(),
  ),
});
export type PayerListQuery = z.infer<typeof payerListQuery>;
export const payerPageSchema = z.object({ payers: z.array(payerSchema), ...pagedShape });

export const PRICE_ITEM_TYPES = ['test', 'profile', 'package'] as const;
/** The fields of a price list entry other than its item (the API names it by id, an import by code). */
export const payerPriceFields = {
  item_type: z.enum(PRICE_ITEM_TYPES, { error: 'item_type must be test, profile or package' }),
  price: rupeeAmount('Price'),
  effective_from: isoDate('effective_from'),
  effective_to: isoDate('effective_to').nullable().optional(),
};
/** A price list entry ends on or after the day it starts. */
export const pricePeriodCheck = (p: { effective_from?: string; effective_to?: string | null }) =>
  !p.effective_to || !p.effective_from || p.effective_to >= p.effective_from;
export const pricePeriodError = { path: ['effective_to'], message: 'effective_to must be on or after effective_from' };

export const payerPriceCreateSchema = z
  .object({
    item_type: payerPriceFields.item_type,
    item_id: strictNumber(
      z.number({ error: 'item_id must be an id' }).int('item_id must be an id').positive('item_id must be an id'),
    ),
    price: payerPriceFields.price,
    effective_from: payerPriceFields.effective_from,
    effective_to: payerPriceFields.effective_to,
  })
  .refine(pricePeriodCheck, pricePeriodError);
export type PayerPriceCreate = z.infer<typeof payerPriceCreateSchema>;

export const payerPriceSchema = z.object({
  id: z.number(),
  payer_id: z.number(),
  item_type: z.enum(PRICE_ITEM_TYPES),
  item_id: z.number(),
  item_name: z.string(),
  item_code: z.string(),
  lab_price: z.number(),
  price: z.number(),
  effective_from: z.string(),
  effective_to: z.string().nullable(),
});
export type PayerPrice = z.infer<typeof payerPriceSchema>;

export const payerPriceParams = z.object({
  id: strictNumber(z.number({ error: 'id must be a number' }).int().positive('id must be positive')),
  priceId: strictNumber(z.number({ error: 'priceId must be a number' }).int().positive('priceId must be positive')),
});

const period = z.object({ from: isoDate('from'), to: isoDate('to') });
const fromBeforeTo = (q: { from: string; to: string }) => q.from <= q.to;
const toAfterFrom = { path: ['to'], message: 'to must be on or after from' };
export const periodQuery = period.refine(fromBeforeTo, toAfterFrom);
/** A period of a statement's PDF, which may ask for it as a download. */
export const periodPdfQuery = period.extend(downloadQuery.shape).refine(fromBeforeTo, toAfterFrom);

export const statementEntrySchema = z.object({
  date: z.string(),
  kind: z.enum(['bill', 'payment']),
  reference: z.string(),
  description: z.string(),
  debit: z.number(),
  credit: z.number(),
  balance: z.number(),
});
/** A statement's period, its balances and its lines: a payer's statement and a centre's open alike. */
export const statementFields = {
  from: z.string(),
  to: z.string(),
  opening_balance: z.number(),
  billed: z.number(),
  paid: z.number(),
  closing_balance: z.number(),
  entries: z.array(statementEntrySchema),
};
export const payerStatementSchema = z.object({ payer: payerSchema, ...statementFields });
export type PayerStatement = z.infer<typeof payerStatementSchema>;
