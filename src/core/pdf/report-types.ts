import type { StructuredOut } from '../../shared/schemas/results.js';
import type { Department } from '../../shared/schemas/lab-reports.js';
import type { ReportTemplatesTable } from '../lab-reports/tables.js';

/**
 * What a report prints about the lab: its name and contacts (or the blank space of pre-printed
 * paper), accreditation, date format and time zone. Taken from the settings of the moment the
 * report was released and kept with it, so a reprint shows what was released.
 */
export interface Letterhead {
  name: string;
  address: string | null;
  phone: string | null;
  email: string | null;
  date_format: string;
  timezone: string;
  /** "NABL · Certificate No. MC-1234"; null: not accredited. */
  accreditation: string | null;
  /** 'letterhead': plain paper, the report draws the lab's header. 'preprinted': the top is left blank. */
  stationery: 'letterhead' | 'preprinted';
  preprinted_header_mm: number;
}

/** A department's report template (src/core/lab-reports), the columns of its row the PDF prints. */
export type PdfTemplate = Pick<
  ReportTemplatesTable,
  | 'group_by'
  | 'header_text'
  | 'footer_text'
  | 'interpretation_notes'
  | 'signatory_name'
  | 'signatory_qualification'
  | 'signatory_registration'
  | 'signature_base64'
>;

/** One test on the report. "final" lines carry a verified value; the others carry none. */
export interface ReportLine {
  test_name: string;
  state: 'final' | 'unverified' | 'awaited';
  value: string | null;
  unit: string | null;
  normal_range: string | null;
  flag: string | null;
  critical: boolean;
  verified_by: string | null;
  verified_at: string | null;
  notes: string | null;
  amendments: { at: string; by: string | null; old_value: string | null; old_unit: string | null; reason: string }[];
  department: Department;
  category: string | null;
  method: string | null;
  /** A verified structured result: printed as tables under its line (structured-report.ts). */
  structured?: StructuredOut | null;
}

/** A test of the visit with no released result yet, named on the report instead of left out. */
export interface PendingTest {
  test_name: string;
  why: 'unverified' | 'awaited' | 'rejected';
}

export interface ReportSample {
  code: string;
  barcode: string | null;
  type: string;
  collected_at: string | null;
  /** Condition of the specimen on receipt, as recorded; null: not recorded. */
  condition: string | null;
  /** When the sample's report was released; null while results are awaited. */
  reported_at: string | null;
  /** The signed verification link the QR code opens; null: no address known, or not released. */
  verify_url: string | null;
}

export interface LabReportInput {
  letterhead: Letterhead;
  patient: { name: string; patient_number: string; age: string | null; sex: string | null; phone: string | null };
  /** The referring doctor; null prints "Self". */
  doctor: string | null;
  /** The report of one sample, or of a visit (a bill) with its samples. */
  scope: { kind: 'sample' } | { kind: 'visit'; bill_number: string };
  samples: ReportSample[];
  templates: Map<Department, PdfTemplate>;
  /** 1 for the first print or download of this report, 2 for the first reprint... */
  print_number: number;
  lines: ReportLine[];
  /** Tests of the visit not on the report yet (the visit report prints only released results). */
  pending: PendingTest[];
}
