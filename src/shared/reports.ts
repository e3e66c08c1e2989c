/**
 * Reports: the spec's report types, date ranges and formats, the built-in catalogue's
 * ids, and what a custom report may be made of. Shared by the server, the CLI and the UI.
 */

export const REPORT_TYPES = ['patient', 'financial', 'laboratory', 'doctor'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** The date ranges the Reports screen offers (days); 30 is the default. */
export const REPORT_RANGES = [7, 30, 90, 365] as const;
export const DEFAULT_REPORT_RANGE = 30;
/** The longest period one run covers (a year and a day, for leap years). */
export const REPORT_MAX_DAYS = 366;
/** The largest page of a report's rows the JSON view returns (the screen pages 50, 100 or 200). */
export const REPORT_PAGE_MAX = 200;
/**
 * The most rows a report's PDF is made with (about 120 printed pages). Past it the PDF is refused
 * (409 REPORT_TOO_LARGE_FOR_PDF) and the screen offers CSV or XLSX instead: a year's patient
 * register of a busy lab is a spreadsheet, not something anyone prints.
 */
export const REPORT_PDF_MAX_ROWS = 5000;
/** The page size when only a page number is given. */
export const REPORT_PAGE_SIZE = 50;

export const REPORT_FORMATS = ['json', 'csv', 'xlsx', 'pdf'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const BUILT_IN_REPORT_IDS = [
  'patient-register',
  'daily-collection',
  'revenue-by-test',
  'dues',
  'discounts',
  'workload-by-test',
  'tat-by-test',
  'rejections',
  'critical-values',
  'referrals-by-doctor',
] as const;
export type BuiltInReportId = (typeof BUILT_IN_REPORT_IDS)[number];

/** A column's kind tells the screens and files how to show it: money is rupees. */
export const COLUMN_KINDS = ['text', 'number', 'money', 'date', 'datetime', 'percent'] as const;
export type ColumnKind = (typeof COLUMN_KINDS)[number];

export const CUSTOM_ENTITIES = ['patients', 'bills', 'samples', 'results'] as const;
export type CustomEntity = (typeof CUSTOM_ENTITIES)[number];

interface EntityDef {
  label: string;
  /** Which date the report's period applies to. */
  dateLabel: string;
  columns: Record<string, { label: string; kind: ColumnKind }>;
  filters: Record<string, { label: string; options: readonly string[] }>;
}

/** What a custom report may show and filter, per entity. The server builds the query from these keys only. */
export const CUSTOM_ENTITY_DEFS: Record<CustomEntity, EntityDef> = {
  patients: {
    label: 'Patients',
    dateLabel: 'registered',
    columns: {
      patient_code: { label: 'Patient ID', kind: 'text' },
      name: { label: 'Name', kind: 'text' },
      gender: { label: 'Gender', kind: 'text' },
      age: { label: 'Age', kind: 'number' },
      phone: { label: 'Mobile', kind: 'text' },
      city: { label: 'City', kind: 'text' },
      registered_at: { label: 'Registered', kind: 'datetime' },
    },
    filters: { gender: { label: 'Gender', options: ['Male', 'Female', 'Other'] } },
  },
  bills: {
    label: 'Bills',
    dateLabel: 'billed',
    columns: {
      bill_number: { label: 'Bill No.', kind: 'text' },
      billed_at: { label: 'Billed', kind: 'datetime' },
      patient_code: { label: 'Patient ID', kind: 'text' },
      patient_name: { label: 'Patient', kind: 'text' },
      doctor_name: { label: 'Doctor', kind: 'text' },
      final_amount: { label: 'Amount', kind: 'money' },
      discount: { label: 'Bill discount', kind: 'money' },
      paid: { label: 'Paid', kind: 'money' },
      due: { label: 'Due', kind: 'money' },
      status: { label: 'Status', kind: 'text' },
    },
    filters: { status: { label: 'Status', options: ['paid', 'partial', 'unpaid', 'cancelled'] } },
  },
  samples: {
    label: 'Samples',
    dateLabel: 'collected (or created, if not collected)',
    columns: {
      sample_code: { label: 'Sample ID', kind: 'text' },
      barcode: { label: 'Barcode', kind: 'text' },
      patient_code: { label: 'Patient ID', kind: 'text' },
      sample_type: { label: 'Type', kind: 'text' },
      status: { label: 'Status', kind: 'text' },
      priority: { label: 'Priority', kind: 'text' },
      collected_at: { label: 'Collected', kind: 'datetime' },
      rejection_reason: { label: 'Rejection reason', kind: 'text' },
    },
    filters: {
      status: { label: 'Status', options: ['pending', 'collected', 'processing', 'completed', 'rejected'] },
      sample_type: { label: 'Type', options: ['Blood', 'Urine', 'Stool', 'Sputum', 'Tissue', 'Other'] },
    },
  },
  results: {
    label: 'Test results',
    dateLabel: 'entered',
    columns: {
      sample_code: { label: 'Sample ID', kind: 'text' },
      patient_code: { label: 'Patient ID', kind: 'text' },
      test_name: { label: 'Test', kind: 'text' },
      result_value: { label: 'Result', kind: 'text' },
      unit: { label: 'Unit', kind: 'text' },
      flag: { label: 'Flag', kind: 'text' },
      critical: { label: 'Critical', kind: 'text' },
      status: { label: 'Status', kind: 'text' },
      entered_at: { label: 'Entered', kind: 'datetime' },
      verified_at: { label: 'Verified', kind: 'datetime' },
    },
    filters: {
      status: { label: 'Status', options: ['completed', 'verified', 'rejected'] },
      flag: { label: 'Flag', options: ['normal', 'low', 'high', 'abnormal'] },
      critical: { label: 'Critical', options: ['yes', 'no'] },
    },
  },
};

/** The id a saved custom report has in the catalogue and the API. */
export const customReportId = (id: number) => `custom-${id}`;
export const CUSTOM_ID = /^custom-([1-9]\d{0,11})$/;
