import { connect } from 'node:net';
import type { Db } from '../db/connection.js';
import type { SenderLog } from '../messaging/service.js';
import { guardedTarget, type OutboundPolicy } from '../net/outbound.js';
import { networkReason, sendHttp } from '../net/http-out.js';
import { verifiedReport } from './report.js';
import { buildOru, field, parseHl7 } from './hl7.js';
import { buildBundle } from './fhir.js';
import { claimDelivery, dueDeliveryIds, releaseStaleDeliveries, updateDeliveryRow } from './repository.js';

/**
 * Pushes queued reports to their receivers: `lims serve` runs deliverDueReports every
 * few seconds. Each delivery is claimed by one conditional UPDATE (one server of several sends it),
 * the message is built from the report as it is now and sent outside any transaction: over MLLP
 * the receiver's ACK must be AA (or CA) for this message's control id; over HTTP the FHIR Bundle
 * is POSTed and a 2xx answer is success. A failure is tried again after RETRY_DELAYS_MS and, after
 * MAX_ATTEMPTS, marked failed (the screen can queue it again). Errors kept and logged carry codes
 * and the receiver's short answer only, never the report.
 */

export const MAX_ATTEMPTS = 5;
export const RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000];
export const SEND_TIMEOUT_MS = 15_000;
const STALE_CLAIM_MS = 5 * 60_000;
const BATCH = 20;

const VT = '\x0b';
const FS = '\x1c';
const CR = '\r';

export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** Sends one HL7 message over MLLP and answers the ACK's code; refuses a negative or unrelated ACK. */
export function sendMllp(
  host: string,
  port: number,
  message: string,
  messageId: string,
  timeoutMs: number,
  policy: OutboundPolicy,
): Promise<string> {
  let lookup;
  try {
    ({ lookup } = guardedTarget(host, policy));
  } catch (err) {
    const e = networkReason(err, timeoutMs);
    return Promise.reject(new DeliveryError(e.message, e.code));
  }
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, lookup });
    let buffer = '';
    let done = false;
    const finish = (err: Error | null, code?: string) => {
      if (done) return;
      done = true;
      socket.destroy();
      if (err) reject(err);
      else resolve(code!);
    };
    socket.setTimeout(timeoutMs, () =>
      finish(new DeliveryError(`No ACK within ${Math.round(timeoutMs / 1000)} s`, 'ACK_TIMEOUT')),
    );
    socket.on('connect', () => socket.write(VT + message + FS + CR, 'utf8'));
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const end = buffer.indexOf(FS);
      if (end < 0) return;
      const start = buffer.indexOf(VT);
      const segments = parseHl7(buffer.slice(start < 0 ? 0 : start + 1, end));
      const msa = segments.find((s) => s.name === 'MSA');
      const code = field(msa, 1);
      const acked = field(msa, 2);
      if (!msa) return finish(new DeliveryError('The receiver answered without an MSA segment', 'ACK_INVALID'));
      if (acked !== messageId)
        return finish(
          new DeliveryError(`The ACK answers message ${acked || '(none)'}, not ${messageId}`, 'ACK_MISMATCH'),
        );
      if (code === 'AA' || code === 'CA') return finish(null, code);
      const text =
        field(msa, 3) ||
        field(
          segments.find((s) => s.name === 'ERR'),
          8,
        );
      finish(
        new DeliveryError(
          `The receiver answered ${code}${text ? `: ${text.slice(0, 200)}` : ''}`,
          `ACK_${code || 'NONE'}`,
        ),
      );
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      const e = networkReason(err, timeoutMs);
      finish(new DeliveryError(e.message, e.code));
    });
    socket.on('close', () => finish(new DeliveryError('The receiver closed the connection before its ACK', 'NO_ACK')));
  });
}

/** POSTs the Bundle; answers the HTTP status of a 2xx answer, else fails with it (a redirect is not followed). */
export async function postFhir(
  url: string,
  bundle: unknown,
  timeoutMs: number,
  policy: OutboundPolicy,
): Promise<string> {
  let status: number;
  try {
    status = await sendHttp(url, {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json', accept: 'application/fhir+json' },
      body: JSON.stringify(bundle),
      timeoutMs,
      policy,
    });
  } catch (err) {
    const e = networkReason(err, timeoutMs);
    throw new DeliveryError(
      `The receiver could not be reached: ${e.message}`,
      e.code === 'ETIMEDOUT' ? 'HTTP_TIMEOUT' : e.code,
    );
  }
  if (status < 200 || status > 299) throw new DeliveryError(`The receiver answered HTTP ${status}`, `HTTP_${status}`);
  return String(status);
}

