import type { FastifyInstance } from 'fastify';
import { labState, type LabSettings } from '../core/settings/organization.js';
import { tenantDomains } from '../core/tenants/repository.js';
import { LAB_CLOSED_MESSAGES, type TenantStatus } from '../shared/schemas/tenants.js';

/**
 * A lab's settings are read on every request (session timeout), and its tenant status (a suspended
 * lab's sessions stop working); they change rarely, so they are cached for a few seconds per
 * organisation. Settings and tenant writes call invalidateOrganizationCache.
 */
const TTL_MS = 5000;
interface Entry {
  at: number;
  settings: LabSettings;
  /** The message for a lab that is suspended or inactive; null while its staff may work. */
  closed: string | null;
}
/** Keyed by the database, which every plugin context of one app shares (route plugins are child instances). */
const caches = new WeakMap<object, Map<number, Entry>>();

async function entryOf(app: FastifyInstance, organizationId: number): Promise<Entry> {
  const fresh = freshEntry(app, organizationId);
  if (fresh) return fresh;
  let cache = caches.get(app.database);
  if (!cache) caches.set(app.database, (cache = new Map()));
  const { settings, status } = await labState(app.database.db, organizationId);
  const entry = { at: Date.now(), settings, closed: LAB_CLOSED_MESSAGES[status as TenantStatus] ?? null };
  cache.set(organizationId, entry);
  return entry;
}

function freshEntry(app: FastifyInstance, organizationId: number): Entry | undefined {
  const hit = caches.get(app.database)?.get(organizationId);
  return hit && Date.now() - hit.at < TTL_MS ? hit : undefined;
}

export async function organizationSettingsCached(app: FastifyInstance, organizationId: number): Promise<LabSettings> {
  return (await entryOf(app, organizationId)).settings;
}

/** The lab's settings when they were read less than a few seconds ago; undefined when they must be read. */
export function organizationSettingsIfFresh(app: FastifyInstance, organizationId: number): LabSettings | undefined {
  return freshEntry(app, organizationId)?.settings;
}

/** Why the lab's staff may not work now (suspended, inactive), or null; read at most every few seconds. */
export async function labClosedCached(app: FastifyInstance, organizationId: number): Promise<string | null> {
  return (await entryOf(app, organizationId)).closed;
}

/** As labClosedCached, from memory only: undefined when the lab must be read. */
export function labClosedIfFresh(app: FastifyInstance, organizationId: number): string | null | undefined {
  return freshEntry(app, organizationId)?.closed;
}

const domains = new WeakMap<object, { at: number; names: Set<string> }>();

/**
 * The labs' domains (Multi-Tenant Setup), for the host allowlist: a lab's domain is answered
 * without being listed in --allowed-hosts. Undefined when they must be read (labDomainsRead).
 */
export function labDomainsIfFresh(app: FastifyInstance): Set<string> | undefined {
  const hit = domains.get(app.database);
  return hit && Date.now() - hit.at < TTL_MS ? hit.names : undefined;
}

export async function labDomainsRead(app: FastifyInstance): Promise<Set<string>> {
  const names = new Set(await tenantDomains(app.database.db));
  domains.set(app.database, { at: Date.now(), names });
  return names;
}

/** After a settings or tenant write on this server; other servers see it when their copy expires (TTL_MS). */
export function invalidateOrganizationCache(app: FastifyInstance): void {
  caches.delete(app.database);
  domains.delete(app.database);
}
