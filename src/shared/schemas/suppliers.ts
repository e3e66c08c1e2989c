import { z } from 'zod';
import { optionalEmail, optionalPhone, optionalText, requiredText } from './common.js';
import { blankIsNull, wholeUnits } from './inventory-fields.js';

/** The suppliers of reagents and consumables, with their delivery record. */

const gstin = optionalText(15, 'GSTIN').refine(
  (v) => v == null || /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/.test(v),
  'GSTIN must be 15 characters as issued (for example 27AAPFU0939F1ZV)',
);

const supplierFields = {
  name: requiredText('Name', 200),
  contact_person: optionalText(100, 'Contact person'),
  phone: optionalPhone('Phone'),
  email: optionalEmail,
  gstin: z.preprocess((v) => (typeof v === 'string' ? v.trim().toUpperCase() : v), gstin),
  lead_time_days: z.preprocess(blankIsNull, wholeUnits('Lead time', { max: 365 }).nullable()),
};

export const supplierCreateSchema = z.object({
  ...supplierFields,
  lead_time_days: supplierFields.lead_time_days.optional(),
});
export type SupplierCreate = z.infer<typeof supplierCreateSchema>;
export type SupplierCreateInput = z.input<typeof supplierCreateSchema>;
export const supplierUpdateSchema = z.object(supplierFields).partial();
export type SupplierUpdate = z.infer<typeof supplierUpdateSchema>;

export const supplierSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  contact_person: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  gstin: z.string().nullable(),
  lead_time_days: z.number().int().nullable(),
  /** Items that name the supplier. */
  items: z.number().int(),
  /** Receipts recorded from the supplier (accepted and rejected). */
  deliveries: z.number().int(),
  /** Receipts with a due date that arrived on or before it, and receipts with a due date. */
  on_time: z.number().int(),
  with_due_date: z.number().int(),
  /** on_time / with_due_date as a percentage, one decimal; null without due dates. */
  on_time_rate: z.number().nullable(),
  rejected: z.number().int(),
  last_delivery: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Supplier = z.infer<typeof supplierSchema>;