/** The outbound policy of a report receiver: the internet or the clinic's network, unless the operator allows more. */
export const receiverPolicy = (allowPrivate: boolean): OutboundPolicy => ({ kind: 'lan', allowPrivate });

export interface DeliveryOutcome {
  id: number;
  attempt: number;
  outcome: 'sent' | 'retry' | 'failed';
  code: string | null;
}

/** Sends every delivery due at `now` (up to a batch), one at a time; what happened to each. */
export async function deliverDueReports(
  db: Db,
  opts: { now?: Date; signal?: AbortSignal; timeoutMs?: number; allowPrivateOutbound?: boolean } = {},
): Promise<DeliveryOutcome[]> {
  const policy = receiverPolicy(opts.allowPrivateOutbound ?? false);
  const timeoutMs = opts.timeoutMs ?? SEND_TIMEOUT_MS;
  const clock = () => opts.now ?? new Date();
  const now = clock();
  await releaseStaleDeliveries(db, new Date(now.getTime() - STALE_CLAIM_MS).toISOString(), now.toISOString());
  const out: DeliveryOutcome[] = [];
  for (const id of await dueDeliveryIds(db, now.toISOString(), BATCH)) {
    if (opts.signal?.aborted) break;
    const d = await claimDelivery(db, id, clock().toISOString());
    if (!d) continue;
    try {
      if (Number(d.enabled) !== 1) throw new DeliveryError('The receiver is disabled', 'RECEIVER_DISABLED');
      const report = await verifiedReport(db, d.organization_id, d.sample_id, { holdUntilPaid: false });
      const response =
        d.kind === 'mllp'
          ? await sendMllp(
              d.host!,
              Number(d.port),
              buildOru(report, { messageId: d.message_id, receivingFacility: d.receiver_name }),
              d.message_id,
              timeoutMs,
              policy,
            )
          : await postFhir(d.url!, buildBundle(report, { messageId: d.message_id }), timeoutMs, policy);
      await updateDeliveryRow(db, id, {
        status: 'sent',
        sent_at: clock().toISOString(),
        response,
        last_error: null,
        claimed_at: null,
      });
      out.push({ id, attempt: d.attempts, outcome: 'sent', code: null });
    } catch (err) {
      const e = err instanceof DeliveryError ? err : new DeliveryError((err as Error).message, 'REPORT');
      const giveUp = d.attempts >= MAX_ATTEMPTS || e.code === 'RECEIVER_DISABLED';
      const delay = RETRY_DELAYS_MS[Math.min(d.attempts, RETRY_DELAYS_MS.length) - 1] ?? RETRY_DELAYS_MS[0]!;
      await updateDeliveryRow(db, id, {
        status: giveUp ? 'failed' : 'pending',
        claimed_at: null,
        last_error: e.message.slice(0, 300),
        response: e.code.startsWith('ACK_') || e.code.startsWith('HTTP_') ? e.code.replace(/^(ACK|HTTP)_/, '') : null,
        next_attempt_at: new Date(clock().getTime() + (giveUp ? 0 : delay)).toISOString(),
      });
      out.push({ id, attempt: d.attempts, outcome: giveUp ? 'failed' : 'retry', code: e.code });
    }
  }
  return out;
}

/** One round of the report sender (the scheduler's `report-deliveries` job): ids and codes in the log. */
export async function sendDueReports(
  db: Db,
  log: SenderLog,
  signal: AbortSignal,
  opts: { allowPrivateOutbound?: boolean } = {},
): Promise<void> {
  const events = await deliverDueReports(db, { signal, allowPrivateOutbound: opts.allowPrivateOutbound });
  for (const e of events)
    if (e.outcome !== 'sent')
      log.warn(
        { deliveryId: e.id, attempt: e.attempt, code: e.code, willRetry: e.outcome === 'retry' },
        'a report was not delivered to its receiver',
      );
  if (events.length) log.info({ handled: events.length }, 'report deliveries handled');
}
