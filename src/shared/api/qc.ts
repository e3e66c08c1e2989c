import { z } from 'zod';
import { idParam } from '../schemas/common.js';
import {
  qcMaterialCreateSchema,
  qcMaterialListQuery,
  qcMaterialSchema,
  qcMaterialUpdateSchema,
  qcRunCreateSchema,
  qcRunSchema,
  qcSummarySchema,
} from '../schemas/qc.js';
import { defineRoute } from './contract.js';

const oneMaterial = z.object({ material: qcMaterialSchema });

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
};
