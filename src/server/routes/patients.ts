import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PatientListQuery } from '../../shared/schemas/patients.js';
import { doctorLimit } from '../../core/results/scope.js';
import { Readable } from 'node:stream';
import { patientsApi } from '../../shared/api/patients.js';
import { createPatient, deletePatient, getPatient, listPatients, updatePatient } from '../../core/patients/service.js';
import { exportPatientsCsv } from '../../core/patients/export.js';
import { mergePatient } from '../../core/patients/merge.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';
import { sendCsv } from '../files.js';

export async function patientRoutes(app: FastifyInstance) {
  const db = app.database.db;

  // A doctor limited to their own patients lists and opens only those (as Patient History and results).
  const list = async (req: FastifyRequest, q: PatientListQuery) =>
    listPatients(db, actorOf(req).organizationId, q, await doctorLimit(db, actorOf(req)));
  route(app, patientsApi.list, async (req) => list(req, req.query));
  route(app, patientsApi.search, async (req) => list(req, req.query));
  route(app, patientsApi.export, async (req, reply) => {
    const { search, gender, membership } = req.query;
    const csv = await exportPatientsCsv(db, actorOf(req), { search, gender, membership });
    return sendCsv(reply, 'patients', Readable.from(csv));
  });
  route(app, patientsApi.get, async (req) => ({
    patient: await getPatient(db, actorOf(req).organizationId, req.params.id, await doctorLimit(db, actorOf(req))),
  }));
  route(app, patientsApi.create, async (req) => ({ patient: await createPatient(db, actorOf(req), req.body) }));
  route(app, patientsApi.update, async (req) => ({
    patient: await updatePatient(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, patientsApi.merge, async (req) => mergePatient(db, actorOf(req), req.params.id, req.body.into));
  route(app, patientsApi.remove, async (req) => ({ patient: await deletePatient(db, actorOf(req), req.params.id) }));
}

export default patientRoutes;
