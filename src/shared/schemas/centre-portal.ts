import { z } from 'zod';
import { id } from './equipment-fields.js';
import { optionalText } from './common.js';
import { billReportSchema } from './results.js';

/**
 * The centre portal: what a collection centre's own login sees and does, every row its centre's
 * (docs/decisions.md "Collection centres").
 */

export const portalSearchQuery = z.object({ search: z.string().trim().max(100).optional() });

/** A test the centre may order, at the centre's price (its price list, else the lab's less its % off). */
export const portalTestSchema = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  sample_type: z.string().nullable(),
  price: z.number(),
});

export const portalPatientSchema = z.object({
  id: z.number(),
  patient_code: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  gender: z.string().nullable(),
  registered_at: z.string(),
});

/** Tests ordered for one of the centre's patients: a bill on the centre's account at its rates. */
export const portalOrderSchema = z.object({
  patient_id: id('patient_id'),
  test_ids: z
    .array(id('test_ids'), { error: 'test_ids must be a list of test ids' })
    .min(1, 'Choose at least one test')
    .max(50, 'At most 50 tests on one order'),
  notes: optionalText(1000),
});
export type PortalOrder = z.infer<typeof portalOrderSchema>;

export const portalBillSchema = z.object({
  id: z.number(),
  bill_number: z.string(),
  patient_id: z.number(),
  patient_code: z.string(),
  patient_name: z.string(),
  created_at: z.string(),
  due_date: z.string(),
  amount: z.number(),
  paid: z.number(),
  due: z.number(),
  cancelled: z.boolean(),
});
export type PortalBill = z.infer<typeof portalBillSchema>;

/** One bill's tubes: what each is for, and whether its report may be printed now (or why not). */
export const portalBillDetailSchema = z.object({
  bill: portalBillSchema,
  reports: z.array(billReportSchema),
});
