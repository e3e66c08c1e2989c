import { z } from 'zod';
import { isoDate, optionalText, pageQuery, pagedShape, requiredText, strictNumber } from './common.js';

/**
 * Lab Reports (spec 001 "Lab Reports"): the register of patient lab reports, one per
 * sample, with the spec's statuses computed from the sample's results (never stored), the report
 * templates per department and the figures of Report Analytics and Quality Metrics.
 */

export const LAB_REPORT_STATUSES = ['draft', 'in_progress', 'pending_review', 'completed', 'cancelled'] as const;
export type LabReportStatus = (typeof LAB_REPORT_STATUSES)[number];

export const LAB_REPORT_STATUS_LABELS: Record<LabReportStatus, string> = {
  draft: 'Draft',
  in_progress: 'In Progress',
  pending_review: 'Pending Review',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

/**
 * The report's status from its sample and results: cancelled when the sample was rejected; draft
 * when no ordered test has a value; in_progress while some tests still have none; pending_review when
 * every test has a value and some are not verified; completed when every test is verified.
 */
export function labReportStatus(c: {
  sample_status: string;
  ordered: number;
  entered: number;
  verified: number;
}): LabReportStatus {
  if (c.sample_status === 'rejected') return 'cancelled';
  if (c.entered === 0) return 'draft';
  if (c.entered < c.ordered) return 'in_progress';
  if (c.verified < c.entered) return 'pending_review';
  return 'completed';
}

export const DEPARTMENTS = ['hematology', 'biochemistry', 'microbiology', 'pathology', 'immunology', 'custom'] as const;
export type Department = (typeof DEPARTMENTS)[number];
export const DEPARTMENT_LABELS: Record<Department, string> = {
  hematology: 'Hematology',
  biochemistry: 'Biochemistry',
  microbiology: 'Microbiology',
  pathology: 'Pathology',
  immunology: 'Immunology',
  custom: 'Custom',
};

/** Catalogue categories (lower case) -> department; any other category (or none) is Custom. */
const CATEGORY_DEPARTMENT: Record<string, Department> = {
  haematology: 'hematology',
  hematology: 'hematology',
  coagulation: 'hematology',
  biochemistry: 'biochemistry',
  diabetes: 'biochemistry',
  kidney: 'biochemistry',
  lipid: 'biochemistry',
  liver: 'biochemistry',
  thyroid: 'biochemistry',
  vitamins: 'biochemistry',
  electrolytes: 'biochemistry',
  hormones: 'biochemistry',
  microbiology: 'microbiology',
  culture: 'microbiology',
  'clinical pathology': 'pathology',
  pathology: 'pathology',
  urine: 'pathology',
  histopathology: 'pathology',
  cytology: 'pathology',
  serology: 'immunology',
  immunology: 'immunology',
};

export function departmentOf(category: string | null | undefined): Department {
  return CATEGORY_DEPARTMENT[(category ?? '').trim().toLowerCase()] ?? 'custom';
}

const blank = (v: unknown) => (v === '' || v === 'all' ? undefined : v);

export const labReportListQuery = pageQuery
  .extend({
    search: z.preprocess(blank, optionalText(100, 'Search')),
    status: z.preprocess(
      blank,
      z.enum(LAB_REPORT_STATUSES, { error: `status must be one of ${LAB_REPORT_STATUSES.join(', ')}` }).optional(),
    ),
    from: z.preprocess(blank, isoDate('from').optional()),
    to: z.preprocess(blank, isoDate('to').optional()),
    /** Only reports with a critical value whose telephone call is not logged yet. */
    critical: z.preprocess(blank, z.enum(['uncalled'], { error: 'critical must be uncalled' }).optional()),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['from'], message: 'from must not be after to' });
export type LabReportListQuery = z.infer<typeof labReportListQuery>;

export const labReportSchema = z.object({
  /** The sample's id: the report is the sample's. */
  id: z.number(),
  report_number: z.string(),
  sample_code: z.string(),
  barcode: z.string().nullable(),
  patient_id: z.number(),
  patient_name: z.string(),
  patient_number: z.string(),
  test_name: z.string(),
  departments: z.array(z.enum(DEPARTMENTS)),
  status: z.enum(LAB_REPORT_STATUSES),
  sample_status: z.string(),
  test_count: z.number(),
  result_count: z.number(),
  verified_count: z.number(),
  critical_values: z.number(),
  /** Critical values whose telephone call is not logged: the report cannot be released. */
  critical_uncalled: z.number(),
  generated_by: z.string().nullable(),
  generated_at: z.string().nullable(),
  reviewed_by: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  created_at: z.string(),
});
export type LabReport = z.infer<typeof labReportSchema>;

export const labReportPageSchema = z.object({ reports: z.array(labReportSchema), ...pagedShape });
export type LabReportPage = z.infer<typeof labReportPageSchema>;

export const labReportSummarySchema = z.object({
  total: z.number(),
  by_status: z.object(
    Object.fromEntries(LAB_REPORT_STATUSES.map((s) => [s, z.number()])) as Record<LabReportStatus, z.ZodNumber>,
  ),
  completed_today: z.number(),
  critical_reports: z.number(),
  critical_uncalled: z.number(),
});
export type LabReportSummary = z.infer<typeof labReportSummarySchema>;

export const analyticsQuery = z.object({
  days: z.preprocess(
    (v) => (v === '' || v === undefined ? undefined : typeof v === 'string' ? Number(v) : v),
    z
      .union([z.literal(7), z.literal(30), z.literal(90), z.literal(365)], { error: 'days must be 7, 30, 90 or 365' })
      .default(30),
  ),
});
export type AnalyticsQuery = z.infer<typeof analyticsQuery>;

export const labReportAnalyticsSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Each lab day of the range: samples registered, reports completed (all results verified). */
  per_day: z.array(z.object({ date: z.string(), registered: z.number(), completed: z.number() })),
  /** Collection -> report released, in hours, over reports completed in the range. */
  turnaround: z.object({
    reports: z.number(),
    median_hours: z.number().nullable(),
    p90_hours: z.number().nullable(),
  }),
  turnaround_by_department: z.array(
    z.object({ department: z.enum(DEPARTMENTS), results: z.number(), median_hours: z.number().nullable() }),
  ),
  quality: z.object({
    /** Verified results of the range, amended after verification (percent of verified). */
    verified_results: z.number(),
    amended_results: z.number(),
    amendment_rate: z.number().nullable(),
    /** Samples registered in the range that were rejected (percent of registered). */
    samples: z.number(),
    rejected_samples: z.number(),
    rejection_rate: z.number().nullable(),
    /** Results sent back by a validator (status rejected) among entered results. */
    entered_results: z.number(),
    sent_back_results: z.number(),
    critical_values: z.number(),
    critical_called: z.number(),
    /** Median minutes from the verification of a critical value to its logged call. */
    critical_call_median_minutes: z.number().nullable(),
  }),
  /** The latest verifications, amendments and send-backs (Result Validation's Recent Activity). */
  recent: z.array(
    z.object({
      kind: z.enum(['verified', 'amended', 'sent_back', 'called']),
      at: z.string(),
      by: z.string().nullable(),
      sample_code: z.string(),
      test_name: z.string(),
      sample_id: z.number(),
    }),
  ),
});
export type LabReportAnalytics = z.infer<typeof labReportAnalyticsSchema>;

