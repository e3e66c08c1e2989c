import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { UsersTable } from '../db/schema.js';
import type { User } from '../../shared/schemas/users.js';
import { permissionsOf, type Role } from '../../shared/roles.js';

export type UserRow = Selectable<UsersTable>;

export function toUser(r: UserRow): User {
  const role = r.role as Role;
  return {
    id: r.id,
    first_name: r.first_name,
    last_name: r.last_name,
    email: r.email,
    role,
    department: r.department,
    phone: r.phone,
    specialization: r.specialization,
    consultation_fee: r.consultation_fee_paise / 100,
    permissions: [...permissionsOf(role)],
    organization_id: r.organization_id,
    is_active: r.is_active === 1,
    last_login: r.last_login,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** What goes into the audit trail for a user: never the password hash. */
export function auditUser(r: UserRow): Record<string, unknown> {
  const { password_hash: _omit, ...rest } = r;
  return rest;
}

export function findUserByEmail(db: Db, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export function findUser(db: Db, organizationId: number, id: number) {
  return db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}
