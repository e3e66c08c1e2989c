import { z } from 'zod';
import { idParam } from '../schemas/common.js';
import {
  deliveryListQuery,
  deliveryPageSchema,
  deliverySchema,
  receiverCreateSchema,
  receiverSchema,
  receiverUpdateSchema,
} from '../schemas/interop-out.js';
import { defineRoute, fileResponse } from './contract.js';

const oneReceiver = z.object({ receiver: receiverSchema });

/**
 * Reports out ("Out"). A verified report as HL7 v2.5.1 ORU^R01 or a FHIR R4 Bundle is
 * read as the report PDF is (view_results, a doctor only their patients'); the receivers the lab
 * pushes reports to and their delivery log are the lab's configuration (manage_lab).
 */
export const interopOutApi = {
  hl7: defineRoute({
    method: 'GET',
    path: '/api/samples/:id/hl7',
    access: 'view_results',
    params: idParam,
    response: fileResponse('application/hl7-v2'),
  }),
  fhir: defineRoute({
    method: 'GET',
    path: '/api/samples/:id/fhir',
    access: 'view_results',
    params: idParam,
    response: fileResponse('application/fhir+json'),
  }),
  receivers: defineRoute({
    method: 'GET',
    path: '/api/interop/receivers',
    access: 'manage_lab',
    response: z.object({ receivers: z.array(receiverSchema) }),
  }),
  createReceiver: defineRoute({
    method: 'POST',
    path: '/api/interop/receivers',
    access: 'manage_lab',
    body: receiverCreateSchema,
    response: oneReceiver,
    status: 201,
  }),
  updateReceiver: defineRoute({
    method: 'PUT',
    path: '/api/interop/receivers/:id',
    access: 'manage_lab',
    params: idParam,
    body: receiverUpdateSchema,
    response: oneReceiver,
  }),
  /** Removes a receiver and its delivery log (the audit trail keeps that it existed). */
  removeReceiver: defineRoute({
    method: 'DELETE',
    path: '/api/interop/receivers/:id',
    access: 'manage_lab',
    params: idParam,
    response: oneReceiver,
  }),
  deliveries: defineRoute({
    method: 'GET',
    path: '/api/interop/deliveries',
    access: 'manage_lab',
    query: deliveryListQuery,
    response: deliveryPageSchema,
  }),
  /** A failed delivery is tried again from the start (attempts counted afresh). */
  retryDelivery: defineRoute({
    method: 'POST',
    path: '/api/interop/deliveries/:id/retry',
    access: 'manage_lab',
    params: idParam,
    response: z.object({ delivery: deliverySchema }),
  }),
};
