import { z } from 'zod';
import { idParam } from '../schemas/common.js';
import { patientCreateSchema } from '../schemas/patients.js';
import {
  centreSchema,
  centreStatementPdfQuery,
  centreStatementQuery,
  centreStatementSchema,
} from '../schemas/centres.js';
import {
  portalBillDetailSchema,
  portalBillSchema,
  portalOrderSchema,
  portalPatientSchema,
  portalSearchQuery,
  portalTestSchema,
} from '../schemas/centre-portal.js';
import { defineRoute, fileResponse } from './contract.js';

/**
 * The centre portal (centre_portal: a collection centre's own login, bound to one centre). Every
 * route answers for the user's centre only: another centre's or the lab's own patient, bill or tube
 * answers 404, as if it did not exist.
 */
export const centrePortalApi = {
  /** The centre's account: balance, limit, credit days and, when on hold, why. */
  centre: defineRoute({
    method: 'GET',
    path: '/api/centre-portal/centre',
    access: 'centre_portal',
    response: z.object({ centre: centreSchema }),
  }),
  tests: defineRoute({
    method: 'GET',
    path: '/api/centre-portal/tests',
    access: 'centre_portal',
    query: portalSearchQuery,
    response: z.object({ tests: z.array(portalTestSchema) }),
  }),
  patients: defineRoute({
    method: 'GET',
    path: '/api/centre-portal/patients',
    access: 'centre_portal',
    query: portalSearchQuery,
    response: z.object({ patients: z.array(portalPatientSchema) }),
  }),
  /** Registers a patient as the centre's. */
  registerPatient: defineRoute({
    method: 'POST',
    path: '/api/centre-portal/patients',
    access: 'centre_portal',
    body: patientCreateSchema,
    response: z.object({ patient: portalPatientSchema }),
    status: 201,
  }),
  bills: defineRoute({
    method: 'GET',
    path: '/api/centre-portal/bills',
    access: 'centre_portal',
    response: z.object({ bills: z.array(portalBillSchema) }),
  }),
  /** Orders tests for one of the centre's patients: a bill on the centre's account (refused while on hold). */
  order: defineRoute({
    method: 'POST',
    path: '/api/centre-portal/bills',
    access: 'centre_portal',
    body: portalOrderSchema,
    response: z.object({ bill: portalBillSchema }),
    status: 201,
  }),
  bill: defineRoute({
    method: 'GET',
    path: '/api/centre-portal/bills/:id',
    access: 'centre_portal',
    params: idParam,
    response: portalBillDetailSchema,
  }),
  /** The bill's released reports as one PDF (refused with the reason while held). */
  report: defineRoute({
    method: 'GET',
    path: '/api/centre-portal/bills/:id/report.pdf',
    access: 'centre_portal',
    params: idParam,
    query: z.object({ download: z.enum(['0', '1'], { error: 'download must be 0 or 1' }).optional() }),
    response: fileResponse('application/pdf'),
  }),
  /** A tube's label, to stick on before the sample travels to the lab. */
  label: defineRoute({
    method: 'GET',
    path: '/api/centre-portal/samples/:id/label.pdf',
    access: 'centre_portal',
    params: idParam,
    response: fileResponse('application/pdf'),
  }),
  statement: defineRoute({
    method: 'GET',
    path: '/api/centre-portal/statement',
    access: 'centre_portal',
    query: centreStatementQuery,
    response: z.object({ statement: centreStatementSchema }),
  }),
  statementPdf: defineRoute({
    method: 'GET',
    path: '/api/centre-portal/statement/pdf',
    access: 'centre_portal',
    query: centreStatementPdfQuery,
    response: fileResponse('application/pdf'),
  }),
};
