import { z } from 'zod';
import { pagedShape, pageQuery, requiredText, strictNumber } from './common.js';

/**
 * Reports out ("Out"): the receivers a lab pushes its verified reports to (a hospital's
 * HL7 v2 interface engine over MLLP, or a FHIR endpoint over HTTP) and the delivery log.
 */

export const RECEIVER_KINDS = ['mllp', 'http'] as const;
export type ReceiverKind = (typeof RECEIVER_KINDS)[number];
export const DELIVERY_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/** A host name or an IPv4/IPv6 address, as typed into a connection form. */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[?[0-9A-Fa-f:.]+\]?)$/;

export const receiverCreateSchema = z.object({
  name: requiredText('Name', 80),
  kind: z.enum(RECEIVER_KINDS, { error: 'Kind must be mllp or http' }),
  host: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
    z
      .string({ error: 'Host must be text' })
      .max(253, 'Host must be at most 253 characters')
      .regex(HOST, 'Host must be a host name or an IP address, e.g. 10.0.0.5')
      .nullable()
      .optional(),
  ),
  port: z.preprocess(
    blankToNull,
    strictNumber(
      z
        .number({ error: 'Port must be a number' })
        .int('Port must be a whole number')
        .min(1, 'Port must be 1 to 65535')
        .max(65535, 'Port must be 1 to 65535')
        .nullable()
        .optional(),
    ),
  ),
  url: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
    z
      .string({ error: 'URL must be text' })
      .max(500, 'URL must be at most 500 characters')
      .refine((u) => {
        try {
          const p = new URL(u);
          return (p.protocol === 'http:' || p.protocol === 'https:') && !p.username && !p.password;
        } catch {
          return false;
        }
      }, 'URL must be an http:// or https:// address without a user name or password in it')
      .nullable()
      .optional(),
  ),
  /** Only the reports of bills charged to this payer (a referring hospital, a corporate client); null: every report. */
  payer_id: z.preprocess(
    blankToNull,
    strictNumber(
      z
        .number({ error: 'payer_id must be a payer id' })
        .int('payer_id must be a payer id')
        .positive('payer_id must be a payer id')
        .nullable()
        .optional(),
    ),
  ),
  enabled: z.boolean({ error: 'enabled must be true or false' }).default(true),
});
export const receiverUpdateSchema = receiverCreateSchema.partial().extend({
  enabled: z.boolean({ error: 'enabled must be true or false' }).optional(),
});
export type ReceiverCreate = z.infer<typeof receiverCreateSchema>;
export type ReceiverUpdate = z.infer<typeof receiverUpdateSchema>;

export const receiverSchema = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.enum(RECEIVER_KINDS),
  host: z.string().nullable(),
  port: z.number().nullable(),
  url: z.string().nullable(),
  payer_id: z.number().nullable(),
  payer_name: z.string().nullable(),
  enabled: z.boolean(),
  /** Deliveries sent, waiting (pending or being sent) and failed for good. */
  sent: z.number(),
  waiting: z.number(),
  failed: z.number(),
  last_sent_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Receiver = z.infer<typeof receiverSchema>;

export const deliveryListQuery = pageQuery.extend({
  status: z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(DELIVERY_STATUSES, { error: `Status must be one of ${DELIVERY_STATUSES.join(', ')}` }).optional(),
  ),
  receiver_id: z.preprocess(
    blankToNull,
    strictNumber(z.number({ error: 'receiver_id must be a number' }).int().positive().nullable().optional()),
  ),
});
export type DeliveryListQuery = z.infer<typeof deliveryListQuery>;

export const deliverySchema = z.object({
  id: z.number(),
  receiver_id: z.number(),
  receiver_name: z.string(),
  kind: z.enum(RECEIVER_KINDS),
  sample_id: z.number(),
  sample_code: z.string(),
  message_id: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number(),
  next_attempt_at: z.string(),
  /** The receiver's answer: the ACK code (AA, AE, AR) or the HTTP status. */
  response: z.string().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});
export type Delivery = z.infer<typeof deliverySchema>;
export const deliveryPageSchema = z.object({ deliveries: z.array(deliverySchema), ...pagedShape });
export type DeliveryPage = z.infer<typeof deliveryPageSchema>;
