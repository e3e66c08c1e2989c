import { z } from 'zod';
import { idParam } from '../schemas/common.js';
import {
  qcMaterialCreateSchema,
  qcMaterialListQuery,
  qcMaterialSchema,
  qcMaterialUpdateSchema,
  qcOverrideSchema,
  qcRunCreateSchema,
  qcRunSchema,
  qcSummarySchema,
  qcTestRunCreateSchema,
  qcTestStatusQuery,
  qcTestStatusSchema,
} from '../schemas/qc.js';
import { WESTGARD_RULES } from '../westgard.js';
import { defineRoute } from './contract.js';

const oneMaterial = z.object({ material: qcMaterialSchema });
const rulesOfTest = z.object({ test_id: z.number(), test_name: z.string(), rules: z.array(z.enum(WESTGARD_RULES)) });

/** Quality control (spec 001 "Quality Control"): control materials, runs judged by the Westgard rules, summary. */
export const qcApi = {
  summary: defineRoute({
    method: 'GET',
    path: '/api/qc/summary',
    access: 'view_results',
    response: z.object({ summary: qcSummarySchema }),
  }),
  materials: defineRoute({
    method: 'GET',
    path: '/api/qc/materials',
    access: 'view_results',
    query: qcMaterialListQuery,
    response: z.object({ materials: z.array(qcMaterialSchema) }),
  }),
  material: defineRoute({
    method: 'GET',
    path: '/api/qc/materials/:id',
    access: 'view_results',
    params: idParam,
    response: oneMaterial,
  }),
  createMaterial: defineRoute({
    method: 'POST',
    path: '/api/qc/materials',
    access: 'manage_qc',
    body: qcMaterialCreateSchema,
    response: oneMaterial,
    status: 201,
  }),
  updateMaterial: defineRoute({
    method: 'PUT',
    path: '/api/qc/materials/:id',
    access: 'manage_qc',
    params: idParam,
    body: qcMaterialUpdateSchema,
    response: oneMaterial,
  }),
  deleteMaterial: defineRoute({
    method: 'DELETE',
    path: '/api/qc/materials/:id',
    access: 'manage_qc',
    params: idParam,
    response: oneMaterial,
  }),
  runs: defineRoute({
    method: 'GET',
    path: '/api/qc/materials/:id/runs',
    access: 'view_results',
    params: idParam,
    response: z.object({ material: qcMaterialSchema, runs: z.array(qcRunSchema) }),
  }),
  recordRun: defineRoute({
    method: 'POST',
    path: '/api/qc/materials/:id/runs',
    access: 'manage_qc',
    params: idParam,
    body: qcRunCreateSchema,
    response: z.object({ run: qcRunSchema, material: qcMaterialSchema }),
    status: 201,
  }),
  /** A run of a test: every control level measured together, judged within and across runs. */
  recordTestRun: defineRoute({
    method: 'POST',
    path: '/api/qc/runs',
    access: 'manage_qc',
    body: qcTestRunCreateSchema,
    response: z.object({ runs: z.array(qcRunSchema), status: z.string(), rules: z.array(z.string()) }),
    status: 201,
  }),
  /** A supervisor accepts a rejected run with a reason; patient results of the test can be verified again. */
  overrideRun: defineRoute({
    method: 'POST',
    path: '/api/qc/runs/:id/override',
    access: 'manage_lab',
    params: idParam,
    body: qcOverrideSchema,
    response: z.object({ runs: z.array(qcRunSchema) }),
  }),
  /**
   * Whether the test's patient results are held by QC: the rejected, not overridden latest run of
   * any active level, at a moment (now by default) and on a machine (any by default).
   */
  testStatus: defineRoute({
    method: 'GET',
    path: '/api/qc/tests/:id/status',
    access: 'view_results',
    params: idParam,
    query: qcTestStatusQuery,
    response: z.object({ status: qcTestStatusSchema }),
  }),
  testRules: defineRoute({
    method: 'GET',
    path: '/api/qc/tests/:id/rules',
    access: 'view_results',
    params: idParam,
    response: rulesOfTest,
  }),
  setTestRules: defineRoute({
    method: 'PUT',
    path: '/api/qc/tests/:id/rules',
    access: 'manage_qc',
    params: idParam,
    body: z.object({
      rules: z
        .array(z.enum(WESTGARD_RULES, { error: `Rules must be among ${WESTGARD_RULES.join(', ')}` }))
        .min(1, 'Choose at least one rule'),
    }),
    response: rulesOfTest,
  }),
};
