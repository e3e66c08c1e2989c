import { z } from 'zod';

/** Digits a portal PIN has; staff issue it, the patient types it. */
export const PORTAL_PIN_LENGTH = 6;
/** A portal sign-in lasts 12 hours (a patient reads results on a shared or family phone). */
export const PORTAL_SESSION_HOURS = 12;
/** Notifications count results verified within this many days. */
export const PORTAL_NEW_RESULT_DAYS = 7;
/** The one answer to every failed portal sign-in, so it never tells which of the three was wrong. */
export const PORTAL_INVALID_LOGIN = 'Invalid patient ID, mobile number or PIN';
/** The answer to a patient of a suspended or inactive lab: sign-in refused, sessions ended. */
export const PORTAL_LAB_CLOSED = "This lab's portal is not available. Please contact the lab.";

const required = (label: string, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ error: `${label} is required` })
      .min(1, `${label} is required`)
      .max(max, `${label} is too long`),
  );

/** POST /api/portal/login. Shapes only; whether they match a patient is one 401 for all. */
export const portalLoginSchema = z.object({
  patient_id: required('Patient ID', 40),
  mobile: required('Mobile number', 20).refine(
    (v) => /^\+?[\d\s-]+$/.test(v),
    'Mobile number may contain only digits, spaces, dashes and a leading +',
  ),
  pin: required('PIN', 12).refine(
    (v) => new RegExp(`^\\d{${PORTAL_PIN_LENGTH}}$`).test(v),
    `PIN must be ${PORTAL_PIN_LENGTH} digits`,
  ),
});
export type PortalLogin = z.infer<typeof portalLoginSchema>;

/** POST /api/patients/{id}/portal-pin: the PIN in clear, this once. */
export const portalPinIssuedSchema = z.object({
  pin: z.string(),
  issued_at: z.string(),
  /** True when an earlier PIN was replaced (and its sessions ended). */
  reset: z.boolean(),
});
export type PortalPinIssued = z.infer<typeof portalPinIssuedSchema>;

/** GET /api/patients/{id}/portal-pin: whether the patient can sign in; never the PIN. */
export const portalPinStatusSchema = z.object({
  issued: z.boolean(),
  issued_at: z.string().nullable(),
});
export type PortalPinStatus = z.infer<typeof portalPinStatusSchema>;

/** Spec 3 "Portal records": the signed-in patient. */
export const portalPatientSchema = z.object({
  first_name: z.string(),
  last_name: z.string(),
  patient_id: z.string(),
  age: z.number().nullable(),
  /** The age as printed (formatAge): "8 months", "35 years". */
  age_text: z.string().nullable(),
  gender: z.string().nullable(),
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  blood_group: z.string().nullable(),
  membership_status: z.string(),
  registration_date: z.string(),
});
export type PortalPatient = z.infer<typeof portalPatientSchema>;

export const portalAppointmentSchema = z.object({
  id: z.number(),
  date: z.string(),
  time: z.string().nullable(),
  doctor_name: z.string().nullable(),
  doctor_specialization: z.string().nullable(),
  status: z.string(),
  type: z.string(),
  chief_complaint: z.string().nullable(),
  follow_up_date: z.string().nullable(),
});
export type PortalAppointment = z.infer<typeof portalAppointmentSchema>;

export const portalResultSchema = z.object({
  id: z.number(),
  test_name: z.string(),
  /** The lab-local date the sample was collected (else the result was entered). */
  test_date: z.string(),
  result_value: z.string().nullable(),
  normal_range: z.string().nullable(),
  unit: z.string().nullable(),
  flag: z.string().nullable(),
  status: z.string(),
  remarks: z.string().nullable(),
  /** The sample's code. */
  sample_id: z.string(),
  verified_at: z.string(),
  report_url: z.string(),
});
export type PortalResult = z.infer<typeof portalResultSchema>;

export const portalBillItemSchema = z.object({
  name: z.string(),
  qty: z.number(),
  price: z.number(),
  total: z.number(),
});
export type PortalBillItem = z.infer<typeof portalBillItemSchema>;

export const portalBillSchema = z.object({
  id: z.number(),
  bill_number: z.string(),
  bill_date: z.string(),
  /** The doctor's fee, discount and tax, so the lines add up to the total the patient sees. */
  consultation_fee: z.number(),
  discount_amount: z.number(),
  tax_amount: z.number(),
  total_amount: z.number(),
  paid_amount: z.number(),
  balance: z.number(),
  status: z.string(),
  payment_status: z.string(),
  payment_method: z.string(),
  items: z.array(portalBillItemSchema),
  pdf_url: z.string(),
  /** The visit's lab report (one PDF of all its samples' verified results); null until a result is verified. */
  report_url: z.string().nullable(),
});
export type PortalBill = z.infer<typeof portalBillSchema>;
