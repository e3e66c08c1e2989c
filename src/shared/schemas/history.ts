import { z } from 'zod';
import { patientSchema } from './patients.js';
import { isoDate, optionalText, strictNumber } from './common.js';

/** Kinds of visit a lab books; a bill with a doctor records a completed "consultation". */
export const VISIT_TYPES = ['consultation', 'follow_up', 'routine_checkup', 'emergency'] as const;
export type VisitType = (typeof VISIT_TYPES)[number];

export const VISIT_STATUSES = ['scheduled', 'completed', 'cancelled'] as const;
export type VisitStatus = (typeof VISIT_STATUSES)[number];

const id = (label: string) =>
  strictNumber(
    z
      .number({ error: `${label} must be an id` })
      .int(`${label} must be an id`)
      .positive(`${label} must be an id`),
  );

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
export const visitSchema = z.object({
  id: z.number(),
  patient_id: z.number(),
  visit_type: z.string(),
  status: z.string(),
  visit_date: z.string(),
  visit_time: z.string().nullable(),
  doctor_id: z.number().nullable(),
  doctor_name: z.string().nullable(),
  doctor_specialization: z.string().nullable(),
  chief_complaint: z.string().nullable(),
  diagnosis: z.string().nullable(),
  treatment: z.string().nullable(),
  follow_up_date: z.string().nullable(),
  bill_id: z.number().nullable(),
  bill_number: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Visit = z.infer<typeof visitSchema>;

/** Spec 3 "Test result (history view)", plus the sample's code and when it was verified. */
export const historyTestResultSchema = z.object({
  id: z.number(),
  test_name: z.string(),
  status: z.string(),
  created_at: z.string(),
  result_value: z.string().nullable(),
  unit: z.string().nullable(),
  normal_range: z.string().nullable(),
  flag: z.string().nullable(),
  is_critical: z.boolean(),
  notes: z.string().nullable(),
  /** The sample's code (SMP...), as the samples API calls it. */
  sample_id: z.string(),
  verified_at: z.string().nullable(),
});
export type HistoryTestResult = z.infer<typeof historyTestResultSchema>;

export const historySampleSchema = z.object({
  id: z.number(),
  sample_id: z.string(),
  barcode: z.string().nullable(),
  sample_type: z.string(),
  status: z.string(),
  priority: z.string(),
  collection_date: z.string().nullable(),
  tests: z.array(z.string()),
  created_at: z.string(),
});
export type HistorySample = z.infer<typeof historySampleSchema>;

/** Spec 3 "Bill (staff views) — history view": bill_number, bill_date, total_amount, payment_method, status. */
export const historyBillSchema = z.object({
  id: z.number(),
  bill_number: z.string(),
  bill_date: z.string(),
  total_amount: z.number(),
  paid_amount: z.number(),
  payment_method: z.string(),
  status: z.string(),
  payment_status: z.string(),
});
export type HistoryBill = z.infer<typeof historyBillSchema>;

export const historyTotalsSchema = z.object({
  /** Visits listed (every status). */
  visits: z.number(),
  /** Results listed (every status). */
  test_results: z.number(),
  /** Samples that were drawn: every sample except those still pending collection. */
  samples_collected: z.number(),
  /** Bills listed, cancelled ones included. */
  bills: z.number(),
  /** Rupees: the final amounts of the bills that are not cancelled. */
  total_amount: z.number(),
});
export type HistoryTotals = z.infer<typeof historyTotalsSchema>;

/** GET /api/patients/{id}/history */
export const patientHistorySchema = z.object({
  patient: patientSchema,
  totals: historyTotalsSchema,
  visits: z.array(visitSchema),
  test_results: z.array(historyTestResultSchema),
  samples: z.array(historySampleSchema),
  bills: z.array(historyBillSchema),
});
export type PatientHistory = z.infer<typeof patientHistorySchema>;
