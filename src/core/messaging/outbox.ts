import type { Insertable } from 'kysely';
import type { Db } from '../db/connection.js';
import { nowIso } from '../context.js';
import { settingsOf, type OrganizationRow } from '../settings/service.js';
import type {
  Notification,
  NotificationKind,
  NotificationPriority,
  NotificationType,
} from '../../shared/schemas/notifications.js';
import type { OutboxTable } from './tables.js';
import { insertOutboxRowOnce, insertOutboxRows, onceRecipients, smsRow, smtpRow } from './repository.js';
import { smsNumber, smsText } from './sms.js';

/**
 * What lims emails and texts, queued in the outbox inside the transaction of the event,
 * so a rolled-back event sends nothing; `lims serve`'s sender delivers after commit. Nothing here
 * is logged: the rows name patients and hold addresses.
 */

/** A person told, for the delivery channels beside the bell (email, SMS) that read notify's answer. */
export interface Recipient {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
}

/** What notify (src/core/notifications) answers for one event: its text and who it is for. */
export interface Announcement {
  kind: NotificationKind;
  type: NotificationType;
  priority: NotificationPriority;
  title: string;
  message: string;
  link: string | null;
  /** Who the event is for (active staff of the lab, the actor left out), whether or not rows were written. */
  recipients: Recipient[];
  /** The in-app notifications written: none when the lab's pushNotifications setting is off. */
  notifications: (Notification & { user_id: number })[];
}

/** The stand-in address of a user without email (docs/decisions.md, Doctor Management): never mailed. */
export const NO_EMAIL_DOMAIN = '@no-email.invalid';

/** Notification priorities that also go by SMS: SMS is for what cannot wait for the next look at a screen. */
export const SMS_PRIORITIES: readonly Announcement['priority'][] = ['high'];

export const realEmail = (email: string | null | undefined): email is string =>
  !!email && email.includes('@') && !email.toLowerCase().endsWith(NO_EMAIL_DOMAIN);

/** A phone number worth texting: 7 to 15 digits. */
export const realPhone = (phone: string | null | undefined): phone is string => {
  const digits = (phone ?? '').replace(/\D/g, '').length;
  return digits >= 7 && digits <= 15;
};

/** Which channels of a lab can send now: the switch on and the server or gateway saved. */
export async function channelsOf(
  trx: Db,
  org: OrganizationRow,
  switches: { email: boolean; sms: boolean },
): Promise<{ email: boolean; sms: boolean }> {
  return {
    email: switches.email && (await smtpRow(trx, org.id)) !== undefined,
    sms: switches.sms && (await smsRow(trx, org.id)) !== undefined,
  };
}

type Row = Insertable<OutboxTable>;

function row(
  org: OrganizationRow,
  channel: Row['channel'],
  kind: string,
  recipient: string,
  text: { subject?: string; body: string },
  dedupeKey: string | null,
  now: string,
): Row {
  return {
    organization_id: org.id,
    channel,
    kind,
    recipient,
    subject: text.subject ?? null,
    body: text.body,
    dedupe_key: dedupeKey,
    next_attempt_at: now,
    created_at: now,
  };
}

function signature(org: OrganizationRow): string {
  return [org.name, org.phone, org.address].filter(Boolean).join('\n');
}

/**
 * notify()'s email and SMS: with the lab's emailNotifications on and a mail server saved, each
 * recipient with a real address gets the notification as an email; with smsNotifications on and
 * a gateway saved, each recipient with a phone gets high-priority ones as an SMS. Independent of
 * pushNotifications (the bell). Answers how many messages were queued.
 */
export async function queueAnnouncement(trx: Db, org: OrganizationRow, a: Announcement): Promise<number> {
  const s = settingsOf(org);
  if (!a.recipients.length || (!s.emailNotifications && !s.smsNotifications)) return 0;
  const on = await channelsOf(trx, org, {
    email: s.emailNotifications,
    sms: s.smsNotifications && SMS_PRIORITIES.includes(a.priority),
  });
  const now = nowIso();
  const rows: Row[] = [];
  const seen = new Set<string>();
  const add = (r: Row) => {
    const key = `${r.channel}:${r.recipient}`;
    if (seen.has(key)) return;
    seen.add(key);
    rows.push(r);
  };
  for (const r of a.recipients) {
    if (on.email && realEmail(r.email)) {
      const body = [
        `${r.first_name},`,
        '',
        a.message,
        ...(a.link ? ['', `In lims: ${a.link}`] : []),
        '',
        '--',
        signature(org),
        `Sent by lims because email notifications are on in the lab's System Settings.`,
      ].join('\n');
      add(row(org, 'email', a.kind, r.email.toLowerCase(), { subject: `[${org.name}] ${a.title}`, body }, null, now));
    }
    if (on.sms && realPhone(r.phone))
      add(
        row(
          org,
          'sms',
          a.kind,
          smsNumber(r.phone),
          { body: smsText(`${org.name}: ${a.title}. ${a.message}`) },
          null,
          now,
        ),
      );
  }
  await insertOutboxRows(trx, rows);
  return rows.length;
}

