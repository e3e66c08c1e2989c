/** Import and export of every entity: the CLI and the server call these. */
export { ENTITIES, ENTITY_NAMES, entityNamed } from './registry.js';
export { runImport, type ImportOptions, type ImportProgress, type ImportResult } from './import.js';
export { runExport, checkFilters, type ExportOptions, type ExportResult } from './export.js';
export { parallelSettings, type ParallelSettings } from './parallel.js';
export { describeRowError, FileRefusedError, type ErrorGroup, type RowError } from './errors.js';
export { formatOfName, IMPORT_FORMATS, LIMITS, type TransferFormat } from './limits.js';
export { fileHeaders, normalizeHeader, safeFileName, type ColumnMapping } from './source.js';
export {
  failInterruptedJobs,
  finishJob,
  getJob,
  queueJob,
  recentJobs,
  workerName,
  type DataJobRow,
  type NewJob,
} from './jobs.js';
export { recordWriter, type RecordWriter } from './writers.js';
export type { AnyEntity, ExportQuery, TransferColumn, TransferEntity } from './entity.js';
