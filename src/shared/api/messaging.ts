import { z } from 'zod';
import {
  deliveriesSchema,
  emailTestSchema,
  sendOutcomeSchema,
  smsSettingsSchema,
  smsTestSchema,
  smsUpdateSchema,
  smtpSettingsSchema,
  smtpUpdateSchema,
} from '../schemas/messaging.js';
import { defineRoute } from './contract.js';

const oneEmail = z.object({ email: smtpSettingsSchema });
const oneSms = z.object({ sms: smsSettingsSchema });
const outcome = z.object({ test: sendOutcomeSchema });

/**
 * Lab email and SMS on /settings: the mail server and the SMS gateway, a test message
 * to a recipient given in the request, and the outbox's recent deliveries. Admins with
 * system_settings. No answer carries the password or the API key.
 */
export const messagingApi = {
  email: defineRoute({ method: 'GET', path: '/api/settings/email', access: 'system_settings', response: oneEmail }),
  updateEmail: defineRoute({
    method: 'PUT',
    path: '/api/settings/email',
    access: 'system_settings',
    body: smtpUpdateSchema,
    response: oneEmail,
  }),
  /** Send Test Email with the saved settings: the mail server's reply, or the error (at most ~10 s). */
  testEmail: defineRoute({
    method: 'POST',
    path: '/api/settings/email/test',
    access: 'system_settings',
    body: emailTestSchema,
    response: outcome,
  }),
  sms: defineRoute({ method: 'GET', path: '/api/settings/sms', access: 'system_settings', response: oneSms }),
  updateSms: defineRoute({
    method: 'PUT',
    path: '/api/settings/sms',
    access: 'system_settings',
    body: smsUpdateSchema,
    response: oneSms,
  }),
  /** Send Test SMS with the saved gateway: its HTTP status, or the error (at most ~10 s). */
  testSms: defineRoute({
    method: 'POST',
    path: '/api/settings/sms/test',
    access: 'system_settings',
    body: smsTestSchema,
    response: outcome,
  }),
  /** The Notification section: messages sent, waiting and failed in the last 7 days, and the latest ones. */
  deliveries: defineRoute({
    method: 'GET',
    path: '/api/settings/deliveries',
    access: 'system_settings',
    response: deliveriesSchema,
  }),
};
