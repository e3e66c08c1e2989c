import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditListQuery } from '../../shared/schemas/audit.js';
import { listAudit } from '../../core/audit/audit.js';
import { actorOf } from '../plugins/auth.js';

export async function auditRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/audit', { schema: { querystring: auditListQuery }, config: { access: 'view_audit' } }, async (req) =>
    listAudit(app.database.db, actorOf(req).organizationId, req.query),
  );
}
