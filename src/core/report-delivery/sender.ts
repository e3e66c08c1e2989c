import type { Db } from '../db/connection.js';
import { getOrganization } from '../settings/service.js';
import { smsRow, smtpRow } from '../messaging/repository.js';
import { redact, SendError, sendEmail, sendSms, smsText } from '../messaging/service.js';
import { findPatient } from '../patients/repository.js';
import { findSampleRow } from '../samples/repository.js';
import { sampleReport } from '../results/service.js';
import { reportHead } from '../results/entry-repository.js';
import { findBillRow } from '../billing/repository.js';
import { findUser } from '../users/repository.js';
import {
  claimDelivery,
  dueDeliveryIds,
  insertDeliveries,
  releaseStaleDeliveries,
  updateDelivery,
  type DeliveryLedgerRow,
} from './repository.js';
import { linkById } from './links-repository.js';
import { linkUrl, mintToken } from './tokens.js';
import { deliveryConfig, type DeliveryConfig } from './settings.js';
import { sendWhatsapp } from './whatsapp.js';
import { consentOf } from './consent.js';
import { addressOn, fallbackOf, readyChannels } from './queue.js';
import type { DeliveryChannel } from './tables.js';

/**
 * The report messages' sender (the scheduler's `report-links-send` job). Each ledger row is claimed
 * (queued -> sending) by one conditional UPDATE before anything leaves, so of several `lims serve`
 * on one database exactly one sends it; the send happens outside any transaction, with a token
 * minted for this message only. A failure is retried after RETRY_DELAYS_MS; a refusal that a retry
 * cannot change (the number is not on WhatsApp: HTTP 4xx) or the last attempt fails the row and
 * queues the lab's fallback channel. The message carries the link and nothing of the report; the
 * ledger keeps the address, the status and the provider's id; log lines carry ids and codes only.
 */

export const MAX_ATTEMPTS = 4;
/** The wait after the 1st, 2nd and 3rd failed attempt. */
export const RETRY_DELAYS_MS = [30_000, 5 * 60_000, 30 * 60_000];
export const STALE_CLAIM_MS = 5 * 60_000;
const BATCH = 100;

export interface SendLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface SendRound {
  sent: number;
  retrying: number;
  failed: number;
  fallbacks: number;
  events: { id: number; channel: DeliveryChannel; outcome: 'sent' | 'retry' | 'failed'; code: string | null }[];
}

/** A row the sender will not send, in fixed words: nothing to retry. */
class Skip extends SendError {}

async function messageText(db: Db, row: DeliveryLedgerRow, url: string) {
  const org = await getOrganization(db, row.organization_id);
  const what = row.amended === 1 ? 'amended lab report' : 'lab report';
  if (row.recipient_kind === 'doctor') {
    const head = await reportHead(db, row.organization_id, row.sample_id);
    return {
      subject: `${org.name}: ${what} of your patient (sample ${head?.sample_code ?? row.sample_id})`,
      text: `${org.name}: the ${what} of your patient (sample ${head?.sample_code ?? row.sample_id}) is ready: ${url}`,
      lab: org.name,
    };
  }
  return {
    subject: `${org.name}: your ${what}`,
    text: `${org.name}: your ${what} is ready. Open it here: ${url}`,
    lab: org.name,
  };
}

