import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { NotificationsTable } from './tables.js';
import type { NotificationListQuery } from '../../shared/schemas/notifications.js';
import { labTable, labUpdate } from '../db/lab-tables.js';
import { onPage, type RowsPage } from '../db/paging.js';

/** Every query of the notifications: always one lab's and, for reading, one user's. */

export type NotificationRow = Selectable<NotificationsTable>;

export function insertNotificationRows(trx: Db, rows: Insertable<NotificationsTable>[]): Promise<NotificationRow[]> {
  if (!rows.length) return Promise.resolve([]);
  return trx.insertInto('notifications').values(rows).returningAll().execute();
}

function inbox(db: Db, organizationId: number, userId: number) {
  return labTable(db, 'notifications', organizationId).where('user_id', '=', userId);
}

/** A page of a user's notifications, newest first, with the filtered total. */
export async function pageNotifications(
  db: Db,
  organizationId: number,
  userId: number,
  q: NotificationListQuery,
): Promise<RowsPage<NotificationRow>> {
  let query = inbox(db, organizationId, userId);
  if (q.read !== undefined) query = query.where('read', '=', q.read ? 1 : 0);
  if (q.type) query = query.where('type', '=', q.type);
  if (q.priority) query = query.where('priority', '=', q.priority);
  const { n } = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').$call(onPage(q)).execute();
  return { rows, total: Number(n) };
}

export async function unreadCount(db: Db, organizationId: number, userId: number): Promise<number> {
  const { n } = await inbox(db, organizationId, userId)
    .where('read', '=', 0)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

export interface SummaryRow {
  total: number;
  unread: number;
  high_priority: number;
  high_priority_unread: number;
  system_alerts: number;
  system_alerts_unread: number;
}

/** The cards' figures in one pass over the user's notifications. */
export async function summaryRow(db: Db, organizationId: number, userId: number): Promise<SummaryRow> {
  const alert = sql`is_system = 1 AND type IN ('warning', 'error')`;
  const r = await inbox(db, organizationId, userId)
    .select([
      sql<number>`count(*)`.as('total'),
      sql<number>`coalesce(sum(CASE WHEN read = 0 THEN 1 ELSE 0 END), 0)`.as('unread'),
      sql<number>`coalesce(sum(CASE WHEN priority = 'high' THEN 1 ELSE 0 END), 0)`.as('high_priority'),
      sql<number>`coalesce(sum(CASE WHEN priority = 'high' AND read = 0 THEN 1 ELSE 0 END), 0)`.as(
        'high_priority_unread',
      ),
      sql<number>`coalesce(sum(CASE WHEN ${alert} THEN 1 ELSE 0 END), 0)`.as('system_alerts'),
      sql<number>`coalesce(sum(CASE WHEN ${alert} AND read = 0 THEN 1 ELSE 0 END), 0)`.as('system_alerts_unread'),
    ])
    .executeTakeFirstOrThrow();
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)])) as unknown as SummaryRow;
}

export function findOwnNotification(
  db: Db,
  organizationId: number,
  userId: number,
  id: number,
): Promise<NotificationRow | undefined> {
  return inbox(db, organizationId, userId).selectAll().where('id', '=', id).executeTakeFirst();
}

export function markReadRow(trx: Db, id: number, at: string): Promise<NotificationRow> {
  return trx
    .updateTable('notifications')
    .set({ read: 1, read_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Marks every unread notification of the user read; answers how many changed. */
export async function markAllReadRows(trx: Db, organizationId: number, userId: number, at: string): Promise<number> {
  const r = await labUpdate(trx, 'notifications', organizationId)
    .set({ read: 1, read_at: at })
    .where('user_id', '=', userId)
    .where('read', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Which of these once-only events the lab has already announced (to anyone). */
export async function announcedKeys(trx: Db, organizationId: number, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await labTable(trx, 'notifications', organizationId)
    .select('dedupe_key')
    .distinct()
    .where('dedupe_key', 'in', keys)
    .execute();
  return new Set(rows.map((r) => r.dedupe_key!));
}
