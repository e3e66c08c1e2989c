import { z } from 'zod';
import {
  analyticsQuery,
  departmentParam,
  labReportAnalyticsSchema,
  labReportListQuery,
  labReportPageSchema,
  labReportSummarySchema,
  reportSettingsSchema,
  reportSettingsUpdateSchema,
  reportTemplateSchema,
  reportVerificationSchema,
  SIGNATURE_MAX_BYTES,
  signatureUploadSchema,
  templateUpdateSchema,
  verifyQuery,
} from '../schemas/lab-reports.js';
import { defineRoute } from './contract.js';

const oneTemplate = z.object({ template: reportTemplateSchema });

/**
 * Lab Reports. The register and its figures are patient results: view_results (the
 * bench, validators, doctors, the lab manager). Templates, signatories and report settings change
 * what every report says: manage_lab. The verification link is public (the QR code on the report).
 */
export const labReportsApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/lab-reports',
    access: 'view_results',
    query: labReportListQuery,
    response: labReportPageSchema,
  }),
  summary: defineRoute({
    method: 'GET',
    path: '/api/lab-reports/summary',
    access: 'view_results',
    response: z.object({ summary: labReportSummarySchema }),
  }),
  /** Report Analytics, Quality Metrics and recent activity over the last 7, 30, 90 or 365 days. */
  analytics: defineRoute({
    method: 'GET',
    path: '/api/lab-reports/analytics',
    access: 'view_results',
    query: analyticsQuery,
    response: z.object({ analytics: labReportAnalyticsSchema }),
  }),
  templates: defineRoute({
    method: 'GET',
    path: '/api/lab-reports/templates',
    access: 'view_results',
    response: z.object({ templates: z.array(reportTemplateSchema) }),
  }),
  saveTemplate: defineRoute({
    method: 'PUT',
    path: '/api/lab-reports/templates/:department',
    access: 'manage_lab',
    params: departmentParam,
    body: templateUpdateSchema,
    response: oneTemplate,
  }),
  /** The signatory's signature image (PNG or JPEG, base64 JSON), kept in the database. */
  uploadSignature: defineRoute({
    method: 'PUT',
    path: '/api/lab-reports/templates/:department/signature',
    access: 'manage_lab',
    params: departmentParam,
    body: signatureUploadSchema,
    bodyLimit: Math.ceil((SIGNATURE_MAX_BYTES * 4) / 3) + 16 * 1024,
    response: oneTemplate,
  }),
  removeSignature: defineRoute({
    method: 'DELETE',
    path: '/api/lab-reports/templates/:department/signature',
    access: 'manage_lab',
    params: departmentParam,
    response: oneTemplate,
  }),
  settings: defineRoute({
    method: 'GET',
    path: '/api/lab-reports/settings',
    access: 'view_results',
    response: z.object({ settings: reportSettingsSchema }),
  }),
  saveSettings: defineRoute({
    method: 'PUT',
    path: '/api/lab-reports/settings',
    access: 'manage_lab',
    body: reportSettingsUpdateSchema,
    response: z.object({ settings: reportSettingsSchema }),
  }),
  /** The page the report's QR code opens: no sign-in; a changed link is refused (404). */
  verify: defineRoute({
    method: 'GET',
    path: '/api/report-verification',
    access: 'public',
    query: verifyQuery,
    response: z.object({ verification: reportVerificationSchema }),
  }),
};
