import type { Db } from '../db/connection.js';
import { nowIso, type Actor } from '../context.js';
import { NO_PASSWORD } from '../auth/service.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import { findUser, toUser } from '../users/repository.js';
import { insertUser, labPermissions } from '../users/service.js';
import { issueInvitation, withdrawInvitations } from './service.js';
import { openInvitationRows, wasInvited } from './repository.js';
import { ROLE_RANK, type Role } from '../../shared/roles.js';
import type { OpenInvitation, UserInvite } from '../../shared/schemas/invitations.js';
import type { IssuedInvitation } from '../../shared/schemas/tenants.js';
import type { User } from '../../shared/schemas/users.js';

/**
 * Staff invited by email (Users screen): the account is made without a password and its
 * owner sets one through a one-time link, instead of the admin typing a password for them. The
 * rules of Add User apply (roles ranked at or below the admin's own; one account per email per lab).
 */

function assertMayManage(actor: Actor, target: { role: string }) {
  if (actor.role !== 'system' && ROLE_RANK[target.role as Role] > ROLE_RANK[actor.role])
    throw new ForbiddenError(`A ${actor.role} cannot change a ${target.role}`);
}

export async function listOpenInvitations(db: Db, organizationId: number): Promise<OpenInvitation[]> {
  const now = nowIso();
  return (await openInvitationRows(db, organizationId)).map((r) => ({
    user_id: r.user_id,
    email: r.email,
    created_at: r.created_at,
    expires_at: r.expires_at,
    expired: r.expires_at <= now,
  }));
}

export async function inviteUser(
  db: Db,
  actor: Actor,
  input: UserInvite,
): Promise<{ user: User; invitation: IssuedInvitation }> {
  return db.transaction().execute(async (trx) => {
    // The same account as Add User makes (title, centre, the role and email rules), with no password.
    const row = await insertUser(trx, actor, input, NO_PASSWORD, { password: 'none: set through the invitation' });
    const invitation = await issueInvitation(trx, actor, {
      organizationId: actor.organizationId,
      userId: row.id,
      email: row.email,
    });
    return { user: toUser(row, await labPermissions(trx, actor.organizationId)), invitation };
  });
}

/** A new link for an invited account that has not set a password yet (theirs expired, or was lost). */
export async function reissueUserInvitation(db: Db, actor: Actor, id: number): Promise<IssuedInvitation> {
  return db.transaction().execute(async (trx) => {
    const user = await findUser(trx, actor.organizationId, id);
    if (!user) throw new NotFoundError('User', id);
    assertMayManage(actor, user);
    if (user.is_active !== 1)
      throw new ConflictError(`${user.email} is deactivated; reactivate them first`, 'USER_INACTIVE');
    if (user.password_hash !== NO_PASSWORD)
      throw new ConflictError(
        `${user.email} has already set a password; reset it instead if they have forgotten it`,
        'PASSWORD_SET',
      );
    if (!(await wasInvited(trx, actor.organizationId, id)))
      throw new ConflictError(
        `${user.email} was not invited (an account without sign-in, such as a referring doctor); give them a password instead`,
        'NOT_INVITED',
      );
    return issueInvitation(trx, actor, { organizationId: actor.organizationId, userId: id, email: user.email });
  });
}

/** Withdraws an account's open link; the account stays, without a password, until a new link or a reset. */
export async function withdrawUserInvitation(db: Db, actor: Actor, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const user = await findUser(trx, actor.organizationId, id);
    if (!user) throw new NotFoundError('User', id);
    assertMayManage(actor, user);
    if (!(await withdrawInvitations(trx, actor, actor.organizationId, id)))
      throw new ConflictError(`${user.email} has no open invitation`, 'NO_OPEN_INVITATION');
  });
}
