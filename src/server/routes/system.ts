import type { FastifyInstance } from 'fastify';
import { counts } from '../../core/dashboard/stats.js';
import { databaseDiagnostics } from '../../core/db/diagnostics.js';
import { verifyChain } from '../../core/audit/audit.js';
import { checkPatientWrite } from '../../core/patients/diagnostics.js';
import { actorOf } from '../plugins/auth.js';

const started = Date.now();

export async function systemRoutes(app: FastifyInstance) {
  const db = app.database.db;

  /** Dashboard figures: every signed-in user sees the lab's counts. */
  app.get('/api/dashboard/stats', { config: { access: 'authenticated' } }, async (req) => ({
    counts: await counts(db, actorOf(req).organizationId),
  }));

  /** Debug and connection-test screens: real diagnostics, admins only. */
  app.get('/api/system/diagnostics', { config: { access: 'system_settings' } }, async (req) => ({
    server: {
      version: app.options_.version ?? null,
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      uptime_seconds: Math.round((Date.now() - started) / 1000),
      memory_mb: Math.round(process.memoryUsage().rss / 1048576),
      demo: app.options_.demo === true,
    },
    database: databaseDiagnostics(app.database),
    counts: await counts(db, actorOf(req).organizationId),
  }));

  app.post('/api/system/checks/audit-chain', { config: { access: 'system_settings' } }, async () => ({
    audit: await verifyChain(db),
  }));

  /** Writes a patient inside a transaction and rolls it back: proves the write path without leaving data. */
  app.post('/api/system/checks/patient-write', { config: { access: 'system_settings' } }, async (req) => ({
    check: await checkPatientWrite(db, actorOf(req)),
  }));
}
