import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import { dueIdsOfOpenLabs } from '../tenants/service.js';
import type { OutboxTable, SmsGatewaysTable, SmtpSettingsTable } from './tables.js';
import { labTable, labUpdate } from '../db/lab-tables.js';
import { labRows } from '../db/joins.js';

/** Every query of lab email and SMS: the lab's mail server and gateway, and the outbox. */

export type SmtpRow = Selectable<SmtpSettingsTable>;
export type SmsRow = Selectable<SmsGatewaysTable>;
export type OutboxRow = Selectable<OutboxTable>;

export function smtpRow(db: Db, organizationId: number): Promise<SmtpRow | undefined> {
  return labRows(db, 'smtp_settings', organizationId).executeTakeFirst();
}

export function smsRow(db: Db, organizationId: number): Promise<SmsRow | undefined> {
  return labRows(db, 'sms_gateways', organizationId).executeTakeFirst();
}

export async function saveSmtpRow(trx: Db, row: Insertable<SmtpSettingsTable>, exists: boolean): Promise<void> {
  if (exists) {
    const { organization_id, ...rest } = row;
    await labUpdate(trx, 'smtp_settings', organization_id).set(rest).execute();
  } else await trx.insertInto('smtp_settings').values(row).execute();
}

export async function saveSmsRow(trx: Db, row: Insertable<SmsGatewaysTable>, exists: boolean): Promise<void> {
  if (exists) {
    const { organization_id, ...rest } = row;
    await labUpdate(trx, 'sms_gateways', organization_id).set(rest).execute();
  } else await trx.insertInto('sms_gateways').values(row).execute();
}

export async function insertOutboxRows(trx: Db, rows: Insertable<OutboxTable>[]): Promise<void> {
  if (rows.length) await trx.insertInto('outbox').values(rows).execute();
}

/** Inserts a message unless its once-only key is taken for that address (outbox_once); whether it did. */
export async function insertOutboxRowOnce(trx: Db, row: Insertable<OutboxTable>): Promise<boolean> {
  const r = await trx
    .insertInto('outbox')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return r !== undefined;
}

/** The recipients a once-only message already went to (or is waiting for) on a channel. */
export async function onceRecipients(trx: Db, organizationId: number, dedupeKey: string): Promise<Set<string>> {
  const rows = await labTable(trx, 'outbox', organizationId)
    .select(['channel', 'recipient'])
    .where('dedupe_key', '=', dedupeKey)
    .execute();
  return new Set(rows.map((r) => `${r.channel}:${r.recipient}`));
}

/** Messages due now (pending, their next attempt reached), oldest first; every lab's. */
export function dueOutboxIds(db: Db, nowIso: string, limit: number): Promise<number[]> {
  return dueIdsOfOpenLabs(db, 'outbox', nowIso, limit);
}

/**
 * Claims one message for sending: pending -> sending in one conditional UPDATE, counting the
 * attempt. Of two servers claiming the same row, the database lets one UPDATE match it (PostgreSQL
 * re-reads the row after the other's commit; SQLite has one writer): the other gets undefined.
 */
export async function claimOutboxRow(db: Db, id: number, nowIso: string): Promise<OutboxRow | undefined> {
  const result = await db
    .updateTable('outbox')
    .set((eb) => ({ status: 'sending', claimed_at: nowIso, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  return db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateOutboxRow(db: Db, id: number, patch: Updateable<OutboxTable>): Promise<void> {
  await db.updateTable('outbox').set(patch).where('id', '=', id).execute();
}

/** Claims older than `staleIso` belong to a server that stopped mid-send: they go back to pending. */
export async function releaseStaleClaims(db: Db, staleIso: string, nowIso: string): Promise<number> {
  const result = await db
    .updateTable('outbox')
    .set({ status: 'pending', claimed_at: null, next_attempt_at: nowIso })
    .where('status', '=', 'sending')
    .where('claimed_at', '<', staleIso)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Sent and failed messages created before `beforeIso` (they name patients): removed. */
export async function pruneOutbox(db: Db, beforeIso: string): Promise<number> {
  const result = await db
    .deleteFrom('outbox')
    .where('status', 'in', ['sent', 'failed'])
    .where('created_at', '<', beforeIso)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function outboxCounts(
  db: Db,
  organizationId: number,
  sinceIso: string,
): Promise<Record<OutboxRow['status'], number>> {
  const rows = await labTable(db, 'outbox', organizationId)
    .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
    .where('created_at', '>=', sinceIso)
    .groupBy('status')
    .execute();
  const counts = { pending: 0, sending: 0, sent: 0, failed: 0 };
  for (const r of rows) counts[r.status] = Number(r.n);
  return counts;
}

export function recentOutboxRows(db: Db, organizationId: number, limit: number) {
  return labTable(db, 'outbox', organizationId)
    .select(['id', 'channel', 'kind', 'status', 'attempts', 'last_error', 'created_at', 'sent_at'])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
