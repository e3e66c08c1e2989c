import { z } from 'zod';
import { equipmentIdField } from './equipment.js';
import { WESTGARD_RULES } from '../westgard.js';
import { isoDate, optionalText, requiredText, strictNumber } from './common.js';

/** Spec 001 section 9: a new control material expires 90 days ahead unless told otherwise. */
export const QC_DEFAULT_EXPIRY_DAYS = 90;
/** Materials this close to expiry are flagged (amber on the screen, listed in the summary). */
export const QC_EXPIRY_WARNING_DAYS = 30;
export const QC_CONTROL_TYPES = ['Internal', 'External'] as const;
export type QcControlType = (typeof QC_CONTROL_TYPES)[number];
/** Levels as control manufacturers label them; free text is accepted too. */
export const QC_LEVELS = ['Level 1 (Normal)', 'Level 2 (Abnormal High)', 'Level 3 (Abnormal Low)'] as const;
export const QC_RUN_STATUSES = ['passed', 'warning', 'failed'] as const;
export const QC_MATERIAL_STATUSES = ['active', 'expired', 'inactive'] as const;
export type QcMaterialStatus = (typeof QC_MATERIAL_STATUSES)[number];

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * A number typed into a text box or sent as JSON. An empty box is "required", not 0 (a bare
 * z.coerce.number would turn "" into a target mean of 0).
 */
const measured = (label: string) =>
  z.preprocess(
    (v) => (blank(v) ? undefined : typeof v === 'string' ? Number(v.trim()) : v),
    z
      .number({ error: (iss) => (iss.input === undefined ? `${label} is required` : `${label} must be a number`) })
      .refine(Number.isFinite, `${label} must be a finite number`),
  );

const testId = z.preprocess(
  (v) => (blank(v) ? undefined : typeof v === 'string' ? Number(v) : v),
  z
    .number({ error: (iss) => (iss.input === undefined ? 'Test is required' : 'Test must be a test id') })
    .int('Test must be a test id')
    .positive('Test must be a test id'),
);

const controlType = z.preprocess(
  (v) => (blank(v) ? undefined : v),
  z.enum(QC_CONTROL_TYPES, { error: 'Control type must be Internal or External' }).default('Internal'),
);

/** Lot numbers as printed on the vial: letters, digits and - / . only. */
const lotNumber = z.preprocess(
  (v) => (blank(v) ? undefined : typeof v === 'string' ? v.trim().toUpperCase() : v),
  z
    .string()
    .max(40, 'Lot number must be at most 40 characters')
    .regex(/^[A-Z0-9][A-Z0-9\-/.]*$/, 'Lot number may contain only letters, digits, -, / and .')
    .optional(),
);

const optionalDate = (label: string) => z.preprocess((v) => (blank(v) ? undefined : v), isoDate(label).optional());

export const qcMaterialFields = {
  name: requiredText('Name', 100),
  test_id: testId,
  level: optionalText(60),
  control_type: controlType,
  /** Empty: the server assigns LOT + a 3-digit sequence. */
  lot_number: lotNumber,
  /** Empty: today + 90 days in the lab's time zone. */
  expiry_date: optionalDate('Expiry date'),
  target_mean: measured('Target mean'),
  target_sd: measured('Target SD').refine((n) => n > 0, 'Target SD must be greater than 0'),
  unit: optionalText(30),
};

export const qcMaterialCreateSchema = z.object(qcMaterialFields);
export type QcMaterialCreate = z.infer<typeof qcMaterialCreateSchema>;

/** PUT takes the material as GET returned it; absent fields keep their value. */
export const qcMaterialUpdateSchema = z
  .object({
    ...qcMaterialFields,
    control_type: z.enum(QC_CONTROL_TYPES, { error: 'Control type must be Internal or External' }).optional(),
    is_active: z.boolean({ error: 'is_active must be true or false' }),
  })
  .partial();
export type QcMaterialUpdate = z.infer<typeof qcMaterialUpdateSchema>;

const allToUndefined = (v: unknown) => (v === '' || v === 'all' ? undefined : v);

export const qcMaterialListQuery = z.object({
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
  test_id: z.preprocess(
    allToUndefined,
    strictNumber(
      z.number({ error: 'test_id must be a number' }).int('test_id must be a whole number').positive().optional(),
    ),
  ),
  /** The material itself: in use, past its expiry date, or switched off. */
  status: z.preprocess(
    allToUndefined,
    z.enum(QC_MATERIAL_STATUSES, { error: 'status must be active, expired, inactive or all' }).optional(),
  ),
  /** The outcome of the material's latest run ("none": no run yet). */
  last_status: z.preprocess(
    allToUndefined,
    z
      .enum([...QC_RUN_STATUSES, 'none'], { error: 'last_status must be passed, warning, failed, none or all' })
      .optional(),
  ),
});
export type QcMaterialListQuery = z.infer<typeof qcMaterialListQuery>;

export const qcRunCreateSchema = z.object({
  value: measured('Value'),
  /** ISO date-time with zone; empty means now. */
  performed_at: z.preprocess(
    (v) => (blank(v) ? undefined : v),
    z.iso
      .datetime({ offset: true, error: 'Performed at must be a date and time (ISO 8601, e.g. 2025-03-12T09:30:00Z)' })
      .optional(),
  ),
  comments: optionalText(500),
  /** The machine the control ran on; optional. */
  equipment_id: equipmentIdField,
});
export type QcRunCreate = z.infer<typeof qcRunCreateSchema>;

