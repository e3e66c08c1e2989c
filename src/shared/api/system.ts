import { z } from 'zod';
import { countsSchema } from '../schemas/dashboard.js';
import { chainReportSchema, diagnosticsSchema, jobStatusSchema, patientWriteCheckSchema } from '../schemas/system.js';
import { defineRoute } from './contract.js';

export const systemApi = {
  /** Dashboard figures: every signed-in user sees the lab's counts. */
  dashboardStats: defineRoute({
    method: 'GET',
    path: '/api/dashboard/stats',
    access: 'authenticated',
    response: z.object({ counts: countsSchema }),
  }),
  /**
   * Debug and connection-test screens: the server, its database file and size. The server's
   * operator's alone (manage_tenants, in the server's first lab): a lab's admin does not see them.
   */
  diagnostics: defineRoute({
    method: 'GET',
    path: '/api/system/diagnostics',
    access: 'manage_tenants',
    response: diagnosticsSchema,
  }),
  /** The server's recurring background jobs (src/server/jobs.ts): the server's operator's alone. */
  jobs: defineRoute({
    method: 'GET',
    path: '/api/system/jobs',
    access: 'manage_tenants',
    response: z.object({ jobs: z.array(jobStatusSchema) }),
  }),
  /** The audit trail is one hash chain through every lab's rows: checked by the server's operator. */
  auditChainCheck: defineRoute({
    method: 'POST',
    path: '/api/system/checks/audit-chain',
    access: 'manage_tenants',
    response: z.object({ audit: chainReportSchema }),
  }),
  /** Writes a patient inside a transaction and rolls it back: proves the write path without leaving data. */
  patientWriteCheck: defineRoute({
    method: 'POST',
    path: '/api/system/checks/patient-write',
    access: 'system_settings',
    response: z.object({ check: patientWriteCheckSchema }),
  }),
};
