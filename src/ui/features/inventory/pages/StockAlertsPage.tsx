import { useMemo, useState } from 'react';
import { AlertOctagon, BellRing, CheckCheck, Eye, Settings, Undo2 } from 'lucide-react';
import { ALERT_PRIORITIES, ALERT_STATUSES, ALERT_TYPES } from '@shared/inventory';
import { DEFAULT_INVENTORY_PAGE_SIZE, INVENTORY_PAGE_SIZES, type StockAlert } from '@shared/schemas/inventory';
import {
  NameCell,
  Button,
  Card,
  CardBody,
  CardHeader,
  clearFiltersEmpty,
  DateText,
  ListTable,
  ScreenHeader,
  SummaryCards,
  type Column,
  type RowAction,
} from '@/components';
import { formatCount, humanize } from '@/lib/format';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { choiceFilter, usePagedList, type ListFilter } from '@/lib/usePagedList';
import { useAlertMutation, useAlertPage, useAlertSettings, useAlertSummary, useCriticalAlerts } from '../api';
import { AlertSettingsDialog } from '../components/AlertSettingsDialog';
import { AlertStatusBadge, DayText, PriorityBadge, qty } from '../components/format';

const columns: Column<StockAlert>[] = [
  {
    key: 'item',
    header: 'Item',
    cell: (a) => (
      <NameCell name={a.item_name} detail={`${humanize(a.item_type)} · ${a.item_code}`}>
        {/* A phone has room for the item and its actions only: the alert, priority and status go under the name. */}
        <span className="mt-1 block text-[13px] md:hidden">
          <span className="block font-medium text-slate-900">{humanize(a.alert_type)}</span>
          <span className="block text-slate-600">{a.message}</span>
          <span className="mt-1 flex flex-wrap items-center gap-1">
            <PriorityBadge value={a.priority} />
            <AlertStatus alert={a} />
          </span>
        </span>
      </NameCell>
    ),
  },
  {
    key: 'type',
    hideOnMobile: true,
    header: 'Alert',
    cell: (a) => (
      <div className="min-w-0">
        <span className="block whitespace-nowrap">{humanize(a.alert_type)}</span>
        <span className="block text-[13px] text-slate-600">{a.message}</span>
      </div>
    ),
  },
  {
    key: 'stock',
    header: 'Current / Min / Max',
    align: 'right',
    cell: (a) => (
      <span className="whitespace-nowrap tabular-nums">
        {qty(a.current_stock, a.unit)} / {a.min_threshold} / {a.max_threshold ?? '—'}
      </span>
    ),
    hideOnMobile: true,
  },
  { key: 'priority', header: 'Priority', cell: (a) => <PriorityBadge value={a.priority} />, hideOnMobile: true },
  { key: 'supplier', header: 'Supplier', cell: (a) => a.supplier ?? '—', hideOnMobile: true },
  { key: 'last', header: 'Last Alert', cell: (a) => <DateText value={a.last_alert} withTime />, hideOnMobile: true },
  {
    key: 'status',
    header: 'Status',
    cell: (a) => (
      <div className="grid gap-0.5">
        <AlertStatus alert={a} />
      </div>
    ),
    hideOnMobile: true,
  },
];

/** The alert's status, who acknowledged it and the note kept on it. */
function AlertStatus({ alert: a }: { alert: StockAlert }) {
  return (
    <>
      <AlertStatusBadge value={a.status} />
      {a.acknowledged_by && a.status === 'acknowledged' && (
        <span className="text-[12px] text-slate-600">by {a.acknowledged_by}</span>
      )}
      {a.note && <span className="text-[12px] text-slate-600">{a.note}</span>}
    </>
  );
}

