import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { auditLabSettings } from '../audit/audit.js';
import { ConflictError, ValidationError } from '../errors.js';
import { getOrganization } from '../settings/service.js';
import type {
  Deliveries,
  SendOutcome,
  SmsSettings,
  SmsUpdate,
  SmtpSettings,
  SmtpUpdate,
} from '../../shared/schemas/messaging.js';
import type { CoreEvents } from '../events.js';
import { SendError, sendEmail, smtpPolicy } from './mail.js';
import { sendSms, smsPolicy, smsText } from './sms.js';
import { hostRefusal, refusalMessage, urlHost } from '../net/outbound.js';
import {
  outboxCounts,
  recentOutboxRows,
  saveSmsRow,
  saveSmtpRow,
  smsRow,
  smtpRow,
  type SmsRow,
  type SmtpRow,
} from './repository.js';

/**
 * The lab's mail server and SMS gateway (System Settings). Saving is audited with the old
 * and new value of each field that changed; the password and the API key appear there only as
 * "(set)", "(changed)" or "(removed)". Send Test talks to the saved server, outside any transaction.
 */

export function toSmtpSettings(row: SmtpRow | undefined): SmtpSettings {
  return {
    configured: row !== undefined,
    host: row?.host ?? null,
    port: row?.port ?? 587,
    security: row?.security ?? 'starttls',
    user: row?.username ?? null,
    passwordSet: !!row?.password,
    fromAddress: row?.from_address ?? null,
    fromName: row?.from_name ?? null,
    updatedAt: row?.updated_at ?? null,
  };
}

export function toSmsSettings(row: SmsRow | undefined): SmsSettings {
  return {
    configured: row !== undefined,
    method: row?.method ?? 'GET',
    urlTemplate: row?.url_template ?? null,
    bodyTemplate: row?.body_template ?? null,
    bodyType: row?.body_type ?? 'form',
    headerName: row?.header_name ?? null,
    apiKeySet: !!row?.api_key,
    updatedAt: row?.updated_at ?? null,
  };
}

export async function getEmailSettings(db: Db, organizationId: number): Promise<SmtpSettings> {
  return toSmtpSettings(await smtpRow(db, organizationId));
}

export async function getSmsSettings(db: Db, organizationId: number): Promise<SmsSettings> {
  return toSmsSettings(await smsRow(db, organizationId));
}

/** What the audit trail says of a secret: never the secret. */
function secretChange(before: string | null, after: string | null): [string, string] | null {
  if (before === after) return null;
  return [before ? '(set)' : '(none)', after ? (before ? '(changed)' : '(set)') : '(removed)'];
}

/** The fields whose value changed, as the audit's old and new values. */
function diff<T extends Record<string, unknown>>(
  before: T | null,
  after: T,
): [Record<string, unknown>, Record<string, unknown>] {
  const oldValues: Record<string, unknown> = {};
  const newValues: Record<string, unknown> = {};
  for (const k of Object.keys(after)) {
    const was = before ? before[k] : null;
    if (was !== after[k]) {
      oldValues[k] = was;
      newValues[k] = after[k];
    }
  }
  return [oldValues, newValues];
}

/** The server operator's allowance for outbound targets (`lims serve --allow-private-outbound`). */
export interface Outbound {
  allowPrivate: boolean;
}

