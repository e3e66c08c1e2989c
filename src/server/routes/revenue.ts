import type { FastifyInstance } from 'fastify';
import { revenueApi } from '../../shared/api/revenue.js';
import { revenueDaily } from '../../core/reports/revenue.js';
import { revenueAnalytics } from '../../core/reports/revenue-analytics.js';
import { revenueExport } from '../../core/reports/revenue-export.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';

export default async function revenueRoutes(app: FastifyInstance) {
  const db = app.database.db;

  route(app, revenueApi.daily, async (req) => revenueDaily(db, actorOf(req).organizationId, req.query));
  route(app, revenueApi.analytics, async (req) => revenueAnalytics(db, actorOf(req).organizationId, req.query));
  route(app, revenueApi.export, async (req, reply) => {
    const file = await revenueExport(db, actorOf(req), req.query);
    return reply.type(file.type).header('content-disposition', `attachment; filename="${file.name}"`).send(file.body);
  });
}
