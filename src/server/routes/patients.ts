import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParam } from '../../shared/schemas/common.js';
import { patientCreateSchema, patientListQuery, patientUpdateSchema } from '../../shared/schemas/patients.js';
import { createPatient, deletePatient, getPatient, listPatients, updatePatient } from '../../core/patients/service.js';
import { actorOf } from '../plugins/auth.js';
import { Readable } from 'node:stream';
import { patientsCsv } from '../../core/patients/export.js';
import { writeAudit } from '../../core/audit/audit.js';

export async function patientRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;

  r.get(
    '/api/patients',
    { schema: { querystring: patientListQuery }, config: { access: 'view_patients' } },
    async (req) => listPatients(db, actorOf(req).organizationId, req.query),
  );

  /** Spec: GET /patients/search?search&gender answers {patients}; same engine as the list. */
  r.get(
    '/api/patients/search',
    { schema: { querystring: patientListQuery }, config: { access: 'view_patients' } },
    async (req) => listPatients(db, actorOf(req).organizationId, req.query),
  );

  /** All Patients "Export": a real CSV of every patient matching the filters, recorded in the audit trail. */
  r.get(
    '/api/patients/export',
    { schema: { querystring: patientListQuery }, config: { access: 'view_patients' } },
    async (req, reply) => {
      const actor = actorOf(req);
      const { search, gender, membership } = req.query;
      await writeAudit(db, actor, {
        action: 'export',
        entity: 'patient',
        newValues: { format: 'csv', search: search ?? null, gender: gender ?? null, membership: membership ?? null },
      });
      const day = new Date().toISOString().slice(0, 10);
      reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="patients-${day}.csv"`);
      return reply.send(Readable.from(patientsCsv(db, actor.organizationId, { search, gender, membership })));
    },
  );

  r.get('/api/patients/:id', { schema: { params: idParam }, config: { access: 'view_patients' } }, async (req) => ({
    patient: await getPatient(db, actorOf(req).organizationId, req.params.id),
  }));

  r.post(
    '/api/patients',
    { schema: { body: patientCreateSchema }, config: { access: 'manage_patients' } },
    async (req, reply) => {
      reply.status(201);
      return { patient: await createPatient(db, actorOf(req), req.body) };
    },
  );

  r.put(
    '/api/patients/:id',
    { schema: { params: idParam, body: patientUpdateSchema }, config: { access: 'manage_patients' } },
    async (req) => ({ patient: await updatePatient(db, actorOf(req), req.params.id, req.body) }),
  );

  r.delete(
    '/api/patients/:id',
    { schema: { params: idParam }, config: { access: 'manage_patients' } },
    async (req) => ({
      patient: await deletePatient(db, actorOf(req), req.params.id),
    }),
  );
}
