import { z } from 'zod';

/** Digits a portal PIN has; staff issue it, the patient types it. */
export const PORTAL_PIN_LENGTH = 6;
/** A portal sign-in lasts 12 hours (a patient reads results on a shared or family phone). */
export const PORTAL_SESSION_HOURS = 12;
/** Notifications count results verified within this many days. */
export const PORTAL_NEW_RESULT_DAYS = 7;
/** The one answer to every failed portal sign-in, so it never tells which of the three was wrong. */
export const PORTAL_INVALID_LOGIN = 'Invalid patient ID, mobile number or PIN';

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
export interface PortalPinIssued {
  pin: string;
  issued_at: string;
  /** True when an earlier PIN was replaced (and its sessions ended). */
  reset: boolean;
}

/** GET /api/patients/{id}/portal-pin: whether the patient can sign in; never the PIN. */
export interface PortalPinStatus {
  issued: boolean;
  issued_at: string | null;
}

/** Spec 3 "Portal records": the signed-in patient. */
export interface PortalPatient {
  first_name: string;
  last_name: string;
  patient_id: string;
  age: number | null;
  gender: string | null;
  mobile: string | null;
  email: string | null;
  blood_group: string | null;
  membership_status: string;
  registration_date: string;
}

export interface PortalAppointment {
  id: number;
  date: string;
  time: string | null;
  doctor_name: string | null;
  doctor_specialization: string | null;
  status: string;
  type: string;
  chief_complaint: string | null;
  follow_up_date: string | null;
}

export interface PortalResult {
  id: number;
  test_name: string;
  /** The lab-local date the sample was collected (else the result was entered). */
  test_date: string;
  result_value: string | null;
  normal_range: string | null;
  unit: string | null;
  flag: string | null;
  status: string;
  remarks: string | null;
  /** The sample's code. */
  sample_id: string;
  verified_at: string;
  report_url: string;
}

export interface PortalBillItem {
  name: string;
  qty: number;
  price: number;
  total: number;
}

export interface PortalBill {
  id: number;
  bill_number: string;
  bill_date: string;
  /** The doctor's fee, discount and tax, so the lines add up to the total the patient sees. */
  consultation_fee: number;
  discount_amount: number;
  tax_amount: number;
  total_amount: number;
  paid_amount: number;
  balance: number;
  status: string;
  payment_status: string;
  payment_method: string;
  items: PortalBillItem[];
  pdf_url: string;
}
