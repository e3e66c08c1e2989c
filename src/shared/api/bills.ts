import { z } from 'zod';
import { downloadQuery, idParam, pagedShape } from '../schemas/common.js';
import {
  billCreateSchema,
  billListQuery,
  billSchema,
  billSummarySchema,
  billItemsUpdateSchema,
  billUpdateSchema,
  billPaymentCreateSchema,
  registerWithBillSchema,
} from '../schemas/bills.js';
import { patientSchema } from '../schemas/patients.js';
import { defineRoute, fileResponse } from './contract.js';

const oneBill = z.object({ bill: billSchema });

export const billsApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/bills',
    access: 'view_bills',
    query: billListQuery,
    response: z.object({ bills: z.array(billSchema), ...pagedShape }),
  }),
  summary: defineRoute({
    method: 'GET',
    path: '/api/bills/summary',
    access: 'view_bills',
    response: z.object({ summary: billSummarySchema }),
  }),
  /** Bills List "Export": every bill matching the filters as CSV, recorded in the audit trail. */
  export: defineRoute({
    method: 'GET',
    path: '/api/bills/export',
    access: ['view_bills', 'export_data'],
    query: billListQuery,
    response: fileResponse('text/csv'),
  }),
  get: defineRoute({ method: 'GET', path: '/api/bills/:id', access: 'view_bills', params: idParam, response: oneBill }),
  pdf: defineRoute({
    method: 'GET',
    path: '/api/bills/:id/pdf',
    access: 'view_bills',
    params: idParam,
    /** portal_pin=1: issue the patient a new portal PIN and print it with the portal address (manage_patients). */
    query: downloadQuery.extend({
      portal_pin: z.enum(['0', '1'], { error: 'portal_pin must be 0 or 1' }).optional(),
    }),
    response: fileResponse('application/pdf'),
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/bills',
    access: 'create_bills',
    body: billCreateSchema,
    response: oneBill,
    status: 201,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/bills/:id',
    access: 'manage_bills',
    params: idParam,
    body: billUpdateSchema,
    response: oneBill,
  }),
  /**
   * Tests added to or taken off a saved bill until its samples are drawn: the figures worked out
   * again, the order of samples changed, a refund of money paid beyond the new total. The desk that
   * bills makes it (create_bills); 409 once a sample of a removed test is collected, or the bill is on
   * a payer's invoice or cancelled.
   */
  updateItems: defineRoute({
    method: 'PUT',
    path: '/api/bills/:id/items',
    access: 'create_bills',
    params: idParam,
    body: billItemsUpdateSchema,
    response: oneBill,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/bills/:id',
    access: 'delete_bills',
    params: idParam,
    response: oneBill,
  }),
  addPayment: defineRoute({
    method: 'POST',
    path: '/api/bills/:id/payments',
    access: 'create_bills',
    params: idParam,
    body: billPaymentCreateSchema,
    response: oneBill,
    status: 201,
  }),
  /** Register Patient with Bill (spec 2.11): patient and bill in one transaction. */
  registerWithBill: defineRoute({
    method: 'POST',
    path: '/api/registrations',
    access: ['manage_patients', 'create_bills'],
    body: registerWithBillSchema,
    response: z.object({ patient: patientSchema, bill: billSchema }),
    status: 201,
  }),
};
