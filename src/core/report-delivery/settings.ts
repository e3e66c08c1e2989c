import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { labSettings, saveLabSwitch } from '../settings/service.js';
import { auditLabSettings } from '../audit/audit.js';
import { ValidationError } from '../errors.js';
import { hostRefusal, refusalMessage, urlHost } from '../net/outbound.js';
import { paiseToRupees, rupeesToPaise } from '../../shared/money.js';
import type { DeliverySettings, DeliverySettingsUpdate } from '../../shared/schemas/report-delivery.js';
import { saveSettingsRow, settingsRow, type DeliverySettingsRow } from './repository.js';
import { whatsappPolicy } from './whatsapp.js';

/** A lab that never saved its settings: off, 7-day links, the birth year as proof. */
export const DEFAULT_DELIVERY: Omit<DeliverySettingsRow, 'organization_id' | 'updated_at' | 'updated_by'> = {
  enabled: 0,
  link_days: 7,
  proof: 'birth_year',
  send_to_doctors: 0,
  email_mode: 'link',
  fallback_channel: 'sms',
  whatsapp_base_url: 'https://graph.facebook.com/v20.0',
  whatsapp_phone_number_id: null,
  whatsapp_token: null,
  whatsapp_app_secret: null,
  whatsapp_verify_token: null,
  whatsapp_template: null,
  whatsapp_language: 'en',
  price_whatsapp_paise: 0,
  price_sms_paise: 0,
  price_email_paise: 0,
  whatsapp_on: 1,
  sms_on: 1,
  email_on: 1,
  whatsapp_otp_template: null,
  sms_report_key: null,
};

export type DeliveryConfig = typeof DEFAULT_DELIVERY & { organization_id: number };

/** The lab's delivery settings, the defaults where it saved none. */
export async function deliveryConfig(db: Db, organizationId: number): Promise<DeliveryConfig> {
  const row = await settingsRow(db, organizationId);
  return row ? { ...row, link_days: Number(row.link_days) } : { ...DEFAULT_DELIVERY, organization_id: organizationId };
}

/** Whether WhatsApp can send: switched on, the number id, the token and the template saved. */
export function whatsappReady(c: DeliveryConfig): boolean {
  return c.whatsapp_on === 1 && !!(c.whatsapp_phone_number_id && c.whatsapp_token && c.whatsapp_template);
}

export function toDeliverySettings(c: DeliveryConfig, holdUntilPaid: boolean): DeliverySettings {
  return {
    enabled: c.enabled === 1,
    link_days: c.link_days,
    proof: c.proof,
    send_to_doctors: c.send_to_doctors === 1,
    email_mode: c.email_mode,
    fallback_channel: c.fallback_channel,
    whatsapp_base_url: c.whatsapp_base_url,
    whatsapp_phone_number_id: c.whatsapp_phone_number_id,
    whatsapp_token_set: !!c.whatsapp_token,
    whatsapp_app_secret_set: !!c.whatsapp_app_secret,
    whatsapp_verify_token_set: !!c.whatsapp_verify_token,
    whatsapp_template: c.whatsapp_template,
    whatsapp_language: c.whatsapp_language,
    price_whatsapp: paiseToRupees(Number(c.price_whatsapp_paise)),
    price_sms: paiseToRupees(Number(c.price_sms_paise)),
    price_email: paiseToRupees(Number(c.price_email_paise)),
    whatsapp_on: c.whatsapp_on === 1,
    sms_on: c.sms_on === 1,
    email_on: c.email_on === 1,
    hold_until_paid: holdUntilPaid,
    whatsapp_otp_template: c.whatsapp_otp_template,
    sms_report_key_set: !!c.sms_report_key,
    lab_id: c.organization_id,
  };
}

export async function getDeliverySettings(db: Db, organizationId: number): Promise<DeliverySettings> {
  const { holdReportsUntilPaid } = await labSettings(db, organizationId);
  return toDeliverySettings(await deliveryConfig(db, organizationId), holdReportsUntilPaid);
}

const SECRETS = ['whatsapp_token', 'whatsapp_app_secret', 'whatsapp_verify_token', 'sms_report_key'] as const;

