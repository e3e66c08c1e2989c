import { z } from 'zod';
import {
  invitationAcceptSchema,
  invitationPreviewQuery,
  invitationPreviewSchema,
  openInvitationSchema,
  userInviteSchema,
} from '../schemas/invitations.js';
import { issuedInvitationSchema } from '../schemas/tenants.js';
import { idParam } from '../schemas/common.js';
import { userSchema } from '../schemas/users.js';
import { defineRoute } from './contract.js';

/**
 * The invitation page's routes: public, like sign-in (rate-limited per address, 16 KiB
 * bodies). The token travels in the query string or the body, never in the path, so no server log
 * line carries it.
 */
export const invitationsApi = {
  /** The lab's name and the account's email, for a link that can still be used (else 404, 410 or 403). */
  preview: defineRoute({
    method: 'GET',
    path: '/api/invitations/preview',
    access: 'public',
    query: invitationPreviewQuery,
    response: z.object({ invitation: invitationPreviewSchema }),
  }),
  /**
   * Sets the first password (the lab's password policy) and signs in: the answer sets the session
   * cookie (`signed_in: true`). In a lab that requires two-factor sign-in it sets the password only
   * (`signed_in: false`): the owner signs in with the form, which sets up their authenticator first.
   */
  accept: defineRoute({
    method: 'POST',
    path: '/api/invitations/accept',
    access: 'public',
    body: invitationAcceptSchema,
    response: z.object({ user: userSchema, signed_in: z.boolean() }),
  }),
};

/** A lab's admins invite staff by email instead of typing a password for them (Users screen). */
export const userInvitationsApi = {
  /** The lab's accounts waiting for their owner to set a password through a link. */
  list: defineRoute({
    method: 'GET',
    path: '/api/users/invitations',
    access: 'view_users',
    response: z.object({ invitations: z.array(openInvitationSchema) }),
  }),
  /** Creates the account without a password; the answer's one-time link is shown once. */
  invite: defineRoute({
    method: 'POST',
    path: '/api/users/invite',
    access: 'manage_users',
    body: userInviteSchema,
    response: z.object({ user: userSchema, invitation: issuedInvitationSchema }),
    status: 201,
  }),
  /** A new link for an invited account that has not set a password; earlier links stop working. */
  reissue: defineRoute({
    method: 'POST',
    path: '/api/users/:id/invitation',
    access: 'manage_users',
    params: idParam,
    response: z.object({ invitation: issuedInvitationSchema }),
    status: 201,
  }),
  /** Withdraws the account's open link (it stops working); the account stays, without a password. */
  withdraw: defineRoute({
    method: 'DELETE',
    path: '/api/users/:id/invitation',
    access: 'manage_users',
    params: idParam,
    response: z.object({ withdrawn: z.literal(true) }),
  }),
};
