import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { diff, writeAudit } from '../audit/audit.js';
import { endSessionsOfUser } from '../auth/service.js';
import { ConflictError, DomainError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import type { User } from '../../shared/schemas/users.js';
import type { BulkResult, BulkUsersInput } from '../../shared/schemas/user-admin.js';
import { auditUser, findUser, selectUsersByIds, toUser, updateUserRow, type UserRow } from './repository.js';
import { applyUserUpdate, assertMayManage } from './service.js';
import { labPermissions } from './permissions.js';
import { userStatus } from './status.js';

/** Suspension and Bulk Operations: the Users screen's actions on accounts. */

const nameOf = (r: UserRow) => `${r.first_name} ${r.last_name}`.trim();

/**
 * Suspends an account: it cannot sign in (the same answer as a wrong password), its sessions end at
 * once, and it leaves the pickers and billing (is_active 0) until the suspension is lifted.
 */
export async function suspendUser(db: Db, actor: Actor, id: number, reason: string | null | undefined): Promise<User> {
  const after = await db.transaction().execute(async (trx) => {
    const before = await findUser(trx, actor.organizationId, id);
    if (!before) throw new NotFoundError('User', id);
    if (userStatus(before) === 'suspended')
      throw new ConflictError(`${nameOf(before)} is already suspended`, 'ALREADY_SUSPENDED');
    return applySuspension(trx, actor, before, reason ?? null);
  });
  return toUser(after, await labPermissions(db, actor.organizationId));
}

/** Lifts a suspension: the account is active again. */
export async function unsuspendUser(db: Db, actor: Actor, id: number): Promise<User> {
  const after = await db.transaction().execute(async (trx) => {
    const before = await findUser(trx, actor.organizationId, id);
    if (!before) throw new NotFoundError('User', id);
    if (userStatus(before) !== 'suspended')
      throw new ConflictError(`${nameOf(before)} is not suspended`, 'NOT_SUSPENDED');
    assertMayManage(actor, before);
    const row = await updateUserRow(trx, id, {
      is_active: 1,
      suspended_at: null,
      suspended_reason: null,
      updated_at: nowIso(),
    });
    await auditChange(trx, actor, before, row);
    return row;
  });
  return toUser(after, await labPermissions(db, actor.organizationId));
}

async function applySuspension(trx: Db, actor: Actor, before: UserRow, reason: string | null): Promise<UserRow> {
  assertMayManage(actor, before);
  if (actor.userId === before.id) throw new ForbiddenError('You cannot suspend yourself');
  if (before.role === 'superadmin') throw new ForbiddenError('The superadmin cannot be suspended');
  const now = nowIso();
  const row = await updateUserRow(trx, before.id, {
    is_active: 0,
    suspended_at: now,
    suspended_reason: reason,
    updated_at: now,
  });
  await endSessionsOfUser(trx, before.id);
  await auditChange(trx, actor, before, row);
  return row;
}

async function auditChange(trx: Db, actor: Actor, before: UserRow, after: UserRow): Promise<void> {
  const { oldValues, newValues } = diff(auditUser(before), auditUser(after));
  delete oldValues.updated_at;
  delete newValues.updated_at;
  await writeAudit(trx, actor, { action: 'update', entity: 'user', entityId: after.id, oldValues, newValues });
}

/**
 * Bulk Operations: one action on several users, in one transaction: every user changes or none.
 * Each user goes through the same rules as the one-user actions (not yourself, not a user ranked
 * above you, not the superadmin, only roles you may give) and is audited on their own; users who
 * already are as asked are left alone. A refusal names the user (message and `details` path ids.N).
 */
export async function bulkUpdateUsers(db: Db, actor: Actor, input: BulkUsersInput): Promise<BulkResult> {
  const { rows, changed } = await db.transaction().execute(async (trx) => {
    const found = new Map((await selectUsersByIds(trx, actor.organizationId, input.ids)).map((r) => [r.id, r]));
    const unknown = input.ids.flatMap((id, i) =>
      found.has(id) ? [] : [{ path: `ids.${i}`, message: `No user ${id} in this lab` }],
    );
    if (unknown.length) throw new ValidationError(unknown.map((u) => u.message).join('; '), unknown);
    const out: UserRow[] = [];
    let changed = 0;
    for (const [i, id] of input.ids.entries()) {
      const before = found.get(id)!;
      try {
        assertMayManage(actor, before);
        const after = await applyBulkAction(trx, actor, before, input);
        if (after !== before) changed += 1;
        out.push(after);
      } catch (err) {
        throw naming(err, before, i);
      }
    }
    return { rows: out, changed };
  });
  const table = await labPermissions(db, actor.organizationId);
  return { users: rows.map((r) => toUser(r, table)), changed };
}

/** The row after the action; the same row when the user already was as asked. */
async function applyBulkAction(trx: Db, actor: Actor, before: UserRow, input: BulkUsersInput): Promise<UserRow> {
  switch (input.action) {
    case 'activate':
      if (before.is_active === 1) return before;
      return applyUserUpdate(trx, actor, before, { is_active: true });
    case 'deactivate':
      // A suspended user is already not active: the suspension (and its reason) stays.
      if (before.is_active === 0) return before;
      return applyUserUpdate(trx, actor, before, { is_active: false });
    case 'suspend':
      if (userStatus(before) === 'suspended') return before;
      return applySuspension(trx, actor, before, input.reason ?? null);
    case 'change_role':
      if (before.role === input.role) return before;
      return applyUserUpdate(trx, actor, before, { role: input.role });
  }
}

/** The same refusal, naming the user it is about. */
function naming(err: unknown, user: UserRow, index: number): unknown {
  if (!(err instanceof DomainError)) return err;
  const who = `${nameOf(user)} (${user.email})`;
  return new DomainError(err.statusCode, err.code, `${who}: ${err.message}`, [
    { path: `ids.${index}`, message: `${who}: ${err.message}` },
  ]);
}
