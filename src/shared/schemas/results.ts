import { z } from 'zod';
import { SAMPLE_PRIORITIES } from '../samples.js';
import { optionalText, pageQuery, requiredText } from './common.js';

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
  z.coerce
    .number({ error: `${label} must be an id` })
    .int(`${label} must be an id`)
    .positive(`${label} must be an id`);

const allOr = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(values, { error: `${label} must be one of ${values.join(', ')} or all` }).optional(),
  );

export const resultValue = requiredText('Result value', 200);

export const resultCreateSchema = z.object({
  sample_id: id('sample_id'),
  test_id: id('test_id'),
  result_value: resultValue,
  /** Defaults to the test's unit. */
  unit: optionalText(30),
  notes: optionalText(1000),
});
export type ResultCreate = z.infer<typeof resultCreateSchema>;

/**
 * Only the fields staff may change; anything else a client echoes back from GET is ignored. A
 * verified result changes only with a reason (kept as an amendment with the earlier value).
 */
export const resultUpdateSchema = z.object({
  result_value: resultValue.optional(),
  unit: optionalText(30),
  notes: optionalText(1000),
  reason: optionalText(500),
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
  validation: allOr(VALIDATION_STATUSES, 'validation'),
  priority: allOr(SAMPLE_PRIORITIES, 'priority'),
  critical: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(['true', 'false'], { error: 'critical must be true or false' }).optional(),
  ),
  sample_id: z.preprocess((v) => (v === '' ? undefined : v), id('sample_id').optional()),
  /** true: entered results only, without the worklist of tests awaiting a result (the validation queue). */
  entered: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(['true', 'false'], { error: 'entered must be true or false' }).optional(),
  ),
});
export type ResultListQuery = z.infer<typeof resultListQuery>;

export interface ResultAmendment {
  id: number;
  old_value: string | null;
  old_unit: string | null;
  old_flag: string | null;
  old_status: string;
  old_verified_by: number | null;
  old_verified_by_name: string | null;
  old_verified_at: string | null;
  reason: string;
  amended_by: number | null;
  amended_by_name: string | null;
  amended_at: string;
}

export interface TestResult {
  /** null on a pending row: the test is ordered but no result has been entered. */
  id: number | null;
  /** Stable row key: "R<id>" for entered results, "S<sample>-T<test>" for pending rows. */
  key: string;
  sample_id: number;
  test_id: number;
  patient_id: number;
  first_name: string;
  last_name: string;
  patient_number: string;
  test_name: string;
  test_code: string;
  /** The sample code (SMP...). */
  sample_number: string;
  sample_barcode: string | null;
  sample_status: string;
  result_value: string | null;
  unit: string | null;
  normal_range: string | null;
  flag: string | null;
  status: ResultStatus;
  validation_status: ValidationStatus | null;
  is_critical: boolean;
  review_required: boolean;
  amended: boolean;
  notes: string | null;
  rejection_reason: string | null;
  priority: string;
  technician_id: number | null;
  technician_name: string | null;
  entered_at: string | null;
  verified_by: number | null;
  verified_by_name: string | null;
  verified_at: string | null;
  created_at: string;
  updated_at: string;
  amendments?: ResultAmendment[];
}

export interface ResultPage {
  results: TestResult[];
  total: number;
  totalPages: number;
  currentPage: number;
  hasNextPage: boolean;
  hasPrevPage: boolean;
}

export interface ResultSummary {
  /** Entered results plus ordered tests still awaiting a result. */
  total: number;
  /** Entered, not yet verified (the validation queue: pending_validation + review_required). */
  completed: number;
  verified: number;
  /** Ordered tests on collected or processing samples with no result yet. */
  pending: number;
  rejected: number;
  /** Flag low, high or abnormal. */
  abnormal: number;
  /** Critical values not verified yet (the Critical Values Alert). */
  critical: number;
  awaiting_validation: number;
  pending_validation: number;
  review_required: number;
  /** Verified since midnight in the lab's time zone. */
  validated_today: number;
}

/** One line of the result-entry sheet of a sample: an ordered test, its range for this patient, its result if any. */
export interface ResultSheetRow {
  test_id: number;
  test_name: string;
  test_code: string;
  unit: string | null;
  normal_range: string | null;
  result: TestResult | null;
}

export interface ResultSheet {
  sample: {
    id: number;
    sample_number: string;
    barcode: string | null;
    status: string;
    sample_type: string;
    priority: string;
    collection_date: string | null;
    patient_id: number;
    first_name: string;
    last_name: string;
    patient_number: string;
    gender: string | null;
    age: number | null;
  };
  /** Entry is open while the sample is collected or processing. */
  can_enter: boolean;
  /** Every ordered test has a verified result: staff may complete the sample. */
  all_verified: boolean;
  tests: ResultSheetRow[];
}

export interface BulkVerifyOutcome {
  id: number;
  ok: boolean;
  /** HTTP-like status of this item: 200 verified, 403 refused, 404 unknown, 409 not verifiable. */
  status: number;
  message: string;
}

export interface BulkVerifyResponse {
  verified: number;
  refused: number;
  outcomes: BulkVerifyOutcome[];
}

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
