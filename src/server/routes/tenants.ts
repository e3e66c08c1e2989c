import type { FastifyInstance } from 'fastify';
import { tenantsApi } from '../../shared/api/tenants.js';
import {
  createTenant,
  getTenant,
  listTenants,
  reissueAdminInvitation,
  tenantSummary,
  updateTenant,
} from '../../core/tenants/service.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';
import { invalidateOrganizationCache } from '../org-cache.js';

export default async function tenantRoutes(app: FastifyInstance) {
  const db = app.database.db;

  route(app, tenantsApi.list, async (req) => listTenants(db, actorOf(req), req.query));
  route(app, tenantsApi.summary, async (req) => ({ summary: await tenantSummary(db, actorOf(req)) }));
  route(app, tenantsApi.get, async (req) => ({ tenant: await getTenant(db, actorOf(req), req.params.id) }));
  route(app, tenantsApi.create, async (req) => {
    const created = await createTenant(db, actorOf(req), req.body);
    // The host allowlist answers the new lab's domain at once.
    invalidateOrganizationCache(app);
    return created;
  });
  route(app, tenantsApi.update, async (req) => {
    const tenant = await updateTenant(db, actorOf(req), req.params.id, req.body);
    // The request gate reads a lab's status (and the allowlist its domain) from this cache: a
    // suspension applies here at once.
    invalidateOrganizationCache(app);
    return { tenant };
  });
  route(app, tenantsApi.invite, async (req) => ({
    invitation: await reissueAdminInvitation(db, actorOf(req), req.params.id),
  }));
}
