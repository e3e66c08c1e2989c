import { z } from 'zod';
import { databaseCheckSchema, postgresConnectionSchema, setupSchema } from '../schemas/setup.js';
import { healthSchema } from '../schemas/system.js';
import { defineRoute } from './contract.js';

export const setupApi = {
  health: defineRoute({ method: 'GET', path: '/api/health', access: 'public', response: healthSchema }),
  /** The web setup wizard: open only while the data dir holds no lab. */
  status: defineRoute({
    method: 'GET',
    path: '/api/setup/status',
    access: 'public',
    /** The database file is named only while the lab is not set up (the wizard shows it); after that, only needs_setup. */
    response: z.object({
      needs_setup: z.boolean(),
      database: z
        .discriminatedUnion('type', [
          z.object({ type: z.literal('SQLite'), file: z.string() }),
          z.object({ type: z.literal('PostgreSQL'), server: z.string() }),
        ])
        .optional(),
    }),
  }),
  /** The wizard's Test Connection: can lims use this PostgreSQL database for a new lab? Open only before setup. */
  checkDatabase: defineRoute({
    method: 'POST',
    path: '/api/setup/database-check',
    access: 'public',
    body: postgresConnectionSchema,
    response: z.object({ check: databaseCheckSchema }),
  }),
  setup: defineRoute({
    method: 'POST',
    path: '/api/setup',
    access: 'public',
    body: setupSchema,
    response: z.object({ organization_id: z.number().int(), admin_id: z.number().int() }),
    status: 201,
  }),
};