/** Saves the mail server. A password left out keeps the saved one; `null` removes it. */
export async function updateEmailSettings(
  db: Db,
  actor: Actor,
  input: SmtpUpdate,
  outbound: Outbound,
): Promise<SmtpSettings> {
  const refused = hostRefusal(input.host, smtpPolicy(outbound.allowPrivate));
  if (refused) throw ValidationError.field('host', refusalMessage(refused, smtpPolicy(outbound.allowPrivate)));
  return db.transaction().execute(async (trx) => {
    const before = await smtpRow(trx, actor.organizationId);
    const password = input.password === undefined ? (before?.password ?? null) : input.password;
    const fields = {
      host: input.host,
      port: input.port,
      security: input.security,
      user: input.user ?? null,
      fromAddress: input.fromAddress,
      fromName: input.fromName ?? null,
    };
    const [oldValues, newValues] = diff(
      before
        ? {
            host: before.host,
            port: before.port,
            security: before.security,
            user: before.username,
            fromAddress: before.from_address,
            fromName: before.from_name,
          }
        : null,
      fields,
    );
    const secret = secretChange(before?.password ?? null, password);
    if (secret) [oldValues.smtpPassword, newValues.smtpPassword] = secret;
    if (before && Object.keys(newValues).length === 0) return toSmtpSettings(before);
    const now = nowIso();
    await saveSmtpRow(
      trx,
      {
        organization_id: actor.organizationId,
        host: fields.host,
        port: fields.port,
        security: fields.security,
        username: fields.user,
        password,
        from_address: fields.fromAddress,
        from_name: fields.fromName,
        updated_at: now,
        updated_by: actor.userId,
      },
      before !== undefined,
    );
    await auditLabSettings(trx, actor, 'email_settings', before ? oldValues : null, newValues);
    return toSmtpSettings(await smtpRow(trx, actor.organizationId));
  });
}

/** Saves the SMS gateway. An API key left out keeps the saved one; `null` removes it. */
export async function updateSmsSettings(
  db: Db,
  actor: Actor,
  input: SmsUpdate,
  outbound: Outbound,
): Promise<SmsSettings> {
  const host = urlHost(input.urlTemplate);
  const refused = host ? hostRefusal(host, smsPolicy(outbound.allowPrivate)) : null;
  if (refused) throw ValidationError.field('urlTemplate', refusalMessage(refused, smsPolicy(outbound.allowPrivate)));
  return db.transaction().execute(async (trx) => {
    const before = await smsRow(trx, actor.organizationId);
    const apiKey = input.apiKey === undefined ? (before?.api_key ?? null) : input.apiKey;
    const fields = {
      method: input.method,
      urlTemplate: input.urlTemplate,
      bodyTemplate: input.method === 'POST' ? (input.bodyTemplate ?? null) : null,
      bodyType: input.bodyType,
      headerName: input.headerName ?? null,
    };
    const usesKey =
      fields.headerName !== null || `${fields.urlTemplate} ${fields.bodyTemplate ?? ''}`.includes('{key}');
    if (usesKey && !apiKey)
      throw ValidationError.field(
        'apiKey',
        fields.headerName
          ? `API key is needed: it is sent in the ${fields.headerName} header`
          : 'API key is needed: the template uses {key}',
      );
    const [oldValues, newValues] = diff(
      before
        ? {
            method: before.method,
            urlTemplate: before.url_template,
            bodyTemplate: before.body_template,
            bodyType: before.body_type,
            headerName: before.header_name,
          }
        : null,
      fields,
    );
    const secret = secretChange(before?.api_key ?? null, apiKey);
    if (secret) [oldValues.apiKey, newValues.apiKey] = secret;
    if (before && Object.keys(newValues).length === 0) return toSmsSettings(before);
    await saveSmsRow(
      trx,
      {
        organization_id: actor.organizationId,
        method: fields.method,
        url_template: fields.urlTemplate,
        body_template: fields.bodyTemplate,
        body_type: fields.bodyType,
        header_name: fields.headerName,
        api_key: apiKey,
        updated_at: nowIso(),
        updated_by: actor.userId,
      },
      before !== undefined,
    );
    await auditLabSettings(trx, actor, 'sms_gateway', before ? oldValues : null, newValues);
    return toSmsSettings(await smsRow(trx, actor.organizationId));
  });
}

async function timedOutcome(send: () => Promise<{ message: string; status: number | null }>): Promise<SendOutcome> {
  const t0 = Date.now();
  try {
    const r = await send();
    return { ok: true, ...r, ms: Date.now() - t0 };
  } catch (err) {
    if (!(err instanceof SendError)) throw err;
    return { ok: false, message: err.message, status: err.status, ms: Date.now() - t0 };
  }
}

