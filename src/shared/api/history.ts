import { z } from 'zod';
import { idParam } from '../schemas/common.js';
import { patientHistorySchema, visitCreateSchema, visitSchema, visitUpdateSchema } from '../schemas/history.js';
import { defineRoute } from './contract.js';

const oneVisit = z.object({ visit: visitSchema });

/** Patient History (spec 2.13) and visits/appointments (spec 3 "Visit"). */
export const historyApi = {
  history: defineRoute({
    method: 'GET',
    path: '/api/patients/:id/history',
    access: 'view_patients',
    params: idParam,
    response: patientHistorySchema,
  }),
  visits: defineRoute({
    method: 'GET',
    path: '/api/patients/:id/visits',
    access: 'view_patients',
    params: idParam,
    response: z.object({ visits: z.array(visitSchema) }),
  }),
  scheduleVisit: defineRoute({
    method: 'POST',
    path: '/api/patients/:id/visits',
    access: 'manage_appointments',
    params: idParam,
    body: visitCreateSchema,
    response: oneVisit,
    status: 201,
  }),
  getVisit: defineRoute({
    method: 'GET',
    path: '/api/visits/:id',
    access: 'view_patients',
    params: idParam,
    response: oneVisit,
  }),
  updateVisit: defineRoute({
    method: 'PUT',
    path: '/api/visits/:id',
    access: 'manage_appointments',
    params: idParam,
    body: visitUpdateSchema,
    response: oneVisit,
  }),
};