export const departmentParam = z.object({
  department: z.enum(DEPARTMENTS, { error: `department must be one of ${DEPARTMENTS.join(', ')}` }),
});

export const GROUPINGS = ['category', 'none'] as const;

export const templateUpdateSchema = z.object({
  group_by: z.enum(GROUPINGS, { error: 'group_by must be category or none' }),
  header_text: optionalText(300, 'Header text'),
  footer_text: optionalText(500, 'Footer text'),
  interpretation_notes: optionalText(2000, 'Interpretation notes'),
  signatory_name: optionalText(100, 'Signatory name'),
  signatory_qualification: optionalText(150, 'Signatory qualification'),
  signatory_registration: optionalText(60, 'Signatory registration number'),
});
export type TemplateUpdate = z.infer<typeof templateUpdateSchema>;

export const reportTemplateSchema = z.object({
  department: z.enum(DEPARTMENTS),
  group_by: z.enum(GROUPINGS),
  header_text: z.string().nullable(),
  footer_text: z.string().nullable(),
  interpretation_notes: z.string().nullable(),
  signatory_name: z.string().nullable(),
  signatory_qualification: z.string().nullable(),
  signatory_registration: z.string().nullable(),
  /** The signature image's type (PNG or JPEG) when one is uploaded. */
  signature_type: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export type ReportTemplate = z.infer<typeof reportTemplateSchema>;

export const SIGNATURE_MAX_BYTES = 512 * 1024;

export const signatureUploadSchema = z.object({
  file_name: requiredText('File name', 200),
  content_base64: z
    .string({ error: 'content_base64 is required (the image as base64)' })
    .min(1, 'content_base64 is required (the image as base64)')
    .regex(/^[A-Za-z0-9+/\r\n]*={0,2}\s*$/, 'content_base64 must be base64'),
});
export type SignatureUpload = z.infer<typeof signatureUploadSchema>;

/** Lab-wide report settings: the accreditation printed in the header, the address the QR code opens. */
/** The paper a report is printed on: plain (the report draws the letterhead) or with a pre-printed letterhead. */
export const REPORT_STATIONERY = ['letterhead', 'preprinted'] as const;
export type ReportStationery = (typeof REPORT_STATIONERY)[number];

export const reportSettingsUpdateSchema = z.object({
  accreditation_body: optionalText(60, 'Accreditation body'),
  accreditation_number: optionalText(60, 'Accreditation number'),
  public_url: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : typeof v === 'string' ? v.trim().replace(/\/+$/, '') : v),
    z
      .string()
      .max(200, 'Public address must be at most 200 characters')
      .regex(/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/[A-Za-z0-9._~/-]*)?$/, {
        message: 'Public address must be an http(s) address such as https://lab.example.in',
      })
      .nullable()
      .optional(),
  ),
  /** Plain paper: the report prints the lab's letterhead. Pre-printed: it leaves the top blank for the paper's own. */
  stationery: z.enum(REPORT_STATIONERY, { error: 'Stationery must be letterhead or preprinted' }).optional(),
  preprinted_header_mm: strictNumber(
    z
      .number({ error: 'Pre-printed header height must be a number of millimetres' })
      .int('Pre-printed header height must be a whole number of millimetres')
      .min(0, 'Pre-printed header height must be 0-120 mm')
      .max(120, 'Pre-printed header height must be 0-120 mm'),
  ).optional(),
});
export type ReportSettingsUpdate = z.infer<typeof reportSettingsUpdateSchema>;

export const reportSettingsSchema = z.object({
  accreditation_body: z.string().nullable(),
  accreditation_number: z.string().nullable(),
  public_url: z.string().nullable(),
  stationery: z.enum(REPORT_STATIONERY),
  preprinted_header_mm: z.number().int(),
});
export type ReportSettings = z.infer<typeof reportSettingsSchema>;

export const verifyQuery = z.object({
  token: z.string({ error: 'token is required' }).min(1, 'token is required').max(200, 'token is too long'),
});

/** What the public verification page shows: nothing beyond the patient's initials. */
export const reportVerificationSchema = z.object({
  genuine: z.literal(true),
  lab_name: z.string(),
  patient_initials: z.string(),
  sample_code: z.string(),
  collected_at: z.string().nullable(),
  reported_at: z.string().nullable(),
  tests: z.array(z.object({ name: z.string(), verified_at: z.string().nullable() })),
  verified_at: z.string(),
});
export type ReportVerification = z.infer<typeof reportVerificationSchema>;
