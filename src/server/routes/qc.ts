import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParam } from '../../shared/schemas/common.js';
import {
  qcMaterialCreateSchema,
  qcMaterialListQuery,
  qcMaterialUpdateSchema,
  qcRunCreateSchema,
} from '../../shared/schemas/qc.js';
import {
  createMaterial,
  deleteMaterial,
  getMaterial,
  listMaterials,
  listRuns,
  qcSummary,
  recordRun,
  updateMaterial,
} from '../../core/qc/service.js';
import { actorOf } from '../plugins/auth.js';

/** Quality control (spec 001 "Quality Control"): control materials, runs judged by the Westgard rules, summary. */
export async function qcRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;
  const view = { access: 'view_results' } as const;
  const manage = { access: 'manage_qc' } as const;

  r.get('/api/qc/summary', { config: view }, async (req) => ({
    summary: await qcSummary(db, actorOf(req).organizationId),
  }));

  r.get('/api/qc/materials', { schema: { querystring: qcMaterialListQuery }, config: view }, async (req) => ({
    materials: await listMaterials(db, actorOf(req).organizationId, req.query),
  }));

  r.get('/api/qc/materials/:id', { schema: { params: idParam }, config: view }, async (req) => ({
    material: await getMaterial(db, actorOf(req).organizationId, req.params.id),
  }));

  r.post('/api/qc/materials', { schema: { body: qcMaterialCreateSchema }, config: manage }, async (req, reply) => {
    reply.status(201);
    return { material: await createMaterial(db, actorOf(req), req.body) };
  });

  r.put(
    '/api/qc/materials/:id',
    { schema: { params: idParam, body: qcMaterialUpdateSchema }, config: manage },
    async (req) => ({
      material: await updateMaterial(db, actorOf(req), req.params.id, req.body),
    }),
  );

  r.delete('/api/qc/materials/:id', { schema: { params: idParam }, config: manage }, async (req) => ({
    material: await deleteMaterial(db, actorOf(req), req.params.id),
  }));

  r.get('/api/qc/materials/:id/runs', { schema: { params: idParam }, config: view }, async (req) =>
    listRuns(db, actorOf(req).organizationId, req.params.id),
  );

  r.post(
    '/api/qc/materials/:id/runs',
    { schema: { params: idParam, body: qcRunCreateSchema }, config: manage },
    async (req, reply) => {
      reply.status(201);
      return recordRun(db, actorOf(req), req.params.id, req.body);
    },
  );
}
