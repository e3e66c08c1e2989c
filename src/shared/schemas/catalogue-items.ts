import { z } from 'zod';
import { TAX_CATEGORIES } from '../gst.js';
import { RESULT_TYPES } from '../resultTypes.js';
import { RANGE_AGE_UNITS } from '../flags.js';

/**
 * The catalogue as the API answers it: tests, profiles, packages and their price history. The
 * input schemas, which also coerce and refine: catalogue.ts, which re-exports this file.
 */

/** The three kinds of catalogue item (price history, pricing routes, bill lines). */
export const CATALOGUE_ITEM_TYPES = ['test', 'profile', 'package'] as const;
export type CatalogueItemType = (typeof CATALOGUE_ITEM_TYPES)[number];

/** A reference range as the API answers it (the input schema in catalogue.ts also coerces and refines). */
export const referenceRangeOutSchema = z.object({
  sex: z.enum(['Male', 'Female']).nullable().optional(),
  age_min: z.number().int().nullable().optional(),
  age_max: z.number().int().nullable().optional(),
  age_unit: z.enum(RANGE_AGE_UNITS).nullable().optional(),
  range: z.string(),
  critical_low: z.number().nullable().optional(),
  critical_high: z.number().nullable().optional(),
});

/** The fields every catalogue item answers with (tests, profiles, packages), in the API's order. */
const itemHead = {
  id: z.number(),
  name: z.string(),
  code: z.string(),
  description: z.string().nullable(),
  category: z.string().nullable(),
  price: z.number(),
  base_price: z.number(),
};
const itemStamps = { created_at: z.string(), updated_at: z.string() };

export const catalogueTestSchema = z.object({
  ...itemHead,
  unit: z.string().nullable(),
  normal_range: z.string().nullable(),
  /** The spec's catalogue variant reads camelCase normalRange too. */
  normalRange: z.string().nullable(),
  /** Ranges by sex and age, used for result flags, normal_range applies when none fits. */
  reference_ranges: z.array(referenceRangeOutSchema),
  sample_type: z.string().nullable(),
  turnaround_hours: z.number().nullable(),
  target_tat_minutes: z.number().nullable(),
  result_type: z.enum(RESULT_TYPES),
  result_template: z.string().nullable(),
  decimals: z.number().nullable(),
  plausible_low: z.number().nullable(),
  plausible_high: z.number().nullable(),
  critical_low: z.number().nullable(),
  critical_high: z.number().nullable(),
  choices: z.array(z.string()),
  formula: z.string().nullable(),
  container: z.string().nullable(),
  delta_limit: z.number().nullable(),
  tax_category: z.enum(TAX_CATEGORIES),
  sac_code: z.string().nullable(),
  method: z.string().nullable(),
  loinc_code: z.string().nullable(),
  delta_kind: z.string().nullable(),
  delta_window_days: z.number().nullable(),
  aliases: z.array(z.string()),
  status: z.string(),
  ...itemStamps,
});
export type CatalogueTest = z.infer<typeof catalogueTestSchema>;

export const catalogueRefSchema = z.object({
  id: z.number(),
  name: z.string(),
  code: z.string(),
});
export type CatalogueRef = z.infer<typeof catalogueRefSchema>;

export const catalogueProfileSchema = z.object({
  ...itemHead,
  status: z.string(),
  test_ids: z.array(z.number()),
  /** Test names, as the spec's screens show them. */
  tests: z.array(z.string()),
  test_details: z.array(catalogueRefSchema),
  ...itemStamps,
});
export type CatalogueProfile = z.infer<typeof catalogueProfileSchema>;

export const cataloguePackageSchema = z.object({
  ...itemHead,
  duration: z.string().nullable(),
  status: z.string(),
  test_ids: z.array(z.number()),
  profile_ids: z.array(z.number()),
  /** Names of the included tests and profiles, as the spec's "Tests Included" column shows them. */
  tests: z.array(z.string()),
  test_details: z.array(catalogueRefSchema),
  profile_details: z.array(catalogueRefSchema),
  ...itemStamps,
});
export type CataloguePackage = z.infer<typeof cataloguePackageSchema>;

export const priceChangeSchema = z.object({
  id: z.number(),
  item_type: z.enum(CATALOGUE_ITEM_TYPES),
  item_id: z.number(),
  old_price: z.number().nullable(),
  new_price: z.number(),
  old_base_price: z.number().nullable(),
  new_base_price: z.number(),
  changed_by: z.number().nullable(),
  changed_by_email: z.string().nullable(),
  changed_at: z.string(),
});
export type PriceChange = z.infer<typeof priceChangeSchema>;
