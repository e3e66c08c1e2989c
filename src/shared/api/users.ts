import { z } from 'zod';
import { idParam } from '../schemas/common.js';
import {
  passwordResetSchema,
  userCreateSchema,
  userListQuery,
  userSchema,
  userUpdateSchema,
} from '../schemas/users.js';
import { auditListQuery, auditPageSchema } from '../schemas/audit.js';
import { defineRoute } from './contract.js';

const oneUser = z.object({ user: userSchema });

export const usersApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/users',
    access: 'view_users',
    query: userListQuery,
    response: z.object({ users: z.array(userSchema) }),
  }),
  get: defineRoute({ method: 'GET', path: '/api/users/:id', access: 'view_users', params: idParam, response: oneUser }),
  create: defineRoute({
    method: 'POST',
    path: '/api/users',
    access: 'manage_users',
    body: userCreateSchema,
    response: oneUser,
    status: 201,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/users/:id',
    access: 'manage_users',
    params: idParam,
    body: userUpdateSchema,
    response: oneUser,
  }),
  /** Deactivates: accounts are never erased (the audit trail names them). */
  deactivate: defineRoute({
    method: 'DELETE',
    path: '/api/users/:id',
    access: 'manage_users',
    params: idParam,
    response: oneUser,
  }),
  resetPassword: defineRoute({
    method: 'POST',
    path: '/api/users/:id/reset-password',
    access: 'manage_users',
    params: idParam,
    body: passwordResetSchema,
    response: oneUser,
  }),
};

const signInState = z.object({
  sign_in: z.object({
    /** Failed sign-ins for this email in the lockout window, from every address. */
    failures: z.number().int(),
    /** Seconds before the next attempt is accepted from a new address (0: not slowed). */
    backoff_seconds: z.number().int(),
  }),
});

export const signInApi = {
  status: defineRoute({
    method: 'GET',
    path: '/api/users/:id/sign-in',
    access: 'view_users',
    params: idParam,
    response: signInState,
  }),
  /** Clears the account's failed sign-ins (every address): the administrator's unlock. */
  unlock: defineRoute({
    method: 'POST',
    path: '/api/users/:id/unlock',
    access: 'manage_users',
    params: idParam,
    response: signInState,
  }),
};

export const auditApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/audit',
    access: 'view_audit',
    query: auditListQuery,
    response: auditPageSchema,
  }),
};
