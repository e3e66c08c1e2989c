import { z } from 'zod';
import { downloadQuery, idParam, isoDate } from '../schemas/common.js';
import {
  invoiceCancelSchema,
  invoiceCreateSchema,
  invoiceDetailSchema,
  invoiceListQuery,
  invoiceMarkPaidSchema,
  invoicePageSchema,
} from '../schemas/invoices.js';
import { defineRoute, fileResponse } from './contract.js';

const oneInvoice = z.object({ invoice: invoiceDetailSchema });

/** GST invoices: read with view_bills; raised, issued, paid and cancelled with manage_bills. */
export const invoicesApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/invoices',
    access: 'view_bills',
    query: invoiceListQuery,
    response: invoicePageSchema,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/invoices/:id',
    access: 'view_bills',
    params: idParam,
    response: oneInvoice,
  }),
  pdf: defineRoute({
    method: 'GET',
    path: '/api/invoices/:id/pdf',
    access: 'view_bills',
    params: idParam,
    query: downloadQuery,
    response: fileResponse('application/pdf'),
  }),
  /** A draft (no number) for a payer's bills of a period, or for one patient's bill. */
  create: defineRoute({
    method: 'POST',
    path: '/api/invoices',
    access: 'manage_bills',
    body: invoiceCreateSchema,
    response: oneInvoice,
    status: 201,
  }),
  /** draft -> pending: the next number of the financial year's series (INV2627-000001). */
  issue: defineRoute({
    method: 'POST',
    path: '/api/invoices/:id/issue',
    access: 'manage_bills',
    params: idParam,
    body: z.object({ invoice_date: isoDate('invoice_date').optional() }),
    response: oneInvoice,
  }),
  /** Records what is due on each of its bills as a payment; pending/overdue -> paid. */
  markPaid: defineRoute({
    method: 'POST',
    path: '/api/invoices/:id/mark-paid',
    access: 'manage_bills',
    params: idParam,
    body: invoiceMarkPaidSchema,
    response: oneInvoice,
  }),
  /** An issued, unpaid invoice -> cancelled, with a credit note; its bills may be invoiced again. */
  cancel: defineRoute({
    method: 'POST',
    path: '/api/invoices/:id/cancel',
    access: 'manage_bills',
    params: idParam,
    body: invoiceCancelSchema,
    response: oneInvoice,
  }),
  /** Deletes a draft; 409 once issued (cancel it instead). */
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/invoices/:id',
    access: 'manage_bills',
    params: idParam,
    response: oneInvoice,
  }),
};
