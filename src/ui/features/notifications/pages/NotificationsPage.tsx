import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { AlertTriangle, ArrowRight, Bell, BellDot, Check, CheckCheck, RefreshCw, ShieldAlert } from 'lucide-react';
import {
  Badge,
  Button,
  Card,
  DateText,
  ListTable,
  ScreenHeader,
  SummaryCards,
  type BadgeTone,
  type Column,
} from '@/components';
import { formatCount, humanize } from '@/lib/format';
import { cn } from '@/lib/cn';
import { choiceFilter, usePagedList, type ListFilter } from '@/lib/usePagedList';
import { NOTIFICATION_PRIORITIES, NOTIFICATION_TYPES } from '@shared/schemas/notifications';
import {
  useMarkAllReadMutation,
  useMarkReadMutation,
  useNotifications,
  useNotificationSummary,
  type Notification,
} from '../api';

const PAGE_SIZES = [10, 20, 50, 100];

const FILTERS: ListFilter[] = [
  choiceFilter('read', 'Status', 'All Status', ['false', 'true'], { false: 'Unread', true: 'Read' }),
  choiceFilter('type', 'Type', 'All Types', NOTIFICATION_TYPES, humanize),
  choiceFilter('priority', 'Priority', 'All Priorities', NOTIFICATION_PRIORITIES, humanize),
];

/** Red for high as everywhere; medium amber; low grey. */
const PRIORITY_TONE: Record<Notification['priority'], BadgeTone> = { high: 'red', medium: 'amber', low: 'grey' };

function TitleCell({ n }: { n: Notification }) {
  return (
    <div className="flex min-w-0 items-start gap-2">
      <span
        className={cn('mt-1.5 size-2 shrink-0 rounded-full', n.read ? 'bg-transparent' : 'bg-blue-600')}
        aria-hidden="true"
      />
      <div className="min-w-0">
        <p className={cn('break-words text-slate-900', !n.read && 'font-semibold')}>
          {n.title}
          {!n.read && <span className="sr-only"> (unread)</span>}
        </p>
        <p className="mt-0.5 max-w-3xl break-words text-[13px] text-slate-600">{n.message}</p>
        {/* Phones: type, priority and time under the text instead of in their own columns. */}
        <p className="mt-1 flex flex-wrap items-center gap-1.5 md:hidden">
          <Badge status={n.type} />
          <Badge tone={PRIORITY_TONE[n.priority]}>{humanize(n.priority)}</Badge>
          <DateText value={n.created_at} withTime className="text-xs text-slate-600" />
        </p>
      </div>
    </div>
  );
}

const COLUMNS: Column<Notification>[] = [
  { key: 'notification', header: 'Notification', cell: (n) => <TitleCell n={n} /> },
  { key: 'type', header: 'Type', cell: (n) => <Badge status={n.type} />, hideOnMobile: true },
  {
    key: 'priority',
    header: 'Priority',
    cell: (n) => <Badge tone={PRIORITY_TONE[n.priority]}>{humanize(n.priority)}</Badge>,
    hideOnMobile: true,
  },
  { key: 'time', header: 'Received', cell: (n) => <DateText value={n.created_at} withTime />, hideOnMobile: true },
  {
    key: 'status',
    header: 'Status',
    cell: (n) => <Badge tone={n.read ? 'grey' : 'blue'}>{n.read ? 'Read' : 'Unread'}</Badge>,
    hideOnMobile: true,
  },
];

/**
 * How many notifications arrived (the bell's poll saw the total rise) since the table was last
 * loaded: the table itself is not polled, so the screen says so and offers to show them. The
 * baseline is the total known when the table's data last changed (state adjusted while rendering).
 */
function useArrivedSince(total: number | undefined, loadedAt: number): number {
  const [seen, setSeen] = useState({ loadedAt, total });
  if (seen.loadedAt !== loadedAt || (seen.total === undefined && total !== undefined)) {
    setSeen({ loadedAt, total });
  }
  return total !== undefined && seen.total !== undefined ? Math.max(0, total - seen.total) : 0;
}

