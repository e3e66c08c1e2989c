import type { FastifyInstance } from 'fastify';
import { analyticsApi } from '../../shared/api/analytics.js';
import { analytics, liveBoard } from '../../core/analytics/service.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';

export default async function analyticsRoutes(app: FastifyInstance) {
  const db = app.database.db;
  route(app, analyticsApi.get, async (req) => ({
    analytics: await analytics(db, actorOf(req).organizationId, req.query),
  }));
  route(app, analyticsApi.live, async (req) => ({ live: await liveBoard(db, actorOf(req)) }));
}
