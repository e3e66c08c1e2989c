/**
 * The data screens: the jobs of `data_jobs` as the screens show them, uploads
 * kept for the import, imports and exports run in the background on a connection of their own
 * (an import's one transaction holds that connection while it runs), progress kept in memory and
 * read live, Cancel, export files kept for the lab's backup retention days, error reports, saved
 * column mappings. What a user may do is decided per entity (DATA_ENTITY_PERMISSIONS).
 */

export { dataDirs, entityInfos, type Requester } from './access.js';
export {
  toApi,
  listJobs,
  jobById,
  jobSummary,
  cancelJob,
  exportDownload,
  jobErrors,
  jobErrorReport,
  sweepExports,
} from './jobs.js';
export { listMappings, saveMapping, removeMapping } from './mappings.js';
export { stopJobs } from './running.js';
export { saveUpload, discardUpload, checkUpload, uploadAndCheck } from './upload-checks.js';
export { startImport, startExport } from './runs.js';
