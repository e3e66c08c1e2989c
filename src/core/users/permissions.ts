import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ForbiddenError, ValidationError } from '../errors.js';
import {
  CENTRE_ONLY_PERMISSION,
  FIXED_ROLES,
  lockedPermissions,
  PERMISSIONS,
  ROLE_PERMISSIONS,
  ROLE_RANK,
  ROLES,
  type Permission,
  type PermissionTable,
  type Role,
} from '../../shared/roles.js';
import type { PermissionMatrix, PermissionMatrixUpdate } from '../../shared/schemas/user-admin.js';
import {
  deleteRolePermissionRows,
  replaceRolePermissionRows,
  selectRolePermissionRows,
} from './permissions-repository.js';

/**
 * The Permission Manager: what each role may do in one lab. lims's defaults
 * (ROLE_PERMISSIONS) changed by the lab's rows; the server's permission check (the auth plugin),
 * /api/auth/me's `permissions` and the checks inside core all read the lab's table from here.
 *
 * Every request needs it, so it is kept in memory per lab for a few seconds: a change on this
 * server is seen at once (forgetLabPermissions after the write commits); another server on the
 * same PostgreSQL database sees it when its copy expires.
 */
const TTL_MS = 5000;
const tables = new WeakMap<Db, Map<number, { at: number; table: PermissionTable }>>();

const isPermission = (p: string): p is Permission => (PERMISSIONS as readonly string[]).includes(p);

/** The table from the lab's rows: defaults, plus grants, minus removals; locked permissions always kept. */
export function permissionTableOf(rows: readonly { role: string; permission: string; granted: number }[]) {
  const table = {} as Record<Role, readonly Permission[]>;
  for (const role of ROLES) {
    const held = new Set<Permission>(ROLE_PERMISSIONS[role]);
    if (!FIXED_ROLES.includes(role)) {
      for (const r of rows) {
        if (r.role !== role || !isPermission(r.permission) || r.permission === CENTRE_ONLY_PERMISSION) continue;
        if (r.granted === 1) held.add(r.permission);
        else held.delete(r.permission);
      }
    }
    for (const p of lockedPermissions(role)) held.add(p);
    table[role] = Object.freeze(PERMISSIONS.filter((p) => held.has(p)));
  }
  return Object.freeze(table) as PermissionTable;
}

/** lims's own table, for a lab that changed nothing. */
export const DEFAULT_PERMISSION_TABLE = permissionTableOf([]);

/** The lab's table when it was read less than a few seconds ago; undefined when it must be read. */
export function labPermissionsFromMemory(db: Db, organizationId: number, nowMs = Date.now()) {
  const hit = tables.get(db)?.get(organizationId);
  return hit && nowMs - hit.at < TTL_MS ? hit.table : undefined;
}

/** The lab's table (from memory while fresh). Inside a transaction it is read there, uncached. */
export async function labPermissions(db: Db, organizationId: number): Promise<PermissionTable> {
  if (db.isTransaction) return permissionTableOf(await selectRolePermissionRows(db, organizationId));
  const fresh = labPermissionsFromMemory(db, organizationId);
  if (fresh) return fresh;
  const rows = await selectRolePermissionRows(db, organizationId);
  const table = rows.length === 0 ? DEFAULT_PERMISSION_TABLE : permissionTableOf(rows);
  let byLab = tables.get(db);
  if (!byLab) tables.set(db, (byLab = new Map()));
  byLab.set(organizationId, { at: Date.now(), table });
  return table;
}

/** After a change has committed: this server reads the table afresh at the next request. */
export function forgetLabPermissions(db: Db): void {
  tables.delete(db);
}

/** Whether the actor's role has the permission in their lab (the system, i.e. the CLI, has all). */
export async function actorHasPermission(db: Db, actor: Actor, permission: Permission): Promise<boolean> {
  if (actor.role === 'system') return true;
  return (await labPermissions(db, actor.organizationId))[actor.role].includes(permission);
}

/** Roles whose members hold the permission in this lab. */
export function rolesWith(table: PermissionTable, permission: Permission): Role[] {
  return ROLES.filter((r) => table[r].includes(permission));
}

// ---- The Permission Manager's reads and writes ---------------------------------------------------

