import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { NotFoundError, UnauthorizedError } from '../errors.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import type {
  Notification,
  NotificationListQuery,
  NotificationPage,
  NotificationSummary,
} from '../../shared/schemas/notifications.js';
import {
  findOwnNotification,
  markAllReadRows,
  markReadRow,
  pageNotifications,
  summaryRow,
  unreadCount,
} from './repository.js';
import { toNotification } from './mappers.js';

/** Notifications belong to a person: the system actor (the CLI) has none. */
function userOf(actor: Actor): number {
  if (actor.userId === null) throw new UnauthorizedError('Notifications belong to a signed-in user');
  return actor.userId;
}

export async function listNotifications(db: Db, actor: Actor, q: NotificationListQuery): Promise<NotificationPage> {
  const userId = userOf(actor);
  const { rows, total } = await pageNotifications(db, actor.organizationId, userId, q);
  return {
    notifications: rows.map(toNotification),
    ...pageEnvelope(total, q.page, q.limit),
    unread: await unreadCount(db, actor.organizationId, userId),
  };
}

export function notificationSummary(db: Db, actor: Actor): Promise<NotificationSummary> {
  return summaryRow(db, actor.organizationId, userOf(actor));
}

/**
 * Marks one of the user's notifications read (again is fine: the first read time stays). Another
 * user's id, or another lab's, is 404: nobody learns that it exists. Reading is not audited: it
 * changes nothing of the lab's records.
 */
export async function markNotificationRead(
  db: Db,
  actor: Actor,
  id: number,
): Promise<{ notification: Notification; unread: number }> {
  const userId = userOf(actor);
  return db.transaction().execute(async (trx) => {
    const row = await findOwnNotification(trx, actor.organizationId, userId, id);
    if (!row) throw new NotFoundError('Notification', id);
    const after = row.read === 1 ? row : await markReadRow(trx, id, nowIso());
    return { notification: toNotification(after), unread: await unreadCount(trx, actor.organizationId, userId) };
  });
}

export async function markAllNotificationsRead(db: Db, actor: Actor): Promise<{ updated: number; unread: number }> {
  const userId = userOf(actor);
  return db.transaction().execute(async (trx) => {
    const updated = await markAllReadRows(trx, actor.organizationId, userId, nowIso());
    return { updated, unread: await unreadCount(trx, actor.organizationId, userId) };
  });
}

export { type NotificationEvent, notify } from './notify.js';
export { announceOncePerLab } from './sweep.js';