/** A report ready to leave the lab, and whom to tell. */
export interface ReportReady {
  sampleId: number;
  sampleCode: string;
  patient: {
    name: string;
    firstName: string;
    code: string;
    email: string | null;
    phone: string | null;
    portal: boolean;
  };
  /** The referring doctor on the sample's bill, when an active user. */
  /** The name as addressed, with the doctor's title ("Dr. Meena Kulkarni"). */
  doctor: { name: string; email: string | null; phone: string | null } | null;
  /** The bill still to be paid before the report is handed over (the lab holds reports until paid). */
  heldForBill: string | null;
  /** Who gets the report's link message instead of this notice (report delivery decides). */
  byLink?: { patient: boolean; doctor: boolean };
}

/** Whether a lab tells patients and doctors of ready reports: the switch on and a channel saved. */
export async function reportNotificationsOn(trx: Db, org: OrganizationRow): Promise<boolean> {
  if (!settingsOf(org).reportNotifications) return false;
  const on = await channelsOf(trx, org, { email: true, sms: true });
  return on.email || on.sms;
}

/**
 * reportNotifications: when a report is ready (every test verified, every critical value
 * telephoned), the patient and the referring doctor are told, by email (mail server saved) and by
 * SMS (gateway saved), once per sample. The message says the report is ready, never a value.
 */
export async function queueReportReady(trx: Db, org: OrganizationRow, r: ReportReady): Promise<number> {
  const s = settingsOf(org);
  if (!s.reportNotifications) return 0;
  const on = await channelsOf(trx, org, { email: true, sms: true });
  if (!on.email && !on.sms) return 0;
  const dedupeKey = `report_ready:${r.sampleId}`;
  const done = await onceRecipients(trx, org.id, dedupeKey);
  const now = nowIso();
  const rows: Row[] = [];
  const add = (channel: Row['channel'], recipient: string, text: { subject?: string; body: string }) => {
    const key = `${channel}:${recipient}`;
    if (done.has(key)) return;
    done.add(key);
    rows.push(row(org, channel, 'report_ready', recipient, text, dedupeKey, now));
  };
  const held = r.heldForBill ? ` It will be handed over once bill ${r.heldForBill} is paid.` : '';
  const portal = r.patient.portal
    ? ` You can also download it from the lab's patient portal with your patient number ${r.patient.code}, mobile number and PIN.`
    : '';
  const toPatient = !r.byLink?.patient;
  if (toPatient && on.email && realEmail(r.patient.email))
    add('email', r.patient.email.toLowerCase(), {
      subject: `Your lab report is ready: ${org.name}`,
      body: [
        `Dear ${r.patient.name},`,
        '',
        `The report of your tests (sample ${r.sampleCode}) is ready.${held}${portal}`,
        '',
        '--',
        signature(org),
      ].join('\n'),
    });
  if (toPatient && on.sms && realPhone(r.patient.phone))
    add('sms', smsNumber(r.patient.phone), {
      body: smsText(
        `${org.name}: Dear ${r.patient.firstName}, your lab report (sample ${r.sampleCode}) is ready.${r.heldForBill ? ' Please clear the bill to collect it.' : ''}`,
      ),
    });
  if (r.doctor && !r.byLink?.doctor) {
    if (on.email && realEmail(r.doctor.email))
      add('email', r.doctor.email.toLowerCase(), {
        subject: `Report ready: ${r.patient.name} (${r.sampleCode})`,
        body: [
          `Dear ${r.doctor.name},`,
          '',
          `The report of your patient ${r.patient.name} (patient ${r.patient.code}, sample ${r.sampleCode}) is ready at ${org.name}.`,
          '',
          '--',
          signature(org),
        ].join('\n'),
      });
    if (on.sms && realPhone(r.doctor.phone))
      add('sms', smsNumber(r.doctor.phone), {
        body: smsText(`${org.name}: report of your patient ${r.patient.name} (sample ${r.sampleCode}) is ready.`),
      });
  }
  await insertOutboxRows(trx, rows);
  return rows.length;
}

/** An email with one file (a statement PDF), to an address the lab keeps for a partner, not a user. */
export interface FileEmail {
  kind: string;
  to: string;
  subject: string;
  /** The text above the lab's signature. */
  text: string;
  file: { name: string; type: string; content: Buffer };
  /** Once-only: a message with this key to any address already queued means this one is not. */
  onceKey?: string;
}

/**
 * Queues an email carrying a file, kept with the message so whichever server sends it sends what
 * was queued. Answers 'queued', or why not: the lab has no mail server, or the once-only key was
 * queued before (two servers queueing at once: the outbox's unique key lets one row in).
 */
export async function queueFileEmail(
  trx: Db,
  org: OrganizationRow,
  m: FileEmail,
): Promise<'queued' | 'no_mail_server' | 'already_queued'> {
  if ((await smtpRow(trx, org.id)) === undefined) return 'no_mail_server';
  if (m.onceKey && (await onceRecipients(trx, org.id, m.onceKey)).size > 0) return 'already_queued';
  const now = nowIso();
  const inserted = await insertOutboxRowOnce(trx, {
    ...row(
      org,
      'email',
      m.kind,
      m.to.toLowerCase(),
      { subject: m.subject, body: [m.text, '', '--', signature(org)].join('\n') },
      m.onceKey ?? null,
      now,
    ),
    attachment_name: m.file.name,
    attachment_type: m.file.type,
    attachment_base64: m.file.content.toString('base64'),
  });
  return inserted ? 'queued' : 'already_queued';
}
