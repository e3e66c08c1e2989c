import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { organizationSettingsCached } from '../org-cache.js';

/**
 * Debug mode (System Settings): while a lab has it on, each of its staff's requests adds a line to
 * the server log when answered: request id, method, path (never the query string: searches carry
 * patient names), status, milliseconds and the user's id. Off (the default) it costs one look at
 * the cached settings after the answer has gone.
 */
export const debugLogPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onResponse', async (req, reply) => {
    const staff = req.staff;
    if (!staff) return;
    if (!(await organizationSettingsCached(app, staff.actor.organizationId)).debugMode) return;
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
  });
});
