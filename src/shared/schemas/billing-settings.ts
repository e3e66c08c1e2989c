import { z } from 'zod';
import { ROLES } from '../roles.js';
import { strictNumber } from './common.js';
import { gstinField, gstinStateCheck, stateCodeField } from './payers.js';

/**
 * Billing settings: the lab's GST registration, the days a patient's bill is due in,
 * and Discount Management: the most each role may discount a bill without an approver.
 */
const ceiling = strictNumber(
  z
    .number({ error: 'A discount limit must be a number' })
    .refine((n) => Number.isFinite(n) && n >= 0 && n <= 100, 'A discount limit must be between 0 and 100')
    .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, 'A discount limit may have at most 2 decimals'),
);

export const billingSettingsUpdateSchema = z
  .object({
    gstin: gstinField,
    gst_state_code: stateCodeField,
    bill_due_days: strictNumber(
      z
        .number({ error: 'Bill due days must be a number of days' })
        .int('Bill due days must be whole days')
        .min(0, 'Bill due days cannot be negative')
        .max(365, 'Bill due days must be at most 365'),
    ).optional(),
    discount_ceilings: z
      .partialRecord(z.enum(ROLES, { error: `Roles are ${ROLES.join(', ')}` }), ceiling, {
        error: 'discount_ceilings must be an object of role: percent',
      })
      .optional(),
  })
  .refine(...gstinStateCheck('gst_state_code'));
export type BillingSettingsUpdate = z.infer<typeof billingSettingsUpdateSchema>;

export const billingSettingsSchema = z.object({
  gstin: z.string().nullable(),
  gst_state_code: z.string().nullable(),
  gst_state: z.string().nullable(),
  bill_due_days: z.number(),
  discount_ceilings: z.record(z.string(), z.number()),
});
export type BillingSettings = z.infer<typeof billingSettingsSchema>;
