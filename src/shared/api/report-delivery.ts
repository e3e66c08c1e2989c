import { z } from 'zod';
import { idParam, okResponse } from '../schemas/common.js';
import {
  channelCostSchema,
  consentSchema,
  consentUpdateSchema,
  copiedLinkSchema,
  costsQuerySchema,
  deliverySettingsSchema,
  deliverySettingsUpdateSchema,
  deskQuerySchema,
  deskReportSchema,
  linkOpenBodySchema,
  linkOpenedSchema,
  linkProveBodySchema,
  linkReportSchema,
  otpSentSchema,
  resendBodySchema,
  smsReportBodySchema,
  smsReportQuerySchema,
} from '../schemas/report-delivery.js';
import { defineRoute, fileResponse } from './contract.js';

/**
 * The report link page, public: the token travels in the body (never in a path or query string, so
 * it stays out of every log line), the answer is checked on each call, and wrong answers are
 * limited. POST throughout, as each call is counted and logged.
 */
export const reportLinkApi = {
  open: defineRoute({
    method: 'POST',
    path: '/api/report-link/open',
    access: 'public',
    body: linkOpenBodySchema,
    response: z.object({ link: linkOpenedSchema }),
  }),
  /** Texts a one-time code when the lab's proof is a code. */
  sendCode: defineRoute({
    method: 'POST',
    path: '/api/report-link/code',
    access: 'public',
    body: linkOpenBodySchema,
    response: otpSentSchema,
  }),
  prove: defineRoute({
    method: 'POST',
    path: '/api/report-link/prove',
    access: 'public',
    body: linkProveBodySchema,
    response: z.object({ report: linkReportSchema }),
  }),
  pdf: defineRoute({
    method: 'POST',
    path: '/api/report-link/pdf',
    access: 'public',
    body: linkProveBodySchema,
    response: fileResponse('application/pdf'),
  }),
};

/** The staff side: the lab's settings, consent per patient, the front desk and the ledger. */
export const reportDeliveryApi = {
  settings: defineRoute({
    method: 'GET',
    path: '/api/report-delivery/settings',
    access: 'system_settings',
    response: z.object({ settings: deliverySettingsSchema }),
  }),
  saveSettings: defineRoute({
    method: 'PUT',
    path: '/api/report-delivery/settings',
    access: 'system_settings',
    body: deliverySettingsUpdateSchema,
    response: z.object({ settings: deliverySettingsSchema }),
  }),
  consent: defineRoute({
    method: 'GET',
    path: '/api/patients/:id/report-consent',
    access: 'view_patients',
    params: idParam,
    response: z.object({ consent: consentSchema }),
  }),
  saveConsent: defineRoute({
    method: 'PUT',
    path: '/api/patients/:id/report-consent',
    access: 'manage_patients',
    params: idParam,
    body: consentUpdateSchema,
    response: z.object({ consent: consentSchema }),
  }),
  desk: defineRoute({
    method: 'GET',
    path: '/api/report-delivery/desk',
    access: 'print_reports',
    query: deskQuerySchema,
    response: z.object({ day: z.string(), reports: z.array(deskReportSchema) }),
  }),
  copyLink: defineRoute({
    method: 'POST',
    path: '/api/report-delivery/samples/:id/link',
    access: 'print_reports',
    params: idParam,
    response: copiedLinkSchema,
  }),
  revokeLink: defineRoute({
    method: 'DELETE',
    path: '/api/report-delivery/samples/:id/link',
    access: 'print_reports',
    params: idParam,
    response: okResponse,
  }),
  opens: defineRoute({
    method: 'GET',
    path: '/api/report-delivery/samples/:id/opens',
    access: 'print_reports',
    params: idParam,
    response: z.object({
      opens: z.array(z.object({ at: z.string(), address: z.string().nullable(), outcome: z.string() })),
    }),
  }),
  resend: defineRoute({
    method: 'POST',
    path: '/api/report-delivery/samples/:id/resend',
    access: 'print_reports',
    params: idParam,
    body: resendBodySchema,
    response: z.object({ queued: z.number() }),
    status: 201,
  }),
  costs: defineRoute({
    method: 'GET',
    path: '/api/report-delivery/costs',
    access: 'view_reports',
    query: costsQuerySchema,
    response: z.object({ costs: z.array(channelCostSchema) }),
  }),
};

/**
 * WhatsApp's status webhooks, per lab (its app secret signs them): public, checked by
 * X-Hub-Signature-256 over the raw body, and the address check Meta makes when it is set up.
 */
export const reportWebhookApi = {
  whatsapp: defineRoute({
    method: 'POST',
    path: '/api/report-delivery/webhooks/whatsapp/:id',
    access: 'public',
    params: idParam,
    // The body is read as bytes (its signature is over them), so it is not a schema here.
    bodyLimit: 256 * 1024,
    response: z.object({ updated: z.number() }),
  }),
  /**
   * The SMS gateway's delivery reports, per lab: the lab's key in the query (`?key=`) or an
   * X-Lims-Key header; `ref` and `status` in the query (a callback address the gateway fills in) or
   * the body (JSON or a form).
   */
  sms: defineRoute({
    method: 'POST',
    path: '/api/report-delivery/webhooks/sms/:id',
    access: 'public',
    params: idParam,
    query: smsReportQuerySchema,
    body: smsReportBodySchema,
    response: z.object({ updated: z.number() }),
  }),
  challenge: defineRoute({
    method: 'GET',
    path: '/api/report-delivery/webhooks/whatsapp/:id',
    access: 'public',
    params: idParam,
    query: z.object({
      'hub.mode': z.string().max(40).optional(),
      'hub.verify_token': z.string().max(200).optional(),
      'hub.challenge': z.string().max(200).optional(),
    }),
    response: fileResponse('text/plain'),
  }),
};
