import { z } from 'zod';
import { analyticsQuery, analyticsSchema, liveSchema } from '../schemas/analytics.js';
import { defineRoute } from './contract.js';

/**
 * Analytics Dashboard and Enhanced Dashboard. Analytics shows revenue and workload over a
 * range: view_reports. The live board is the bench's day (samples and results): view_samples and
 * view_results; its stock and calibration panels come only to roles that see those registers.
 */
export const analyticsApi = {
  get: defineRoute({
    method: 'GET',
    path: '/api/analytics',
    access: 'view_reports',
    query: analyticsQuery,
    response: z.object({ analytics: analyticsSchema }),
  }),
  live: defineRoute({
    method: 'GET',
    path: '/api/analytics/live',
    access: ['view_samples', 'view_results'],
    response: z.object({ live: liveSchema }),
  }),
};
