import { z } from 'zod';
import { equipmentIdField } from './equipment.js';
import { qcTestStatusSchema } from './qc.js';
import { SAMPLE_PRIORITIES } from '../samples.js';
import { GROWTH, INTERPRETATIONS } from '../templates/culture.js';
import { optionalText, pageQuery, requiredText, strictNumber } from './common.js';

/**
 * Test results (spec 001 "Test result", Result Entry, Result Validation). A result is entered per
 * ordered test of a sample; the server computes flag, critical and review_required from the test's
 * reference range for the patient's sex and age. Tests ordered on a collected or processing sample
 * without a result yet are listed as "pending" rows (id null): the lab's worklist.
 */
export const RESULT_STATUSES = ['pending', 'completed', 'verified', 'rejected'] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

/** The Result Entry status filter: the stored statuses plus "abnormal" (flag low, high or abnormal). */
export const RESULT_STATUS_FILTERS = [...RESULT_STATUSES, 'abnormal'] as const;

/** The Result Validation queue: derived from status and review_required (decisions.md). */
export const VALIDATION_STATUSES = ['pending', 'review_required', 'validated', 'rejected'] as const;
export type ValidationStatus = (typeof VALIDATION_STATUSES)[number];

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
 * A structured result as stored and answered (src/shared/templates): a panel's parameters with their
 * flags, or a culture's findings and antibiogram. `result_value` carries its one-line summary.
 */
export const structuredOutSchema = z.object({
  template: z.string(),
  values: z.record(z.string(), z.string()).nullable(),
  flags: z.record(z.string(), z.enum(['normal', 'low', 'high', 'abnormal'])).nullable(),
  culture: z
    .object({
      specimen: z.string(),
      incubation_hours: z.number().nullable().optional(),
      growth: z.enum(GROWTH),
      organisms: z.array(
        z.object({
          name: z.string(),
          colony_count: z.number().nullable().optional(),
          antibiotics: z.array(
            z.object({
              name: z.string(),
              interpretation: z.enum(INTERPRETATIONS),
              mic: z.number().nullable().optional(),
              zone: z.number().nullable().optional(),
            }),
          ),
        }),
      ),
      comment: z.string().nullable().optional(),
    })
    .nullable(),
});
export type StructuredOut = z.infer<typeof structuredOutSchema>;

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

/**
 * Why a result cannot be verified in bulk: out of range, critical, a failed delta check, or a
 * change after verification. Bulk Validate verifies only results with none of these (server-enforced).
 */
/**
 * Who a report and the screens name as a result's verifier: the previous system's verifier, marked
 * so, when the result was imported as verified history (the lims user who imported it released it
 * but did not review it); else the lims user who verified it.
 */
export function verifierName(limsUser: string | null, previousVerifier: string | null): string | null {
  return previousVerifier ? `${previousVerifier} (previous system)` : limsUser;
}

export const REVIEW_REASONS = ['abnormal', 'critical', 'delta', 'amended'] as const;
export type ReviewReason = (typeof REVIEW_REASONS)[number];

export function reviewReasons(r: {
  flag: string | null;
  is_critical: boolean;
  delta_failed: boolean;
  amended: boolean;
}): ReviewReason[] {
  const out: ReviewReason[] = [];
  if (r.flag && r.flag !== 'normal') out.push('abnormal');
  if (r.is_critical) out.push('critical');
  if (r.delta_failed) out.push('delta');
  if (r.amended) out.push('amended');
  return out;
}

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

export const resultAmendmentSchema = z.object({
  id: z.number(),
  old_value: z.string().nullable(),
  old_structured: structuredOutSchema.nullable(),
  old_unit: z.string().nullable(),
  old_flag: z.string().nullable(),
  old_status: z.string(),
  old_verified_by: z.number().nullable(),
  old_verified_by_name: z.string().nullable(),
  old_verified_at: z.string().nullable(),
  reason: z.string(),
  amended_by: z.number().nullable(),
  amended_by_name: z.string().nullable(),
  amended_at: z.string(),
});
export type ResultAmendment = z.infer<typeof resultAmendmentSchema>;