async function deliverOne(
  db: Db,
  row: DeliveryLedgerRow,
  config: DeliveryConfig,
  outbound: { allowPrivate: boolean },
): Promise<string | null> {
  const link = await linkById(db, row.link_id);
  if (!link) throw new Skip('The report link is gone', 'NO_LINK');
  if (link.replaced_by !== null) throw new Skip('The report was amended before this message left', 'REPLACED');
  // A message asked for after a revoke carries a new token, which opens; one queued before does not leave.
  if (link.revoked_at && link.revoked_at >= row.created_at)
    throw new Skip('The report link was revoked before this message left', 'REVOKED');
  if (row.recipient_kind === 'patient') {
    const head = await reportHead(db, row.organization_id, row.sample_id);
    if (!head || !(await consentOf(db, row.organization_id, head.patient_id)))
      throw new Skip('The patient withdrew consent before this message left', 'NO_CONSENT');
  }
  const { token } = await mintToken(db, link, config.link_days, new Date());
  const url = await linkUrl(db, row.organization_id, token, null);
  if (!url)
    throw new SendError(
      "The lab's public address is not set (Lab Reports settings): a link cannot be made",
      'NO_PUBLIC_URL',
    );
  const text = await messageText(db, row, url);
  if (row.channel === 'whatsapp') {
    if (!config.whatsapp_phone_number_id || !config.whatsapp_token || !config.whatsapp_template)
      throw new SendError('WhatsApp is not set up any more', 'NOT_CONFIGURED');
    return sendWhatsapp(
      {
        baseUrl: config.whatsapp_base_url,
        phoneNumberId: config.whatsapp_phone_number_id,
        token: config.whatsapp_token,
        template: config.whatsapp_template,
        language: config.whatsapp_language,
      },
      row.recipient,
      url,
      outbound,
    );
  }
  if (row.channel === 'sms') {
    const gateway = await smsRow(db, row.organization_id);
    if (!gateway) throw new SendError('The SMS gateway is not set up any more', 'NOT_CONFIGURED');
    // lims's own reference ({ref} in the gateway's template) is what its delivery reports name.
    const ref = `rd${row.id}`;
    await sendSms(gateway, { to: row.recipient, message: smsText(text.text), ref }, outbound);
    return ref;
  }
  const smtp = await smtpRow(db, row.organization_id);
  if (!smtp) throw new SendError('The mail server is not set up any more', 'NOT_CONFIGURED');
  const attach = config.email_mode === 'attach';
  const report = attach
    ? await sampleReport(db, row.organization_id, row.sample_id, { releasedOnly: true }, null)
    : null;
  await sendEmail(
    smtp,
    {
      to: row.recipient,
      subject: text.subject,
      text: [text.text, '', attach ? 'The report is attached as a PDF too.' : '', '--', text.lab].join('\n'),
      ...(report
        ? {
            attachments: [
              { filename: `report-${report.sampleCode}.pdf`, content: report.pdf, contentType: 'application/pdf' },
            ],
          }
        : {}),
    },
    outbound,
  );
  return null;
}

/** A failure a retry cannot mend: a 4xx from the provider (but 408/429), nothing set up, nothing to send. */
function permanent(e: SendError): boolean {
  if (e instanceof Skip) return true;
  const m = /^HTTP_(\d{3})$/.exec(e.code);
  if (m) {
    const status = Number(m[1]);
    return status >= 400 && status < 500 && status !== 408 && status !== 429;
  }
  return e.code === 'NOT_CONFIGURED' || e.code === 'NO_MESSAGE_ID';
}

/** The address of the same person on the lab's fallback channel, as a queued row; null when there is none. */
export async function queueFallback(
  db: Db,
  row: DeliveryLedgerRow,
  config: DeliveryConfig,
  now: string,
): Promise<boolean> {
  const channel = fallbackOf(config, row.channel);
  if (!channel || !(await readyChannels(db, config)).has(channel)) return false;
  const head = await reportHead(db, row.organization_id, row.sample_id);
  if (!head) return false;
  let addresses: { phone: string | null; email: string | null };
  if (row.recipient_kind === 'patient') {
    const consent = await consentOf(db, row.organization_id, head.patient_id);
    if (!consent) return false;
    const patient = await findPatient(db, row.organization_id, head.patient_id);
    addresses = { phone: consent.recipientPhone ?? patient?.phone ?? null, email: patient?.email ?? null };
  } else {
    const bill = head.bill_number ? await billOf(db, row) : undefined;
    const doctor = bill?.doctor_id ? await findUser(db, row.organization_id, bill.doctor_id) : undefined;
    addresses = { phone: doctor?.phone ?? null, email: doctor?.email ?? null };
  }
  const recipient = addressOn(channel, addresses);
  if (!recipient) return false;
  await insertDeliveries(db, [
    {
      organization_id: row.organization_id,
      sample_id: row.sample_id,
      link_id: row.link_id,
      recipient_kind: row.recipient_kind,
      channel,
      recipient,
      amended: row.amended,
      status: 'queued',
      next_attempt_at: now,
      claimed_at: null,
      provider_id: null,
      last_error: null,
      fallback_of: row.id,
      requested_by: row.requested_by,
      created_at: now,
    },
  ]);
  return true;
}