/**
 * Saves the lab's delivery settings, audited field by field; the three secrets appear in the
 * audit trail only as "(set)", "(changed)" or "(removed)". A secret left out keeps the saved one.
 */
export async function updateDeliverySettings(
  db: Db,
  actor: Actor,
  input: DeliverySettingsUpdate,
  outbound: { allowPrivate: boolean },
): Promise<DeliverySettings> {
  const host = urlHost(input.whatsapp_base_url);
  const refused = host ? hostRefusal(host, whatsappPolicy(outbound.allowPrivate)) : null;
  if (refused)
    throw ValidationError.field('whatsapp_base_url', refusalMessage(refused, whatsappPolicy(outbound.allowPrivate)));
  return db.transaction().execute(async (trx) => {
    const before = await settingsRow(trx, actor.organizationId);
    const was = before ?? { ...DEFAULT_DELIVERY, organization_id: actor.organizationId };
    const next: DeliveryConfig = {
      organization_id: actor.organizationId,
      enabled: input.enabled ? 1 : 0,
      link_days: input.link_days,
      proof: input.proof,
      send_to_doctors: input.send_to_doctors ? 1 : 0,
      email_mode: input.email_mode,
      fallback_channel: input.fallback_channel,
      whatsapp_base_url: input.whatsapp_base_url.replace(/\/+$/, ''),
      whatsapp_phone_number_id: input.whatsapp_phone_number_id ?? null,
      whatsapp_token: input.whatsapp_token === undefined ? was.whatsapp_token : input.whatsapp_token,
      whatsapp_app_secret:
        input.whatsapp_app_secret === undefined ? was.whatsapp_app_secret : input.whatsapp_app_secret,
      whatsapp_verify_token:
        input.whatsapp_verify_token === undefined ? was.whatsapp_verify_token : input.whatsapp_verify_token,
      whatsapp_template: input.whatsapp_template ?? null,
      whatsapp_language: input.whatsapp_language,
      price_whatsapp_paise: rupeesToPaise(input.price_whatsapp),
      price_sms_paise: rupeesToPaise(input.price_sms),
      price_email_paise: rupeesToPaise(input.price_email),
      whatsapp_on: input.whatsapp_on === undefined ? was.whatsapp_on : input.whatsapp_on ? 1 : 0,
      sms_on: input.sms_on === undefined ? was.sms_on : input.sms_on ? 1 : 0,
      email_on: input.email_on === undefined ? was.email_on : input.email_on ? 1 : 0,
      whatsapp_otp_template:
        input.whatsapp_otp_template === undefined ? was.whatsapp_otp_template : input.whatsapp_otp_template,
      sms_report_key: input.sms_report_key === undefined ? was.sms_report_key : input.sms_report_key,
    };
    const holdWas = (await labSettings(trx, actor.organizationId)).holdReportsUntilPaid;
    const hold = input.hold_until_paid ?? holdWas;
    const oldValues: Record<string, unknown> = {};
    const newValues: Record<string, unknown> = {};
    for (const k of Object.keys(next) as (keyof DeliveryConfig)[]) {
      const a = (was as DeliveryConfig)[k];
      const b = next[k];
      if (String(a) === String(b)) continue;
      const secret = (SECRETS as readonly string[]).includes(k);
      oldValues[k] = secret ? (a ? '(set)' : '(none)') : a;
      newValues[k] = secret ? (b ? (a ? '(changed)' : '(set)') : '(removed)') : b;
    }
    if (hold !== holdWas) {
      oldValues.hold_until_paid = holdWas;
      newValues.hold_until_paid = hold;
      await saveLabSwitch(trx, actor.organizationId, 'holdReportsUntilPaid', hold);
    }
    if (before && !Object.keys(newValues).length) return toDeliverySettings(next, hold);
    await saveSettingsRow(trx, { ...next, updated_at: nowIso(), updated_by: actor.userId }, before !== undefined);
    await auditLabSettings(trx, actor, 'report_delivery_settings', before ? oldValues : null, newValues);
    return toDeliverySettings(next, hold);
  });
}
