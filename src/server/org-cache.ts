import type { FastifyInstance } from 'fastify';
import { labSettings, type LabSettings } from '../core/settings/organization.js';

/**
 * A lab's settings are read on every request (session timeout); they change rarely, so they are
 * cached for a few seconds per organisation. Settings writes call invalidateOrganizationCache.
 */
const TTL_MS = 5000;
/** Keyed by the database, which every plugin context of one app shares (route plugins are child instances). */
const caches = new WeakMap<object, Map<number, { at: number; settings: LabSettings }>>();

export async function organizationSettingsCached(app: FastifyInstance, organizationId: number): Promise<LabSettings> {
  const fresh = organizationSettingsIfFresh(app, organizationId);
  if (fresh) return fresh;
  let cache = caches.get(app.database);
  if (!cache) caches.set(app.database, (cache = new Map()));
  const settings = await labSettings(app.database.db, organizationId);
  cache.set(organizationId, { at: Date.now(), settings });
  return settings;
}

/** The lab's settings when they were read less than a few seconds ago; undefined when they must be read. */
export function organizationSettingsIfFresh(app: FastifyInstance, organizationId: number): LabSettings | undefined {
  const hit = caches.get(app.database)?.get(organizationId);
  return hit && Date.now() - hit.at < TTL_MS ? hit.settings : undefined;
}

/** After a settings write on this server; other servers see it when their copy expires (TTL_MS). */
export function invalidateOrganizationCache(app: FastifyInstance): void {
  caches.delete(app.database);
}
