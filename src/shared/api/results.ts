import { z } from 'zod';
import { downloadQuery, idParam, okResponse, requiredText } from '../schemas/common.js';
import {
  bulkVerifyResponseSchema,
  bulkVerifySchema,
  criticalCallSchema,
  reportStatusSchema,
  billReportSchema,
  resultCreateSchema,
  resultListQuery,
  resultPageSchema,
  resultRejectSchema,
  resultSheetSchema,
  resultSummarySchema,
  resultUpdateSchema,
  testResultSchema,
} from '../schemas/results.js';
import { resultSheetSavedSchema, resultSheetSaveSchema } from '../schemas/result-sheet-save.js';
import { defineRoute, fileResponse } from './contract.js';

const oneResult = z.object({ result: testResultSchema });

/** Result entry, verification (the validation queue) and the lab report (spec 001: Result Entry, Result Validation). */
export const resultsApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/test-results',
    access: 'view_results',
    query: resultListQuery,
    response: resultPageSchema,
  }),
  summary: defineRoute({
    method: 'GET',
    path: '/api/test-results/summary',
    access: 'view_results',
    response: z.object({ summary: resultSummarySchema }),
  }),
  /** Export Report: every result matching the filters as CSV, recorded in the audit trail. */
  export: defineRoute({
    method: 'GET',
    path: '/api/test-results/export',
    access: ['view_results', 'export_data'],
    query: resultListQuery,
    response: fileResponse('text/csv'),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/test-results/:id',
    access: 'view_results',
    params: idParam,
    response: oneResult,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/test-results',
    access: 'update_results',
    body: resultCreateSchema,
    response: oneResult,
    status: 201,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/test-results/:id',
    access: 'update_results',
    params: idParam,
    body: resultUpdateSchema,
    response: oneResult,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/test-results/:id',
    access: 'update_results',
    params: idParam,
    response: oneResult,
  }),
  /** The spec's client sends {verified_by}: no body is read, the verifier is the signed-in user. */
  verify: defineRoute({
    method: 'PUT',
    path: '/api/test-results/:id/verify',
    access: 'verify_results',
    params: idParam,
    response: oneResult,
  }),
  bulkVerify: defineRoute({
    method: 'POST',
    path: '/api/test-results/bulk-verify',
    access: 'verify_results',
    body: bulkVerifySchema,
    response: bulkVerifyResponseSchema,
  }),
  reject: defineRoute({
    method: 'PUT',
    path: '/api/test-results/:id/reject',
    access: 'verify_results',
    params: idParam,
    body: resultRejectSchema,
    response: oneResult,
  }),
  /** Validate a sample as a unit: the results the validator was shown on its report, each verified. */
  verifySample: defineRoute({
    method: 'POST',
    path: '/api/samples/:id/verify',
    access: 'verify_results',
    params: idParam,
    body: bulkVerifySchema,
    response: bulkVerifyResponseSchema,
  }),
  /** Logs the telephone call of a critical value (whom, when, read back); a report is released only after it. */
  criticalCall: defineRoute({
    method: 'POST',
    path: '/api/test-results/:id/critical-call',
    // Whoever enters or verifies results may make the call; the service checks one of the two.
    access: 'view_results',
    params: idParam,
    body: criticalCallSchema,
    response: oneResult,
    status: 201,
  }),
  /**
   * Whether the report may be printed now, and why not (asked before opening it). print_reports:
   * without view_results only a released report (every result verified) may be printed.
   */
  reportStatus: defineRoute({
    method: 'GET',
    path: '/api/samples/:id/report/status',
    access: 'print_reports',
    params: idParam,
    response: reportStatusSchema,
  }),
  /** Releases a report held because its bill has money due (the lab's holdReportsUntilPaid setting), with a reason. */
  releaseReport: defineRoute({
    method: 'POST',
    path: '/api/samples/:id/report/release',
    access: 'verify_results',
    params: idParam,
    body: z.object({ reason: requiredText('Reason', 500) }),
    response: okResponse,
  }),
  /** The reports of a bill, one per sample, for the desk that prints and hands them over: no values. */
  billReports: defineRoute({
    method: 'GET',
    path: '/api/bills/:id/reports',
    access: ['view_bills', 'print_reports'],
    params: idParam,
    response: z.object({ reports: z.array(billReportSchema) }),
  }),
  /** The result-entry sheet of a sample: each ordered test with the range for this patient and its result. */
  sheet: defineRoute({
    method: 'GET',
    path: '/api/samples/:id/results',
    access: 'view_results',
    params: idParam,
    response: resultSheetSchema,
  }),
  /** Save Results of the entry sheet: every row stored in one transaction, or none (400 naming each bad row). */
  saveSheet: defineRoute({
    method: 'POST',
    path: '/api/samples/:id/results',
    access: 'update_results',
    params: idParam,
    body: resultSheetSaveSchema,
    response: resultSheetSavedSchema,
  }),
  /** The report PDF; without view_results only once released (409 REPORT_NOT_RELEASED before). */
  report: defineRoute({
    method: 'GET',
    path: '/api/samples/:id/report.pdf',
    access: 'print_reports',
    params: idParam,
    query: downloadQuery,
    response: fileResponse('application/pdf'),
  }),
  /** The report of a visit: one PDF with the released results of every sample of the bill, pending tests named. */
  visitReport: defineRoute({
    method: 'GET',
    path: '/api/bills/:id/report.pdf',
    access: 'print_reports',
    params: idParam,
    query: downloadQuery,
    response: fileResponse('application/pdf'),
  }),
};
