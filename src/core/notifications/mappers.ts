import type { Notification, NotificationPriority, NotificationType } from '../../shared/schemas/notifications.js';
import type { NotificationRow } from './repository.js';

export function toNotification(r: NotificationRow): Notification {
  return {
    id: r.id,
    kind: r.kind,
    title: r.title,
    message: r.message,
    type: r.type as NotificationType,
    priority: r.priority as NotificationPriority,
    system: r.is_system === 1,
    read: r.read === 1,
    read_at: r.read_at,
    created_at: r.created_at,
    link: r.link,
  };
}
