import { z } from 'zod';
import { ROLES, type Permission, type Role } from '../roles.js';
import { optionalPhone, optionalText, requiredText, rupeeAmount } from './common.js';

export const passwordSchema = z
  .string({ error: 'Password is required' })
  .min(8, 'Password must be at least 8 characters')
  .max(200, 'Password must be at most 200 characters');

const role = z.enum(ROLES, { error: `Role must be one of ${ROLES.join(', ')}` });

const fee = rupeeAmount('Consultation fee');

const userFields = {
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
};

export const userCreateSchema = z.object({ ...userFields, password: passwordSchema });
export type UserCreate = z.infer<typeof userCreateSchema>;

export const userUpdateSchema = z
  .object({ ...userFields, is_active: z.boolean({ error: 'is_active must be true or false' }) })
  .partial();
export type UserUpdate = z.infer<typeof userUpdateSchema>;

export const userListQuery = z.object({
  role: z.preprocess((v) => (v === '' || v === 'all' ? undefined : v), role.optional()),
  search: z.string().trim().max(100).optional(),
  include_inactive: z.preprocess((v) => v === 'true' || v === '1' || v === true, z.boolean()).optional(),
});

export const passwordResetSchema = z.object({ password: passwordSchema });

export interface User {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  role: Role;
  department: string | null;
  phone: string | null;
  specialization: string | null;
  consultation_fee: number;
  permissions: Permission[];
  organization_id: number;
  is_active: boolean;
  last_login: string | null;
  created_at: string;
  updated_at: string;
}
