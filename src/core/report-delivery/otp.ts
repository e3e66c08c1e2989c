import type { Db } from '../db/connection.js';
import { insertOutboxRows, smsRow } from '../messaging/repository.js';
import { smsNumber, smsText } from '../messaging/service.js';
import { SignInLimits } from '../auth/service.js';
import { sendWhatsappCode } from './whatsapp.js';
import { whatsappReady, type DeliveryConfig } from './settings.js';

/**
 * The link page's one-time code: by the channel the patient chose for their reports when it is
 * WhatsApp and the lab has an authentication template, else by the lab's SMS gateway (its outbox).
 * A WhatsApp code that cannot leave (not a WhatsApp number, the API down) goes by SMS at once, so
 * the patient waiting on the page gets a code either way.
 */

export const OTP_MINUTES = 10;
/** A new code is sent at most this often per link. */
export const OTP_RESEND_MS = 60_000;

export type CodeChannel = 'whatsapp' | 'sms';

/**
 * The codes each link and address may ask for, as the portal PIN's wrong answers are limited: a
 * code sent counts whether or not it is used, so a page cannot make the lab text a number on end.
 */
export function codeLimits(): SignInLimits {
  return new SignInLimits({ perPair: 5, perAddress: 20, backoffAfter: 5, maxBackoffSeconds: 3600 });
}

/** The channels a code can go by for a patient whose report channel is `preferred`, best first. */
export async function codeChannels(
  db: Db,
  config: DeliveryConfig,
  preferred: string | null | undefined,
): Promise<CodeChannel[]> {
  const out: CodeChannel[] = [];
  if (preferred === 'whatsapp' && whatsappReady(config) && config.whatsapp_otp_template) out.push('whatsapp');
  if (config.sms_on === 1 && (await smsRow(db, config.organization_id))) out.push('sms');
  return out;
}

/** Sends `code` to `phone` by the first channel that takes it; answers which. */
export async function sendCode(
  db: Db,
  config: DeliveryConfig,
  channels: CodeChannel[],
  to: { phone: string; labName: string; code: string; now: Date },
  outbound: { allowPrivate: boolean },
): Promise<CodeChannel> {
  if (channels[0] === 'whatsapp') {
    try {
      await sendWhatsappCode(
        {
          baseUrl: config.whatsapp_base_url,
          phoneNumberId: config.whatsapp_phone_number_id!,
          token: config.whatsapp_token!,
          template: config.whatsapp_otp_template!,
          language: config.whatsapp_language,
        },
        to.phone,
        to.code,
        outbound,
      );
      return 'whatsapp';
    } catch (err) {
      if (!channels.includes('sms')) throw err;
    }
  }
  const at = to.now.toISOString();
  await insertOutboxRows(db, [
    {
      organization_id: config.organization_id,
      channel: 'sms',
      kind: 'report_link_code',
      recipient: smsNumber(to.phone),
      subject: null,
      body: smsText(
        `${to.labName}: ${to.code} is your code to open your lab report. It expires in ${OTP_MINUTES} minutes.`,
      ),
      dedupe_key: null,
      next_attempt_at: at,
      created_at: at,
    },
  ]);
  return 'sms';
}
