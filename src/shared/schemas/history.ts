import { z } from 'zod';
import type { Patient } from './patients.js';
import { isoDate, optionalText } from './common.js';

/** Kinds of visit a lab books; a bill with a doctor records a completed "consultation". */
export const VISIT_TYPES = ['consultation', 'follow_up', 'routine_checkup', 'emergency'] as const;
export type VisitType = (typeof VISIT_TYPES)[number];

export const VISIT_STATUSES = ['scheduled', 'completed', 'cancelled'] as const;
export type VisitStatus = (typeof VISIT_STATUSES)[number];

const id = (label: string) =>
  z.coerce
    .number({ error: `${label} must be an id` })
    .int(`${label} must be an id`)
    .positive(`${label} must be an id`);

/** 24-hour HH:MM, as the lab's clocks read. */
const visitTime = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
  z
    .string()
    .trim()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Visit time must be HH:MM (24-hour)')
    .nullable()
    .optional(),
);

const optionalDate = (label: string) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), isoDate(label).nullable().optional());

/** POST /api/patients/{id}/visits: schedule an appointment. */
export const visitCreateSchema = z.object({
  doctor_id: id('doctor_id'),
  visit_date: isoDate('Visit date'),
  visit_time: visitTime,
  visit_type: z
    .enum(VISIT_TYPES, { error: `Visit type must be one of ${VISIT_TYPES.join(', ')}` })
    .default('consultation'),
  chief_complaint: optionalText(1000),
});
export type VisitCreate = z.infer<typeof visitCreateSchema>;

/** PUT /api/visits/{id}: complete or cancel a visit and record what the doctor found. */
export const visitUpdateSchema = z.object({
  status: z
    .enum(['completed', 'cancelled'], { error: 'Status must be completed or cancelled (a new visit is scheduled)' })
    .optional(),
  chief_complaint: optionalText(1000),
  diagnosis: optionalText(2000),
  treatment: optionalText(2000),
  follow_up_date: optionalDate('Follow-up date'),
});
export type VisitUpdate = z.infer<typeof visitUpdateSchema>;

/** A visit (spec 3 "Visit") with the doctor's name and the bill it came from, if any. */
export interface Visit {
  id: number;
  patient_id: number;
  visit_type: string;
  status: string;
  visit_date: string;
  visit_time: string | null;
  doctor_id: number | null;
  doctor_name: string | null;
  doctor_specialization: string | null;
  chief_complaint: string | null;
  diagnosis: string | null;
  treatment: string | null;
  follow_up_date: string | null;
  bill_id: number | null;
  bill_number: string | null;
  created_at: string;
  updated_at: string;
}

/** Spec 3 "Test result (history view)", plus the sample's code and when it was verified. */
export interface HistoryTestResult {
  id: number;
  test_name: string;
  status: string;
  created_at: string;
  result_value: string | null;
  unit: string | null;
  normal_range: string | null;
  flag: string | null;
  is_critical: boolean;
  notes: string | null;
  /** The sample's code (SMP...), as the samples API calls it. */
  sample_id: string;
  verified_at: string | null;
}

export interface HistorySample {
  id: number;
  sample_id: string;
  barcode: string | null;
  sample_type: string;
  status: string;
  priority: string;
  collection_date: string | null;
  tests: string[];
  created_at: string;
}

/** Spec 3 "Bill (staff views) — history view": bill_number, bill_date, total_amount, payment_method, status. */
export interface HistoryBill {
  id: number;
  bill_number: string;
  bill_date: string;
  total_amount: number;
  paid_amount: number;
  payment_method: string;
  status: string;
  payment_status: string;
}

export interface HistoryTotals {
  /** Visits listed (every status). */
  visits: number;
  /** Results listed (every status). */
  test_results: number;
  /** Samples that were drawn: every sample except those still pending collection. */
  samples_collected: number;
  /** Bills listed, cancelled ones included. */
  bills: number;
  /** Rupees: the final amounts of the bills that are not cancelled. */
  total_amount: number;
}

/** GET /api/patients/{id}/history */
export interface PatientHistory {
  patient: Patient;
  totals: HistoryTotals;
  visits: Visit[];
  test_results: HistoryTestResult[];
  samples: HistorySample[];
  bills: HistoryBill[];
}
