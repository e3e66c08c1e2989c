import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { accountTwoFactorApi, loginTwoFactorApi, userTwoFactorApi } from '../../shared/api/two-factor.js';
import { resetUserTwoFactor, userTwoFactorStatus, type RenewedSession } from '../../core/two-factor/service.js';
import { TwoFactorKeyError } from '../../core/two-factor/secret-box.js';
import { actorOf, setSessionCookie } from '../plugins/auth.js';
import { route } from '../contract.js';

/** Two-factor sign-in: the code step of sign-in, one's own authenticator, an administrator's reset. */
export async function twoFactorRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const meta = (req: { ip: string; headers: { 'user-agent'?: string } }) => ({
    ip: req.ip,
    userAgent: req.headers['user-agent'] ?? null,
  });

  // A server whose key file differs from the one secrets were sealed with tells its operator (the
  // user is told to use a recovery code); never the secret, only which key was expected.
  app.addHook('onError', async (_req, _reply, err) => {
    if (err instanceof TwoFactorKeyError)
      app.serverLog.error(
        { sealedWithKey: err.keyId },
        'two-factor secrets were sealed with another key: copy two-factor.key from the data dir where they were set up (docs/security.md)',
      );
  });

  route(app, loginTwoFactorApi.verify, async (req, reply) => {
    const { recovery_codes, ...session } = await app.auth.twoFactor.verify(req.body, meta(req));
    setSessionCookie(app, req, reply, session);
    return { user: session.user, ...(recovery_codes ? { recovery_codes } : {}) };
  });
  route(app, loginTwoFactorApi.setup, async (req) => ({ setup: await app.auth.twoFactor.setup(req.body.challenge) }));

  const account = app.auth.twoFactorAccounts;
  route(app, accountTwoFactorApi.status, async (req) => ({ two_factor: await account.status(actorOf(req)) }));
  route(app, accountTwoFactorApi.setup, async (req) => ({ setup: await account.beginSetup(actorOf(req)) }));
  // A change to one's sign-in ends the other sessions and renews this one: the new cookie goes out here.
  const renew = (req: FastifyRequest, reply: FastifyReply, session: RenewedSession) => {
    if (session) setSessionCookie(app, req, reply, session);
  };
  route(app, accountTwoFactorApi.enable, async (req, reply) => {
    const { session, ...answer } = await account.enable(actorOf(req), req.body.code, req.staff!.sessionToken);
    renew(req, reply, session);
    return answer;
  });
  route(app, accountTwoFactorApi.disable, async (req, reply) => {
    const { session, two_factor } = await account.disable(actorOf(req), req.body, req.staff!.sessionToken);
    renew(req, reply, session);
    return { two_factor };
  });
  route(app, accountTwoFactorApi.recoveryCodes, async (req, reply) => {
    const { session, ...answer } = await account.regenerateRecoveryCodes(
      actorOf(req),
      req.body,
      req.staff!.sessionToken,
    );
    renew(req, reply, session);
    return answer;
  });

  route(app, userTwoFactorApi.status, async (req) => ({
    two_factor: await userTwoFactorStatus(db, actorOf(req).organizationId, req.params.id),
  }));
  route(app, userTwoFactorApi.reset, async (req) => ({
    two_factor: await resetUserTwoFactor(db, actorOf(req), req.params.id),
  }));
}

export default twoFactorRoutes;
