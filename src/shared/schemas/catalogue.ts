import { z } from 'zod';
import { optionalText, requiredText, rupeeAmount } from './common.js';
import { SAMPLE_TYPES } from '../samples.js';
import type { ReferenceRange } from '../flags.js';

export { SAMPLE_TYPES };

export const CATALOGUE_STATUSES = ['active', 'inactive'] as const;

const status = z.enum(CATALOGUE_STATUSES, { error: 'Status must be active or inactive' });
const code = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toUpperCase() : v),
  z
    .string({ error: 'Code is required' })
    .min(1, 'Code is required')
    .max(30, 'Code must be at most 30 characters')
    .regex(/^[A-Z0-9][A-Z0-9._-]*$/, 'Code may contain only letters, digits, dot, dash and underscore'),
);
const idList = (label: string) =>
  z
    .array(
      z.coerce
        .number({ error: `${label} must be ids` })
        .int()
        .positive(`${label} must be positive ids`),
      {
        error: `${label} must be a list of ids`,
      },
    )
    .max(200, `${label}: at most 200`)
    .transform((ids) => [...new Set(ids)]);

const common = {
  name: requiredText('Name', 120),
  code,
  description: optionalText(1000),
  category: optionalText(60),
  price: rupeeAmount('Price'),
  /** Base (cost/reference) price for the pricing screen's markup; defaults to the price. */
  base_price: rupeeAmount('Base price').optional(),
  status: status.default('active'),
};

const limit = z.coerce.number({ error: 'must be a number' }).finite().nullable().optional();

/** A reference range by sex and age (ages in whole years: from inclusive, to exclusive). */
export const referenceRangeSchema = z
  .object({
    sex: z.preprocess(
      (v) => (v === '' || v === 'any' ? null : v),
      z.enum(['Male', 'Female'], { error: 'sex must be Male, Female or empty' }).nullable().optional(),
    ),
    age_min: z.coerce.number().int('age_min must be whole years').min(0).max(150).nullable().optional(),
    age_max: z.coerce.number().int('age_max must be whole years').min(0).max(200).nullable().optional(),
    range: requiredText('Range', 120),
    critical_low: limit,
    critical_high: limit,
  })
  .refine((r) => r.age_min == null || r.age_max == null || r.age_min < r.age_max, {
    path: ['age_max'],
    message: 'age_max must be above age_min',
  });

export const testCreateSchema = z.object({
  ...common,
  reference_ranges: z.array(referenceRangeSchema).max(20, 'At most 20 reference ranges').nullable().optional(),
  unit: optionalText(30),
  normal_range: optionalText(120),
  sample_type: z.preprocess(
    (v) => (v === '' ? null : v),
    z
      .enum(SAMPLE_TYPES, { error: `Sample type must be one of ${SAMPLE_TYPES.join(', ')}` })
      .nullable()
      .optional(),
  ),
  turnaround_hours: z.preprocess(
    (v) => (v === '' ? null : v),
    z.coerce
      .number({ error: 'Turnaround time must be a number of hours' })
      .int('Turnaround time must be whole hours')
      .min(0)
      .max(2000)
      .nullable()
      .optional(),
  ),
});
export const testUpdateSchema = testCreateSchema.partial();
export type TestCreate = z.infer<typeof testCreateSchema>;
export type TestUpdate = z.infer<typeof testUpdateSchema>;

export const profileCreateSchema = z.object({ ...common, test_ids: idList('test_ids').default([]) });
export const profileUpdateSchema = profileCreateSchema.partial();
export type ProfileCreate = z.infer<typeof profileCreateSchema>;
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export const packageCreateSchema = z.object({
  ...common,
  duration: optionalText(60),
  test_ids: idList('test_ids').default([]),
  profile_ids: idList('profile_ids').default([]),
});
export const packageUpdateSchema = packageCreateSchema.partial();
export type PackageCreate = z.infer<typeof packageCreateSchema>;
export type PackageUpdate = z.infer<typeof packageUpdateSchema>;

export const catalogueListQuery = z.object({
  search: z.string().trim().max(100).optional(),
  category: z.preprocess((v) => (v === '' || v === 'all' ? undefined : v), z.string().max(60).optional()),
  status: z.preprocess((v) => (v === '' || v === 'all' ? undefined : v), status.optional()),
});
export type CatalogueListQuery = z.infer<typeof catalogueListQuery>;

export const priceUpdateSchema = z.object({
  price: rupeeAmount('Price'),
  base_price: rupeeAmount('Base price').optional(),
});

export interface CatalogueTest {
  id: number;
  name: string;
  code: string;
  description: string | null;
  category: string | null;
  price: number;
  base_price: number;
  unit: string | null;
  normal_range: string | null;
  /** The spec's catalogue variant reads camelCase normalRange too. */
  normalRange: string | null;
  /** Ranges by sex and age, used for result flags; normal_range applies when none fits. */
  reference_ranges: ReferenceRange[];
  sample_type: string | null;
  turnaround_hours: number | null;
  status: string;
  created_at: string;
  updated_at: string;
}

export interface CatalogueRef {
  id: number;
  name: string;
  code: string;
}

export interface CatalogueProfile {
  id: number;
  name: string;
  code: string;
  description: string | null;
  category: string | null;
  price: number;
  base_price: number;
  status: string;
  test_ids: number[];
  /** Test names, as the spec's screens show them. */
  tests: string[];
  test_details: CatalogueRef[];
  created_at: string;
  updated_at: string;
}

export interface CataloguePackage {
  id: number;
  name: string;
  code: string;
  description: string | null;
  category: string | null;
  price: number;
  base_price: number;
  duration: string | null;
  status: string;
  test_ids: number[];
  profile_ids: number[];
  /** Names of the included tests and profiles, as the spec's "Tests Included" column shows them. */
  tests: string[];
  test_details: CatalogueRef[];
  profile_details: CatalogueRef[];
  created_at: string;
  updated_at: string;
}

export interface PriceChange {
  id: number;
  item_type: 'test' | 'profile' | 'package';
  item_id: number;
  old_price: number | null;
  new_price: number;
  old_base_price: number | null;
  new_base_price: number;
  changed_by: number | null;
  changed_by_email: string | null;
  changed_at: string;
}
