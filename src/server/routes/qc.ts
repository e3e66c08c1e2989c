import type { FastifyInstance } from 'fastify';
import { qcApi } from '../../shared/api/qc.js';
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
import { overrideRun, recordTestRun } from '../../core/qc/runs.js';
import { getTestRules, setTestRules } from '../../core/qc/rules.js';
import { testQcStatus } from '../../core/qc/gate.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';

/** Quality control (spec 001 "Quality Control"): control materials, runs judged by the Westgard rules, summary. */
export async function qcRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const org = (req: Parameters<typeof actorOf>[0]) => actorOf(req).organizationId;

  route(app, qcApi.summary, async (req) => ({ summary: await qcSummary(db, org(req)) }));
  route(app, qcApi.materials, async (req) => ({ materials: await listMaterials(db, org(req), req.query) }));
  route(app, qcApi.material, async (req) => ({ material: await getMaterial(db, org(req), req.params.id) }));
  route(app, qcApi.createMaterial, async (req) => ({ material: await createMaterial(db, actorOf(req), req.body) }));
  route(app, qcApi.updateMaterial, async (req) => ({
    material: await updateMaterial(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, qcApi.deleteMaterial, async (req) => ({
    material: await deleteMaterial(db, actorOf(req), req.params.id),
  }));
  route(app, qcApi.runs, async (req) => listRuns(db, org(req), req.params.id));
  route(app, qcApi.recordRun, async (req) => recordRun(db, actorOf(req), req.params.id, req.body));
  route(app, qcApi.recordTestRun, async (req) => recordTestRun(db, actorOf(req), req.body));
  route(app, qcApi.overrideRun, async (req) => ({
    runs: await overrideRun(db, actorOf(req), req.params.id, req.body.reason),
  }));
  route(app, qcApi.testStatus, async (req) => ({
    status: await testQcStatus(db, org(req), req.params.id, req.query),
  }));
  route(app, qcApi.testRules, async (req) => getTestRules(db, org(req), req.params.id));
  route(app, qcApi.setTestRules, async (req) => setTestRules(db, actorOf(req), req.params.id, req.body.rules));
}

export default qcRoutes;
