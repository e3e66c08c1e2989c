import type { FastifyInstance } from 'fastify';
import { labSettings, type LabSettings } from '../core/settings/organization.js';

/**
 * A lab's settings are read on every request (session timeout); they change rarely, so they are
 * cached for a few seconds per organisation. Settings writes call invalidateOrganizationCache.
 */
const TTL_MS = 5000;
const caches = new WeakMap<FastifyInstance, Map<number, { at: number; settings: LabSettings }>>();

export async function organizationSettingsCached(app: FastifyInstance, organizationId: number): Promise<LabSettings> {
  const fresh = organizationSettingsIfFresh(app, organizationId);
  if (fresh) return fresh;
  let cache = caches.get(app);
  if (!cache) caches.set(app, (cache = new Map()));
  const settings = await labSettings(app.database.db, organizationId);
  cache.set(organizationId, { at: Date.now(), settings });
  return settings;
}

/** The lab's settings when they were read less than a few seconds ago; undefined when they must be read. */
export function organizationSettingsIfFresh(app: FastifyInstance, organizationId: number): LabSettings | undefined {
  const hit = caches.get(app)?.get(organizationId);
  return hit && Date.now() - hit.at < TTL_MS ? hit.settings : undefined;
}

export function invalidateOrganizationCache(app: FastifyInstance): void {
  caches.delete(app);
}
