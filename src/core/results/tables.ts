import type { Generated } from 'kysely';

/** Kysely table types of this feature. Timestamps are ISO-8601 UTC strings; money is integer paise. */

export interface TestResultsTable {
  id: Generated<number>;
  organization_id: number;
  sample_id: number;
  test_id: number;
  patient_id: number;
  result_value: string | null;
  unit: string | null;
  normal_range: string | null;
  flag: string | null;
  is_critical: number;
  status: string;
  review_required: number;
  notes: string | null;
  rejection_reason: string | null;
  technician_id: number | null;
  entered_at: string | null;
  verified_by: number | null;
  verified_at: string | null;
  amended: number;
  created_at: string;
  updated_at: string;
  delta_failed: Generated<number>;
  previous_value: string | null;
  previous_at: string | null;
  calculated: Generated<number>;
  /** The machine that produced it, and the warning it carried when entered (calibration past due). */
  equipment_id: number | null;
  equipment_warning: string | null;
  /** A structured test's parameters, or a culture's organisms and antibiogram (JSON, src/shared/templates). */
  structured_value: string | null;
  /** Who verified it in the lab's previous system (an imported verified result), as text; never a lims user. */
  previous_verifier: Generated<string | null>;
  /** The autoverification rule set version (and its approver) that released it, as text: no person verified it. */
  autoverified_by: Generated<string | null>;
}

export interface CriticalCallsTable {
  id: Generated<number>;
  organization_id: number;
  result_id: number;
  called_to: string;
  called_at: string;
  read_back: number;
  notes: string | null;
  recorded_by: number | null;
  recorded_by_name: string | null;
  created_at: string;
}

export interface ResultAmendmentsTable {
  id: Generated<number>;
  result_id: number;
  old_value: string | null;
  old_unit: string | null;
  old_flag: string | null;
  old_status: string;
  old_verified_by: number | null;
  old_verified_at: string | null;
  reason: string;
  /** The structured parameters before the amendment (JSON), for a structured test. */
  old_structured: string | null;
  /** The previous system's verifier of the amended result, when it was imported as verified. */
  old_previous_verifier: Generated<string | null>;
  /** The rule set that had released the amended result, when no person had. */
  old_autoverified_by: Generated<string | null>;
  amended_by: number | null;
  amended_at: string;
}

/** Merged into the database type (src/core/db/schema.ts) wherever this module is compiled. */
declare module '../db/schema.js' {
  interface DB {
    test_results: TestResultsTable;
    result_amendments: ResultAmendmentsTable;
    critical_calls: CriticalCallsTable;
  }
}
