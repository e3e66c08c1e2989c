import { TAX_CATEGORIES } from '../gst.js';
import { z } from 'zod';
import { optionalText, requiredText, rupeeAmount, strictNumber } from './common.js';
import { SAMPLE_TYPES } from '../samples.js';
import { TUBE_IDS } from '../tubes.js';
import { RESULT_TYPES } from '../resultTypes.js';
import { TEMPLATE_IDS } from '../templates/index.js';
import { parseFormula } from '../formula.js';
import { loincProblem } from '../loinc.js';
import { RANGE_AGE_UNITS, type RangeAgeUnit } from '../flags.js';

export { SAMPLE_TYPES };
export * from './catalogue-items.js';

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
      strictNumber(
        z
          .number({ error: `${label} must be ids` })
          .int()
          .positive(`${label} must be positive ids`),
      ),
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

const limit = strictNumber(z.number({ error: 'must be a number' }).finite().nullable().optional());

const emptyToNull = (v: unknown) => (v === '' ? null : v);
const optionalNumber = (label: string) =>
  z.preprocess(
    emptyToNull,
    strictNumber(
      z
        .number({ error: `${label} must be a number` })
        .finite()
        .nullable()
        .optional(),
    ),
  );
/** A list typed as "A, B, C" or sent as an array; blanks dropped, duplicates (any case) once. */
const wordList = (label: string, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.split(/[,\n]/) : v),
    z
      .array(z.string().trim().max(60, `${label}: each at most 60 characters`), { error: `${label} must be a list` })
      .transform((xs) => xs.filter((x, i) => x && xs.findIndex((y) => y.toLowerCase() === x.toLowerCase()) === i))
      .refine((xs) => xs.length <= max, `${label}: at most ${max}`)
      .nullable()
      .optional(),
  );

/** How a test's result is typed, checked and judged (src/shared/resultTypes.ts, src/shared/formula.ts). */
const resultRuleFields = {
  result_type: z.enum(RESULT_TYPES, { error: `Result type must be one of ${RESULT_TYPES.join(', ')}` }).optional(),
  decimals: z.preprocess(
    emptyToNull,
    strictNumber(
      z
        .number({ error: 'Decimals must be a number' })
        .int('Decimals must be a whole number')
        .min(0, 'Decimals must be 0 to 4')
        .max(4, 'Decimals must be 0 to 4')
        .nullable()
        .optional(),
    ),
  ),
  /** The template a structured test is entered with (urine_routine, stool_routine, semen_analysis, culture). */
  result_template: z.preprocess(
    emptyToNull,
    z
      .enum(TEMPLATE_IDS, { error: `Result template must be one of ${TEMPLATE_IDS.join(', ')}` })
      .nullable()
      .optional(),
  ),
  plausible_low: optionalNumber('Plausible low'),
  plausible_high: optionalNumber('Plausible high'),
  critical_low: optionalNumber('Critical low'),
  critical_high: optionalNumber('Critical high'),
  choices: wordList('Choices', 30),
  formula: z.preprocess(
    emptyToNull,
    z
      .string()
      .trim()
      .max(300, 'Formula must be at most 300 characters')
      .superRefine((f, ctx) => {
        try {
          parseFormula(f);
        } catch (e) {
          ctx.addIssue({ code: 'custom', message: (e as Error).message });
        }
      })
      .nullable()
      .optional(),
  ),
  container: z.preprocess(
    emptyToNull,
    z
      .enum(TUBE_IDS, { error: `Tube must be one of ${TUBE_IDS.join(', ')}` })
      .nullable()
      .optional(),
  ),
  delta_limit: z.preprocess(
    emptyToNull,
    strictNumber(
      z.number({ error: 'Delta limit must be a number' }).positive('Delta limit must be above 0').nullable().optional(),
    ),
  ),
  delta_kind: z.preprocess(
    emptyToNull,
    z.enum(['absolute', 'percent'], { error: 'Delta kind must be absolute or percent' }).nullable().optional(),
  ),
  delta_window_days: z.preprocess(
    emptyToNull,
    strictNumber(
      z
        .number({ error: 'Delta window must be a number of days' })
        .int('Delta window must be whole days')
        .min(1)
        .max(3650)
        .nullable()
        .optional(),
    ),
  ),
  aliases: wordList('Aliases', 20),
};

