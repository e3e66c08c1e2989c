import { revenueAnalyticsSchema, revenueDailySchema, revenueExportQuery, revenueQuery } from '../schemas/revenue.js';
import { defineRoute, fileResponse } from './contract.js';

/** Revenue Reports: figures from the payments ledger in the lab's calendar days. */
export const revenueApi = {
  daily: defineRoute({
    method: 'GET',
    path: '/api/revenue/daily',
    access: ['view_bills', 'view_reports'],
    query: revenueQuery,
    response: revenueDailySchema,
  }),
  analytics: defineRoute({
    method: 'GET',
    path: '/api/revenue/analytics',
    access: ['view_bills', 'view_reports'],
    query: revenueQuery,
    response: revenueAnalyticsSchema,
  }),
  export: defineRoute({
    method: 'GET',
    path: '/api/revenue/export',
    access: ['view_bills', 'view_reports', 'export_data'],
    query: revenueExportQuery,
    response: fileResponse('application/octet-stream'),
  }),
};