/** A QC run of a test: the value of each control level measured together. */
export const qcTestRunCreateSchema = z.object({
  test_id: strictNumber(z.number({ error: 'test_id must be an id' }).int().positive('test_id must be an id')),
  values: z
    .array(
      z.object({
        material_id: strictNumber(z.number({ error: 'material_id must be an id' }).int().positive()),
        value: measured('Value'),
      }),
      { error: 'values must be a list of {material_id, value}' },
    )
    .min(1, 'Enter the value of at least one control level')
    .max(6, 'At most 6 control levels in one run')
    .refine((v) => new Set(v.map((x) => x.material_id)).size === v.length, 'Each control level once per run'),
  performed_at: qcRunCreateSchema.shape.performed_at,
  comments: optionalText(500),
  equipment_id: equipmentIdField,
});
export type QcTestRunCreate = z.infer<typeof qcTestRunCreateSchema>;

export const qcOverrideSchema = z.object({ reason: requiredText('Reason', 500) });

export const qcRunSchema = z.object({
  id: z.number(),
  material_id: z.number(),
  value: z.number(),
  z_score: z.number(),
  status: z.enum(QC_RUN_STATUSES),
  rules: z.array(z.enum(WESTGARD_RULES)),
  comments: z.string().nullable(),
  performed_by: z.number().nullable(),
  performed_by_name: z.string().nullable(),
  performed_at: z.string(),
  created_at: z.string(),
  /** The levels measured together share it. */
  run_key: z.string().nullable(),
  override_reason: z.string().nullable(),
  overridden_at: z.string().nullable(),
  /** The machine the control ran on, and the warning it carried then (calibration past due). */
  equipment_id: z.number().nullable(),
  equipment_warning: z.string().nullable(),
});
export type QcRun = z.infer<typeof qcRunSchema>;

/** A rejected, not overridden QC run of one control level that holds a test's patient results. */
export const qcHoldSchema = z.object({
  /** The level's run; overriding it (any level's id) accepts every level of that run. */
  run_id: z.number(),
  run_key: z.string().nullable(),
  material_id: z.number(),
  control_id: z.string(),
  name: z.string(),
  level: z.string().nullable(),
  lot_number: z.string(),
  value: z.number(),
  z_score: z.number(),
  /** The rules that rejected it (1-2s, a warning only, left out when others fired). */
  rules: z.array(z.enum(WESTGARD_RULES)),
  performed_at: z.string(),
  equipment_id: z.number().nullable(),
  equipment_name: z.string().nullable(),
});
export type QcHold = z.infer<typeof qcHoldSchema>;

/**
 * The QC state a patient result of a test is judged by: at a moment (the result's entry), on a
 * machine (the result's, when it names one). Held while the latest run of any active level is
 * rejected and not overridden.
 */
export const qcTestStatusSchema = z.object({
  test_id: z.number(),
  test_name: z.string(),
  /** The moment judged: the result's entry, or now. */
  as_of: z.string(),
  equipment_id: z.number().nullable(),
  held: z.boolean(),
  /** What the gate answers a verification (null when not held). */
  message: z.string().nullable(),
  holds: z.array(qcHoldSchema),
});
export type QcTestStatus = z.infer<typeof qcTestStatusSchema>;

/** Whose QC state: at a moment (now if left out), on a machine (any if left out). */
export const qcTestStatusQuery = z.object({
  at: qcRunCreateSchema.shape.performed_at,
  equipment_id: equipmentIdField,
});
export type QcTestStatusQuery = z.infer<typeof qcTestStatusQuery>;

export const qcMaterialSchema = z.object({
  id: z.number(),
  control_id: z.string(),
  name: z.string(),
  test_id: z.number(),
  test_name: z.string(),
  test_code: z.string(),
  level: z.string().nullable(),
  control_type: z.enum(QC_CONTROL_TYPES),
  lot_number: z.string(),
  expiry_date: z.string(),
  target_mean: z.number(),
  target_sd: z.number(),
  /** mean - 2SD and mean + 2SD: a run inside passes 1-2s. */
  acceptable_low: z.number(),
  acceptable_high: z.number(),
  unit: z.string().nullable(),
  is_active: z.boolean(),
  status: z.enum(QC_MATERIAL_STATUSES),
  /** Days from the lab's today to the expiry date, negative once expired. */
  days_to_expiry: z.number(),
  run_count: z.number(),
  passed_count: z.number(),
  /** passed / runs x 100 to one decimal (spec 001 section 9), 0 without runs. */
  pass_rate: z.number(),
  last_run: qcRunSchema.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type QcMaterial = z.infer<typeof qcMaterialSchema>;

export const qcExpiringMaterialSchema = z.object({
  id: z.number(),
  control_id: z.string(),
  name: z.string(),
  test_name: z.string(),
  lot_number: z.string(),
  expiry_date: z.string(),
  days_to_expiry: z.number(),
});
export type QcExpiringMaterial = z.infer<typeof qcExpiringMaterialSchema>;

export const qcSummarySchema = z.object({
  total_runs: z.number(),
  passed: z.number(),
  warnings: z.number(),
  failed: z.number(),
  pass_rate: z.number(),
  active_materials: z.number(),
  expired_materials: z.number(),
  /** Active materials whose expiry is today or within the next 30 days, soonest first. */
  expiring_soon: z.array(qcExpiringMaterialSchema),
});
export type QcSummary = z.infer<typeof qcSummarySchema>;

/** Rounds away binary noise so 100.2 with mean 100 and SD 0.1 is exactly 2 SD, not 2.0000000000000284. */
export function roundQc(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
