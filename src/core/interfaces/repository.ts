import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import { openLabIds } from '../tenants/service.js';
import type { MessageListQuery, UnmatchedListQuery } from '../../shared/schemas/connections.js';
import type { ConnectionsTable, InterfaceMessagesTable, InterfaceUnmatchedTable } from './tables.js';
import { labRows } from '../db/joins.js';
import { labTable } from '../db/lab-tables.js';
import { onPage } from '../db/paging.js';

/** Every query of the analyzer interfaces; always filtered by organization_id. */
export type ConnectionRow = Selectable<ConnectionsTable>;
export type MessageRow = Selectable<InterfaceMessagesTable>;
export type UnmatchedRow = Selectable<InterfaceUnmatchedTable>;

export function connectionRows(db: Db, organizationId: number): Promise<ConnectionRow[]> {
  return labRows(db, 'connections', organizationId).orderBy('name').orderBy('id').execute();
}

export function findConnectionRow(db: Db, organizationId: number, id: number): Promise<ConnectionRow | undefined> {
  return labRows(db, 'connections', organizationId).where('id', '=', id).executeTakeFirst();
}

/**
 * The connection as it is stored now, for a message a running line has just received: its code
 * map, profile and name are read per message, so changing them on the screen takes effect on the
 * next message without restarting the line (and dropping what is in flight). Gone meanwhile: the
 * row the line started with (the listener is being stopped).
 */
export async function currentRow(db: Db, started: ConnectionRow): Promise<ConnectionRow> {
  return (await findConnectionRow(db, started.organization_id, started.id)) ?? started;
}

export function connectionByName(db: Db, organizationId: number | null, name: string) {
  let q = db.selectFrom('connections').selectAll().where('name', '=', name);
  if (organizationId !== null) q = q.where('organization_id', '=', organizationId);
  return q.execute();
}

/** The enabled connections of every lab on this database (the listeners run them all). */
/** Connections to run: enabled ones of labs that work now (a suspended or inactive lab's lines stop). */
export function enabledConnections(db: Db): Promise<ConnectionRow[]> {
  return db
    .selectFrom('connections')
    .selectAll()
    .where('enabled', '=', 1)
    .where('organization_id', 'in', openLabIds(db))
    .orderBy('id')
    .execute();
}

