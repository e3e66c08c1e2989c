import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notificationsApi } from '@shared/api/notifications';
import { BELL_POLL_MS } from '@shared/constants';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';

export type { Notification, NotificationPage, NotificationSummary } from '@shared/schemas/notifications';

/** GET /api/notifications filters, as in the URL of the Notifications screen ("all" = not filtered). */
export interface NotificationFilters {
  read: string;
  type: string;
  priority: string;
  page: number;
  limit: number;
}

export const notificationKeys = {
  all: ['notifications'] as const,
  summary: ['notifications', 'summary'] as const,
  list: (f: NotificationFilters) => ['notifications', 'list', f] as const,
};

/** The bell asks for the unread count every BELL_POLL_MS while the tab is visible (paused while hidden). */
export { BELL_POLL_MS };

/**
 * The signed-in user's figures (the cards and the bell). Polled while the tab is visible
 * (TanStack Query pauses intervals in a hidden tab) and asked again when the tab comes back; the
 * server does not count these calls as the user's activity, so the idle timeout still applies.
 */
export function useNotificationSummary() {
  return useQuery({
    queryKey: notificationKeys.summary,
    queryFn: () => call(notificationsApi.summary, {}).then((r) => r.summary),
    refetchInterval: BELL_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
    staleTime: 0,
  });
}

export function useNotifications(f: NotificationFilters) {
  return useQuery({
    queryKey: notificationKeys.list(f),
    queryFn: () => call(notificationsApi.list, { query: f }),
    placeholderData: keepPreviousData,
  });
}

function useInvalidateNotifications() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: notificationKeys.all });
}

export function useMarkReadMutation() {
  const invalidate = useInvalidateNotifications();
  return useMutation({
    mutationFn: (id: number) => call(notificationsApi.markRead, { params: { id } }),
    onSuccess: () => invalidate(),
    onError: (err) => notify.error('Could not mark the notification read', err),
  });
}

export function useMarkAllReadMutation() {
  const invalidate = useInvalidateNotifications();
  return useMutation({
    mutationFn: () => call(notificationsApi.markAllRead, {}),
    onSuccess: (r) => {
      void invalidate();
      notify.success(
        'All notifications marked as read',
        r.updated === 1 ? '1 notification marked read.' : `${r.updated} notifications marked read.`,
      );
    },
    onError: (err) => notify.error('Could not mark the notifications read', err),
  });
}
