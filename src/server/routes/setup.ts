import type { FastifyInstance } from 'fastify';
import { setupApi } from '../../shared/api/setup.js';
import { isSetUp, setupLab } from '../../core/setup/service.js';
import { databaseLatencyMs } from '../../core/db/diagnostics.js';
import { route } from '../contract.js';

/** Health, and the web setup wizard: open only while the data dir holds no lab. */
export async function setupRoutes(app: FastifyInstance) {
  const db = app.database.db;

  route(app, setupApi.health, async () => {
    const latency = databaseLatencyMs(app.database);
    return {
      status: 'ok' as const,
      version: app.options_.version ?? null,
      database: { status: 'ok' as const, latency_ms: latency },
      setup_complete: await isSetUp(db),
      time: new Date().toISOString(),
    };
  });

  route(app, setupApi.status, async () => ({
    needs_setup: !(await isSetUp(db)),
    database: { type: 'SQLite' as const, file: app.database.file },
  }));

  route(app, setupApi.setup, async (req) => {
    const result = await setupLab(db, req.body);
    return { organization_id: result.organizationId, admin_id: result.adminId };
  });
}

export default setupRoutes;
