import { z } from 'zod';
import { PERMISSIONS, ROLES } from '../roles.js';
import { optionalPhone, optionalText, requiredText, rupeeAmount } from './common.js';
import { id } from './equipment-fields.js';
import { PERSON_TITLES } from '../person-name.js';
import { personTitleField } from './person-title.js';

export const passwordSchema = z
  .string({ error: 'Password is required' })
  .min(8, 'Password must be at least 8 characters')
  .max(200, 'Password must be at most 200 characters');

const role = z.enum(ROLES, { error: `Role must be one of ${ROLES.join(', ')}` });

const fee = rupeeAmount('Consultation fee');

const userFields = {
  /** Dr, Prof, Mr, Mrs, Ms, Miss; shown before the name. A title typed into first_name moves here (core). */
  title: personTitleField,
  first_name: requiredText('First name', 60),
  last_name: requiredText('Last name', 60),
  email: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.email('Enter a valid email address').max(254),
  ),
  role,
  department: optionalText(100),
  phone: optionalPhone('Phone'),
  specialization: optionalText(100),
  consultation_fee: fee.optional(),
  /** The centre a login of role centre is bound to: required for that role, refused for any other. */
  centre_id: z.preprocess((v) => (v === '' || v === 0 ? null : v), id('centre_id').nullable().optional()),
};

export const userCreateSchema = z.object({ ...userFields, password: passwordSchema });
export type UserCreate = z.infer<typeof userCreateSchema>;

export const userUpdateSchema = z
  .object({ ...userFields, is_active: z.boolean({ error: 'is_active must be true or false' }) })
  .partial();
export type UserUpdate = z.infer<typeof userUpdateSchema>;

/**
 * Where an account stands (spec "User and doctor status"): active; inactive (deactivated);
 * suspended (stopped by an administrator, with a reason; cannot sign in); pending (invited, no
 * password yet, never signed in). Worked out by one function on the server (src/core/users/status.ts).
 */
export const USER_STATUSES = ['active', 'inactive', 'suspended', 'pending'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const userListQuery = z.object({
  role: z.preprocess((v) => (v === '' || v === 'all' ? undefined : v), role.optional()),
  /** One status only; inactive and suspended accounts are listed without include_inactive. */
  status: z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(USER_STATUSES, { error: `status must be one of ${USER_STATUSES.join(', ')}` }).optional(),
  ),
  search: z.string().trim().max(100).optional(),
  include_inactive: z.preprocess((v) => v === 'true' || v === '1' || v === true, z.boolean()).optional(),
});

export const passwordResetSchema = z.object({ password: passwordSchema });

export const userSchema = z.object({
  id: z.number().int(),
  title: z.enum(PERSON_TITLES).nullable(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  department: z.string().nullable(),
  phone: z.string().nullable(),
  specialization: z.string().nullable(),
  consultation_fee: z.number(),
  permissions: z.array(z.enum(PERMISSIONS)),
  organization_id: z.number().int(),
  is_active: z.boolean(),
  status: z.enum(USER_STATUSES),
  /** When and why an administrator suspended the account (null unless suspended). */
  suspended_at: z.string().nullable(),
  suspended_reason: z.string().nullable(),
  /** The centre of a centre's login; null for the lab's staff. */
  centre_id: z.number().int().nullable(),
  last_login: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type User = z.infer<typeof userSchema>;
