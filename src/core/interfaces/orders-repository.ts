import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.js';
import { OPEN_FOR_ENTRY } from '../results/repository.js';
import type { InterfaceOrderSendsTable } from './tables.js';

/** The queries of order download (broadcast) to ASTM machines; always one connection's rows. */
export type OrderSendRow = Selectable<InterfaceOrderSendsTable>;

/**
 * Queues the samples of the connection's lab collected since order download was switched on,
 * still open for results, that have no row for this connection yet (at most `limit` at a time).
 * A row already there (another process queued it) is left as it is.
 */
export async function queueCollectedSamples(
  db: Db,
  conn: { id: number; organization_id: number; send_orders_from: string | null },
  now: string,
  limit = 100,
): Promise<number> {
  if (!conn.send_orders_from) return 0;
  const samples = await db
    .selectFrom('samples as s')
    .select('s.id')
    .where('s.organization_id', '=', conn.organization_id)
    .where('s.status', 'in', [...OPEN_FOR_ENTRY])
    .where('s.collection_date', '>=', conn.send_orders_from)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('interface_order_sends as o')
            .select('o.id')
            .whereRef('o.sample_id', '=', 's.id')
            .where('o.connection_id', '=', conn.id),
        ),
      ),
    )
    .orderBy('s.id')
    .limit(limit)
    .execute();
  if (!samples.length) return 0;
  await db
    .insertInto('interface_order_sends')
    .values(
      samples.map((s) => ({
        organization_id: conn.organization_id,
        connection_id: conn.id,
        sample_id: s.id,
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        claimed_until: null,
        message_id: null,
        last_error: null,
        created_at: now,
        sent_at: null,
      })),
    )
    .onConflict((oc) => oc.columns(['connection_id', 'sample_id']).doNothing())
    .execute();
  return samples.length;
}

/**
 * The next order due on this connection, claimed until `until` so no other process sends it too
 * (a claim left by a process that died runs out and the order is taken again).
 */
export async function claimNextOrder(db: Db, connectionId: number, now: string, until: string) {
  const due = await db
    .selectFrom('interface_order_sends')
    .selectAll()
    .where('connection_id', '=', connectionId)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('id')
    .limit(5)
    .execute();
  for (const row of due) {
    const r = await db
      .updateTable('interface_order_sends')
      .set({ claimed_until: until })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 1) return row;
  }
  return undefined;
}

export async function finishOrder(
  db: Db,
  id: number,
  patch: { status: 'sent' | 'skipped'; message_id?: number | null; at: string },
): Promise<void> {
  await db
    .updateTable('interface_order_sends')
    .set({
      status: patch.status,
      message_id: patch.message_id ?? null,
      sent_at: patch.status === 'sent' ? patch.at : null,
      claimed_until: null,
      last_error: null,
    })
    .where('id', '=', id)
    .execute();
}

/** The machine did not take it (or the line dropped): tried again at `next`. */
export async function retryOrder(
  db: Db,
  id: number,
  patch: { attempts: number; next: string; error: string; message_id?: number | null },
): Promise<void> {
  await db
    .updateTable('interface_order_sends')
    .set({
      attempts: patch.attempts,
      next_attempt_at: patch.next,
      claimed_until: null,
      last_error: patch.error.slice(0, 500),
      ...(patch.message_id ? { message_id: patch.message_id } : {}),
    })
    .where('id', '=', id)
    .execute();
}

export function orderSendsOf(db: Db, connectionId: number): Promise<OrderSendRow[]> {
  return db
    .selectFrom('interface_order_sends')
    .selectAll()
    .where('connection_id', '=', connectionId)
    .orderBy('id')
    .execute();
}

/** The sample's specimen ID as the machine will read it: its barcode, else its sample code. */
export function specimenOfSample(db: Db, sampleId: number) {
  return db.selectFrom('samples').select(['barcode', 'sample_code']).where('id', '=', sampleId).executeTakeFirst();
}
