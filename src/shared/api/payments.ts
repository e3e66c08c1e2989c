import { z } from 'zod';
import { downloadQuery, idParam, pagedShape } from '../schemas/common.js';
import {
  chequeBounceSchema,
  closingCreateSchema,
  closingListQuery,
  closingQuery,
  closingSchema,
  closingSettingsSchema,
  ledgerEntrySchema,
  ledgerListQuery,
  advanceUseSchema,
  ledgerPaymentCreateSchema,
  ledgerSummarySchema,
  patientAdvanceSchema,
  refundCreateSchema,
} from '../schemas/payments.js';
import { defineRoute, fileResponse } from './contract.js';

const onePayment = z.object({ payment: ledgerEntrySchema });
const oneClosing = z.object({ closing: closingSchema });

/**
 * Payments: the lab's ledger. Reading needs view_bills; taking money create_bills (as at
 * the bill); refunds and settling cheques manage_bills.
 */
export const paymentsApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/payments',
    access: 'view_bills',
    query: ledgerListQuery,
    /** summary: the totals of every row the filters select, not just this page. */
    response: z.object({ payments: z.array(ledgerEntrySchema), ...pagedShape, summary: ledgerSummarySchema }),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/payments/:id',
    access: 'view_bills',
    params: idParam,
    response: onePayment,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/payments',
    access: 'create_bills',
    body: ledgerPaymentCreateSchema,
    response: onePayment,
    status: 201,
  }),
  /**
   * Pays a bill from the patient's advance on account: a ledger row of kind advance (no money moves;
   * never revenue). Refunding that row returns the advance to the account.
   */
  useAdvance: defineRoute({
    method: 'POST',
    path: '/api/payments/advance',
    access: 'create_bills',
    body: advanceUseSchema,
    response: onePayment,
    status: 201,
  }),
  /** A refund of up to what is left of the payment, as its own ledger row (the answer). An advance row: back to the account. */
  refund: defineRoute({
    method: 'POST',
    path: '/api/payments/:id/refund',
    access: 'manage_bills',
    params: idParam,
    body: refundCreateSchema,
    response: onePayment,
    status: 201,
  }),
  clear: defineRoute({
    method: 'POST',
    path: '/api/payments/:id/clear',
    access: 'manage_bills',
    params: idParam,
    response: onePayment,
  }),
  bounce: defineRoute({
    method: 'POST',
    path: '/api/payments/:id/bounce',
    access: 'manage_bills',
    params: idParam,
    body: chequeBounceSchema,
    response: onePayment,
  }),
  patientAdvance: defineRoute({
    method: 'GET',
    path: '/api/patients/:id/advance',
    access: 'view_bills',
    params: idParam,
    response: patientAdvanceSchema,
  }),
};

/** Day-end closing: a cashier's own day with create_bills; another cashier's with manage_bills. */
export const closingsApi = {
  get: defineRoute({
    method: 'GET',
    path: '/api/closings',
    access: 'create_bills',
    query: closingQuery,
    response: oneClosing,
  }),
  history: defineRoute({
    method: 'GET',
    path: '/api/closings/history',
    access: 'create_bills',
    query: closingListQuery,
    response: z.object({ closings: z.array(closingSchema) }),
  }),
  close: defineRoute({
    method: 'POST',
    path: '/api/closings',
    access: 'create_bills',
    body: closingCreateSchema,
    response: oneClosing,
    status: 201,
  }),
  pdf: defineRoute({
    method: 'GET',
    path: '/api/closings/:id/pdf',
    access: 'create_bills',
    params: idParam,
    query: downloadQuery,
    response: fileResponse('application/pdf'),
  }),
  settings: defineRoute({
    method: 'GET',
    path: '/api/closings/settings',
    access: 'create_bills',
    response: z.object({ settings: closingSettingsSchema }),
  }),
  updateSettings: defineRoute({
    method: 'PUT',
    path: '/api/closings/settings',
    access: 'system_settings',
    body: closingSettingsSchema,
    response: z.object({ settings: closingSettingsSchema }),
  }),
};
