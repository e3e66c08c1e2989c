import { z } from 'zod';
import { idParam } from '../schemas/common.js';
import {
  payerCreateSchema,
  payerListQuery,
  payerPageSchema,
  payerPriceCreateSchema,
  payerPriceParams,
  payerPriceSchema,
  payerSchema,
  payerStatementSchema,
  payerUpdateSchema,
  periodPdfQuery,
  periodQuery,
} from '../schemas/payers.js';
import { defineRoute, fileResponse } from './contract.js';

const onePayer = z.object({ payer: payerSchema });
const prices = z.object({ prices: z.array(payerPriceSchema) });

/**
 * Payers: who sees bills sees payers (view_bills); who manages bills keeps them and
 * their price lists (manage_bills).
 */
export const payersApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/payers',
    access: 'view_bills',
    query: payerListQuery,
    response: payerPageSchema,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/payers/:id',
    access: 'view_bills',
    params: idParam,
    response: onePayer,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/payers',
    access: 'manage_bills',
    body: payerCreateSchema,
    response: onePayer,
    status: 201,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/payers/:id',
    access: 'manage_bills',
    params: idParam,
    body: payerUpdateSchema,
    response: onePayer,
  }),
  /** Erases a payer no bill or invoice names; 409 otherwise (set it inactive). */
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/payers/:id',
    access: 'manage_bills',
    params: idParam,
    response: onePayer,
  }),
  prices: defineRoute({
    method: 'GET',
    path: '/api/payers/:id/prices',
    access: 'view_bills',
    params: idParam,
    response: prices,
  }),
  addPrice: defineRoute({
    method: 'POST',
    path: '/api/payers/:id/prices',
    access: 'manage_bills',
    params: idParam,
    body: payerPriceCreateSchema,
    response: prices,
    status: 201,
  }),
  removePrice: defineRoute({
    method: 'DELETE',
    path: '/api/payers/:id/prices/:priceId',
    access: 'manage_bills',
    params: payerPriceParams,
    response: prices,
  }),
  /** Opening balance, the period's bills and payments, closing balance. */
  statement: defineRoute({
    method: 'GET',
    path: '/api/payers/:id/statement',
    access: 'view_bills',
    params: idParam,
    query: periodQuery,
    response: z.object({ statement: payerStatementSchema }),
  }),
  statementPdf: defineRoute({
    method: 'GET',
    path: '/api/payers/:id/statement/pdf',
    access: 'view_bills',
    params: idParam,
    query: periodPdfQuery,
    response: fileResponse('application/pdf'),
  }),
};
