import type { Generated } from 'kysely';

/** Kysely table types of reports (migration 22). Timestamps are ISO-8601 UTC strings. */

export interface CustomReportsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  description: string | null;
  entity: string;
  /** JSON array of column keys of the entity. */
  columns: string;
  /** JSON object of the entity's filters (key -> value). */
  filters: string;
  range_days: Generated<number>;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface ReportRunsTable {
  id: Generated<number>;
  organization_id: number;
  report_id: string;
  format: string;
  from_date: string;
  to_date: string;
  row_count: number;
  user_id: number | null;
  /** The lab's calendar day of the run (Generated Today). */
  lab_date: string;
  created_at: string;
}

declare module '../db/schema.js' {
  interface DB {
    custom_reports: CustomReportsTable;
    report_runs: ReportRunsTable;
  }
}
