import type { FastifyInstance } from 'fastify';
import { connectionsApi } from '../../shared/api/connections.js';
import {
  createConnection,
  deleteConnection,
  getConnection,
  getMessage,
  listConnections,
  listMessages,
  setConnectionEnabled,
  updateConnection,
} from '../../core/interfaces/service.js';
import { previewCapture } from '../../core/interfaces/preview.js';
import { assignUnmatched, discardUnmatched, listUnmatched } from '../../core/interfaces/unmatched.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';

/** Analyzer interfaces, inbound: connections, message log, Unmatched queue. */
export async function connectionRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const org = (req: Parameters<typeof actorOf>[0]) => actorOf(req).organizationId;
  const where = {
    dropRoot: app.options_.dropRoot ?? null,
    listenerHosts: [app.options_.listenHost ?? '127.0.0.1', ...(app.options_.listenerHosts ?? [])],
    allowPrivateOutbound: app.options_.allowPrivateOutbound ?? false,
  };

  route(app, connectionsApi.list, async (req) => ({ connections: await listConnections(db, org(req)) }));
  route(app, connectionsApi.messages, async (req) => listMessages(db, org(req), req.query));
  route(app, connectionsApi.message, async (req) => ({ message: await getMessage(db, org(req), req.params.id) }));
  route(app, connectionsApi.unmatched, async (req) => listUnmatched(db, org(req), req.query));
  route(app, connectionsApi.assign, async (req) => assignUnmatched(db, actorOf(req), req.params.id, req.body));
  route(app, connectionsApi.discard, async (req) => ({
    unmatched: await discardUnmatched(db, actorOf(req), req.params.id, req.body.reason),
  }));
  route(app, connectionsApi.get, async (req) => ({ connection: await getConnection(db, org(req), req.params.id) }));
  route(app, connectionsApi.create, async (req) => ({
    connection: await createConnection(db, actorOf(req), req.body, where),
  }));
  route(app, connectionsApi.update, async (req) => ({
    connection: await updateConnection(db, actorOf(req), req.params.id, req.body, where),
  }));
  route(app, connectionsApi.remove, async (req) => ({
    connection: await deleteConnection(db, actorOf(req), req.params.id),
  }));
  route(app, connectionsApi.enable, async (req) => ({
    connection: await setConnectionEnabled(db, actorOf(req), req.params.id, true),
  }));
  route(app, connectionsApi.replay, async (req) => ({
    replay: await previewCapture(db, org(req), req.params.id, req.body.capture),
  }));
  route(app, connectionsApi.disable, async (req) => ({
    connection: await setConnectionEnabled(db, actorOf(req), req.params.id, false),
  }));
}

export default connectionRoutes;
