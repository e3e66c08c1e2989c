import { accountsExportQuery, gstr1CsvQuery } from '../schemas/accounts.js';
import { defineRoute, fileResponse } from './contract.js';

/**
 * The accountant's month (export_accounts): the Tally day book, GSTR-1 as the offline tool's JSON
 * and its CSV sheets, and IRN-ready e-invoice JSON. They name bill numbers and payers, never a
 * patient, so they are not patient data leaving the lab (export_data is not asked for).
 */
export const accountsApi = {
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