/** Who may change a role's permissions: holders of manage_users and full_access, for roles at or below their own. */
function mayEdit(actor: Actor, table: PermissionTable, role: Role): boolean {
  if (FIXED_ROLES.includes(role)) return false;
  if (actor.role === 'system') return true;
  const own = table[actor.role];
  return own.includes('manage_users') && own.includes('full_access') && ROLE_RANK[role] <= ROLE_RANK[actor.role];
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((p) => b.includes(p));

function matrixOf(table: PermissionTable, actor: Actor): PermissionMatrix {
  return {
    roles: ROLES.map((role) => ({
      role,
      permissions: [...table[role]],
      defaults: [...DEFAULT_PERMISSION_TABLE[role]],
      locked: [...lockedPermissions(role)],
      editable: mayEdit(actor, table, role),
    })),
    customized: ROLES.some((r) => !sameSet(table[r], ROLE_PERMISSIONS[r])),
  };
}

export async function getPermissionMatrix(db: Db, actor: Actor): Promise<PermissionMatrix> {
  return matrixOf(await labPermissions(db, actor.organizationId), actor);
}

/**
 * The roles given get exactly the permissions given (in lims's order). Refused, with nothing
 * saved: a change to the superadmin (it has everything), the admin without full_access,
 * manage_users or view_users (an administrator must always be able to put the table right),
 * manage_tenants for any role (the superadmin's alone), any change to the centre role or
 * centre_portal for another role (the portal answers for the centre a login is bound to), and
 * a role ranked above the actor's own (403). Each changed role is audited with its old and new list.
 */
export async function updatePermissionMatrix(
  db: Db,
  actor: Actor,
  input: PermissionMatrixUpdate,
): Promise<PermissionMatrix> {
  const after = await db.transaction().execute(async (trx) => {
    const before = await labPermissions(trx, actor.organizationId);
    const problems: { path: string; message: string }[] = [];
    const wanted = new Map<Role, Permission[]>();
    input.roles.forEach(({ role, permissions }, i) => {
      const next = PERMISSIONS.filter((p) => permissions.includes(p));
      if (sameSet(next, before[role])) return;
      const path = `roles.${i}.permissions`;
      if (role === 'superadmin') {
        problems.push({
          path,
          message: 'The superadmin’s permissions cannot be changed: it always has every permission',
        });
        return;
      }
      if (role === 'centre') {
        problems.push({
          path,
          message: 'The centre role’s permissions cannot be changed: a centre’s login sees its own centre only',
        });
        return;
      }
      if (next.includes(CENTRE_ONLY_PERMISSION)) {
        problems.push({
          path,
          message: `The ${role} role cannot have ${CENTRE_ONLY_PERMISSION}: the centre portal is a centre login's, bound to its centre`,
        });
        return;
      }
      if (!mayEdit(actor, before, role)) {
        throw new ForbiddenError(`A ${actor.role} cannot change what the ${role} role may do`);
      }
      if (next.includes('manage_tenants')) {
        problems.push({
          path,
          message: `The ${role} role cannot have manage_tenants: managing the labs on this server is the superadmin's alone`,
        });
        return;
      }
      const missing = lockedPermissions(role).filter((p) => !next.includes(p));
      if (missing.length) {
        problems.push({
          path,
          message: `The ${role} role must keep ${missing.join(', ')}: administrators need ${missing.length === 1 ? 'it' : 'them'} to manage users and this table`,
        });
        return;
      }
      wanted.set(role, next);
    });
    if (problems.length) {
      throw new ValidationError(problems.map((p) => p.message).join('; '), problems);
    }
    const now = nowIso();
    for (const [role, next] of wanted) {
      const defaults = ROLE_PERMISSIONS[role];
      await replaceRolePermissionRows(
        trx,
        actor.organizationId,
        role,
        [
          ...next.filter((p) => !defaults.includes(p)).map((permission) => ({ permission, granted: true })),
          ...defaults.filter((p) => !next.includes(p)).map((permission) => ({ permission, granted: false })),
        ],
        now,
      );
      await auditRoleChange(trx, actor, role, before[role], next, false);
    }
    return labPermissions(trx, actor.organizationId);
  });
  forgetLabPermissions(db);
  return matrixOf(after, actor);
}

/** Every role back to lims's defaults; each role that changes is audited. */
export async function resetPermissionMatrix(db: Db, actor: Actor): Promise<PermissionMatrix> {
  await db.transaction().execute(async (trx) => {
    const before = await labPermissions(trx, actor.organizationId);
    const changed = ROLES.filter((r) => !sameSet(before[r], DEFAULT_PERMISSION_TABLE[r]));
    for (const role of changed) {
      if (!mayEdit(actor, before, role))
        throw new ForbiddenError(`A ${actor.role} cannot change what the ${role} role may do`);
    }
    await deleteRolePermissionRows(trx, actor.organizationId);
    for (const role of changed) {
      await auditRoleChange(trx, actor, role, before[role], DEFAULT_PERMISSION_TABLE[role], true);
    }
  });
  forgetLabPermissions(db);
  return matrixOf(DEFAULT_PERMISSION_TABLE, actor);
}

async function auditRoleChange(
  trx: Db,
  actor: Actor,
  role: Role,
  before: readonly Permission[],
  after: readonly Permission[],
  reset: boolean,
): Promise<void> {
  await writeAudit(trx, actor, {
    action: 'update',
    entity: 'role_permissions',
    entityId: role,
    oldValues: { permissions: [...before] },
    newValues: {
      permissions: [...after],
      granted: after.filter((p) => !before.includes(p)),
      removed: before.filter((p) => !after.includes(p)),
      ...(reset ? { reset: true } : {}),
    },
  });
}
