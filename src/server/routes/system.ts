import type { FastifyInstance } from 'fastify';
import { systemApi } from '../../shared/api/system.js';
import { counts } from '../../core/dashboard/repository.js';
import { databaseDiagnostics } from '../../core/db/diagnostics.js';
import { verifyChain } from '../../core/audit/audit.js';
import { checkPatientWrite } from '../../core/patients/diagnostics.js';
import { actorOf } from '../plugins/auth.js';
import { assertServerOperator } from '../../core/tenants/open-labs.js';
import { route } from '../contract.js';

const started = Date.now();

export async function systemRoutes(app: FastifyInstance) {
  const db = app.database.db;

  route(app, systemApi.dashboardStats, async (req) => ({ counts: await counts(db, actorOf(req).organizationId) }));

  route(app, systemApi.diagnostics, async (req) => {
    await assertServerOperator(db, actorOf(req), "The server's diagnostics");
    return {
      server: {
        version: app.options_.version ?? null,
        node: process.version,
        platform: `${process.platform} ${process.arch}`,
        uptime_seconds: Math.round((Date.now() - started) / 1000),
        memory_mb: Math.round(process.memoryUsage().rss / 1048576),
        demo: app.options_.demo === true,
      },
      database: await databaseDiagnostics(app.database),
      counts: await counts(db, actorOf(req).organizationId),
    };
  });

  route(app, systemApi.jobs, async (req) => {
    await assertServerOperator(db, actorOf(req), "The server's background jobs");
    return { jobs: app.options_.jobStatus?.() ?? [] };
  });

  route(app, systemApi.auditChainCheck, async (req) => {
    await assertServerOperator(db, actorOf(req), "The audit trail's chain (every lab's rows)");
    return { audit: await verifyChain(db) };
  });
  route(app, systemApi.patientWriteCheck, async (req) => ({ check: await checkPatientWrite(db, actorOf(req)) }));
}

export default systemRoutes;
