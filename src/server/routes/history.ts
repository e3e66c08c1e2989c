import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParam } from '../../shared/schemas/common.js';
import { visitCreateSchema, visitUpdateSchema } from '../../shared/schemas/history.js';
import { patientHistory } from '../../core/history/service.js';
import { getVisit, listVisits, scheduleVisit, updateVisit } from '../../core/visits/service.js';
import { actorOf } from '../plugins/auth.js';

/** Patient History (spec 2.13) and visits/appointments (spec 3 "Visit"). */
export async function historyRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;

  r.get(
    '/api/patients/:id/history',
    { schema: { params: idParam }, config: { access: 'view_patients' } },
    async (req) => patientHistory(db, actorOf(req).organizationId, req.params.id),
  );

  r.get(
    '/api/patients/:id/visits',
    { schema: { params: idParam }, config: { access: 'view_patients' } },
    async (req) => ({
      visits: await listVisits(db, actorOf(req).organizationId, req.params.id),
    }),
  );

  r.post(
    '/api/patients/:id/visits',
    { schema: { params: idParam, body: visitCreateSchema }, config: { access: 'manage_appointments' } },
    async (req, reply) => {
      reply.status(201);
      return { visit: await scheduleVisit(db, actorOf(req), req.params.id, req.body) };
    },
  );

  r.get('/api/visits/:id', { schema: { params: idParam }, config: { access: 'view_patients' } }, async (req) => ({
    visit: await getVisit(db, actorOf(req).organizationId, req.params.id),
  }));

  r.put(
    '/api/visits/:id',
    { schema: { params: idParam, body: visitUpdateSchema }, config: { access: 'manage_appointments' } },
    async (req) => ({
      visit: await updateVisit(db, actorOf(req), req.params.id, req.body),
    }),
  );
}
