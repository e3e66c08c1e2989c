import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { UsersTable } from '../db/schema.js';
import type { User } from '../../shared/schemas/users.js';
import type { PermissionTable, Role } from '../../shared/roles.js';
import { userStatus } from './status.js';
import { PERSON_TITLES, type PersonTitle } from '../../shared/person-name.js';
import { labRows } from '../db/joins.js';
import { rowsByKeys } from '../db/dialect.js';
import { labTable, labDelete } from '../db/lab-tables.js';

export type UserRow = Selectable<UsersTable>;

/** A row as the API answers it; `permissions` from the lab's table (labPermissions). */
export function toUser(r: UserRow, table: PermissionTable): User {
  const role = r.role as Role;
  return {
    id: r.id,
    title: (PERSON_TITLES as readonly string[]).includes(r.title ?? '') ? (r.title as PersonTitle) : null,
    first_name: r.first_name,
    last_name: r.last_name,
    email: r.email,
    role,
    department: r.department,
    phone: r.phone,
    specialization: r.specialization,
    consultation_fee: r.consultation_fee_paise / 100,
    permissions: [...table[role]],
    organization_id: r.organization_id,
    is_active: r.is_active === 1,
    status: userStatus(r),
    suspended_at: r.suspended_at,
    suspended_reason: r.suspended_reason,
    centre_id: r.centre_id ?? null,
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

/** The accounts of an email in every lab on the server, oldest lab first (sign-in chooses among them). */
export function findUsersByEmail(db: Db, email: string): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email.toLowerCase())
    .orderBy('organization_id')
    .execute();
}

/** The account of an email in one lab (an email is unique per lab, not across the server). */
export function findUserByEmail(db: Db, organizationId: number, email: string) {
  return labRows(db, 'users', organizationId).where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export function findUser(db: Db, organizationId: number, id: number) {
  return labRows(db, 'users', organizationId).where('id', '=', id).executeTakeFirst();
}

/** Which of the lab's users a list asks for: by role (one, or any of several), by name, email or speciality. */
export interface UserFilter {
  role?: Role | undefined;
  search?: string | undefined;
  include_inactive?: boolean | undefined;
  roles?: readonly Role[];
}

export function selectUsers(db: Db, organizationId: number, q: UserFilter): Promise<UserRow[]> {
  let query = labRows(db, 'users', organizationId);
  if (q.role) query = query.where('role', '=', q.role);
  if (q.roles) query = query.where('role', 'in', [...q.roles]);
  if (!q.include_inactive) query = query.where('is_active', '=', 1);
  if (q.search) {
    const s = `%${q.search.toLowerCase()}%`;
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(first_name || ' ' || last_name)`, 'like', s),
        eb(sql`lower(email)`, 'like', s),
        eb(sql`lower(coalesce(specialization, ''))`, 'like', s),
      ]),
    );
  }
  return query.orderBy('first_name').orderBy('last_name').execute();
}

/** The lab's users among these ids (any status). */
export function selectUsersByIds(db: Db, organizationId: number, ids: readonly number[]): Promise<UserRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return labRows(db, 'users', organizationId)
    .where('id', 'in', [...ids])
    .execute();
}

/** Emails are unique within a lab (one email may have accounts in two labs on one server). */
export async function emailTaken(db: Db, organizationId: number, email: string, exceptId?: number): Promise<boolean> {
  let q = labTable(db, 'users', organizationId).select('id').where('email', '=', email);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export function insertUserRow(trx: Db, values: Insertable<UsersTable>): Promise<UserRow> {
  return trx.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateUserRow(trx: Db, id: number, patch: Updateable<UsersTable>): Promise<UserRow> {
  return trx.updateTable('users').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Erases an account (Doctor Management deletes a doctor nothing refers to; the database refuses otherwise). */
export async function deleteUserRow(trx: Db, organizationId: number, id: number): Promise<void> {
  await labDelete(trx, 'users', organizationId).where('id', '=', id).execute();
}

/** Accounts with these emails (lower case), in any lab of the server (emails are unique server-wide). */
/** The accounts of one lab with these emails (an email is unique within a lab, not across labs). */
export async function usersByEmails(db: Db, organizationId: number, emails: readonly string[]): Promise<UserRow[]> {
  return rowsByKeys(emails, (some) => labRows(db, 'users', organizationId).where('email', 'in', some).execute());
}
