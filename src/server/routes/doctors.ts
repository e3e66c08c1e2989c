import type { FastifyInstance } from 'fastify';
import { doctorsApi } from '../../shared/api/doctors.js';
import {
  createDoctor,
  deleteDoctor,
  doctorAnalytics,
  doctorOptions,
  doctorSummary,
  getDoctor,
  listDoctors,
  updateDoctor,
} from '../../core/doctors/service.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';

export default async function doctorRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const org = (req: Parameters<typeof actorOf>[0]) => actorOf(req).organizationId;

  route(app, doctorsApi.list, async (req) => listDoctors(db, org(req), req.query));
  route(app, doctorsApi.options, async (req) => ({ doctors: await doctorOptions(db, org(req)) }));
  route(app, doctorsApi.summary, async (req) => ({ summary: await doctorSummary(db, org(req)) }));
  route(app, doctorsApi.analytics, async (req) => ({ analytics: await doctorAnalytics(db, org(req), req.query) }));
  route(app, doctorsApi.get, async (req) => ({ doctor: await getDoctor(db, org(req), req.params.id) }));
  route(app, doctorsApi.create, async (req) => ({ doctor: await createDoctor(db, actorOf(req), req.body) }));
  route(app, doctorsApi.update, async (req) => ({
    doctor: await updateDoctor(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, doctorsApi.remove, async (req) => ({ doctor: await deleteDoctor(db, actorOf(req), req.params.id) }));
}
