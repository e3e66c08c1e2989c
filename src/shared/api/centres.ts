import { z } from 'zod';
import { idParam } from '../schemas/common.js';
import {
  centreApprovalCreateSchema,
  centreApprovalSchema,
  centreBillSchema,
  centreCreateSchema,
  centreListQuery,
  centrePatientSchema,
  centreReceiptCreateSchema,
  centreReceiptSchema,
  centreSchema,
  centreSettingsSchema,
  centreStatementPdfQuery,
  centreStatementQuery,
  centreStatementSchema,
  centreUpdateSchema,
  shareRuleCreateSchema,
  shareRuleParams,
  shareRuleSchema,
} from '../schemas/centres.js';
import { defineRoute, fileResponse } from './contract.js';

const oneCentre = z.object({ centre: centreSchema });
const rules = z.object({ rules: z.array(shareRuleSchema) });
const approvals = z.object({ approvals: z.array(centreApprovalSchema) });

/**
 * Collection centres: who sees bills sees centres and their accounts (view_bills); who manages
 * bills keeps centres, their share rules and takes their payments (manage_bills); what a breach
 * does, and approving a bill past one, is the lab's management's (manage_lab).
 */
export const centresApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/centres',
    access: 'view_bills',
    query: centreListQuery,
    response: z.object({ centres: z.array(centreSchema) }),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/centres/:id',
    access: 'view_bills',
    params: idParam,
    response: oneCentre,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/centres',
    access: 'manage_bills',
    body: centreCreateSchema,
    response: oneCentre,
    status: 201,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/centres/:id',
    access: 'manage_bills',
    params: idParam,
    body: centreUpdateSchema,
    response: oneCentre,
  }),
  shareRules: defineRoute({
    method: 'GET',
    path: '/api/centres/:id/share-rules',
    access: 'view_bills',
    params: idParam,
    response: rules,
  }),
  addShareRule: defineRoute({
    method: 'POST',
    path: '/api/centres/:id/share-rules',
    access: 'manage_bills',
    params: idParam,
    body: shareRuleCreateSchema,
    response: rules,
    status: 201,
  }),
  removeShareRule: defineRoute({
    method: 'DELETE',
    path: '/api/centres/:id/share-rules/:ruleId',
    access: 'manage_bills',
    params: shareRuleParams,
    response: rules,
  }),
  /** What a breach of limit or credit days does to a centre's next bill: refuse, or ask an approver. */
  settings: defineRoute({
    method: 'GET',
    path: '/api/centre-settings',
    access: 'view_bills',
    response: z.object({ settings: centreSettingsSchema }),
  }),
  updateSettings: defineRoute({
    method: 'PUT',
    path: '/api/centre-settings',
    access: 'manage_lab',
    body: centreSettingsSchema,
    response: z.object({ settings: centreSettingsSchema }),
  }),
  approvals: defineRoute({
    method: 'GET',
    path: '/api/centres/:id/approvals',
    access: 'view_bills',
    params: idParam,
    response: approvals,
  }),
  /** Lets the next bill of a centre on hold through, once (when the lab's setting is 'approver'). */
  approve: defineRoute({
    method: 'POST',
    path: '/api/centres/:id/approvals',
    access: 'manage_lab',
    params: idParam,
    body: centreApprovalCreateSchema,
    response: approvals,
    status: 201,
  }),
  /** The centre's bills with money due, oldest first. */
  bills: defineRoute({
    method: 'GET',
    path: '/api/centres/:id/bills',
    access: 'view_bills',
    params: idParam,
    response: z.object({ bills: z.array(centreBillSchema) }),
  }),
  patients: defineRoute({
    method: 'GET',
    path: '/api/centres/:id/patients',
    access: ['view_bills', 'view_patients'],
    params: idParam,
    response: z.object({ patients: z.array(centrePatientSchema) }),
  }),
  receipts: defineRoute({
    method: 'GET',
    path: '/api/centres/:id/receipts',
    access: 'view_bills',
    params: idParam,
    response: z.object({ receipts: z.array(centreReceiptSchema) }),
  }),
  /** A payment by the centre against its statement: the named bills, else the oldest first. */
  receive: defineRoute({
    method: 'POST',
    path: '/api/centres/:id/receipts',
    access: 'manage_bills',
    params: idParam,
    body: centreReceiptCreateSchema,
    response: z.object({ receipt: centreReceiptSchema }),
    status: 201,
  }),
  statement: defineRoute({
    method: 'GET',
    path: '/api/centres/:id/statement',
    access: 'view_bills',
    params: idParam,
    query: centreStatementQuery,
    response: z.object({ statement: centreStatementSchema }),
  }),
  /** Emails the period's statement PDF to the centre now (the monthly one goes by itself). */
  sendStatement: defineRoute({
    method: 'POST',
    path: '/api/centres/:id/statement/send',
    access: 'manage_bills',
    params: idParam,
    body: centreStatementQuery,
    response: z.object({ sent: z.object({ recipient: z.string(), from: z.string(), to: z.string() }) }),
  }),
  /** The statement as a PDF: the ledger, ageing and the share. */
  statementPdf: defineRoute({
    method: 'GET',
    path: '/api/centres/:id/statement/pdf',
    access: 'view_bills',
    params: idParam,
    query: centreStatementPdfQuery,
    response: fileResponse('application/pdf'),
  }),
};
