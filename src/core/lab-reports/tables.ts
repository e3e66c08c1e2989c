import type { Generated } from 'kysely';

/** Kysely table types of Lab Reports (migration 23). Timestamps are ISO-8601 UTC strings. */

export interface ReportTemplatesTable {
  id: Generated<number>;
  organization_id: number;
  department: string;
  group_by: string;
  header_text: string | null;
  footer_text: string | null;
  interpretation_notes: string | null;
  signatory_name: string | null;
  signatory_qualification: string | null;
  signatory_registration: string | null;
  signature_type: string | null;
  signature_base64: string | null;
  updated_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface ReportSettingsTable {
  organization_id: number;
  accreditation_body: string | null;
  accreditation_number: string | null;
  public_url: string | null;
  /** Signs the report's verification links (HMAC-SHA256); never leaves the server. */
  verify_secret: string;
  /** 'letterhead' (plain paper: the report prints the lab's header) or 'preprinted' (migration 41). */
  stationery: Generated<string>;
  /** The blank space left at the top of pre-printed paper, in millimetres. */
  preprinted_header_mm: Generated<number>;
  created_at: string;
  updated_at: string;
}

declare module '../db/schema.js' {
  interface DB {
    report_templates: ReportTemplatesTable;
    report_settings: ReportSettingsTable;
  }
}
