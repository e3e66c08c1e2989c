import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { diff, writeAudit } from '../audit/audit.js';
import { assertPasswordPolicy } from '../settings/service.js';
import { hashPassword, endSessionsOfUser } from '../auth/service.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { isNoEmailPlaceholder } from '../../shared/schemas/doctors.js';
import { canAssignRole, DOCTOR_ROLES, ROLE_RANK, type Role } from '../../shared/roles.js';
import type { User, UserCreate, UserUpdate } from '../../shared/schemas/users.js';
import type { UserStatus } from '../../shared/schemas/users.js';
import {
  auditUser,
  emailTaken,
  findUser,
  insertUserRow,
  selectUsers,
  toUser,
  updateUserRow,
  type UserFilter,
  type UserRow,
} from './repository.js';
import { rupeesToPaise } from '../../shared/money.js';
import { labPermissions } from './permissions.js';
import { announce } from '../events.js';
import { moveTitleOutOfFirstName } from '../../shared/person-name.js';

export function assertMayAssign(actor: Actor, role: Role): void {
  if (actor.role === 'system') return;
  if (!canAssignRole(actor.role, role)) {
    throw new ForbiddenError(`A ${actor.role} cannot give anyone the role ${role}`);
  }
}

/** A non-system actor may only manage users ranked at or below themselves. */
export function assertMayManage(actor: Actor, target: { role: string; id: number }): void {
  if (actor.role === 'system') return;
  if (ROLE_RANK[target.role as Role] > ROLE_RANK[actor.role]) {
    throw new ForbiddenError(`A ${actor.role} cannot change a ${target.role}`);
  }
}

export async function listUsers(
  db: Db,
  organizationId: number,
  q: UserFilter & { status?: UserStatus | undefined },
): Promise<User[]> {
  // Inactive and suspended accounts are asked for by their status too, without include_inactive.
  const everyone = q.include_inactive || q.status === 'inactive' || q.status === 'suspended';
  const rows = await selectUsers(db, organizationId, { ...q, include_inactive: everyone });
  const table = await labPermissions(db, organizationId);
  const users = rows.map((r) => toUser(r, table));
  return q.status ? users.filter((u) => u.status === q.status) : users;
}

export async function getUser(db: Db, organizationId: number, id: number): Promise<User> {
  const row = await findUser(db, organizationId, id);
  if (!row) throw new NotFoundError('User', id);
  return toUser(row, await labPermissions(db, organizationId));
}

/**
 * A centre's login is bound to one centre of the lab, and only a centre's login is: the portal
 * filters every row by that centre, and a staff account bound to one would mean nothing. Answers
 * the centre_id to store (null for staff).
 */
async function centreBinding(trx: Db, actor: Actor, role: Role, centreId: number | null | undefined) {
  if (role !== 'centre') {
    if (centreId) throw ValidationError.field('centre_id', 'Only a login of role centre is bound to a centre');
    return null;
  }
  if (!centreId) throw ValidationError.field('centre_id', 'Choose the centre this login belongs to');
  await announce(trx, actor, 'user.binding_centre', { centreId });
  return centreId;
}

export async function createUser(db: Db, actor: Actor, given: UserCreate): Promise<User> {
  const input = moveTitleOutOfFirstName(given);
  assertMayAssign(actor, input.role);
  await assertPasswordPolicy(db, actor.organizationId, input.password, {
    email: input.email,
    name: `${input.first_name} ${input.last_name}`,
  });
  const password_hash = await hashPassword(input.password);
  const created = await db.transaction().execute((trx) => insertUser(trx, actor, input, password_hash));
  return toUser(created, await labPermissions(db, actor.organizationId));
}

/**
 * Inside an open transaction: a new account, audited. `passwordHash` NO_PASSWORD makes an account
 * that cannot sign in until a password is set (an import's users: lims user reset-password; an
 * invited user: their link). `auditNote` is added to the audit entry (how the password is to be set).
 */
