import type { Db } from '../db/connection.js';
import { SendError, errorCode, sendEmail } from './mail.js';
import { redact, sendSms } from './sms.js';
import {
  claimOutboxRow,
  dueOutboxIds,
  pruneOutbox,
  releaseStaleClaims,
  smsRow,
  smtpRow,
  updateOutboxRow,
  type OutboxRow,
  type SmsRow,
  type SmtpRow,
} from './repository.js';

/**
 * Delivers the outbox: `lims serve` runs `deliverDue` every few seconds. Each message
 * is claimed (pending -> sending) by one conditional UPDATE before it is sent, so of several servers
 * on one database only one sends it; it is sent outside any transaction; a failure is retried after
 * RETRY_DELAYS_MS and, after MAX_ATTEMPTS attempts, marked failed with the last error (the
 * recipient's address taken out). A claim older than STALE_CLAIM_MS was cut short by a stopped
 * server and goes back to pending. Log lines carry ids, channels and error codes only.
 */

export const MAX_ATTEMPTS = 5;
/** The wait after the 1st, 2nd, 3rd and 4th failed attempt. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000];
/** Longer than any send can take (SEND_TIMEOUT_MS): a claim this old belongs to a stopped server. */
export const STALE_CLAIM_MS = 5 * 60_000;
/** Sent and failed messages are kept this long for the Notification section, then removed. */
export const KEEP_DAYS = 30;
const BATCH = 50;

export interface DeliveryEvent {
  id: number;
  channel: OutboxRow['channel'];
  attempt: number;
  outcome: 'sent' | 'retry' | 'failed';
  /** The error's code (ECONNREFUSED, EAUTH, HTTP_500...) when not sent. */
  code: string | null;
}

export interface DeliveryReport {
  sent: number;
  retrying: number;
  failed: number;
  events: DeliveryEvent[];
}

async function deliverOne(
  row: OutboxRow,
  config: { smtp?: SmtpRow | undefined; sms?: SmsRow | undefined },
  outbound: { allowPrivate: boolean },
): Promise<void> {
  if (row.channel === 'email') {
    if (!config.smtp) throw new SendError('The mail server is not set up any more', 'NOT_CONFIGURED');
    const attachments =
      row.attachment_name && row.attachment_base64
        ? [
            {
              filename: row.attachment_name,
              content: Buffer.from(row.attachment_base64, 'base64'),
              contentType: row.attachment_type ?? 'application/octet-stream',
            },
          ]
        : undefined;
    await sendEmail(
      config.smtp,
      { to: row.recipient, subject: row.subject ?? '', text: row.body, ...(attachments ? { attachments } : {}) },
      outbound,
    );
  } else {
    if (!config.sms) throw new SendError('The SMS gateway is not set up any more', 'NOT_CONFIGURED');
    await sendSms(config.sms, { to: row.recipient, message: row.body }, outbound);
  }
}

/** Sends every message due at `now` (up to a batch), one at a time; what happened to each. */
export async function deliverDue(
  db: Db,
  opts: { now?: Date; limit?: number; signal?: AbortSignal; allowPrivateOutbound?: boolean } = {},
): Promise<DeliveryReport> {
  const outbound = { allowPrivate: opts.allowPrivateOutbound ?? false };
  const clock = () => opts.now ?? new Date();
  const now = clock();
  await releaseStaleClaims(db, new Date(now.getTime() - STALE_CLAIM_MS).toISOString(), now.toISOString());
  const report: DeliveryReport = { sent: 0, retrying: 0, failed: 0, events: [] };
  const configs = new Map<number, { smtp?: SmtpRow | undefined; sms?: SmsRow | undefined }>();
  for (const id of await dueOutboxIds(db, now.toISOString(), opts.limit ?? BATCH)) {
    if (opts.signal?.aborted) break; // the server is stopping: the rest stay pending for the next one
    const row = await claimOutboxRow(db, id, clock().toISOString());
    if (!row) continue; // another server took it
    let config = configs.get(row.organization_id);
    if (!config) {
      config = { smtp: await smtpRow(db, row.organization_id), sms: await smsRow(db, row.organization_id) };
      configs.set(row.organization_id, config);
    }
    try {
      await deliverOne(row, config, outbound);
      await updateOutboxRow(db, id, {
        status: 'sent',
        sent_at: clock().toISOString(),
        last_error: null,
        claimed_at: null,
      });
      report.sent += 1;
      report.events.push({ id, channel: row.channel, attempt: row.attempts, outcome: 'sent', code: null });
    } catch (err) {
      const e =
        err instanceof SendError
          ? err
          : new SendError(err instanceof Error ? err.message : String(err), errorCode(err));
      const giveUp = row.attempts >= MAX_ATTEMPTS;
      const delay = RETRY_DELAYS_MS[Math.min(row.attempts, RETRY_DELAYS_MS.length) - 1] ?? RETRY_DELAYS_MS[0]!;
      await updateOutboxRow(db, id, {
        status: giveUp ? 'failed' : 'pending',
        claimed_at: null,
        last_error: redact(e.message, [row.recipient]).slice(0, 500),
        next_attempt_at: new Date(clock().getTime() + (giveUp ? 0 : delay)).toISOString(),
      });
      if (giveUp) report.failed += 1;
      else report.retrying += 1;
      report.events.push({
        id,
        channel: row.channel,
        attempt: row.attempts,
        outcome: giveUp ? 'failed' : 'retry',
        code: e.code,
      });
    }
  }
  return report;
}

export interface SenderLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * One round of the outbox sender (the scheduler's `outbox-send` job): sends what is due on the
 * database `db` names now, and logs ids, channels and error codes only. Aborted by `signal`, the
 * message being sent finishes and the rest of the batch stays pending.
 */
export async function sendDueMessages(
  db: Db,
  log: SenderLog,
  signal: AbortSignal,
  opts: { allowPrivateOutbound?: boolean } = {},
): Promise<void> {
  const r = await deliverDue(db, { signal, allowPrivateOutbound: opts.allowPrivateOutbound });
  for (const e of r.events)
    if (e.outcome !== 'sent')
      log.warn(
        { outboxId: e.id, channel: e.channel, attempt: e.attempt, code: e.code, willRetry: e.outcome === 'retry' },
        'a message of the outbox was not delivered',
      );
  if (r.events.length) log.info({ sent: r.sent, retrying: r.retrying, failed: r.failed }, 'outbox messages handled');
}

/** Removes outbox messages older than KEEP_DAYS (the scheduler's `outbox-prune` job). */
export async function pruneOldMessages(db: Db, log: SenderLog, now = Date.now()): Promise<void> {
  const removed = await pruneOutbox(db, new Date(now - KEEP_DAYS * 86_400_000).toISOString());
  if (removed) log.info({ removed }, 'old outbox messages removed');
}