export const testResultSchema = z.object({
  /** null on a pending row: the test is ordered but no result has been entered. */
  id: z.number().nullable(),
  /** Stable row key: "R<id>" for entered results, "S<sample>-T<test>" for pending rows. */
  key: z.string(),
  sample_id: z.number(),
  test_id: z.number(),
  patient_id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  patient_number: z.string(),
  test_name: z.string(),
  test_code: z.string(),
  /** The sample code (SMP...). */
  sample_number: z.string(),
  sample_barcode: z.string().nullable(),
  /** The bill (visit) that ordered the sample: its report gathers all the visit's samples. */
  bill_id: z.number().nullable(),
  sample_status: z.string(),
  result_value: z.string().nullable(),
  /** A structured test's parameters (or culture and antibiogram); result_value is then its summary. */
  structured: structuredOutSchema.nullable(),
  unit: z.string().nullable(),
  normal_range: z.string().nullable(),
  flag: z.string().nullable(),
  status: z.enum(RESULT_STATUSES),
  validation_status: z.enum(VALIDATION_STATUSES).nullable(),
  is_critical: z.boolean(),
  review_required: z.boolean(),
  amended: z.boolean(),
  notes: z.string().nullable(),
  rejection_reason: z.string().nullable(),
  priority: z.string(),
  technician_id: z.number().nullable(),
  technician_name: z.string().nullable(),
  entered_at: z.string().nullable(),
  /** The lims user who released it: the validator, or whoever imported it as verified history. */
  verified_by: z.number().nullable(),
  /** Who verified it as the report and screens name them: the previous system's verifier when imported. */
  verified_by_name: z.string().nullable(),
  /** Who verified it in the lab's previous system (imported as verified history), as text. */
  previous_verifier: z.string().nullable(),
  verified_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  amendments: z.array(resultAmendmentSchema).optional(),
  /** The same patient's previous verified value of this test, shown beside the new one. */
  previous_value: z.string().nullable(),
  previous_at: z.string().nullable(),
  /** Differs from the previous value by more than the test's delta limit within its window. */
  delta_failed: z.boolean(),
  /** Filled in by the server from other tests of the sample (a formula). */
  calculated: z.boolean(),
  /** Why a validator must open this result on its own (empty: it may be verified in bulk). */
  review_reasons: z.array(z.enum(REVIEW_REASONS)),
  /**
   * Whether the signed-in user may verify this result on its own now, by the server's rules (status,
   * a rejected sample, self-verification, the permission), and why not. QC is judged at verification.
   */
  can_verify: z.boolean(),
  verify_refusal: z.string().nullable(),
  /** The machine that produced it, and the warning it carried when entered (calibration past due, not operational). */
  equipment_id: z.number().nullable(),
  equipment_warning: z.string().nullable(),
  /**
   * The QC state an entered result awaiting verification is judged by (its entry time, its
   * machine): held while a control level's latest run before it is rejected. Absent otherwise.
   */
  qc: qcTestStatusSchema.optional(),
  /** The call that reported a critical value (whom, when, read back), or null. */
  critical_call: z
    .object({
      called_to: z.string(),
      called_at: z.string(),
      read_back: z.boolean(),
      notes: z.string().nullable(),
      recorded_by_name: z.string().nullable(),
      /** Minutes from the result's entry to the call (the NABL critical-notification time). */
      minutes_to_call: z.number().nullable(),
    })
    .nullable(),
});
export type TestResult = z.infer<typeof testResultSchema>;

export const resultPageSchema = z.object({
  results: z.array(testResultSchema),
  total: z.number(),
  totalPages: z.number(),
  currentPage: z.number(),
  hasNextPage: z.boolean(),
  hasPrevPage: z.boolean(),
});
export type ResultPage = z.infer<typeof resultPageSchema>;

export const resultSummarySchema = z.object({
  /** Entered results plus ordered tests still awaiting a result. */
  total: z.number(),
  /** Entered, not yet verified (the validation queue: pending_validation + review_required). */
  completed: z.number(),
  verified: z.number(),
  /** Ordered tests on collected or processing samples with no result yet. */
  pending: z.number(),
  rejected: z.number(),
  /** Flag low, high or abnormal. */
  abnormal: z.number(),
  /** Critical values not verified yet (the Critical Values Alert). */
  critical: z.number(),
  /** Critical values entered or verified whose call to the doctor is not logged yet. */
  critical_uncalled: z.number(),
  awaiting_validation: z.number(),
  pending_validation: z.number(),
  review_required: z.number(),
  /** Verified since midnight in the lab's time zone. */
  validated_today: z.number(),
});
export type ResultSummary = z.infer<typeof resultSummarySchema>;

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

/** "R-000042": the Result ID column (spec: the first 8 characters of the id; ours are integers). */
export function resultCode(id: number | null): string {
  return id === null ? '—' : `R-${String(id).padStart(6, '0')}`;
}

export function validationStatusOf(status: string, reviewRequired: boolean): ValidationStatus | null {
  if (status === 'verified') return 'validated';
  if (status === 'rejected') return 'rejected';
  if (status === 'completed') return reviewRequired ? 'review_required' : 'pending';
  return null;
}

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