/** Stock Alerts (spec 001): the server's alerts from real stock and dates, acknowledged by staff. */
export default function StockAlertsPage() {
  const me = useCurrentUser();
  const canManage = can(me, 'manage_inventory');
  const summary = useAlertSummary();
  const settings = useAlertSettings();
  const critical = useCriticalAlerts();
  const update = useAlertMutation();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const filters: ListFilter[] = useMemo(
    () => [
      choiceFilter('status', 'Status', 'All Statuses', ALERT_STATUSES, humanize),
      choiceFilter('priority', 'Priority', 'All Priorities', ALERT_PRIORITIES, humanize),
      choiceFilter('alert_type', 'Alert Type', 'All Types', ALERT_TYPES, humanize),
    ],
    [],
  );
  const list = usePagedList({ filters, pageSizes: INVENTORY_PAGE_SIZES, defaultLimit: DEFAULT_INVENTORY_PAGE_SIZE });
  const alerts = useAlertPage({ search: list.search, ...list.apiFilters, page: list.page, limit: list.limit });

  const s = summary.data;
  const cards = [
    { label: 'Active Alerts', value: formatCount(s?.active ?? null), hint: 'not yet acknowledged', icon: <BellRing /> },
    {
      label: 'Critical',
      value: formatCount(s?.critical ?? null),
      hint: 'out of stock or expired',
      icon: <AlertOctagon />,
    },
    { label: 'Acknowledged', value: formatCount(s?.acknowledged ?? null), hint: 'being handled', icon: <Eye /> },
    {
      label: 'Resolved (30 days)',
      value: formatCount(s?.resolved_last_30_days ?? null),
      hint: 'stock or dates recovered',
      icon: <CheckCheck />,
    },
  ];
  const actions: RowAction<StockAlert>[] = [
    {
      label: (a) => `Acknowledge ${humanize(a.alert_type)} of ${a.item_name}`,
      icon: <CheckCheck />,
      onClick: (a) => update.mutate({ id: a.id, status: 'acknowledged' }),
      hidden: (a) => !canManage || a.status !== 'active',
      disabled: () => update.isPending,
    },
    {
      label: (a) => `Reopen ${humanize(a.alert_type)} of ${a.item_name}`,
      icon: <Undo2 />,
      onClick: (a) => update.mutate({ id: a.id, status: 'active' }),
      hidden: (a) => !canManage || a.status !== 'acknowledged',
      disabled: () => update.isPending,
    },
  ];
  const maxWeek = Math.max(1, ...(s?.trend ?? []).map((w) => Math.max(w.raised, w.resolved)));

  return (
    <>
      <ScreenHeader
        actions={
          canManage ? (
            <Button variant="outline" onClick={() => setSettingsOpen(true)}>
              <Settings />
              Alert Settings
            </Button>
          ) : undefined
        }
      />
      <SummaryCards
        label="Alert counts"
        loading={summary.isPending}
        error={summary.error}
        cards={cards.map((c) => (summary.isError ? { ...c, value: '—' } : c))}
      />

      {(critical.data?.alerts.length ?? 0) > 0 && (
        <Card className="mb-5 min-w-0 border-red-200">
          <CardHeader title="Critical Alerts" description="Out of stock, or stock past its expiry date." />
          <CardBody>
            <ul className="grid gap-2">
              {critical.data!.alerts.map((a) => (
                <li key={a.id} className="flex flex-wrap items-center gap-2 text-[14px]">
                  <PriorityBadge value={a.priority} />
                  <span className="font-medium">{a.item_name}</span>
                  <span className="text-slate-600">{a.message}</span>
                  <AlertStatusBadge value={a.status} />
                </li>
              ))}
            </ul>
          </CardBody>
        </Card>
      )}

      <Card className="min-w-0">
        <ListTable
          list={list}
          query={alerts}
          rows={(p) => p.alerts}
          search={{ placeholder: 'Search by item name or code', label: 'Search alerts' }}
          caption="Stock alerts"
          itemLabel="alerts"
          columns={columns}
          getRowId={(a) => a.id}
          errorTitle="Error Loading Stock Alerts"
          empty={{
            title: 'No stock alerts',
            ...clearFiltersEmpty(list),
            hint: 'Alerts appear here by themselves when stock or expiry crosses a threshold.',
          }}
          rowActions={actions}
        />
      </Card>

      <div className="mt-5 grid gap-5 lg:grid-cols-2">
        <Card className="min-w-0">
          <CardHeader
            title="Trends"
            description="Alerts raised and resolved per week (weeks from Monday), last 8 weeks."
          />
          <CardBody>
            <table className="w-full text-[13px]">
              <caption className="sr-only">Alerts raised and resolved per week</caption>
              <thead>
                <tr className="text-left text-slate-600">
                  <th className="py-1 font-medium">Week of</th>
                  <th className="py-1 font-medium">Raised</th>
                  <th className="py-1 font-medium">Resolved</th>
                </tr>
              </thead>
              <tbody>
                {(s?.trend ?? []).map((w) => (
                  <tr key={w.week_start}>
                    <td className="py-1 pr-2">
                      <DayText value={w.week_start} />
                    </td>
                    <td className="py-1 pr-2">
                      <span className="flex items-center gap-2">
                        <span
                          className="inline-block h-2 rounded bg-red-400"
                          style={{ width: `${(w.raised / maxWeek) * 6}rem` }}
                        />
                        {w.raised}
                      </span>
                    </td>
                    <td className="py-1">
                      <span className="flex items-center gap-2">
                        <span
                          className="inline-block h-2 rounded bg-green-500"
                          style={{ width: `${(w.resolved / maxWeek) * 6}rem` }}
                        />
                        {w.resolved}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </CardBody>
        </Card>
        <Card className="min-w-0">
          <CardHeader title="Configuration" description="What raises each alert, and how many are open." />
          <CardBody>
            <ul className="grid gap-2 text-[14px]">
              {(s?.by_type ?? []).map((t) => (
                <li key={t.alert_type} className="flex justify-between gap-3">
                  <span>
                    <span className="font-medium">{humanize(t.alert_type)}</span>
                    <span className="block text-[13px] text-slate-600">{RULES[t.alert_type](settings.data)}</span>
                  </span>
                  <span className="shrink-0 whitespace-nowrap tabular-nums">{t.open} open</span>
                </li>
              ))}
            </ul>
          </CardBody>
        </Card>
      </div>
      {canManage && <AlertSettingsDialog open={settingsOpen} onOpenChange={setSettingsOpen} />}
    </>
  );
}

type Settings_ = { expiry_warning_days: number; approaching_margin_percent: number } | undefined;
const RULES: Record<(typeof ALERT_TYPES)[number], (s: Settings_) => string> = {
  out_of_stock: () => 'No usable stock left (critical; inventory staff are notified).',
  low_stock: () => 'Usable stock at or below the minimum (high; inventory staff are notified).',
  approaching_minimum: (s) => `Usable stock up to ${s?.approaching_margin_percent ?? 20}% above the minimum (medium).`,
  expiry_warning: (s) =>
    `Stock expiring within ${s?.expiry_warning_days ?? 30} days (medium), or already expired (critical; inventory staff are notified).`,
  overstock: () => 'Stock at or above the maximum (low).',
};