export async function nameTaken(db: Db, organizationId: number, name: string, exceptId?: number): Promise<boolean> {
  let q = labTable(db, 'connections', organizationId).select('id').where('name', '=', name);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export function insertConnectionRow(trx: Db, values: Insertable<ConnectionsTable>): Promise<ConnectionRow> {
  return trx.insertInto('connections').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateConnectionRow(trx: Db, id: number, patch: Updateable<ConnectionsTable>): Promise<ConnectionRow> {
  return trx.updateTable('connections').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteConnectionRow(trx: Db, id: number): Promise<void> {
  await trx.deleteFrom('connections').where('id', '=', id).execute();
}

/** What the listener says about a connection (not audited: it is the machine's state, not a change). */
export async function setListenStatus(
  db: Db,
  id: number,
  status: string,
  error: string | null,
  at: string,
): Promise<void> {
  await db
    .updateTable('connections')
    .set({ listen_status: status, last_error: error, status_at: at })
    .where('id', '=', id)
    .execute();
}

/** Message and open-unmatched counts per connection. */
export async function connectionCounts(db: Db, organizationId: number) {
  const [messages, open] = await Promise.all([
    labTable(db, 'interface_messages', organizationId)
      .select(['connection_id', db.fn.countAll<number>().as('n')])
      .groupBy('connection_id')
      .execute(),
    labTable(db, 'interface_unmatched', organizationId)
      .select(['connection_id', db.fn.countAll<number>().as('n')])
      .where('status', '=', 'open')
      .groupBy('connection_id')
      .execute(),
  ]);
  return {
    messages: new Map(messages.map((r) => [r.connection_id, Number(r.n)])),
    open: new Map(open.map((r) => [r.connection_id, Number(r.n)])),
  };
}

export function testNames(db: Db, organizationId: number, ids: number[]) {
  if (!ids.length) return Promise.resolve([] as { id: number; name: string; unit: string | null }[]);
  return labTable(db, 'tests', organizationId).select(['id', 'name', 'unit']).where('id', 'in', ids).execute();
}

export function equipmentName(db: Db, organizationId: number, id: number) {
  return labTable(db, 'equipment', organizationId).select(['id', 'name']).where('id', '=', id).executeTakeFirst();
}

export function insertMessageRow(trx: Db, values: Insertable<InterfaceMessagesTable>): Promise<MessageRow> {
  return trx.insertInto('interface_messages').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateMessageRow(trx: Db, id: number, patch: Updateable<InterfaceMessagesTable>): Promise<void> {
  await trx.updateTable('interface_messages').set(patch).where('id', '=', id).execute();
}

export async function touchConnection(trx: Db, id: number, at: string): Promise<void> {
  await trx.updateTable('connections').set({ last_message_at: at }).where('id', '=', id).execute();
}

const MESSAGE_COLUMNS = [
  'm.id',
  'm.connection_id',
  'c.name as connection_name',
  'm.direction',
  'm.protocol',
  'm.size',
  'm.status',
  'm.message_type',
  'm.results_count',
  'm.unmatched_count',
  'm.ignored_count',
  'm.ack',
  'm.error',
  'm.received_at',
] as const;

function messagesQuery(db: Db, organizationId: number) {
  return db
    .selectFrom('interface_messages as m')
    .innerJoin('connections as c', 'c.id', 'm.connection_id')
    .where('m.organization_id', '=', organizationId);
}

export async function pageMessages(db: Db, organizationId: number, f: MessageListQuery) {
  let q = messagesQuery(db, organizationId);
  if (f.connection_id) q = q.where('m.connection_id', '=', f.connection_id);
  if (f.status) q = q.where('m.status', '=', f.status);
  const [rows, count] = await Promise.all([
    q.select(MESSAGE_COLUMNS).orderBy('m.id', 'desc').$call(onPage(f)).execute(),
    q.select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function findMessage(db: Db, organizationId: number, id: number) {
  return messagesQuery(db, organizationId)
    .select([...MESSAGE_COLUMNS, 'm.raw'])
    .where('m.id', '=', id)
    .executeTakeFirst();
}

export function insertUnmatchedRow(trx: Db, values: Insertable<InterfaceUnmatchedTable>) {
  return trx.insertInto('interface_unmatched').values(values).returning('id').executeTakeFirstOrThrow();
}

export async function updateUnmatchedRow(
  trx: Db,
  id: number,
  patch: Updateable<InterfaceUnmatchedTable>,
): Promise<void> {
  await trx.updateTable('interface_unmatched').set(patch).where('id', '=', id).execute();
}

function unmatchedQuery(db: Db, organizationId: number) {
  return db
    .selectFrom('interface_unmatched as u')
    .innerJoin('connections as c', 'c.id', 'u.connection_id')
    .where('u.organization_id', '=', organizationId);
}

const UNMATCHED_COLUMNS = [
  'u.id',
  'u.connection_id',
  'c.name as connection_name',
  'c.code_map',
  'u.message_id',
  'u.specimen_id',
  'u.code',
  'u.value',
  'u.unit',
  'u.flag',
  'u.reason',
  'u.detail',
  'u.status',
  'u.result_id',
  'u.discard_reason',
  'u.resolved_at',
  'u.created_at',
] as const;

export async function pageUnmatched(db: Db, organizationId: number, f: UnmatchedListQuery) {
  let q = unmatchedQuery(db, organizationId).where('u.status', '=', f.status);
  if (f.connection_id) q = q.where('u.connection_id', '=', f.connection_id);
  const [rows, count] = await Promise.all([
    q
      .select(UNMATCHED_COLUMNS)
      .orderBy('u.id', f.status === 'open' ? 'asc' : 'desc')
      .$call(onPage(f))
      .execute(),
    q.select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function findUnmatched(db: Db, organizationId: number, id: number) {
  return unmatchedQuery(db, organizationId).select(UNMATCHED_COLUMNS).where('u.id', '=', id).executeTakeFirst();
}
export type UnmatchedListRow = NonNullable<Awaited<ReturnType<typeof findUnmatched>>>;
