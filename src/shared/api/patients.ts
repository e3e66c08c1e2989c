import { z } from 'zod';
import { idParam } from '../schemas/common.js';
import {
  patientCreateSchema,
  patientListQuery,
  patientMergeResultSchema,
  patientMergeSchema,
  patientPageSchema,
  patientSchema,
  patientUpdateSchema,
} from '../schemas/patients.js';
import { defineRoute, fileResponse } from './contract.js';

const onePatient = z.object({ patient: patientSchema });

export const patientsApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/patients',
    access: 'view_patients',
    query: patientListQuery,
    response: patientPageSchema,
  }),
  /** Spec: GET /patients/search?search&gender answers {patients}; same engine as the list. */
  search: defineRoute({
    method: 'GET',
    path: '/api/patients/search',
    access: 'view_patients',
    query: patientListQuery,
    response: patientPageSchema,
  }),
  /** All Patients "Export": every patient matching the filters as CSV, recorded in the audit trail. */
  export: defineRoute({
    method: 'GET',
    path: '/api/patients/export',
    access: ['view_patients', 'export_data'],
    query: patientListQuery,
    response: fileResponse('text/csv'),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/patients/:id',
    access: 'view_patients',
    params: idParam,
    response: onePatient,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/patients',
    access: 'manage_patients',
    body: patientCreateSchema,
    response: onePatient,
    status: 201,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/patients/:id',
    access: 'manage_patients',
    params: idParam,
    body: patientUpdateSchema,
    response: onePatient,
  }),
  /**
   * Merges the patient in the path into `into` (the record kept): everything that names it moves,
   * its row goes and its code stays as an alias of the kept patient. 400 when `into` is the same
   * patient, 404 when either is not a patient of the lab.
   */
  merge: defineRoute({
    method: 'POST',
    path: '/api/patients/:id/merge',
    access: 'merge_patients',
    params: idParam,
    body: patientMergeSchema,
    response: patientMergeResultSchema,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/patients/:id',
    access: 'manage_patients',
    params: idParam,
    response: onePatient,
  }),
};
