import type { FastifyInstance } from 'fastify';
import { interopOutApi } from '../../shared/api/interop-out.js';
import {
  createReceiver,
  deleteReceiver,
  listDeliveries,
  listReceivers,
  reportFhir,
  reportHl7,
  retryDelivery,
  updateReceiver,
} from '../../core/interop-out/service.js';
import { resultScope } from '../../core/results/scope.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';

/** Reports out: HL7 v2 and FHIR R4 of a verified report; the receivers and their delivery log. */
export default async function interopOutRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const org = (req: Parameters<typeof actorOf>[0]) => actorOf(req).organizationId;
  const outbound = { allowPrivate: app.options_.allowPrivateOutbound ?? false };

  route(app, interopOutApi.hl7, async (req, reply) => {
    const { text, sampleCode } = await reportHl7(db, org(req), req.params.id, await resultScope(db, actorOf(req)));
    return reply
      .type('application/hl7-v2; charset=utf-8')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `attachment; filename="report-${sampleCode}.hl7"`)
      .send(text);
  });
  route(app, interopOutApi.fhir, async (req, reply) => {
    const { bundle, sampleCode } = await reportFhir(db, org(req), req.params.id, await resultScope(db, actorOf(req)));
    return reply
      .type('application/fhir+json; charset=utf-8')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `attachment; filename="report-${sampleCode}.fhir.json"`)
      .send(JSON.stringify(bundle));
  });
  route(app, interopOutApi.receivers, async (req) => ({ receivers: await listReceivers(db, org(req)) }));
  route(app, interopOutApi.createReceiver, async (req) => ({
    receiver: await createReceiver(db, actorOf(req), req.body, outbound),
  }));
  route(app, interopOutApi.updateReceiver, async (req) => ({
    receiver: await updateReceiver(db, actorOf(req), req.params.id, req.body, outbound),
  }));
  route(app, interopOutApi.removeReceiver, async (req) => ({
    receiver: await deleteReceiver(db, actorOf(req), req.params.id),
  }));
  route(app, interopOutApi.deliveries, async (req) => listDeliveries(db, org(req), req.query));
  route(app, interopOutApi.retryDelivery, async (req) => ({
    delivery: await retryDelivery(db, actorOf(req), req.params.id),
  }));
}
