import { z } from 'zod';
import { optionalPhone, optionalText, requiredText, rupeeAmount, strictNumber } from './common.js';

/** Report delivery: the link a patient opens, consent per patient, the ledger and the lab's settings. */

export const DELIVERY_CHANNELS = ['whatsapp', 'sms', 'email'] as const;
export const PREFERRED_CHANNELS = ['whatsapp', 'sms', 'email', 'none'] as const;
export const DELIVERY_STATUSES = ['held', 'queued', 'sending', 'sent', 'delivered', 'read', 'failed'] as const;
export const LINK_PROOFS = ['birth_year', 'mobile_last4', 'otp'] as const;

export type DeliveryChannelName = (typeof DELIVERY_CHANNELS)[number];
export type PreferredChannel = (typeof PREFERRED_CHANNELS)[number];
export type LinkProofKind = (typeof LINK_PROOFS)[number];

/** How long a link lives, in days, at most. */
export const LINK_DAYS_MAX = 90;

// --- The public link page -------------------------------------------------------------------

/** A token as the page reads it from the address's fragment: a link's or a report QR code's. */
export const linkTokenSchema = z
  .string({ error: 'token is required' })
  .trim()
  .min(10, 'token is not a report link')
  .max(200, 'token is not a report link')
  .regex(/^[A-Za-z0-9._-]+$/, 'token is not a report link');

export const linkOpenBodySchema = z.object({ token: linkTokenSchema });

export const linkProveBodySchema = z.object({
  token: linkTokenSchema,
  answer: z
    .string({ error: 'answer is required' })
    .trim()
    .min(1, 'answer is required')
    .max(12, 'answer must be at most 12 characters')
    .regex(/^\d+$/, 'answer must be digits'),
});
export type LinkProveBody = z.infer<typeof linkProveBodySchema>;

/** What the page shows before the patient proves who they are: nothing about the patient. */
export const linkOpenedSchema = z.object({
  lab: z.object({ name: z.string(), phone: z.string().nullable() }),
  proof: z.enum(LINK_PROOFS),
  amended: z.boolean(),
  /** OTP only: where the code goes, all but the last digits hidden ("******1234"). */
  otp_to: z.string().nullable(),
});
export type LinkOpened = z.infer<typeof linkOpenedSchema>;

/** What the page shows once the patient has proved who they are. */
export const linkReportSchema = z.object({
  lab: z.object({ name: z.string(), phone: z.string().nullable() }),
  patient_first_name: z.string(),
  sample_code: z.string(),
  reported_at: z.string().nullable(),
  amended: z.boolean(),
  tests: z.array(z.string()),
});
export type LinkReport = z.infer<typeof linkReportSchema>;

export const otpSentSchema = z.object({
  sent_to: z.string(),
  /** The channel the code went by: the patient's WhatsApp when they chose it, else SMS. */
  channel: z.enum(['whatsapp', 'sms']),
  expires_at: z.string(),
});

// --- Consent and channel per patient ----------------------------------------------------------

export const consentUpdateSchema = z.object({
  channel: z.enum(PREFERRED_CHANNELS, { error: 'channel must be whatsapp, sms, email or none' }),
  /** True records consent now (by the signed-in user); false withdraws it. */
  consent: z.boolean({ error: 'consent must be true or false' }),
  recipient_phone: optionalPhone('Recipient phone'),
});
export type ConsentUpdate = z.infer<typeof consentUpdateSchema>;

export const consentSchema = z.object({
  patient_id: z.number(),
  channel: z.enum(PREFERRED_CHANNELS),
  consent: z.boolean(),
  recipient_phone: z.string().nullable(),
  consent_at: z.string().nullable(),
  consent_by_name: z.string().nullable(),
  withdrawn_at: z.string().nullable(),
});
export type Consent = z.infer<typeof consentSchema>;

// --- The lab's settings ----------------------------------------------------------------------

