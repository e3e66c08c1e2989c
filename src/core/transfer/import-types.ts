import type { AnyEntity } from './entity.js';
import type { ErrorGroup, RowError } from './errors.js';
import type { TransferFormat } from './limits.js';
import type { ColumnMapping } from './source.js';

/** What `runImport` (import.ts) is asked to do, what it reports as it goes, and what it answers. */

export interface ImportOptions {
  entity: AnyEntity;
  /** The file to read. */
  path: string;
  /** Its name as the person knows it (an upload's name); the path's last part unless given. */
  fileName?: string;
  format?: TransferFormat;
  mapping?: ColumnMapping;
  dryRun: boolean;
  update: boolean;
  origin: 'cli' | 'web';
  /** Where the full error report of job `id` is written (a CSV), or null for none. */
  reportPath: (jobId: number) => string | null;
  onProgress?: (p: ImportProgress) => void;
  /** Called with the job's id once it is recorded (the server answers the request then and runs on). */
  onJob?: (jobId: number) => void;
  /** Cancel (the screens' Cancel button): the import stops at the next row and stores nothing. */
  signal?: AbortSignal;
  /** A job already recorded as queued (jobs.ts queueJob): this import is it, started now. */
  jobId?: number;
  /** Called when a real import has ended in any way, before its job shows how (the upload is removed). */
  onEnded?: () => void;
  /**
   * Where the planned rows wait between the check and the store pass: a folder of the data dir
   * (the CLI and the server give one); the system's temporary folder when not given.
   */
  spoolDir?: string;
}

export interface ImportProgress {
  processed: number;
  errors: number;
  bytes: number;
  fileSize: number;
  /** In the store pass (the file is read and clean): rows written so far. */
  stored?: number;
}

export interface ImportResult {
  job_id: number;
  status: 'completed' | 'failed' | 'cancelled';
  entity: string;
  format: TransferFormat | null;
  file_name: string;
  dry_run: boolean;
  update: boolean;
  /** Data rows read (blank rows left out). */
  rows: number;
  inserted: number;
  updated: number;
  errors: number;
  /** "row" (CSV, XLSX) or "record" (JSON): how error rows are numbered. */
  unit: 'row' | 'record';
  /** The first row errors (LIMITS.keptErrors at most). */
  first_errors: RowError[];
  /** Every row error counted by kind, the most frequent first (the summary of the report). */
  error_groups: ErrorGroup[];
  error_file: string | null;
  /** Why the file as a whole was refused (then rows and errors are what was read before). */
  message: string | null;
  /** Columns of the file that were left out (mapped to null, read-only, or unknown JSON fields). */
  ignored_columns: string[];
}
