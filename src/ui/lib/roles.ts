import { canAssignRole, DOCTOR_ROLES, ROLE_LABELS, ROLE_RANK, ROLES, type Permission, type Role } from '@shared/roles';
import type { User } from '@shared/schemas/users';
import { choiceOptions } from './usePagedList';

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function roleLabel(role: string): string {
  return isRole(role) ? ROLE_LABELS[role] : role;
}

/**
 * Roles the signed-in user may give someone: at or below their own rank (the server's rule,
 * canAssignRole). Superadmin is never offered: the lab has exactly the one made at setup (spec 5).
 */
export function assignableRoles(actor: Role): Role[] {
  return ROLES.filter((r) => r !== 'superadmin' && canAssignRole(actor, r));
}

/** The server lets a user manage only accounts ranked at or below their own. */
export function mayManage(actor: User, target: User): boolean {
  return ROLE_RANK[target.role] <= ROLE_RANK[actor.role];
}

export function can(user: User | null | undefined, permission: Permission): boolean {
  return Boolean(user?.permissions.includes(permission));
}

/** Doctors and lab technicians carry a consultation fee (the OP Bill doctor picker adds it). */
export function hasConsultationFee(role: string): boolean {
  return (DOCTOR_ROLES as readonly string[]).includes(role);
}

export const ROLE_FILTER_OPTIONS = choiceOptions('All Roles', ROLES, ROLE_LABELS);
