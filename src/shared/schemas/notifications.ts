import { z } from 'zod';
import { pageQuery, pagedShape } from './common.js';

/** The spec's notification types and priorities (spec 001, "Notifications"). */
export const NOTIFICATION_TYPES = ['success', 'info', 'warning', 'error'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const NOTIFICATION_PRIORITIES = ['high', 'medium', 'low'] as const;
export type NotificationPriority = (typeof NOTIFICATION_PRIORITIES)[number];

/**
 * What a notification is about. The lab's work (a critical result, a rejected sample, an amended
 * result, an overdue bill) and system events (backup, import; later stock and calibration), which
 * the System Alerts card counts when they warn or fail (docs/decisions.md).
 */
export const NOTIFICATION_KINDS = [
  'critical_result',
  'sample_rejected',
  'result_amended',
  'bill_overdue',
  'backup_failed',
  'import_finished',
  'import_failed',
  'stock_alert',
  'equipment_reading',
  'calibration_overdue',
  'maintenance_overdue',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** "all" or "" mean no filter, as on every list of the API. */
const noFilter = (v: unknown) => (v === '' || v === 'all' ? undefined : v);

export const notificationListQuery = pageQuery.extend({
  limit: pageQuery.shape.limit.default(20),
  read: z.preprocess(
    noFilter,
    z
      .enum(['true', 'false'], { error: 'read must be true, false or all' })
      .transform((v) => v === 'true')
      .optional(),
  ),
  type: z.preprocess(
    noFilter,
    z.enum(NOTIFICATION_TYPES, { error: `type must be one of ${NOTIFICATION_TYPES.join(', ')} or all` }).optional(),
  ),
  priority: z.preprocess(
    noFilter,
    z
      .enum(NOTIFICATION_PRIORITIES, {
        error: `priority must be one of ${NOTIFICATION_PRIORITIES.join(', ')} or all`,
      })
      .optional(),
  ),
});
export type NotificationListQuery = z.infer<typeof notificationListQuery>;

export const notificationSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  title: z.string(),
  message: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  priority: z.enum(NOTIFICATION_PRIORITIES),
  /** A system event (backup, import...) rather than the lab's work on a patient. */
  system: z.boolean(),
  read: z.boolean(),
  read_at: z.string().nullable(),
  created_at: z.string(),
  /** The screen it is about, as a path of the UI (`/result-validation?search=SMP...`); null when none. */
  link: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** A page of the signed-in user's notifications; `unread` counts all of theirs, whatever the filters. */
export const notificationPageSchema = z.object({
  notifications: z.array(notificationSchema),
  ...pagedShape,
  unread: z.number().int(),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;

/** The Notifications cards and the bell: the signed-in user's figures, unfiltered. */
export const notificationSummarySchema = z.object({
  total: z.number().int(),
  unread: z.number().int(),
  high_priority: z.number().int(),
  high_priority_unread: z.number().int(),
  /** System events that warn or failed (type warning or error). */
  system_alerts: z.number().int(),
  system_alerts_unread: z.number().int(),
});
export type NotificationSummary = z.infer<typeof notificationSummarySchema>;
