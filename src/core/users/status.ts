import type { UserStatus } from '../../shared/schemas/users.js';
import { NO_PASSWORD } from '../auth/service.js';

/**
 * Where an account stands; the one place it is worked out (the API's `status`, the list's status
 * filter, the cards). users.is_active stays the switch that sign-in, billing and the pickers read;
 * suspended_at only says why an account that is not active is not:
 * - suspended: not active, because an administrator suspended it;
 * - inactive: not active (deactivated);
 * - pending: invited and not yet in: no password yet and never signed in. Referring doctors
 *   (Doctor Management) have no password either, because they never sign in: they are not pending.
 *   An invitation is the only way a staff account is made without a password (Add User needs one).
 * - active: otherwise.
 */
export function userStatus(row: {
  is_active: number;
  suspended_at: string | null;
  password_hash: string;
  last_login: string | null;
  role: string;
}): UserStatus {
  if (row.is_active !== 1) return row.suspended_at !== null ? 'suspended' : 'inactive';
  if (row.password_hash === NO_PASSWORD && row.last_login === null && row.role !== 'doctor') return 'pending';
  return 'active';
}
