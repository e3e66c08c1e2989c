import { z } from 'zod';
import { equipmentIdField } from './equipment.js';
import { qcTestStatusSchema } from './qc.js';
import { SAMPLE_PRIORITIES } from '../samples.js';
import { optionalText, pageQuery, requiredText, strictNumber } from './common.js';
import { RESULT_STATUSES, VALIDATION_STATUSES, testResultSchema } from './result-record.js';

/**
 * What is sent to enter, verify, reject and list test results, and the result-entry sheet of a
 * sample. A result as stored and answered: result-record.ts, re-exported here.
 */
export * from './result-record.js';

/** The Result Entry status filter: the stored statuses plus "abnormal" (flag low, high or abnormal). */
export const RESULT_STATUS_FILTERS = [...RESULT_STATUSES, 'abnormal'] as const;

const id = (label: string) =>
  strictNumber(
    z
      .number({ error: `${label} must be an id` })
      .int(`${label} must be an id`)
      .positive(`${label} must be an id`),
  );

const allOr = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(values, { error: `${label} must be one of ${values.join(', ')} or all` }).optional(),
  );

export const resultValue = requiredText('Result value', 200);

/**
 * The parameters of a structured test as typed: an object keyed by parameter (panels) or the
 * culture's findings. Checked against the test's template by the server, which names the
 * parameter at fault (`structured.protein`).
 */
const structuredIn = z.preprocess(
  // null is what GET answers for a result that is not structured: PUT takes it back as "not sent".
  (v) => (v === null ? undefined : v),
  z.record(z.string(), z.unknown(), { error: 'structured must be an object of parameters' }).optional(),
);

/** A critical value telephoned to the doctor or patient: whom, when, and that they read it back. */
export const criticalCallSchema = z.object({
  called_to: requiredText('Called to (name and role)', 200),
  /** When the call was made; now if left out. ISO-8601. */
  called_at: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.iso.datetime({ offset: true, error: 'called_at must be a date and time (ISO-8601)' }).optional(),
  ),
  read_back: z.literal(true, { error: 'The value must be read back by the person called (read_back: true)' }),
  notes: optionalText(1000),
});
export type CriticalCallInput = z.infer<typeof criticalCallSchema>;

export const resultCreateSchema = z.object({
  sample_id: id('sample_id'),
  test_id: id('test_id'),
  /** Required, except for a structured test: its summary is written by the server from `structured`. */
  result_value: resultValue.optional(),
  structured: structuredIn,
  /** Defaults to the test's unit. */
  unit: optionalText(30),
  notes: optionalText(1000),
  /** The machine that produced the value; optional. */
  equipment_id: equipmentIdField,
});
export type ResultCreate = z.infer<typeof resultCreateSchema>;

/**
 * Only the fields staff may change; anything else a client echoes back from GET is ignored. A
 * verified result changes only with a reason (kept as an amendment with the earlier value).
 */
export const resultUpdateSchema = z.object({
  result_value: resultValue.optional(),
  structured: structuredIn,
  unit: optionalText(30),
  notes: optionalText(1000),
  reason: optionalText(500),
  /**
   * The value was measured again (a re-run after QC passed) and entered anew, even if it is the
   * same: its entry time is renewed (QC judges a result by the runs before its entry) and whoever
   * sends it becomes its technician. Not for a verified result (amend it with a reason).
   */
  reentered: z.boolean({ error: 'reentered must be true or false' }).optional(),
});
export type ResultUpdate = z.infer<typeof resultUpdateSchema>;

export const resultRejectSchema = z.object({
  reason: requiredText('Reason', 500),
});
export type ResultReject = z.infer<typeof resultRejectSchema>;

export const bulkVerifySchema = z.object({
  ids: z
    .array(id('ids'), { error: 'ids must be a list of result ids' })
    .min(1, 'Select at least one result')
    .max(200, 'At most 200 results at a time')
    .transform((ids) => [...new Set(ids)]),
});
export type BulkVerify = z.infer<typeof bulkVerifySchema>;