/** The largest age bound in each unit: 150 years. */
const AGE_BOUND_MAX: Record<RangeAgeUnit, number> = { days: 54_790, months: 1_800, years: 150 };

/**
 * A reference range by sex and age band: ages in whole days, months or years (age_unit, years when
 * left out), from inclusive, up to exclusive.
 */
export const referenceRangeSchema = z
  .object({
    sex: z.preprocess(
      (v) => {
        if (typeof v !== 'string') return v;
        const t = v.trim().toLowerCase();
        return t === '' || t === 'any' ? null : t === 'male' ? 'Male' : t === 'female' ? 'Female' : v;
      },
      z.enum(['Male', 'Female'], { error: 'sex must be Male, Female or empty' }).nullable().optional(),
    ),
    age_min: z.preprocess(
      emptyToNull,
      strictNumber(
        z.number().int('age_min must be a whole number').min(0, 'age_min cannot be negative').nullable().optional(),
      ),
    ),
    age_max: z.preprocess(
      emptyToNull,
      strictNumber(
        z.number().int('age_max must be a whole number').min(1, 'age_max must be at least 1').nullable().optional(),
      ),
    ),
    age_unit: z.preprocess(
      emptyToNull,
      z.enum(RANGE_AGE_UNITS, { error: 'age_unit must be days, months or years' }).nullable().optional(),
    ),
    range: requiredText('Range', 120).refine((t) => !t.includes(';'), 'Range cannot contain ";"'),
    critical_low: z.preprocess(emptyToNull, limit),
    critical_high: z.preprocess(emptyToNull, limit),
  })
  .superRefine((r, ctx) => {
    const unit = r.age_unit ?? 'years';
    for (const key of ['age_min', 'age_max'] as const) {
      const v = r[key];
      if (v != null && v > AGE_BOUND_MAX[unit])
        ctx.addIssue({ code: 'custom', path: [key], message: `${key} must be at most ${AGE_BOUND_MAX[unit]} ${unit}` });
    }
    if (r.age_min != null && r.age_max != null && r.age_min >= r.age_max)
      ctx.addIssue({ code: 'custom', path: ['age_max'], message: 'age_max must be above age_min' });
    if (r.critical_low != null && r.critical_high != null && r.critical_low >= r.critical_high)
      ctx.addIssue({ code: 'custom', path: ['critical_high'], message: 'critical_high must be above critical_low' });
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
    strictNumber(
      z
        .number({ error: 'Turnaround time must be a number of hours' })
        .int('Turnaround time must be whole hours')
        .min(0)
        .max(2000)
        .nullable()
        .optional(),
    ),
  ),
  /** Target turnaround (collection -> verified) in minutes; the Enhanced Dashboard lists results past it. */
  target_tat_minutes: z.preprocess(
    (v) => (v === '' ? null : v),
    strictNumber(
      z
        .number({ error: 'Target TAT must be a number of minutes' })
        .int('Target TAT must be whole minutes')
        .min(1, 'Target TAT must be at least 1 minute')
        .max(43200, 'Target TAT must be at most 43200 minutes (30 days)')
        .nullable()
        .optional(),
    ),
  ),
  ...resultRuleFields,
  /** GST (src/shared/gst.ts): diagnostic tests are exempt; a taxable service (cosmetic, goods sold) names its rate. */
  tax_category: z
    .enum(TAX_CATEGORIES, { error: `Tax category must be one of ${TAX_CATEGORIES.join(', ')}` })
    .optional(),
  /** The SAC (or HSN) printed on invoices; 9993 (human health services) when left out. */
  sac_code: z.preprocess(
    (v) => (v === '' ? null : v),
    z
      .string({ error: 'SAC code must be text' })
      .regex(/^\d{4,8}$/, 'SAC code must be 4 to 8 digits')
      .nullable()
      .optional(),
  ),
  /** The method printed under the test on the report (ISO 15189), e.g. "Photometry, GOD-POD". */
  method: optionalText(100, 'Method'),
  /** The LOINC code the HL7 and FHIR reports carry beside the lab's own code, e.g. 1558-6. */
  loinc_code: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
    z
      .string({ error: 'LOINC code must be text' })
      .superRefine((v, ctx) => {
        const problem = loincProblem(v);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
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
