import type { FastifyInstance } from 'fastify';
import { invitationsApi, userInvitationsApi } from '../../shared/api/invitations.js';
import { acceptInvitation, previewInvitation } from '../../core/invitations/service.js';
import {
  inviteUser,
  listOpenInvitations,
  reissueUserInvitation,
  withdrawUserInvitation,
} from '../../core/invitations/users.js';
import { SESSION_COOKIE, actorOf } from '../plugins/auth.js';
import { secureCookie } from '../plugins/cookies.js';
import { route } from '../contract.js';

export default async function invitationRoutes(app: FastifyInstance) {
  const db = app.database.db;

  route(app, invitationsApi.preview, async (req) => ({ invitation: await previewInvitation(db, req.query.token) }));
  route(app, invitationsApi.accept, async (req, reply) => {
    const accepted = await acceptInvitation(db, req.body, { ip: req.ip, userAgent: req.headers['user-agent'] ?? null });
    // A lab that requires two-factor sign-in: the password is set, the session comes from the sign-in form.
    if (!accepted.session) return { user: accepted.user, signed_in: false };
    reply.setCookie(SESSION_COOKIE, accepted.session.token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookie(app, req),
      expires: accepted.session.expiresAt,
    });
    return { user: accepted.user, signed_in: true };
  });

  route(app, userInvitationsApi.list, async (req) => ({
    invitations: await listOpenInvitations(db, actorOf(req).organizationId),
  }));
  route(app, userInvitationsApi.invite, async (req) => inviteUser(db, actorOf(req), req.body));
  route(app, userInvitationsApi.reissue, async (req) => ({
    invitation: await reissueUserInvitation(db, actorOf(req), req.params.id),
  }));
  route(app, userInvitationsApi.withdraw, async (req) => {
    await withdrawUserInvitation(db, actorOf(req), req.params.id);
    return { withdrawn: true as const };
  });
}
