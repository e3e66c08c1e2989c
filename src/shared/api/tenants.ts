import { z } from 'zod';
import { idParam } from '../schemas/common.js';
import {
  issuedInvitationSchema,
  tenantCreateSchema,
  tenantListQuery,
  tenantPageSchema,
  tenantSchema,
  tenantSummarySchema,
  tenantUpdateSchema,
} from '../schemas/tenants.js';
import { defineRoute } from './contract.js';

const oneTenant = z.object({ tenant: tenantSchema });

/**
 * Multi-Tenant Setup: the labs on this server. manage_tenants is the superadmin's alone
 * (and the service also requires the superadmin of the server's first lab).
 */
export const tenantsApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/tenants',
    access: 'manage_tenants',
    query: tenantListQuery,
    response: tenantPageSchema,
  }),
  summary: defineRoute({
    method: 'GET',
    path: '/api/tenants/summary',
    access: 'manage_tenants',
    response: z.object({ summary: tenantSummarySchema }),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/tenants/:id',
    access: 'manage_tenants',
    params: idParam,
    response: oneTenant,
  }),
  /** Creates the lab (pending) and its admin without a password; the answer's link is shown once. */
  create: defineRoute({
    method: 'POST',
    path: '/api/tenants',
    access: 'manage_tenants',
    body: tenantCreateSchema,
    response: z.object({ tenant: tenantSchema, invitation: issuedInvitationSchema }),
    status: 201,
  }),
  /** Name, domain, plan, status (suspended or inactive ends the lab's sessions; active reactivates). */
  update: defineRoute({
    method: 'PUT',
    path: '/api/tenants/:id',
    access: 'manage_tenants',
    params: idParam,
    body: tenantUpdateSchema,
    response: oneTenant,
  }),
  /** A new link for the lab's admin who has not set a password yet; earlier links stop working. */
  invite: defineRoute({
    method: 'POST',
    path: '/api/tenants/:id/invitation',
    access: 'manage_tenants',
    params: idParam,
    response: z.object({ invitation: issuedInvitationSchema }),
    status: 201,
  }),
};
