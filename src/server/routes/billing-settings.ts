import type { FastifyInstance } from 'fastify';
import { billingSettingsApi } from '../../shared/api/billing-settings.js';
import { getBillingSettings, updateBillingSettings } from '../../core/settings/billing.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';

export default async function billingSettingsRoutes(app: FastifyInstance) {
  const db = app.database.db;
  route(app, billingSettingsApi.get, async (req) => ({
    settings: await getBillingSettings(db, actorOf(req).organizationId),
  }));
  route(app, billingSettingsApi.update, async (req) => ({
    settings: await updateBillingSettings(db, actorOf(req), req.body),
  }));
}
