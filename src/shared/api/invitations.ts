import { z } from 'zod';
import { invitationAcceptSchema, invitationPreviewQuery, invitationPreviewSchema } from '../schemas/invitations.js';
import { userSchema } from '../schemas/users.js';
import { defineRoute } from './contract.js';

/**
 * The invitation page's routes (issue 13): public, like sign-in (rate-limited per address, 16 KiB
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
  /** Sets the first password (the lab's password policy) and signs in: the answer sets the session cookie. */
  accept: defineRoute({
    method: 'POST',
    path: '/api/invitations/accept',
    access: 'public',
    body: invitationAcceptSchema,
    response: z.object({ user: userSchema }),
  }),
};