export const resultListQuery = pageQuery.extend({
  limit: pageQuery.shape.limit.default(50),
  search: z.string().trim().max(100).optional(),
  status: allOr(RESULT_STATUS_FILTERS, 'status'),
  /** A validation status, or `awaiting`: every entered result not yet verified (pending and review required). */
  validation: allOr([...VALIDATION_STATUSES, 'awaiting'] as const, 'validation'),
  priority: allOr(SAMPLE_PRIORITIES, 'priority'),
  critical: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(['true', 'false'], { error: 'critical must be true or false' }).optional(),
  ),
  sample_id: z.preprocess((v) => (v === '' ? undefined : v), id('sample_id').optional()),
  /** Critical results whose call is still to be logged (pending) or already logged. */
  critical_call: allOr(['pending', 'logged'] as const, 'critical_call'),
  /** true: entered results only, without the worklist of tests awaiting a result (the validation queue). */
  entered: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(['true', 'false'], { error: 'entered must be true or false' }).optional(),
  ),
});
export type ResultListQuery = z.infer<typeof resultListQuery>;

/** One line of the result-entry sheet of a sample: an ordered test, its range for this patient, its result if any. */
export const resultSheetRowSchema = z.object({
  test_id: z.number(),
  test_name: z.string(),
  test_code: z.string(),
  unit: z.string().nullable(),
  normal_range: z.string().nullable(),
  result_type: z.string(),
  /** The template of a structured test (src/shared/templates), else null. */
  result_template: z.string().nullable(),
  choices: z.array(z.string()),
  decimals: z.number().nullable(),
  formula: z.string().nullable(),
  result: testResultSchema.nullable(),
  /** The test's QC now, on any machine: what a value entered (or confirmed) now would be judged by. */
  qc: qcTestStatusSchema,
});
export type ResultSheetRow = z.infer<typeof resultSheetRowSchema>;

export const resultSheetSchema = z.object({
  sample: z.object({
    id: z.number(),
    sample_number: z.string(),
    barcode: z.string().nullable(),
    status: z.string(),
    sample_type: z.string(),
    priority: z.string(),
    collection_date: z.string().nullable(),
    patient_id: z.number(),
    first_name: z.string(),
    last_name: z.string(),
    patient_number: z.string(),
    gender: z.string().nullable(),
    age: z.number().nullable(),
    /** The age on the day of collection as printed (formatAge): "8 months", "35 years". */
    age_text: z.string().nullable(),
  }),
  /** Entry is open while the sample is collected or processing. */
  can_enter: z.boolean(),
  /** Every ordered test has a verified result: staff may complete the sample. */
  all_verified: z.boolean(),
  tests: z.array(resultSheetRowSchema),
});
export type ResultSheet = z.infer<typeof resultSheetSchema>;

export const bulkVerifyOutcomeSchema = z.object({
  id: z.number(),
  ok: z.boolean(),
  /** HTTP-like status of this item: 200 verified, 403 refused, 404 unknown, 409 not verifiable. */
  status: z.number(),
  message: z.string(),
});
export type BulkVerifyOutcome = z.infer<typeof bulkVerifyOutcomeSchema>;

export const bulkVerifyResponseSchema = z.object({
  verified: z.number(),
  refused: z.number(),
  outcomes: z.array(bulkVerifyOutcomeSchema),
});
export type BulkVerifyResponse = z.infer<typeof bulkVerifyResponseSchema>;

/** Whether a sample's report may leave the lab now; if not, the reason (a critical call, money due). */
export const reportStatusSchema = z.object({
  releasable: z.boolean(),
  /** CRITICAL_NOT_CALLED or REPORT_HELD_UNPAID when held. */
  code: z.string().nullable(),
  message: z.string().nullable(),
  /** When all results were verified; null while results are awaited (the report prints as interim). */
  reported_at: z.string().nullable(),
});
export type ReportStatus = z.infer<typeof reportStatusSchema>;

/** One sample's report as the front desk sees it on a bill: which tests, whether it can be handed over. */
export const billReportSchema = z.object({
  sample_id: z.number(),
  sample_code: z.string(),
  sample_type: z.string(),
  container: z.string().nullable(),
  status: z.string(),
  tests: z.array(z.string()),
  /** When every result was verified; null while results are awaited. */
  reported_at: z.string().nullable(),
  /** Released and not held (a critical value not telephoned, money due where the lab holds reports). */
  printable: z.boolean(),
  /** Why not, in words, when not printable. */
  reason: z.string().nullable(),
  report_print_count: z.number(),
});
export type BillReport = z.infer<typeof billReportSchema>;
