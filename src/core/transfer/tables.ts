import type { Generated } from 'kysely';

/** Kysely type of the import and export jobs (migration 015_data_jobs). Timestamps are ISO-8601 UTC. */
export interface DataJobsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  type: 'import' | 'export';
  entity: string;
  format: 'csv' | 'xlsx' | 'json' | 'pdf';
  status: 'pending' | 'in_progress' | 'completed' | 'failed' | 'cancelled';
  origin: 'cli' | 'web';
  dry_run: number;
  file_name: string | null;
  file_size: number | null;
  records: number | null;
  processed: number;
  inserted: number;
  updated: number;
  errors: number;
  /** JSON: what the job was asked (update, mapping, filters). */
  options: string | null;
  /** One line: why a job failed as a whole (unreadable file, too many columns, ...). */
  error_message: string | null;
  /** JSON: the first row errors [{row, column, message}] (the full list is in error_file). */
  error_report: string | null;
  /** JSON: the row errors counted by kind [{column, count, rows, message}] (migration 046). */
  error_groups: string | null;
  error_file: string | null;
  output_file: string | null;
  worker: string | null;
  requested_by: number | null;
  requested_by_name: string | null;
  download_count: number;
  requested_at: string;
  started_at: string | null;
  completed_at: string | null;
  updated_at: string;
}

declare module '../db/schema.js' {
  interface DB {
    data_jobs: DataJobsTable;
  }
}
