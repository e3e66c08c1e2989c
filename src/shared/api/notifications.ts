import { z } from 'zod';
import { idParam } from '../schemas/common.js';
import {
  notificationListQuery,
  notificationPageSchema,
  notificationSchema,
  notificationSummarySchema,
} from '../schemas/notifications.js';
import { defineRoute } from './contract.js';

/**
 * In-app notifications (spec 001 "Notifications", stored per user). Every signed-in user
 * sees only their own; another user's id answers 404.
 */
export const notificationsApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/notifications',
    access: 'authenticated',
    query: notificationListQuery,
    response: notificationPageSchema,
  }),
  /** The cards and the bell's count; polled by the bell, so it does not keep an idle session alive. */
  summary: defineRoute({
    method: 'GET',
    path: '/api/notifications/summary',
    access: 'authenticated',
    response: z.object({ summary: notificationSummarySchema }),
    background: true,
  }),
  markRead: defineRoute({
    method: 'PUT',
    path: '/api/notifications/:id/read',
    access: 'authenticated',
    params: idParam,
    response: z.object({ notification: notificationSchema, unread: z.number().int() }),
  }),
  markAllRead: defineRoute({
    method: 'POST',
    path: '/api/notifications/read-all',
    access: 'authenticated',
    response: z.object({ updated: z.number().int(), unread: z.number().int() }),
  }),
};