export async function insertUser(
  trx: Db,
  actor: Actor,
  given: Omit<UserCreate, 'password'> & { is_active?: boolean },
  passwordHash: string,
  auditNote: Record<string, string> = {},
): Promise<UserRow> {
  const input = moveTitleOutOfFirstName(given);
  assertMayAssign(actor, input.role);
  if (await emailTaken(trx, actor.organizationId, input.email))
    throw new ConflictError(`A user with email ${input.email} already exists`, 'EMAIL_TAKEN');
  const centreId = await centreBinding(trx, actor, input.role, input.centre_id);
  const now = nowIso();
  const row = await insertUserRow(trx, {
    organization_id: actor.organizationId,
    email: input.email,
    password_hash: passwordHash,
    title: input.title ?? null,
    first_name: input.first_name,
    last_name: input.last_name,
    role: input.role,
    department: input.department ?? null,
    phone: input.phone ?? null,
    specialization: input.specialization ?? null,
    consultation_fee_paise: rupeesToPaise(input.consultation_fee ?? 0),
    centre_id: centreId,
    is_active: input.is_active === false ? 0 : 1,
    created_at: now,
    updated_at: now,
  });
  await writeAudit(trx, actor, {
    action: 'create',
    entity: 'user',
    entityId: row.id,
    newValues: { ...auditUser(row), ...auditNote },
  });
  return row;
}

export async function updateUser(db: Db, actor: Actor, id: number, input: UserUpdate): Promise<User> {
  const after = await db.transaction().execute(async (trx) => {
    const before = await findUser(trx, actor.organizationId, id);
    if (!before) throw new NotFoundError('User', id);
    return applyUserUpdate(trx, actor, before, input);
  });
  return toUser(after, await labPermissions(db, actor.organizationId));
}

/**
 * One user's update inside the caller's transaction: the rules, the write, ending their sessions
 * when they lose access or change role, and the audit row. Bulk Operations applies it per user.
 */
export async function applyUserUpdate(trx: Db, actor: Actor, before: UserRow, given: UserUpdate): Promise<UserRow> {
  const input = moveTitleOutOfFirstName(given);
  const id = before.id;
  assertMayManage(actor, before);
  if (input.role && input.role !== before.role) {
    if (actor.userId === id) throw new ForbiddenError('You cannot change your own role');
    assertMayAssign(actor, input.role);
    if (before.role === 'superadmin') throw new ForbiddenError('The superadmin role cannot be changed');
  }
  if (input.is_active === false && before.role === 'superadmin') {
    throw new ForbiddenError('The superadmin cannot be deactivated');
  }
  if (input.is_active === false && actor.userId === id) throw new ForbiddenError('You cannot deactivate yourself');
  if (input.email && input.email !== before.email) {
    if (await emailTaken(trx, actor.organizationId, input.email, id))
      throw new ConflictError(`A user with email ${input.email} already exists`, 'EMAIL_TAKEN');
  }
  // A role change away from centre unbinds the login; to centre (or a new centre) names it.
  const role = (input.role ?? before.role) as Role;
  const wantedCentre = input.centre_id !== undefined ? input.centre_id : role === 'centre' ? before.centre_id : null;
  const centreId = await centreBinding(trx, actor, role, wantedCentre);
  const patch = {
    ...(centreId !== before.centre_id && { centre_id: centreId }),
    ...(input.title !== undefined && { title: input.title ?? null }),
    ...(input.first_name !== undefined && { first_name: input.first_name }),
    ...(input.last_name !== undefined && { last_name: input.last_name }),
    ...(input.email !== undefined && { email: input.email }),
    ...(input.role !== undefined && { role: input.role }),
    ...(input.department !== undefined && { department: input.department ?? null }),
    ...(input.phone !== undefined && { phone: input.phone ?? null }),
    ...(input.specialization !== undefined && { specialization: input.specialization ?? null }),
    ...(input.consultation_fee !== undefined && { consultation_fee_paise: rupeesToPaise(input.consultation_fee) }),
    ...(input.is_active !== undefined && { is_active: input.is_active ? 1 : 0 }),
    // Activating a suspended account lifts the suspension (is_active: false leaves it as it is).
    ...(input.is_active === true && { suspended_at: null, suspended_reason: null }),
  };
  const after = await updateUserRow(trx, id, { ...patch, updated_at: nowIso() });
  if (after.is_active === 0 || after.role !== before.role || after.centre_id !== before.centre_id) {
    // Deactivation or a role change ends the user's sessions: they sign in again with the new rights.
    await endSessionsOfUser(trx, id);
  }
  const { oldValues, newValues } = diff(auditUser(before), auditUser(after));
  delete oldValues.updated_at;
  delete newValues.updated_at;
  await writeAudit(trx, actor, { action: 'update', entity: 'user', entityId: id, oldValues, newValues });
  return after;
}

