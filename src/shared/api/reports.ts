import { z } from 'zod';
import {
  customReportCreateSchema,
  customReportSchema,
  monthlyQuery,
  monthlyReportSchema,
  reportCatalogueQuery,
  reportCatalogueSchema,
  reportIdParams,
  reportResponseSchema,
  reportRunQuery,
} from '../schemas/reports.js';
import { okResponse } from '../schemas/common.js';
import { defineRoute } from './contract.js';

/**
 * Reports and Comprehensive Reports. Every run is recorded (the catalogue's counts and
 * cards). Each report also needs the permissions of the rows it shows (financial: view_bills,
 * patient: view_patients, laboratory: view_results or view_samples); CSV and XLSX also need
 * export_data. Those depend on the report and the format, so the service checks them (403).
 */
export const reportsApi = {
  catalogue: defineRoute({
    method: 'GET',
    path: '/api/reports',
    access: 'view_reports',
    query: reportCatalogueQuery,
    response: reportCatalogueSchema,
  }),
  /** One report: JSON `{report}` (format=json, the default), or the file for csv, xlsx and pdf. */
  run: defineRoute({
    method: 'GET',
    path: '/api/reports/:id',
    access: 'view_reports',
    params: reportIdParams,
    query: reportRunQuery,
    response: reportResponseSchema,
  }),
  createCustom: defineRoute({
    method: 'POST',
    path: '/api/reports',
    access: ['view_reports', 'create_reports'],
    body: customReportCreateSchema,
    response: z.object({ report: customReportSchema }),
    status: 201,
  }),
  removeCustom: defineRoute({
    method: 'DELETE',
    path: '/api/reports/:id',
    access: ['view_reports', 'create_reports'],
    params: reportIdParams,
    response: okResponse,
  }),
  /** The monthly management report: figures and sections as JSON, or the one PDF (format=pdf). */
  monthly: defineRoute({
    method: 'GET',
    path: '/api/comprehensive-reports/monthly',
    access: 'view_reports',
    query: monthlyQuery,
    response: z.object({ monthly: monthlyReportSchema }),
  }),
};
