import type { FastifyInstance } from 'fastify';
import { settingsApi } from '../../shared/api/settings.js';
import { getSettings, resetSettings, updateSettings } from '../../core/settings/service.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';
import { invalidateOrganizationCache } from '../org-cache.js';

export async function settingsRoutes(app: FastifyInstance) {
  const db = app.database.db;

  route(app, settingsApi.get, async (req) => ({ settings: await getSettings(db, actorOf(req).organizationId) }));
  route(app, settingsApi.lab, async (req) => {
    const s = await getSettings(db, actorOf(req).organizationId);
    return {
      lab: {
        name: s.labName,
        timezone: s.timezone,
        dateFormat: s.dateFormat,
        currency: s.currency,
        maintenanceMode: s.maintenanceMode,
      },
    };
  });
  route(app, settingsApi.update, async (req) => {
    const settings = await updateSettings(db, actorOf(req), req.body);
    invalidateOrganizationCache(app);
    return { settings };
  });
  route(app, settingsApi.reset, async (req) => {
    const settings = await resetSettings(db, actorOf(req));
    invalidateOrganizationCache(app);
    return { settings };
  });
}

export default settingsRoutes;
