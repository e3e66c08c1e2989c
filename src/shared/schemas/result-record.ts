import { z } from 'zod';
import { qcTestStatusSchema } from './qc.js';
import { GROWTH, INTERPRETATIONS } from '../templates/culture.js';

/**
 * Test results (spec 001 "Test result", Result Entry, Result Validation). A result is entered per
 * ordered test of a sample; the server computes flag, critical and review_required from the test's
 * reference range for the patient's sex and age. Tests ordered on a collected or processing sample
 * without a result yet are listed as "pending" rows (id null): the lab's worklist.
 */
export const RESULT_STATUSES = ['pending', 'completed', 'verified', 'rejected'] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

/** The Result Validation queue: derived from status and review_required (decisions.md). */
export const VALIDATION_STATUSES = ['pending', 'review_required', 'validated', 'rejected'] as const;
export type ValidationStatus = (typeof VALIDATION_STATUSES)[number];

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
 * Who a report and the screens name as a result's verifier: the autoverification rule set version
 * that released it (no person acted); the previous system's verifier, marked so, when the result
 * was imported as verified history (the lims user who imported it released it but did not review
 * it); else the lims user who verified it.
 */
export function verifierName(
  limsUser: string | null,
  previousVerifier: string | null,
  autoverifiedBy: string | null = null,
): string | null {
  if (autoverifiedBy) return autoverifiedBy;
  return previousVerifier ? `${previousVerifier} (previous system)` : limsUser;
}

/**
 * Why a result cannot be verified in bulk: out of range, critical, a failed delta check, or a
 * change after verification. Bulk Validate verifies only results with none of these (server-enforced).
 */
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
  /** The rule set version that released it without a person ("Autoverification rule set v3 (approved by Dr ...)"). */
  autoverified_by: z.string().nullable(),
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