/** DELETE deactivates: users stay referenced by bills, results and the audit trail. */
export async function deactivateUser(db: Db, actor: Actor, id: number): Promise<User> {
  const row = await findUser(db, actor.organizationId, id);
  if (!row) throw new NotFoundError('User', id);
  if (row.role === 'superadmin') throw new ForbiddenError('The superadmin cannot be deleted');
  return updateUser(db, actor, id, { is_active: false });
}

export async function resetPassword(db: Db, actor: Actor, id: number, password: string): Promise<User> {
  const target = await findUser(db, actor.organizationId, id);
  if (!target) throw new NotFoundError('User', id);
  await assertPasswordPolicy(db, actor.organizationId, password, {
    email: target.email,
    name: `${target.first_name} ${target.last_name}`,
  });
  const password_hash = await hashPassword(password);
  const after = await db.transaction().execute(async (trx) => {
    const before = await findUser(trx, actor.organizationId, id);
    if (!before) throw new NotFoundError('User', id);
    assertMayManage(actor, before);
    // A doctor added without an email (Doctor Management) has a stand-in address nobody can sign in with.
    if (isNoEmailPlaceholder(before.email))
      throw ValidationError.field('email', 'Give this user an email address before setting a password');
    const after = await updateUserRow(trx, id, { password_hash, updated_at: nowIso() });
    await endSessionsOfUser(trx, id);
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'user',
      entityId: id,
      newValues: { password_changed: true },
    });
    return after;
  });
  return toUser(after, await labPermissions(db, actor.organizationId));
}

/** What the users service needs of the sign-in limiter (AuthService). */
export interface SignInLocks {
  unlock(organizationId: number, email: string): void;
  signInStatus(organizationId: number, email: string): { failures: number; backoff_seconds: number };
}

/** Failed sign-ins of a staff account in the current window, and how long it is slowed. */
export async function signInStatus(db: Db, organizationId: number, id: number, locks: SignInLocks) {
  const user = await findUser(db, organizationId, id);
  if (!user) throw new NotFoundError('User', id);
  return locks.signInStatus(organizationId, user.email);
}

/** An administrator clears an account's failed sign-ins from every address; audited. */
export async function unlockSignIn(db: Db, actor: Actor, id: number, locks: SignInLocks) {
  const user = await findUser(db, actor.organizationId, id);
  if (!user) throw new NotFoundError('User', id);
  assertMayManage(actor, user);
  const before = locks.signInStatus(actor.organizationId, user.email);
  locks.unlock(actor.organizationId, user.email);
  await writeAudit(db, actor, {
    action: 'update',
    entity: 'user',
    entityId: id,
    oldValues: { failed_sign_ins: before.failures },
    newValues: { sign_in_unlocked: true },
  });
  return locks.signInStatus(actor.organizationId, user.email);
}

/** The doctor must be an active doctor or lab technician of this lab; answers their consultation fee. */
export async function resolveDoctor(
  db: Db,
  organizationId: number,
  doctorId: number,
): Promise<{ id: number; feePaise: number }> {
  const d = await findUser(db, organizationId, doctorId);
  if (!d || d.is_active !== 1) throw ValidationError.field('doctor_id', `Unknown doctor ${doctorId}`);
  if (!DOCTOR_ROLES.includes(d.role as Role))
    throw ValidationError.field('doctor_id', 'The selected user is not a doctor or lab technician');
  return { id: d.id, feePaise: d.consultation_fee_paise };
}

export { actorHasPermission, labPermissions, rolesWith } from './permissions.js';