/** Notifications (/notifications, spec 001): the signed-in user's own, stored on the server. */
export default function NotificationsPage() {
  const navigate = useNavigate();
  const list = usePagedList({ filters: FILTERS, pageSizes: PAGE_SIZES, defaultLimit: 20 });
  const notifications = useNotifications({
    read: list.values.read!,
    type: list.values.type!,
    priority: list.values.priority!,
    page: list.page,
    limit: list.limit,
  });
  const summary = useNotificationSummary();
  const markRead = useMarkReadMutation();
  const markAll = useMarkAllReadMutation();
  const arrived = useArrivedSince(summary.data?.total, notifications.dataUpdatedAt);
  const s = summary.data;

  const refresh = () => {
    void notifications.refetch();
    void summary.refetch();
  };
  const open = (n: Notification) => {
    if (!n.read) markRead.mutate(n.id);
    if (n.link) void navigate(n.link);
  };

  const cards = useMemo(
    () => [
      { label: 'Total', value: formatCount(s?.total), hint: 'All your notifications', icon: <Bell /> },
      { label: 'Unread', value: formatCount(s?.unread), hint: 'Not marked read yet', icon: <BellDot /> },
      {
        label: 'High Priority',
        value: formatCount(s?.high_priority),
        hint: s ? `${formatCount(s.high_priority_unread)} unread` : undefined,
        icon: <AlertTriangle />,
      },
      {
        label: 'System Alerts',
        value: formatCount(s?.system_alerts),
        hint: s ? `Backup and import problems; ${formatCount(s.system_alerts_unread)} unread` : undefined,
        icon: <ShieldAlert />,
      },
    ],
    [s],
  );

  return (
    <>
      <ScreenHeader
        actions={
          <>
            <Button
              variant="outline"
              onClick={refresh}
              loading={notifications.isFetching && !notifications.isPending}
              loadingText="Refreshing..."
            >
              <RefreshCw />
              Refresh
            </Button>
            <Button
              onClick={() => markAll.mutate()}
              disabled={!s || s.unread === 0}
              loading={markAll.isPending}
              loadingText="Marking..."
            >
              <CheckCheck />
              Mark All Read
            </Button>
          </>
        }
      />
      <SummaryCards cards={cards} loading={summary.isPending} error={summary.error} label="Notification counts" />
      {arrived > 0 && (
        <div
          role="status"
          className="mb-3 flex flex-wrap items-center justify-between gap-2 rounded-lg border border-blue-200 bg-blue-50 px-3 py-2 text-[13px] text-blue-900"
        >
          <span>
            {arrived === 1 ? '1 new notification has' : `${formatCount(arrived)} new notifications have`} arrived.
          </span>
          <Button variant="outline" size="sm" onClick={refresh}>
            Show
          </Button>
        </div>
      )}
      <Card>
        <ListTable
          list={list}
          query={notifications}
          rows={(p) => p.notifications}
          columns={COLUMNS}
          getRowId={(n) => n.id}
          noun="Notifications"
          onRowClick={open}
          rowActions={[
            {
              label: (n) => `Open ${n.title}`,
              icon: <ArrowRight />,
              onClick: open,
              hidden: (n) => n.link === null,
            },
            {
              label: (n) => `Mark read: ${n.title}`,
              icon: <Check />,
              onClick: (n) => markRead.mutate(n.id),
              hidden: (n) => n.read,
              disabled: () => markRead.isPending,
            },
          ]}
          empty={{
            title: 'No notifications',
            hint: 'Critical results, rejected samples, amended results and overdue bills that concern your role appear here.',
            filteredHint: 'Try adjusting your search or filter criteria.',
          }}
        />
      </Card>
    </>
  );
}
