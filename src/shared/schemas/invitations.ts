import { z } from 'zod';
import { passwordSchema, userCreateSchema } from './users.js';

/** Invitations: a one-time link that lets a new account set its first password. */
export const INVITATION_LIFETIME_HOURS = 72;

/** 32 random bytes in base64url. */
export const invitationToken = z
  .string({ error: 'The invitation token is required' })
  .regex(/^[A-Za-z0-9_-]{43}$/, 'The invitation link is incomplete: open the whole link you were sent');

export const invitationPreviewQuery = z.object({ token: invitationToken });

/** What the invitation page shows before a password is set: the lab and the account, nothing else. */
export const invitationPreviewSchema = z.object({ lab_name: z.string(), email: z.string() });
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

export const invitationAcceptSchema = z.object({ token: invitationToken, password: passwordSchema });
export type InvitationAccept = z.infer<typeof invitationAcceptSchema>;

/** The invitation page's path for a token: a fragment, which browsers never send to a server. */
export function invitationPath(token: string): string {
  return `/invitation#${token}`;
}

/** Add User without a password: the account gets a one-time link instead (Users screen). */
export const userInviteSchema = userCreateSchema.omit({ password: true });
export type UserInvite = z.infer<typeof userInviteSchema>;

/** An account's link that is neither used nor withdrawn (it may have expired: then a new one is needed). */
export const openInvitationSchema = z.object({
  user_id: z.number().int(),
  email: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  expired: z.boolean(),
});
export type OpenInvitation = z.infer<typeof openInvitationSchema>;
