import { ageOn, ageParts, formatAge } from '../../shared/age.js';
import { localDate } from '../../shared/time.js';
import { pickRange, type ReferenceRange } from '../../shared/flags.js';
import {
  reviewReasons,
  validationStatusOf,
  verifierName,
  type ResultAmendment,
  type ResultStatus,
  type TestResult,
} from '../../shared/schemas/results.js';
import type { ListRow } from './repository.js';
import { parseStructured } from '../../shared/templates/index.js';
import type { CallRow } from './entry-repository.js';

export function parseRanges(json: string | null): ReferenceRange[] {
  if (!json) return [];
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? (v as ReferenceRange[]) : [];
  } catch {
    return [];
  }
}

/** The lab's calendar day of a moment (today for none): ages are counted on it, whatever the server's zone. */
function labDayOf(at: string | null, timeZone: string): string {
  return localDate(timeZone, at ? new Date(at) : new Date());
}

/**
 * Age in whole years on the lab's calendar day the sample was collected (today for a sample not
 * collected yet): the day in the lab's time zone, whatever the server's, so an age band's reference
 * range changes on the patient's birthday as the lab counts it.
 */
export function ageAt(dob: string | null, at: string | null, timeZone: string): number | null {
  if (!dob) return null;
  return ageOn(dob, labDayOf(at, timeZone));
}

/** The age as printed (formatAge) on the lab's day of collection: "8 months", "35 years". */
export function ageTextAt(dob: string | null, at: string | null, timeZone: string): string | null {
  return formatAge(dob, labDayOf(at, timeZone));
}

/** The reference range that applies to this patient: sex- and age-specific first, the test's general range otherwise. */
export function rangeForPatient(
  test: { reference_ranges: string | null; normal_range: string | null },
  patient: { gender: string | null; date_of_birth: string | null },
  collectedAt: string | null,
  timeZone: string,
): ReferenceRange | null {
  return pickRange(parseRanges(test.reference_ranges), test.normal_range, {
    sex: patient.gender,
    age: patient.date_of_birth ? ageParts(patient.date_of_birth, labDayOf(collectedAt, timeZone)) : null,
  });
}

/** The API's result; `timeZone` is the lab's (the age that picks a pending row's range). */
export function toResult(
  r: ListRow,
  timeZone: string,
  amendments?: ResultAmendment[],
  call?: CallRow | null,
): TestResult {
  const reviewRequired = r.review_required === 1;
  // A pending row shows the range that will be used for this patient once a value is entered.
  const normalRange =
    r.id === null
      ? (rangeForPatient(
          { reference_ranges: r.reference_ranges, normal_range: r.normal_range },
          { gender: r.patient_gender, date_of_birth: r.patient_dob },
          r.collection_date,
          timeZone,
        )?.range ?? null)
      : r.normal_range;
  return {
    id: r.id,
    key: r.id === null ? `S${r.sample_id}-T${r.test_id}` : `R${r.id}`,
    sample_id: r.sample_id,
    test_id: r.test_id,
    patient_id: r.patient_id,
    first_name: r.first_name,
    last_name: r.last_name,
    patient_number: r.patient_number,
    test_name: r.test_name,
    test_code: r.test_code,
    sample_number: r.sample_number,
    sample_barcode: r.sample_barcode,
    bill_id: r.sample_bill_id === null ? null : Number(r.sample_bill_id),
    sample_status: r.sample_status,
    result_value: r.result_value,
    structured: parseStructured(r.structured_value),
    unit: r.unit,
    normal_range: normalRange,
    flag: r.flag,
    status: r.status as ResultStatus,
    validation_status: validationStatusOf(r.status, reviewRequired),
    is_critical: r.is_critical === 1,
    review_required: reviewRequired,
    amended: r.amended === 1,
    notes: r.notes,
    rejection_reason: r.rejection_reason,
    priority: r.priority,
    technician_id: r.technician_id,
    technician_name: r.technician_name,
    entered_at: r.entered_at,
    verified_by: r.verified_by,
    verified_by_name: verifierName(r.verified_by_name, r.previous_verifier, r.autoverified_by),
    previous_verifier: r.previous_verifier,
    autoverified_by: r.autoverified_by,
    verified_at: r.verified_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
    ...(amendments ? { amendments } : {}),
    previous_value: r.previous_value,
    previous_at: r.previous_at,
    delta_failed: r.delta_failed === 1,
    calculated: r.calculated === 1,
    review_reasons:
      r.status === 'completed' || r.status === 'verified'
        ? reviewReasons({
            flag: r.flag,
            is_critical: r.is_critical === 1,
            delta_failed: r.delta_failed === 1,
            amended: r.amended === 1,
          })
        : [],
    // Set for the signed-in user by markVerifiable (verify-rules.ts); no one may verify until then.
    can_verify: false,
    verify_refusal: null,
    equipment_id: r.equipment_id ?? null,
    equipment_warning: r.equipment_warning ?? null,
    critical_call: call
      ? {
          called_to: call.called_to,
          called_at: call.called_at,
          read_back: call.read_back === 1,
          notes: call.notes,
          recorded_by_name: call.recorded_by_name,
          minutes_to_call: r.entered_at
            ? Math.max(0, Math.round((Date.parse(call.called_at) - Date.parse(r.entered_at)) / 60_000))
            : null,
        }
      : null,
  };
}
