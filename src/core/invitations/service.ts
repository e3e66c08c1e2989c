import { randomBytes } from 'node:crypto';
import type { Db } from '../db/connection.js';
import { nowIso, type Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { hashPassword, NO_PASSWORD, createSession, hashToken, actorFor } from '../auth/service.js';
import { assertPasswordPolicy, labSettings } from '../settings/service.js';
import { DomainError, ForbiddenError } from '../errors.js';
import { findUser, toUser, updateUserRow } from '../users/repository.js';
import { labPermissions } from '../users/service.js';
import { announce } from '../events.js';
import { insertInvitationRow, invitationByHash, revokeOpenInvitationRows, useInvitationRow } from './repository.js';
import {
  INVITATION_LIFETIME_HOURS,
  invitationPath,
  type InvitationAccept,
  type InvitationPreview,
} from '../../shared/schemas/invitations.js';
import { LAB_CLOSED_MESSAGES, type IssuedInvitation, type TenantStatus } from '../../shared/schemas/tenants.js';
import type { User } from '../../shared/schemas/users.js';

/**
 * Invitations: a new account has no password; its one-time link lets its owner set one
 * and signs them in. The token is 256 random bits, shown once to whoever created it; the database
 * keeps only its SHA-256. A link works once, for INVITATION_LIFETIME_HOURS, and a newer link for
 * the same account withdraws the older one.
 */

const notFound = () =>
  new DomainError(
    404,
    'INVITATION_NOT_FOUND',
    'This invitation link is not valid. Check that you opened the whole link, or ask your administrator for a new one.',
  );

/**
 * Issues a link for an account that has no password yet, withdrawing its earlier links. Runs in
 * the caller's transaction (the account's creation, or a resend), which also writes the audit row.
 */
export async function issueInvitation(
  trx: Db,
  actor: Actor,
  target: { organizationId: number; userId: number; email: string },
): Promise<IssuedInvitation> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  const expiresAt = new Date(now.getTime() + INVITATION_LIFETIME_HOURS * 3600_000).toISOString();
  const withdrawn = await revokeOpenInvitationRows(trx, target.organizationId, target.userId, now.toISOString());
  await insertInvitationRow(trx, {
    organization_id: target.organizationId,
    user_id: target.userId,
    token_hash: hashToken(token),
    created_by: actor.userId,
    created_at: now.toISOString(),
    expires_at: expiresAt,
    used_at: null,
    revoked_at: null,
  });
  await writeAudit(
    trx,
    { ...actor, organizationId: target.organizationId },
    {
      action: 'create',
      entity: 'invitation',
      entityId: target.userId,
      newValues: {
        email: target.email,
        expires_at: expiresAt,
        ...(withdrawn ? { earlier_links_withdrawn: withdrawn } : {}),
      },
    },
  );
  return { email: target.email, path: invitationPath(token), expires_at: expiresAt };
}

/** Withdraws a user's open invitation (their link stops working); audited. Answers whether there was one. */
export async function withdrawInvitations(trx: Db, actor: Actor, organizationId: number, userId: number) {
  const n = await revokeOpenInvitationRows(trx, organizationId, userId, nowIso());
  if (n > 0) {
    await writeAudit(
      trx,
      { ...actor, organizationId },
      {
        action: 'delete',
        entity: 'invitation',
        entityId: userId,
        newValues: { withdrawn: n },
      },
    );
  }
  return n > 0;
}

type InvitationRow = NonNullable<Awaited<ReturnType<typeof invitationByHash>>>;

/** Why a link no longer works (410 Gone), or the lab is closed (403), or null when it may be used now. */
function refusal(inv: InvitationRow, nowIsoText: string): DomainError | null {
  if (inv.used_at)
    return new DomainError(
      410,
      'INVITATION_USED',
      'This invitation link has already been used. Sign in with the password you set, or ask your administrator for a new link.',
    );
  if (inv.revoked_at || inv.is_active !== 1)
    return new DomainError(
      410,
      'INVITATION_REVOKED',
      'This invitation link has been withdrawn. Ask your administrator for a new one.',
    );
  if (inv.expires_at <= nowIsoText)
    return new DomainError(
      410,
      'INVITATION_EXPIRED',
      `This invitation link has expired (links work for ${INVITATION_LIFETIME_HOURS} hours). Ask your administrator for a new one.`,
    );
  const closed = LAB_CLOSED_MESSAGES[inv.lab_status as TenantStatus];
  if (closed) return new ForbiddenError(closed);
  return null;
}

async function usableInvitation(db: Db, token: string): Promise<InvitationRow> {
  const inv = await invitationByHash(db, hashToken(token));
  if (!inv) throw notFound();
  const refused = refusal(inv, nowIso());
  if (refused) throw refused;
  return inv;
}

/** The public invitation page: the lab's name and the account's email, nothing else. */
export async function previewInvitation(db: Db, token: string): Promise<InvitationPreview> {
  const inv = await usableInvitation(db, token);
  return { lab_name: inv.lab_name, email: inv.email };
}

export interface AcceptedInvitation {
  user: User;
  /** Null when the lab requires two-factor sign-in: the new password is set, and the owner signs in
   * through the sign-in form, which takes them through setting up their authenticator first. */
  session: { token: string; expiresAt: Date } | null;
}

/**
 * Sets the account's password (the lab's password policy applies) and signs it in, in one
 * transaction with the link's single use: a second submit of the same link is refused. A lab that
 * was pending (its admin had not set a password) becomes active. In a lab that requires two-factor
 * sign-in the link sets the password only: a session always needs the second step.
 */
export async function acceptInvitation(
  db: Db,
  input: InvitationAccept,
  meta: { ip: string | null; userAgent: string | null },
): Promise<AcceptedInvitation> {
  const inv = await usableInvitation(db, input.token);
  const account = await findUser(db, inv.organization_id, inv.user_id);
  if (!account) throw notFound();
  await assertPasswordPolicy(db, inv.organization_id, input.password, {
    email: account.email,
    name: `${account.first_name} ${account.last_name}`,
  });
  const passwordHash = await hashPassword(input.password);
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    if (!(await useInvitationRow(trx, inv.id, now))) {
      const again = await invitationByHash(trx, hashToken(input.token));
      throw (again && refusal(again, now)) ?? notFound();
    }
    const before = await findUser(trx, inv.organization_id, inv.user_id);
    if (!before) throw notFound();
    const twoFactorRequired = (await labSettings(trx, inv.organization_id)).twoFactorAuth;
    const after = await updateUserRow(trx, before.id, {
      password_hash: passwordHash,
      ...(twoFactorRequired ? {} : { last_login: now }),
      updated_at: now,
    });
    const actor = actorFor(after, meta);
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'user',
      entityId: after.id,
      newValues: {
        password_changed: true,
        via: 'invitation',
        ...(before.password_hash !== NO_PASSWORD ? { replaced_password: true } : {}),
      },
    });
    await announce(trx, actor, 'invitation.accepted', { organizationId: inv.organization_id, userId: after.id });
    const user = toUser(after, await labPermissions(trx, after.organization_id));
    if (twoFactorRequired) return { user, session: null };
    const session = await createSession(trx, after, meta);
    await writeAudit(trx, actor, {
      action: 'login',
      entity: 'session',
      entityId: after.id,
      newValues: { via: 'invitation' },
    });
    return { user, session };
  });
}
