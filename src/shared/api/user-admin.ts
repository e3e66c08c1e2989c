import { z } from 'zod';
import { idParam, okResponse } from '../schemas/common.js';
import { userSchema } from '../schemas/users.js';
import {
  activeSessionSchema,
  bulkResultSchema,
  bulkUsersSchema,
  permissionMatrixSchema,
  permissionMatrixUpdateSchema,
  signInListQuery,
  signInPageSchema,
  suspendSchema,
} from '../schemas/user-admin.js';
import { sessionIdParam } from '../schemas/sessions.js';
import { defineRoute } from './contract.js';

const oneUser = z.object({ user: userSchema });
const matrix = z.object({ matrix: permissionMatrixSchema });

/** The Permission Manager: reading the lab's table is for anyone who sees the users; changing it is the admins'. */
export const permissionsApi = {
  get: defineRoute({ method: 'GET', path: '/api/permissions', access: 'view_users', response: matrix }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/permissions',
    access: ['manage_users', 'full_access'],
    body: permissionMatrixUpdateSchema,
    response: matrix,
  }),
  /** Every role back to lims's defaults (src/shared/roles.ts). */
  reset: defineRoute({
    method: 'POST',
    path: '/api/permissions/reset',
    access: ['manage_users', 'full_access'],
    response: matrix,
  }),
};

export const userAdminApi = {
  /** Stops an account at once (its sessions end) until an administrator lifts the suspension. */
  suspend: defineRoute({
    method: 'POST',
    path: '/api/users/:id/suspend',
    access: 'manage_users',
    params: idParam,
    body: suspendSchema,
    response: oneUser,
  }),
  unsuspend: defineRoute({
    method: 'POST',
    path: '/api/users/:id/unsuspend',
    access: 'manage_users',
    params: idParam,
    response: oneUser,
  }),
  /** Activate, deactivate, suspend or change the role of several users: all of them, or none. */
  bulk: defineRoute({
    method: 'POST',
    path: '/api/users/bulk',
    access: 'manage_users',
    body: bulkUsersSchema,
    response: bulkResultSchema,
  }),
};

/** The Activity Monitor: sign-ins from the audit trail, and the sessions that are open now. */
export const activityApi = {
  signIns: defineRoute({
    method: 'GET',
    path: '/api/sign-ins',
    access: 'view_audit',
    query: signInListQuery,
    response: signInPageSchema,
  }),
  sessions: defineRoute({
    method: 'GET',
    path: '/api/sessions',
    access: 'manage_users',
    response: z.object({ sessions: z.array(activeSessionSchema) }),
  }),
  /** End Session: the user is signed out at their next request. */
  endSession: defineRoute({
    method: 'DELETE',
    path: '/api/sessions/:id',
    access: 'manage_users',
    params: sessionIdParam,
    response: okResponse,
  }),
};
