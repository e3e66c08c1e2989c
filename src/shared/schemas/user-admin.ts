import { z } from 'zod';
import { PERMISSIONS, ROLES } from '../roles.js';
import { optionalText, pageQuery, pagedShape, strictNumber } from './common.js';
import { userSchema } from './users.js';
import { ownSessionSchema } from './sessions.js';

/**
 * The tools of the Users screen: Permission Manager, suspension, Bulk Operations and the
 * Activity Monitor. See docs/decisions.md, "Users".
 */

const role = z.enum(ROLES, { error: `Role must be one of ${ROLES.join(', ')}` });
const permission = z.enum(PERMISSIONS, {
  error: 'Unknown permission (the permissions are listed in docs/roles-and-permissions.md)',
});

// ---- Permission Manager ------------------------------------------------------------------------

export const rolePermissionsSchema = z.object({
  role: z.enum(ROLES),
  /** What the role may do in this lab. */
  permissions: z.array(z.enum(PERMISSIONS)),
  /** What lims gives the role out of the box (Reset to defaults). */
  defaults: z.array(z.enum(PERMISSIONS)),
  /** What the role cannot lose (the admin's user management, everything of the superadmin). */
  locked: z.array(z.enum(PERMISSIONS)),
  /** Whether the signed-in user may change this role's permissions. */
  editable: z.boolean(),
});
export type RolePermissions = z.infer<typeof rolePermissionsSchema>;

export const permissionMatrixSchema = z.object({
  roles: z.array(rolePermissionsSchema),
  /** True when the lab's table differs from the defaults somewhere. */
  customized: z.boolean(),
});
export type PermissionMatrix = z.infer<typeof permissionMatrixSchema>;

/**
 * PUT /api/permissions: the roles given get exactly these permissions; roles not given keep theirs.
 * Accepts GET's answer as it is (the other fields are ignored).
 */
export const permissionMatrixUpdateSchema = z.object({
  roles: z
    .array(
      z.object({
        role,
        permissions: z.array(permission).max(PERMISSIONS.length * 2, 'Too many permissions'),
      }),
      { error: 'roles must be a list of {role, permissions}' },
    )
    .min(1, 'Give at least one role')
    .max(ROLES.length, `At most ${ROLES.length} roles`)
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((r, i) => {
        if (seen.has(r.role)) ctx.addIssue({ code: 'custom', path: [i, 'role'], message: `${r.role} is given twice` });
        seen.add(r.role);
      });
    }),
});
export type PermissionMatrixUpdate = z.infer<typeof permissionMatrixUpdateSchema>;

// ---- Suspension and Bulk Operations ------------------------------------------------------------

export const suspendSchema = z.object({ reason: optionalText(200, 'Reason') });
export type SuspendInput = z.infer<typeof suspendSchema>;

export const BULK_ACTIONS = ['activate', 'deactivate', 'suspend', 'change_role'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
export const BULK_MAX_USERS = 500;

export const bulkUsersSchema = z
  .object({
    ids: z
      .array(
        strictNumber(z.number({ error: 'Each id must be a user id' }).int().positive('Each id must be a user id')),
        {
          error: 'ids must be a list of user ids',
        },
      )
      .min(1, 'Select at least one user')
      .max(BULK_MAX_USERS, `At most ${BULK_MAX_USERS} users at once`),
    action: z.enum(BULK_ACTIONS, { error: `action must be one of ${BULK_ACTIONS.join(', ')}` }),
    /** The new role (change_role only). */
    role: role.optional(),
    /** Why the users are suspended (suspend only). */
    reason: optionalText(200, 'Reason'),
  })
  .superRefine((v, ctx) => {
    if (v.action === 'change_role' && !v.role)
      ctx.addIssue({ code: 'custom', path: ['role'], message: 'Choose the new role' });
    if (v.action !== 'change_role' && v.role)
      ctx.addIssue({ code: 'custom', path: ['role'], message: 'A role is only given with change_role' });
    const seen = new Set<number>();
    v.ids.forEach((id, i) => {
      if (seen.has(id)) ctx.addIssue({ code: 'custom', path: ['ids', i], message: `User ${id} is listed twice` });
      seen.add(id);
    });
  });
export type BulkUsersInput = z.infer<typeof bulkUsersSchema>;

export const bulkResultSchema = z.object({
  /** Every user named, as they are now. */
  users: z.array(userSchema),
  /** How many of them changed (the others already were as asked). */
  changed: z.number().int(),
});
export type BulkResult = z.infer<typeof bulkResultSchema>;

// ---- Activity Monitor --------------------------------------------------------------------------

export const SIGN_IN_OUTCOMES = ['success', 'failed'] as const;

export const signInListQuery = pageQuery.extend({
  limit: pageQuery.shape.limit.default(20),
  status: z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(SIGN_IN_OUTCOMES, { error: `status must be one of ${SIGN_IN_OUTCOMES.join(', ')}` }).optional(),
  ),
  user_id: strictNumber(z.number().int().positive('user_id must be a user id').optional()),
});
export type SignInListQuery = z.infer<typeof signInListQuery>;

/** One sign-in or failed sign-in, from the audit trail. */
export const signInEventSchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  user_id: z.number().int().nullable(),
  user_name: z.string().nullable(),
  user_email: z.string().nullable(),
  status: z.enum(SIGN_IN_OUTCOMES),
  /** Why a sign-in failed: bad password, inactive, suspended, no sign-in. */
  reason: z.string().nullable(),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
});
export type SignInEvent = z.infer<typeof signInEventSchema>;

export const signInPageSchema = z.object({ events: z.array(signInEventSchema), ...pagedShape });
export type SignInPage = z.infer<typeof signInPageSchema>;

/** A signed-in session that has not ended (not signed out, not idle past the timeout, not expired), and whose it is. */
export const activeSessionSchema = ownSessionSchema.extend({
  user_id: z.number().int(),
  user_name: z.string(),
  user_email: z.string(),
  role: z.enum(ROLES),
});
export type ActiveSession = z.infer<typeof activeSessionSchema>;
