import { z } from 'zod';
import { optionalText, phoneSchema, requiredText, strictNumber } from './common.js';

/**
 * Lab email and SMS: the lab's mail server (SMTP) and SMS gateway, kept apart from the
 * general settings. Their password and API key are write-only: an answer says only whether one is
 * set; a save without one keeps it; `null` removes it.
 */

export const SMTP_SECURITY = ['none', 'starttls', 'tls'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];
export const SMTP_SECURITY_LABELS: Record<SmtpSecurity, string> = {
  none: 'None (plain, port 25)',
  starttls: 'STARTTLS (port 587)',
  tls: 'TLS (port 465)',
};

export const SMS_METHODS = ['GET', 'POST'] as const;
export const SMS_BODY_TYPES = ['form', 'json'] as const;
/**
 * The placeholders of the SMS gateway's URL and body templates. {ref} is lims's own reference for
 * the message (empty for texts that need no delivery report): a gateway that takes a client
 * reference sends it back in its delivery report, which is how a report message is marked delivered.
 */
export const SMS_PLACEHOLDERS = ['{to}', '{message}', '{key}', '{ref}'] as const;

/** The part of an email address a message may show (a domain check as the browser's, plus length). */
const emailAddress = (label: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z.email({ error: `${label} must be an email address, such as lab@example.com` }).max(254),
  );

/** A secret as typed: set (1-500 characters, no line breaks or control characters), null to remove, absent to keep. */
const secret = (label: string) =>
  z
    .string({ error: `${label} must be text, or null to remove it` })
    .min(1, `${label} cannot be empty: leave it out to keep the saved one, or send null to remove it`)
    .max(500, `${label} must be at most 500 characters`)
    // eslint-disable-next-line no-control-regex
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), `${label} cannot contain line breaks or control characters`)
    .nullable()
    .optional();

export const smtpUpdateSchema = z.object({
  host: requiredText('Host', 253).pipe(
    z
      .string()
      .regex(
        /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$|^[0-9A-Fa-f:.]+$/,
        'Host must be a host name or an IP address, such as smtp.example.com',
      ),
  ),
  port: strictNumber(
    z
      .number({ error: 'Port must be a whole number from 1 to 65535' })
      .int('Port must be a whole number from 1 to 65535')
      .min(1, 'Port must be a whole number from 1 to 65535')
      .max(65535, 'Port must be a whole number from 1 to 65535'),
  ),
  security: z.enum(SMTP_SECURITY, { error: `Security must be one of ${SMTP_SECURITY.join(', ')}` }),
  user: optionalText(254, 'User'),
  password: secret('Password'),
  fromAddress: emailAddress('From address'),
  fromName: optionalText(100, 'From name'),
});
export type SmtpUpdate = z.infer<typeof smtpUpdateSchema>;
/** What a client sends (numbers may be decimal strings). */
export type SmtpUpdateInput = z.input<typeof smtpUpdateSchema>;

export const smtpSettingsSchema = z.object({
  /** A mail server is saved: email can be switched on. */
  configured: z.boolean(),
  host: z.string().nullable(),
  port: z.number(),
  security: z.enum(SMTP_SECURITY),
  user: z.string().nullable(),
  /** Whether a password is saved; the password itself never leaves the server. */
  passwordSet: z.boolean(),
  fromAddress: z.string().nullable(),
  fromName: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type SmtpSettings = z.infer<typeof smtpSettingsSchema>;

/** The text of a template with every placeholder replaced by a harmless sample, to check it parses. */
export function sampleOfTemplate(template: string): string {
  return template
    .replaceAll('{to}', '919845012345')
    .replaceAll('{message}', 'test')
    .replaceAll('{key}', 'key')
    .replaceAll('{ref}', 'rd1');
}

/** Whether a URL template is an http(s) address once its placeholders are filled. */
export function isHttpTemplate(template: string): boolean {
  try {
    const url = new URL(sampleOfTemplate(template));
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export const smsUpdateSchema = z
  .object({
    method: z.enum(SMS_METHODS, { error: 'Method must be GET or POST' }),
    urlTemplate: requiredText('URL template', 2000).pipe(
      z.string().refine(isHttpTemplate, {
        message: 'URL template must be an http:// or https:// address, such as https://sms.example.com/send?to={to}',
      }),
    ),
    bodyTemplate: optionalText(4000, 'Body template'),
    bodyType: z.enum(SMS_BODY_TYPES, { error: 'Body type must be form or json' }).default('form'),
    headerName: optionalText(100, 'Header name').pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'Header name must be one word, such as Authorization or X-Api-Key')
        .nullable()
        .optional(),
    ),
    apiKey: secret('API key'),
  })
  .superRefine((v, ctx) => {
    if (v.method === 'GET' && v.bodyTemplate)
      ctx.addIssue({
        code: 'custom',
        path: ['bodyTemplate'],
        message: 'A GET request has no body: choose POST, or leave the body template empty',
      });
    const where = v.method === 'POST' ? `${v.urlTemplate ?? ''}\n${v.bodyTemplate ?? ''}` : (v.urlTemplate ?? '');
    const missing = ['{to}', '{message}'].filter((p) => !where.includes(p));
    if (missing.length && typeof v.urlTemplate === 'string')
      ctx.addIssue({
        code: 'custom',
        path: ['urlTemplate'],
        message: `The ${v.method === 'POST' ? 'URL or body template' : 'URL template'} must contain ${missing.join(' and ')}: where the number and the text go`,
      });
  });
export type SmsUpdate = z.infer<typeof smsUpdateSchema>;
export type SmsUpdateInput = z.input<typeof smsUpdateSchema>;

export const smsSettingsSchema = z.object({
  configured: z.boolean(),
  method: z.enum(SMS_METHODS),
  urlTemplate: z.string().nullable(),
  bodyTemplate: z.string().nullable(),
  bodyType: z.enum(SMS_BODY_TYPES),
  headerName: z.string().nullable(),
  /** Whether an API key is saved; the key itself never leaves the server. */
  apiKeySet: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type SmsSettings = z.infer<typeof smsSettingsSchema>;

export const emailTestSchema = z.object({ to: emailAddress('Recipient') });
export const smsTestSchema = z.object({ to: phoneSchema('Phone number') });
export type EmailTest = z.infer<typeof emailTestSchema>;
export type SmsTest = z.infer<typeof smsTestSchema>;

/** The outcome of Send Test: the mail server's reply or the gateway's HTTP status, or the error. */
export const sendOutcomeSchema = z.object({
  ok: z.boolean(),
  /** The server's reply ("250 OK queued as ...") or the error ("connect ECONNREFUSED ..."). */
  message: z.string(),
  /** The gateway's HTTP status (SMS only). */
  status: z.number().nullable(),
  ms: z.number(),
});
export type SendOutcome = z.infer<typeof sendOutcomeSchema>;

export const DELIVERY_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;

/** One message of the outbox as the Notification section shows it: never its recipient or text. */
export const deliverySchema = z.object({
  id: z.number(),
  channel: z.enum(['email', 'sms']),
  kind: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});
export type Delivery = z.infer<typeof deliverySchema>;

export const deliveriesSchema = z.object({
  /** Counts of the last 7 days. */
  summary: z.object({ sent: z.number(), waiting: z.number(), failed: z.number() }),
  /** The latest messages, newest first. */
  recent: z.array(deliverySchema),
});
export type Deliveries = z.infer<typeof deliveriesSchema>;
