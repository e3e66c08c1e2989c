import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import { dueIdsOfOpenLabs } from '../tenants/service.js';
import type { DeliveryListQuery } from '../../shared/schemas/interop-out.js';
import type { InteropDeliveriesTable, InteropReceiversTable } from './tables.js';
import { labTable, labDelete } from '../db/lab-tables.js';
import { onPage, type RowsPage } from '../db/paging.js';

/** Every query of reports out: receivers, the delivery queue and log. Always by organization. */

export type ReceiverRow = Selectable<InteropReceiversTable>;
export type DeliveryRow = Selectable<InteropDeliveriesTable>;

export function receiverRows(db: Db, organizationId: number) {
  return db
    .selectFrom('interop_receivers as r')
    .leftJoin('payers as p', 'p.id', 'r.payer_id')
    .selectAll('r')
    .select('p.name as payer_name')
    .select((eb) => [
      eb
        .selectFrom('interop_deliveries as d')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('d.receiver_id', '=', 'r.id')
        .where('d.status', '=', 'sent')
        .as('sent'),
      eb
        .selectFrom('interop_deliveries as d')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('d.receiver_id', '=', 'r.id')
        .where('d.status', 'in', ['pending', 'sending'])
        .as('waiting'),
      eb
        .selectFrom('interop_deliveries as d')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('d.receiver_id', '=', 'r.id')
        .where('d.status', '=', 'failed')
        .as('failed'),
      eb
        .selectFrom('interop_deliveries as d')
        .select((e) => e.fn.max('d.sent_at').as('t'))
        .whereRef('d.receiver_id', '=', 'r.id')
        .as('last_sent_at'),
    ])
    .where('r.organization_id', '=', organizationId)
    .orderBy('r.name');
}
export type ReceiverListRow = Awaited<ReturnType<ReturnType<typeof receiverRows>['execute']>>[number];

export function findReceiverRow(db: Db, organizationId: number, id: number) {
  return receiverRows(db, organizationId).where('r.id', '=', id).executeTakeFirst();
}

export function receiverNameTaken(db: Db, organizationId: number, name: string, exceptId?: number) {
  let q = labTable(db, 'interop_receivers', organizationId).select('id').where('name', '=', name);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return q.executeTakeFirst();
}

export async function insertReceiverRow(db: Db, row: Insertable<InteropReceiversTable>): Promise<number> {
  const r = await db.insertInto('interop_receivers').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function deleteReceiverRow(db: Db, organizationId: number, id: number): Promise<void> {
  await labDelete(db, 'interop_deliveries', organizationId).where('receiver_id', '=', id).execute();
  await labDelete(db, 'interop_receivers', organizationId).where('id', '=', id).execute();
}

/** The enabled receivers a report of a bill charged to `payerId` (null: self pay) goes to. */
export function receiversFor(db: Db, organizationId: number, payerId: number | null) {
  return labTable(db, 'interop_receivers', organizationId)
    .select(['id', 'kind'])
    .where('enabled', '=', 1)
    .where((eb) =>
      payerId === null ? eb('payer_id', 'is', null) : eb.or([eb('payer_id', 'is', null), eb('payer_id', '=', payerId)]),
    )
    .orderBy('id')
    .execute();
}

/** Whether a report of this sample already waits for (or went to) this receiver: queued once. */
/**
 * A delivery that already carries the report as verified at `reportedAt`: one waiting or being
 * sent (the message is built when sent, so it carries the latest values), or one sent since then.
 * A report sent before an amendment and its new verification is not one: the correction goes out.
 */
export function openDelivery(db: Db, receiverId: number, sampleId: number, reportedAt: string) {
  return db
    .selectFrom('interop_deliveries')
    .select('id')
    .where('receiver_id', '=', receiverId)
    .where('sample_id', '=', sampleId)
    .where((eb) =>
      eb.or([
        eb('status', 'in', ['pending', 'sending']),
        eb.and([eb('status', '=', 'sent'), eb('created_at', '>=', reportedAt)]),
      ]),
    )
    .executeTakeFirst();
}

export async function insertDeliveryRow(db: Db, row: Insertable<InteropDeliveriesTable>): Promise<number> {
  const r = await db.insertInto('interop_deliveries').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

const deliverySelect = (db: Db, organizationId: number) =>
  db
    .selectFrom('interop_deliveries as d')
    .innerJoin('interop_receivers as r', 'r.id', 'd.receiver_id')
    .innerJoin('samples as s', 's.id', 'd.sample_id')
    .selectAll('d')
    .select(['r.name as receiver_name', 'r.kind', 's.sample_code'])
    .where('d.organization_id', '=', organizationId);
export type DeliveryListRow = Awaited<ReturnType<ReturnType<typeof deliverySelect>['execute']>>[number];

export async function deliveryPage(
  db: Db,
  organizationId: number,
  q: DeliveryListQuery,
): Promise<RowsPage<DeliveryListRow>> {
  let base = deliverySelect(db, organizationId);
  if (q.status) base = base.where('d.status', '=', q.status);
  if (q.receiver_id) base = base.where('d.receiver_id', '=', q.receiver_id);
  const total = await base
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await base.orderBy('d.id', 'desc').$call(onPage(q)).execute();
  return { rows, total: Number(total.n) };
}

export function findDelivery(db: Db, organizationId: number, id: number) {
  return deliverySelect(db, organizationId).where('d.id', '=', id).executeTakeFirst();
}

export async function updateDeliveryRow(db: Db, id: number, patch: Updateable<InteropDeliveriesTable>): Promise<void> {
  await db.updateTable('interop_deliveries').set(patch).where('id', '=', id).execute();
}

/** Deliveries due at `nowIso`, oldest first. */
export function dueDeliveryIds(db: Db, nowIso: string, limit: number): Promise<number[]> {
  return dueIdsOfOpenLabs(db, 'interop_deliveries', nowIso, limit);
}

/**
 * Claims one delivery (pending -> sending, the attempt counted) by one conditional UPDATE: of two
 * servers on one database only one gets it.
 */
export async function claimDelivery(db: Db, id: number, nowIso: string) {
  const r = await db
    .updateTable('interop_deliveries')
    .set((eb) => ({ status: 'sending', claimed_at: nowIso, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return undefined;
  return db
    .selectFrom('interop_deliveries as d')
    .innerJoin('interop_receivers as r', 'r.id', 'd.receiver_id')
    .selectAll('d')
    .select(['r.kind', 'r.host', 'r.port', 'r.url', 'r.name as receiver_name', 'r.enabled'])
    .where('d.id', '=', id)
    .executeTakeFirst();
}

/** Claims older than `staleIso` belong to a server that stopped mid-send: pending again. */
export async function releaseStaleDeliveries(db: Db, staleIso: string, nowIso: string): Promise<void> {
  await db
    .updateTable('interop_deliveries')
    .set({ status: 'pending', claimed_at: null, next_attempt_at: nowIso })
    .where('status', '=', 'sending')
    .where('claimed_at', '<', staleIso)
    .execute();
}
