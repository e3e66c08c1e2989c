import { z } from 'zod';
import {
  accountsExportQuery,
  accountsSettingsSchema,
  accountsSettingsUpdateSchema,
  accountsSummarySchema,
  gstr1CsvQuery,
} from '../schemas/accounts.js';
import { defineRoute, fileResponse } from './contract.js';

const settings = z.object({ settings: accountsSettingsSchema });

/**
 * The accountant's month (export_accounts): its figures, the Tally day book, GSTR-1 as the offline
 * tool's JSON and its CSV sheets, IRN-ready e-invoice JSON, and the settings they are written with. They name bill numbers and payers, never a
 * patient, so they are not patient data leaving the lab (export_data is not asked for).
 */
export const accountsApi = {
  summary: defineRoute({
    method: 'GET',
    path: '/api/accounts/summary',
    access: 'export_accounts',
    query: accountsExportQuery,
    response: z.object({ summary: accountsSummarySchema }),
  }),
  settings: defineRoute({
    method: 'GET',
    path: '/api/accounts/settings',
    access: 'export_accounts',
    response: settings,
  }),
  updateSettings: defineRoute({
    method: 'PUT',
    path: '/api/accounts/settings',
    access: 'export_accounts',
    body: accountsSettingsUpdateSchema,
    response: settings,
  }),
  tally: defineRoute({
    method: 'GET',
    path: '/api/accounts/tally/export',
    access: 'export_accounts',
    query: accountsExportQuery,
    response: fileResponse('application/xml'),
  }),
  gstr1: defineRoute({
    method: 'GET',
    path: '/api/accounts/gstr1/export',
    access: 'export_accounts',
    query: accountsExportQuery,
    response: fileResponse('application/json'),
  }),
  gstr1Csv: defineRoute({
    method: 'GET',
    path: '/api/accounts/gstr1/csv',
    access: 'export_accounts',
    query: gstr1CsvQuery,
    response: fileResponse('text/csv'),
  }),
  einvoice: defineRoute({
    method: 'GET',
    path: '/api/accounts/einvoice/export',
    access: 'export_accounts',
    query: accountsExportQuery,
    response: fileResponse('application/json'),
  }),
};
