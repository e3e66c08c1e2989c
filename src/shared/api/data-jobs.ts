import { z } from 'zod';
import { idParam } from '../schemas/common.js';
import {
  dataJobListQuery,
  dataJobPageSchema,
  dataJobSchema,
  dataJobSummaryQuery,
  dataJobSummarySchema,
  dataMappingBody,
  dataMappingListQuery,
  dataMappingSchema,
  exportStartBody,
  importCheckBody,
  importCheckSchema,
  importStartBody,
  jobErrorsSchema,
  templateParams,
  templateQuery,
  transferEntitySchema,
  uploadParams,
  uploadQuery,
  uploadSchema,
} from '../schemas/data-jobs.js';
import { defineRoute, fileResponse } from './contract.js';

const oneJob = z.object({ job: dataJobSchema });

/**
 * Uploads of the data screens. The server's operator chooses the largest file one import may send
 * (`lims serve --upload-limit`, at most MAX_UPLOAD_BYTES) and how much one lab may hold at once
 * (`--upload-quota`); bigger files: `lims import` on the server.
 */
export const DEFAULT_UPLOAD_LIMIT_BYTES = 256 * 1024 * 1024;
export const DEFAULT_UPLOAD_QUOTA_BYTES = 512 * 1024 * 1024;
/** The most an operator may allow for one file: the largest CSV or JSON file an import reads. */
export const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

/**
 * The data screens: one API for import and export jobs, with a type. Every
 * route is open to signed-in staff; what each may see and do is decided per entity by
 * DATA_ENTITY_PERMISSIONS (importing needs the permission that creates the records, exporting the
 * one that reads them plus export_data), enforced by the server: a job of an entity the user may
 * neither import nor export is not listed and answers 404.
 */
export const dataJobsApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/data-jobs',
    access: 'authenticated',
    query: dataJobListQuery,
    response: dataJobPageSchema,
  }),
  /** Cards and analytics panels, from the jobs (checks left out). */
  summary: defineRoute({
    method: 'GET',
    path: '/api/data-jobs/summary',
    access: 'authenticated',
    query: dataJobSummaryQuery,
    response: z.object({ summary: dataJobSummarySchema }),
  }),
  /** The entities with their columns and what the user may do with each. */
  entities: defineRoute({
    method: 'GET',
    path: '/api/data-jobs/entities',
    access: 'authenticated',
    response: z.object({ entities: z.array(transferEntitySchema) }),
  }),
  /** An import template: the entity's columns and one example row (CSV, XLSX or JSON). */
  template: defineRoute({
    method: 'GET',
    path: '/api/data-jobs/templates/:entity',
    access: 'authenticated',
    params: templateParams,
    query: templateQuery,
    response: fileResponse('application/octet-stream'),
  }),
  /**
   * Upload and check: the body is the file (application/octet-stream, X-Lims-Upload: 1); it is kept
   * for an hour at most for the import, and checked at once as a dry run (a job of its own)
   * answering every row's errors. Nothing is stored. A file past the server's limit for one
   * import, or past the lab's quota of uploads held at once, is refused while it streams (413
   * FILE_TOO_LARGE, UPLOAD_QUOTA) and nothing of it is kept; a file that cannot be read at all is
   * removed at once.
   */
  upload: defineRoute({
    method: 'POST',
    path: '/api/data-jobs/uploads',
    access: 'authenticated',
    query: uploadQuery,
    response: z.object({ upload: uploadSchema, check: importCheckSchema }),
    status: 201,
    upload: true,
    bodyLimit: MAX_UPLOAD_BYTES,
  }),
  /** Checks an uploaded file again (another mapping, or --update). */
  check: defineRoute({
    method: 'POST',
    path: '/api/data-jobs/checks',
    access: 'authenticated',
    body: importCheckBody,
    response: z.object({ check: importCheckSchema }),
  }),
  /**
   * Discards an upload of the user's own (the import dialog closed, or another file chosen): the
   * file is removed at once. `removed` is false when it was no longer kept.
   */
  discardUpload: defineRoute({
    method: 'DELETE',
    path: '/api/data-jobs/uploads/:id',
    access: 'authenticated',
    params: uploadParams,
    response: z.object({ removed: z.boolean() }),
  }),
  /** Imports an uploaded file in the background; the job's progress is read with get. */
  startImport: defineRoute({
    method: 'POST',
    path: '/api/data-jobs/imports',
    access: 'authenticated',
    body: importStartBody,
    response: oneJob,
    status: 202,
  }),
  /** Exports in the background to a file kept for the lab's backup retention days. */
  startExport: defineRoute({
    method: 'POST',
    path: '/api/data-jobs/exports',
    access: 'authenticated',
    body: exportStartBody,
    response: oneJob,
    status: 202,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/data-jobs/:id',
    access: 'authenticated',
    params: idParam,
    response: oneJob,
    /** The screens poll a running job's progress: not the user's own activity. */
    background: true,
  }),
  /** Stops a running job of this server; an import stores nothing. */
  cancel: defineRoute({
    method: 'POST',
    path: '/api/data-jobs/:id/cancel',
    access: 'authenticated',
    params: idParam,
    response: oneJob,
  }),
  /** The file of a completed export, again (counted in download_count). */
  download: defineRoute({
    method: 'GET',
    path: '/api/data-jobs/:id/download',
    access: 'authenticated',
    params: idParam,
    response: fileResponse('application/octet-stream'),
  }),
  /** View Errors: the first 1,000 row errors of an import or check, and why it failed. */
  errors: defineRoute({
    method: 'GET',
    path: '/api/data-jobs/:id/errors',
    access: 'authenticated',
    params: idParam,
    response: jobErrorsSchema,
  }),
  /** Every row error as a CSV (row, column, problem). */
  errorReport: defineRoute({
    method: 'GET',
    path: '/api/data-jobs/:id/error-report',
    access: 'authenticated',
    params: idParam,
    response: fileResponse('text/csv'),
  }),
};

/** Saved named column mappings (per lab) for files from another system. */
export const dataMappingsApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/data-mappings',
    access: 'authenticated',
    query: dataMappingListQuery,
    response: z.object({ mappings: z.array(dataMappingSchema) }),
  }),
  /** Saves a mapping by name (a mapping of that name for the entity is replaced). */
  save: defineRoute({
    method: 'POST',
    path: '/api/data-mappings',
    access: 'authenticated',
    body: dataMappingBody,
    response: z.object({ mapping: dataMappingSchema }),
    status: 201,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/data-mappings/:id',
    access: 'authenticated',
    params: idParam,
    response: z.object({ mapping: dataMappingSchema }),
  }),
};
