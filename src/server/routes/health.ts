import type { FastifyInstance } from 'fastify';
import { isSetUp } from '../../core/setup/service.js';

export async function healthRoutes(app: FastifyInstance) {
  app.get('/api/health', { config: { access: 'public' } }, async () => {
    const started = process.hrtime.bigint();
    app.database.sqlite.prepare('SELECT 1').get();
    const dbMs = Number(process.hrtime.bigint() - started) / 1e6;
    return {
      status: 'ok',
      version: app.options_.version ?? null,
      database: { status: 'ok', latency_ms: Math.round(dbMs * 1000) / 1000 },
      setup_complete: await isSetUp(app.database.db),
      time: new Date().toISOString(),
    };
  });
}
