import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { organizationSettingsCached, organizationSettingsIfFresh } from '../org-cache.js';

/**
 * Debug mode (System Settings): while a lab has it on, each of its staff's requests adds a line to
 * the server log when answered: request id, method, path (never the query string: searches carry
 * patient names), status, milliseconds and the user's id. Off (the default) it costs one look at
 * the cached settings after the answer has gone.
 */
export const debugLogPlugin = fp(async (app: FastifyInstance) => {
  const log = (req: FastifyRequest, reply: FastifyReply) => {
    const staff = req.staff!;
    app.serverLog.info(
      {
        reqId: req.id,
        method: req.method,
        path: req.url.split('?')[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        userId: staff.actor.userId,
      },
      'request (debug mode)',
    );
  };
  // A callback hook, decided without a promise while the lab's settings are fresh in memory.
  app.addHook('onResponse', (req, reply, done) => {
    const orgId = req.staff?.actor.organizationId;
    if (orgId === undefined) return done();
    const fresh = organizationSettingsIfFresh(app, orgId);
    if (fresh) {
      if (fresh.debugMode) log(req, reply);
      return done();
    }
    organizationSettingsCached(app, orgId).then(
      (s) => {
        if (s.debugMode) log(req, reply);
        done();
      },
      () => done(),
    );
  });
});