/** Send Test Email: one message through the saved mail server; the outcome, failure included. */
export async function testEmail(db: Db, organizationId: number, to: string, outbound: Outbound): Promise<SendOutcome> {
  const row = await smtpRow(db, organizationId);
  if (!row) throw new ConflictError('Save the mail server settings first, then send a test', 'EMAIL_NOT_CONFIGURED');
  const lab = (await getOrganization(db, organizationId)).name;
  return timedOutcome(async () => ({
    message: await sendEmail(
      row,
      {
        to,
        subject: `Test email from ${lab}`,
        text: `This is a test email sent by lims for ${lab}.\n\nIf you can read it, the lab's email settings work: notifications will be emailed from ${row.from_address}.`,
      },
      outbound,
    ),
    status: null,
  }));
}

/** Send Test SMS: one SMS through the saved gateway; its HTTP status, failure included. */
export async function testSms(db: Db, organizationId: number, to: string, outbound: Outbound): Promise<SendOutcome> {
  const row = await smsRow(db, organizationId);
  if (!row) throw new ConflictError('Save the SMS gateway settings first, then send a test', 'SMS_NOT_CONFIGURED');
  const lab = (await getOrganization(db, organizationId)).name;
  return timedOutcome(async () => {
    const r = await sendSms(
      row,
      { to, message: smsText(`Test SMS from ${lab} (lims): the SMS gateway works.`) },
      outbound,
    );
    return { message: r.reply, status: r.status };
  });
}

const SWITCHES = ['emailNotifications', 'smsNotifications', 'reportNotifications'] as const;
type Switch = (typeof SWITCHES)[number];

/**
 * The notification switches that need a channel: email needs a mail server, SMS a gateway, report
 * notifications either. Saving settings refuses to turn one on without it (400 naming the switch);
 * a reset leaves such a switch as it was rather than turn it on (the spec's defaults have email
 * and report notifications on). A switch already on stays on: nothing is sent until it is set up.
 */
export async function gateNotificationSwitches(trx: Db, change: CoreEvents['settings.changing']): Promise<void> {
  const turnedOn = (k: Switch) => change.turnedOn.includes(k);
  if (!SWITCHES.some(turnedOn)) return;
  const email = (await smtpRow(trx, change.organizationId)) !== undefined;
  const sms = (await smsRow(trx, change.organizationId)) !== undefined;
  const missing: { path: Switch; message: string }[] = [];
  if (turnedOn('emailNotifications') && !email)
    missing.push({
      path: 'emailNotifications',
      message: 'Set up and save the mail server (Email (SMTP)) before turning email notifications on',
    });
  if (turnedOn('smsNotifications') && !sms)
    missing.push({
      path: 'smsNotifications',
      message: 'Set up and save the SMS gateway before turning SMS notifications on',
    });
  if (turnedOn('reportNotifications') && !email && !sms)
    missing.push({
      path: 'reportNotifications',
      message: 'Set up the mail server or the SMS gateway before turning report notifications on',
    });
  if (!missing.length) return;
  if (change.how === 'reset') for (const m of missing) change.keepAsWas(m.path);
  else throw new ValidationError(missing.map((m) => m.message).join('; '), missing);
}

/** The Notification section's figures: the last 7 days' messages sent, waiting and failed, and the latest ten. */
export async function deliveries(db: Db, organizationId: number, now = new Date()): Promise<Deliveries> {
  const counts = await outboxCounts(db, organizationId, new Date(now.getTime() - 7 * 86_400_000).toISOString());
  const recent = await recentOutboxRows(db, organizationId, 10);
  return {
    summary: { sent: counts.sent, waiting: counts.pending + counts.sending, failed: counts.failed },
    recent: recent.map((r) => ({ ...r, id: Number(r.id), attempts: Number(r.attempts) })),
  };
}

export {
  type Announcement,
  type FileEmail,
  type Recipient,
  queueAnnouncement,
  queueFileEmail,
  queueReportReady,
  realEmail,
  realPhone,
  reportNotificationsOn,
} from './outbox.js';
export { type SenderLog } from './sender.js';
export { type PatientNotice, queuePatientNotice } from './patient-notice.js';
export { SendError, sendEmail, type Email } from './mail.js';
export { redact, sendSms, smsNumber, smsText } from './sms.js';
