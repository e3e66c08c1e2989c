import { doctorLimit, resultScope } from '../../core/results/scope.js';
import type { FastifyInstance } from 'fastify';
import { historyApi } from '../../shared/api/history.js';
import { patientHistory } from '../../core/history/service.js';
import { getVisit, listVisits, scheduleVisit, updateVisit } from '../../core/visits/service.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';

/** Patient History (spec 2.13) and visits/appointments (spec 3 "Visit"). */
export async function historyRoutes(app: FastifyInstance) {
  const db = app.database.db;

  route(app, historyApi.history, async (req) =>
    patientHistory(db, actorOf(req).organizationId, req.params.id, await resultScope(db, actorOf(req))),
  );
  route(app, historyApi.visits, async (req) => ({
    visits: await listVisits(db, actorOf(req).organizationId, req.params.id, await doctorLimit(db, actorOf(req))),
  }));
  route(app, historyApi.scheduleVisit, async (req) => ({
    visit: await scheduleVisit(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, historyApi.getVisit, async (req) => ({
    visit: await getVisit(db, actorOf(req).organizationId, req.params.id, await doctorLimit(db, actorOf(req))),
  }));
  route(app, historyApi.updateVisit, async (req) => ({
    visit: await updateVisit(db, actorOf(req), req.params.id, req.body),
  }));
}

export default historyRoutes;