async function billOf(db: Db, row: DeliveryLedgerRow) {
  const sample = await findSampleRow(db, row.organization_id, { id: row.sample_id });
  return sample?.bill_id ? findBillRow(db, row.organization_id, sample.bill_id) : undefined;
}

/** Sends every message due at `now` (up to a batch), one at a time; what happened to each. */
export async function sendDueDeliveries(
  db: Db,
  opts: { now?: Date; limit?: number; signal?: AbortSignal; allowPrivateOutbound?: boolean } = {},
): Promise<SendRound> {
  const outbound = { allowPrivate: opts.allowPrivateOutbound ?? false };
  const clock = () => opts.now ?? new Date();
  const start = clock();
  await releaseStaleDeliveries(db, new Date(start.getTime() - STALE_CLAIM_MS).toISOString(), start.toISOString());
  const round: SendRound = { sent: 0, retrying: 0, failed: 0, fallbacks: 0, events: [] };
  const configs = new Map<number, DeliveryConfig>();
  for (const id of await dueDeliveryIds(db, start.toISOString(), opts.limit ?? BATCH)) {
    if (opts.signal?.aborted) break; // the server is stopping: the rest stay queued for the next round
    const row = await claimDelivery(db, id, clock().toISOString());
    if (!row) continue; // another server took it
    let config = configs.get(row.organization_id);
    if (!config) {
      config = await deliveryConfig(db, row.organization_id);
      configs.set(row.organization_id, config);
    }
    try {
      const providerId = await deliverOne(db, row, config, outbound);
      await updateDelivery(db, id, {
        status: 'sent',
        sent_at: clock().toISOString(),
        provider_id: providerId,
        claimed_at: null,
        last_error: null,
        price_paise: Number(config[`price_${row.channel}_paise`]),
      });
      round.sent += 1;
      round.events.push({ id, channel: row.channel, outcome: 'sent', code: null });
    } catch (err) {
      const e =
        err instanceof SendError ? err : new SendError(err instanceof Error ? err.message : String(err), 'ERROR');
      const giveUp = permanent(e) || Number(row.attempts) >= MAX_ATTEMPTS;
      const at = clock();
      const delay = RETRY_DELAYS_MS[Math.min(Number(row.attempts), RETRY_DELAYS_MS.length) - 1] ?? RETRY_DELAYS_MS[0]!;
      await updateDelivery(db, id, {
        status: giveUp ? 'failed' : 'queued',
        claimed_at: null,
        failed_at: giveUp ? at.toISOString() : null,
        last_error: redact(e.message, [row.recipient]).slice(0, 300),
        next_attempt_at: new Date(at.getTime() + (giveUp ? 0 : delay)).toISOString(),
      });
      round.events.push({ id, channel: row.channel, outcome: giveUp ? 'failed' : 'retry', code: e.code });
      if (!giveUp) {
        round.retrying += 1;
        continue;
      }
      round.failed += 1;
      if (!(e instanceof Skip) && (await queueFallback(db, row, config, at.toISOString()))) round.fallbacks += 1;
    }
  }
  return round;
}

/** One round of the `report-links-send` job; logs ids, channels and codes only. */
export async function sendReportMessages(
  db: Db,
  log: SendLog,
  signal: AbortSignal,
  opts: { allowPrivateOutbound?: boolean } = {},
): Promise<void> {
  const r = await sendDueDeliveries(db, { signal, allowPrivateOutbound: opts.allowPrivateOutbound });
  for (const e of r.events)
    if (e.outcome !== 'sent')
      log.warn(
        { deliveryId: e.id, channel: e.channel, code: e.code, willRetry: e.outcome === 'retry' },
        'a report message was not sent',
      );
  if (r.events.length)
    log.info(
      { sent: r.sent, retrying: r.retrying, failed: r.failed, fallbacks: r.fallbacks },
      'report messages handled',
    );
}
