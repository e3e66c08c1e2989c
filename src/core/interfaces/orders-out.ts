import type { Db } from '../db/connection.js';
import { nowIso } from '../context.js';
import { buildOrderRecords } from './astm/records.js';
import { buildOrderMessage } from './hl7/order.js';
import { logOutbound } from './receive.js';
import { answerQueries } from './apply-inbound.js';
import type { ConnectionRow } from './repository.js';
import {
  claimNextOrder,
  finishOrder,
  queueCollectedSamples,
  retryOrder,
  specimenOfSample,
  type OrderSendRow,
} from './orders-repository.js';

/**
 * Order download (broadcast) to ASTM machines that want their work list pushed rather than asking
 * for it. A connection with send_orders queues each sample collected since
 * the option was switched on; while its machine is connected and the line is idle, the next due
 * order is sent: ASTM through the same E1381 sender as a query answer (H, P, O with the mapped
 * tests, L), marked sent when the machine took every frame; HL7 as an ORM^O01, marked sent when
 * the machine's ACK (AA or CA) names it. Each is logged outbound. A machine that is not
 * connected keeps its orders waiting; one that does not take an order gets it again after 30 s,
 * 2 min, then every 10 min. A sample with nothing left to run on this machine (none of its tests
 * mapped, all entered, no longer open) is skipped, never sent empty.
 */
const CLAIM_MS = 2 * 60_000;
const RETRY_MS = [30_000, 2 * 60_000, 10 * 60_000];

const later = (ms: number, from = Date.now()) => new Date(from + ms).toISOString();

export interface OrderToSend {
  row: OrderSendRow;
  /** ASTM: the records (sent through the E1381 link); HL7: the ORM^O01 (sent in an MLLP block). */
  records: string[];
  hl7?: { text: string; controlId: string };
}

/** Queues newly collected samples and claims the next order due, with its records; undefined when none. */
export async function nextOrderToSend(db: Db, conn: ConnectionRow): Promise<OrderToSend | undefined> {
  const now = nowIso();
  await queueCollectedSamples(db, conn, now);
  for (;;) {
    const row = await claimNextOrder(db, conn.id, now, later(CLAIM_MS));
    if (!row) return undefined;
    const sample = await specimenOfSample(db, row.sample_id);
    const specimenId = sample ? (sample.barcode ?? sample.sample_code) : '';
    const [answer] = specimenId ? await answerQueries(db, conn, [{ specimenId, range: [] }]) : [];
    if (!answer || !answer.testCodes.length) {
      await finishOrder(db, row.id, { status: 'skipped', at: now });
      continue;
    }
    if (conn.protocol === 'hl7') {
      const controlId = `LIMSO${row.id}-${row.attempts + 1}`;
      return { row, records: [], hl7: { text: buildOrderMessage(answer, controlId), controlId } };
    }
    return { row, records: buildOrderRecords([answer], undefined, new Date(), 'download') };
  }
}

/** The machine took the order (ok) or not: logged outbound, and the order marked sent or due again. */
export async function orderSendDone(
  db: Db,
  conn: ConnectionRow,
  order: OrderToSend,
  ok: boolean,
  reason?: string,
): Promise<void> {
  const messageId = order.hl7
    ? await logOutbound(db, conn, 'hl7', Buffer.from(order.hl7.text, 'utf8'), ok, reason, 'ORM^O01')
    : await logOutbound(
        db,
        conn,
        'astm',
        Buffer.from(order.records.join('\r'), 'latin1'),
        ok,
        reason,
        'ASTM order download',
      );
  if (ok) {
    await finishOrder(db, order.row.id, { status: 'sent', message_id: messageId, at: nowIso() });
    return;
  }
  await orderNotTaken(db, order.row, reason ?? 'not taken', messageId);
}

/** Due again later (the machine refused it, or the line dropped before it was sent). */
export async function orderNotTaken(db: Db, row: OrderSendRow, error: string, messageId?: number): Promise<void> {
  const attempts = row.attempts + 1;
  await retryOrder(db, row.id, {
    attempts,
    next: later(RETRY_MS[Math.min(attempts, RETRY_MS.length) - 1]!),
    error,
    message_id: messageId ?? null,
  });
}
