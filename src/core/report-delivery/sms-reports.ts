import { timingSafeEqual, createHash } from 'node:crypto';
import type { Db } from '../db/connection.js';
import { NotFoundError, UnauthorizedError } from '../errors.js';
import { deliveryByProviderId } from './repository.js';
import { deliveryConfig } from './settings.js';
import { moveOn } from './webhooks.js';

/**
 * The SMS gateway's delivery reports. Gateways differ and few can sign a callback, so the lab sets a
 * key (report delivery settings) that the gateway sends with each report, in the callback address's
 * query (`?key=`, never written to a log: request logs leave query strings out) or an `X-Lims-Key`
 * header; it is compared in constant time before anything is read. A report names lims's own
 * reference of the message (`{ref}` in the gateway's template, `rd<ledger id>`) and a status in the
 * gateway's words: delivered ones mark the row delivered, failed ones fail it and queue the lab's
 * fallback channel, as WhatsApp's failures do; anything else (accepted, buffered) changes nothing.
 */

const DELIVERED = new Set(['delivered', 'delivrd', 'dlvrd', 'success', 'delivered_to_handset']);
const FAILED = new Set([
  'failed',
  'undelivered',
  'undeliv',
  'rejected',
  'rejectd',
  'expired',
  'blocked',
  'dnd',
  'invalid',
]);

/** The ledger's meaning of a gateway's status word; null: not final, nothing to record. */
export function smsStatusOf(word: string | undefined): 'delivered' | 'failed' | null {
  const w = (word ?? '').trim().toLowerCase();
  if (DELIVERED.has(w)) return 'delivered';
  if (FAILED.has(w)) return 'failed';
  return null;
}

const digest = (v: string) => createHash('sha256').update(v).digest();

export interface SmsReport {
  ref?: string | undefined;
  status?: string | undefined;
}

export async function smsDeliveryReport(
  db: Db,
  organizationId: number,
  key: string | undefined,
  report: SmsReport,
): Promise<{ updated: number }> {
  const config = await deliveryConfig(db, organizationId);
  if (!config.sms_report_key) throw new NotFoundError('Webhook', organizationId);
  // Hashes of equal length, so the comparison takes the same time whatever was sent.
  if (!key || !timingSafeEqual(digest(key), digest(config.sms_report_key)))
    throw new UnauthorizedError('The delivery report key does not match');
  const status = smsStatusOf(report.status);
  if (!status || !report.ref || !/^rd\d{1,15}$/.test(report.ref)) return { updated: 0 };
  const row = await deliveryByProviderId(db, organizationId, report.ref);
  if (!row || row.channel !== 'sms') return { updated: 0 };
  const moved = await moveOn(db, row, status, new Date().toISOString(), config, 'The SMS gateway could not deliver it');
  return { updated: moved ? 1 : 0 };
}
