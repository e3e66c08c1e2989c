import type { Db } from '../db/connection.js';
import { NotFoundError, UnauthorizedError } from '../errors.js';
import { deliveryByProviderId, updateDelivery, type DeliveryLedgerRow } from './repository.js';
import { deliveryConfig, type DeliveryConfig } from './settings.js';
import { queueFallback } from './sender.js';
import { signatureValid, statusesOf } from './whatsapp.js';

/**
 * WhatsApp's status webhooks move the ledger on: sent, delivered, read, or failed (which queues the
 * lab's fallback channel). Each call is checked against X-Hub-Signature-256 with the lab's app
 * secret before anything is read; a status never moves a row backwards (a late "delivered" after
 * "read" changes nothing).
 */

const RANK = { queued: 0, held: 0, sending: 1, sent: 2, delivered: 3, read: 4, failed: 5 } as const;

export async function whatsappWebhook(
  db: Db,
  organizationId: number,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<{ updated: number }> {
  const config = await deliveryConfig(db, organizationId);
  if (!config.whatsapp_app_secret) throw new NotFoundError('Webhook', organizationId);
  if (!signatureValid(config.whatsapp_app_secret, rawBody, signature))
    throw new UnauthorizedError('The webhook signature does not match');
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody.toString('utf8'));
  } catch {
    payload = null;
  }
  let updated = 0;
  for (const s of statusesOf(payload)) {
    const row = await deliveryByProviderId(db, organizationId, s.id);
    if (!row) continue;
    const at = s.timestamp ? new Date(Number(s.timestamp) * 1000).toISOString() : new Date().toISOString();
    if (await moveOn(db, row, s.status, at, config, 'WhatsApp could not deliver it')) updated += 1;
  }
  return { updated };
}

/**
 * A provider's status moves a ledger row on, never backwards (a late "delivered" after "read"
 * changes nothing); "failed" before delivery fails the row and queues the lab's fallback channel.
 * Answers whether the row changed.
 */
export async function moveOn(
  db: Db,
  row: DeliveryLedgerRow,
  status: 'sent' | 'delivered' | 'read' | 'failed',
  at: string,
  config: DeliveryConfig,
  failedWords: string,
): Promise<boolean> {
  if (status === 'failed') {
    if (RANK[row.status] >= RANK.delivered || row.status === 'failed') return false;
    await updateDelivery(db, row.id, { status: 'failed', failed_at: at, last_error: failedWords });
    await queueFallback(db, row, config, new Date().toISOString());
    return true;
  }
  if (row.status === 'failed' || RANK[status] <= RANK[row.status]) return false;
  await updateDelivery(db, row.id, {
    status,
    ...(status === 'delivered' ? { delivered_at: at } : {}),
    ...(status === 'read' ? { read_at: at, delivered_at: row.delivered_at ?? at } : {}),
  });
  return true;
}

/** Meta's check of the webhook's address: the lab's verify token echoed as the challenge. */
export async function whatsappChallenge(
  db: Db,
  organizationId: number,
  q: { mode?: string; token?: string; challenge?: string },
): Promise<string> {
  const config = await deliveryConfig(db, organizationId);
  if (
    !config.whatsapp_verify_token ||
    q.mode !== 'subscribe' ||
    q.token !== config.whatsapp_verify_token ||
    !q.challenge
  )
    throw new UnauthorizedError('The verify token does not match');
  return q.challenge;
}