export const deliverySettingsUpdateSchema = z.object({
  enabled: z.boolean({ error: 'enabled must be true or false' }),
  link_days: strictNumber(
    z
      .number({ error: 'link_days must be a number' })
      .int('link_days must be a whole number')
      .min(1, 'link_days must be at least 1')
      .max(LINK_DAYS_MAX, `link_days must be at most ${LINK_DAYS_MAX}`),
  ),
  proof: z.enum(LINK_PROOFS, { error: 'proof must be birth_year, mobile_last4 or otp' }),
  send_to_doctors: z.boolean({ error: 'send_to_doctors must be true or false' }),
  email_mode: z.enum(['link', 'attach'], { error: 'email_mode must be link or attach' }),
  fallback_channel: z.enum(['sms', 'email', 'none'], { error: 'fallback_channel must be sms, email or none' }),
  whatsapp_base_url: requiredText('WhatsApp base URL', 300).pipe(
    z.url({ protocol: /^https?$/, error: 'whatsapp_base_url must be an http(s) URL' }),
  ),
  whatsapp_phone_number_id: optionalText(60, 'WhatsApp phone number id'),
  /** Left out: keep the saved one; null: remove it. */
  whatsapp_token: optionalText(500, 'WhatsApp token'),
  whatsapp_app_secret: optionalText(200, 'WhatsApp app secret'),
  whatsapp_verify_token: optionalText(200, 'WhatsApp verify token'),
  whatsapp_template: optionalText(100, 'WhatsApp template'),
  whatsapp_language: requiredText('WhatsApp template language', 12).pipe(
    z.string().regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'whatsapp_language must look like en or en_US'),
  ),
  price_whatsapp: rupeeAmount('price_whatsapp', 100),
  price_sms: rupeeAmount('price_sms', 100),
  price_email: rupeeAmount('price_email', 100),
  /** Each channel on or off on its own; left out: as saved. */
  whatsapp_on: z.boolean({ error: 'whatsapp_on must be true or false' }).optional(),
  sms_on: z.boolean({ error: 'sms_on must be true or false' }).optional(),
  email_on: z.boolean({ error: 'email_on must be true or false' }).optional(),
  /**
   * The lab's "hold reports until paid" (it holds the portal and the printed report too, so it is
   * one switch, kept with the lab's settings); left out: as saved.
   */
  hold_until_paid: z.boolean({ error: 'hold_until_paid must be true or false' }).optional(),
  /** The authentication template the link page's code goes by on WhatsApp; left out: as saved. */
  whatsapp_otp_template: optionalText(100, 'WhatsApp code template'),
  /**
   * The key the SMS gateway's delivery reports carry (16 to 200 characters); left out or empty:
   * keep the saved one (an empty secret field means "unchanged"); null: remove.
   */
  sms_report_key: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z
      .string({ error: 'sms_report_key must be text' })
      .trim()
      .min(16, 'sms_report_key must be at least 16 characters')
      .max(200, 'sms_report_key must be at most 200 characters')
      .regex(/^[A-Za-z0-9._~-]+$/, 'sms_report_key may hold letters, digits and . _ ~ - only')
      .nullable()
      .optional(),
  ),
});
export type DeliverySettingsUpdate = z.infer<typeof deliverySettingsUpdateSchema>;

export const deliverySettingsSchema = z.object({
  enabled: z.boolean(),
  link_days: z.number(),
  proof: z.enum(LINK_PROOFS),
  send_to_doctors: z.boolean(),
  email_mode: z.enum(['link', 'attach']),
  fallback_channel: z.enum(['sms', 'email', 'none']),
  whatsapp_base_url: z.string(),
  whatsapp_phone_number_id: z.string().nullable(),
  whatsapp_token_set: z.boolean(),
  whatsapp_app_secret_set: z.boolean(),
  whatsapp_verify_token_set: z.boolean(),
  whatsapp_template: z.string().nullable(),
  whatsapp_language: z.string(),
  price_whatsapp: z.number(),
  price_sms: z.number(),
  price_email: z.number(),
  whatsapp_on: z.boolean(),
  sms_on: z.boolean(),
  email_on: z.boolean(),
  hold_until_paid: z.boolean(),
  whatsapp_otp_template: z.string().nullable(),
  sms_report_key_set: z.boolean(),
  /** The lab's id in the webhook addresses (WhatsApp's status webhooks, the SMS delivery reports). */
  lab_id: z.number(),
});
export type DeliverySettings = z.infer<typeof deliverySettingsSchema>;

// --- The front desk and the ledger -------------------------------------------------------------

export const deliveryRowSchema = z.object({
  id: z.number(),
  recipient_kind: z.enum(['patient', 'doctor']),
  channel: z.enum(DELIVERY_CHANNELS),
  /** The address with all but its last characters hidden. */
  recipient: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  amended: z.boolean(),
  attempts: z.number(),
  last_error: z.string().nullable(),
  fallback_of: z.number().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  read_at: z.string().nullable(),
});
export type DeliveryRow = z.infer<typeof deliveryRowSchema>;

export const deskReportSchema = z.object({
  sample_id: z.number(),
  sample_code: z.string(),
  patient_name: z.string(),
  patient_code: z.string(),
  reported_at: z.string(),
  version: z.number().nullable(),
  /** received: delivered or read by the patient; sent: handed over, not confirmed; none: nothing left. */
  state: z.enum(['received', 'sent', 'waiting', 'held', 'failed', 'none']),
  channel: z.enum(PREFERRED_CHANNELS).nullable(),
  consent: z.boolean(),
  opened_at: z.string().nullable(),
  deliveries: z.array(deliveryRowSchema),
});
export type DeskReport = z.infer<typeof deskReportSchema>;

export const deskQuerySchema = z.object({
  day: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'day must be YYYY-MM-DD')
    .optional(),
  only: z.enum(['all', 'not_received']).optional(),
});

export const copiedLinkSchema = z.object({ url: z.string(), expires_at: z.string() });

export const resendBodySchema = z.object({
  channel: z.enum(DELIVERY_CHANNELS, { error: 'channel must be whatsapp, sms or email' }).optional(),
});

export const channelCostSchema = z.object({
  month: z.string(),
  channel: z.enum(DELIVERY_CHANNELS),
  messages: z.number(),
  /** Rupees. */
  cost: z.number(),
});
export type ChannelCost = z.infer<typeof channelCostSchema>;

export const costsQuerySchema = z.object({
  months: strictNumber(z.number().int('months must be a whole number').min(1).max(24)).optional(),
});

// --- The SMS gateway's delivery reports -------------------------------------------------------

const reportWord = (name: string) =>
  z
    .string({ error: `${name} must be text` })
    .trim()
    .max(100, `${name} is too long`);

export const smsReportBodySchema = z.object({
  ref: reportWord('ref').optional(),
  status: reportWord('status').optional(),
});
export const smsReportQuerySchema = smsReportBodySchema.extend({ key: reportWord('key').max(200).optional() });
