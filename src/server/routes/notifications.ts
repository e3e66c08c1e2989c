import type { FastifyInstance } from 'fastify';
import { notificationsApi } from '../../shared/api/notifications.js';
import {
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  notificationSummary,
} from '../../core/notifications/service.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';

/** In-app notifications (spec 001 "Notifications"): the signed-in user's own, with read state. */
export async function notificationsRoutes(app: FastifyInstance) {
  const db = app.database.db;

  route(app, notificationsApi.list, async (req) => listNotifications(db, actorOf(req), req.query));
  route(app, notificationsApi.summary, async (req) => ({ summary: await notificationSummary(db, actorOf(req)) }));
  route(app, notificationsApi.markRead, async (req) => markNotificationRead(db, actorOf(req), req.params.id));
  route(app, notificationsApi.markAllRead, async (req) => markAllNotificationsRead(db, actorOf(req)));
}

export default notificationsRoutes;
