import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { setupSchema } from '../../shared/schemas/setup.js';
import { isSetUp, setupLab } from '../../core/setup/service.js';

/** The web setup wizard: open only while the data dir holds no lab. */
export async function setupRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/setup/status', { config: { access: 'public' } }, async () => ({
    needs_setup: !(await isSetUp(app.database.db)),
    database: { type: 'SQLite', file: app.database.file },
  }));

  r.post('/api/setup', { schema: { body: setupSchema }, config: { access: 'public' } }, async (req, reply) => {
    const result = await setupLab(app.database.db, req.body);
    reply.status(201);
    return { organization_id: result.organizationId, admin_id: result.adminId };
  });
}
