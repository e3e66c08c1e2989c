import { useMemo, useState } from 'react';
import { Activity, AlertTriangle, CheckCircle2, Cpu, Eye, Gauge, Microscope, Thermometer } from 'lucide-react';
import {
  EQUIPMENT_STATUSES,
  EQUIPMENT_STATUS_LABELS,
  INSTRUMENT_TYPES,
  type Equipment,
  type EquipmentKind,
  type EquipmentStatus,
} from '@shared/schemas/equipment';
import {
  Card,
  clearFiltersEmpty,
  ConfirmDialog,
  DateText,
  ListTable,
  ScreenHeader,
  SummaryCards,
  deleteMessage,
  useRowDialogs,
  type Column,
  type RowAction,
} from '@/components';
import { formatCount } from '@/lib/format';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { choiceFilter, usePagedList, type ListFilter } from '@/lib/usePagedList';
import { useDeleteEquipmentMutation, useEquipmentPage, useEquipmentSummary } from '../api';
import { EquipmentFormDialog } from '../components/EquipmentFormDialog';
import { EquipmentDetailDialog } from '../components/EquipmentDetailDialog';
import { EquipmentStatusBadge } from '../components/badges';
import { UpcomingPanel } from '../components/UpcomingPanel';

const PAGE_SIZES = [10, 20, 50] as const;

/** Only instruments are calibrated: a machine is never calibration_due. */
const statusesOf = (kind: EquipmentKind) =>
  EQUIPMENT_STATUSES.filter((s) => kind === 'instrument' || s !== 'calibration_due');

const reading = (v: number | null, unit: string, out: boolean) =>
  v === null ? (
    '—'
  ) : (
    <span className={out ? 'font-medium text-red-700 tabular-nums' : 'tabular-nums'}>{`${v}${unit}`}</span>
  );

/** A reading outside its own limits (each limit optional). */
const outside = (v: number | null, min: number | null, max: number | null) =>
  v !== null && ((min !== null && v < min) || (max !== null && v > max));
const tempOut = (e: Equipment) => outside(e.temperature, e.min_temperature, e.max_temperature);
const humidityOut = (e: Equipment) => outside(e.humidity, e.min_humidity, e.max_humidity);

const nameCell = (e: Equipment) => (
  <div className="min-w-0">
    <span className="block font-medium text-slate-900">{e.name}</span>
    <span className="block text-[13px] text-slate-600">{[e.model, e.type].filter(Boolean).join(' · ') || '—'}</span>
    <span className="block text-[13px] text-slate-600 md:hidden">
      {[e.serial_number, e.location].filter(Boolean).join(' · ')}
    </span>
    {/* On a phone the figure columns are hidden: the machine's uptime or the instrument's reading go here. */}
    <span className="block text-[13px] text-slate-600 md:hidden">
      {e.kind === 'machine' ? (
        e.uptime === null ? null : (
          `Uptime ${e.uptime}%`
        )
      ) : (
        <>
          {reading(e.temperature, ' °C', tempOut(e))}
          {e.humidity !== null && ' · '}
          {e.humidity !== null && reading(e.humidity, '%', humidityOut(e))}
        </>
      )}
    </span>
  </div>
);

const common: Column<Equipment>[] = [
  { key: 'name', header: 'Name', cell: nameCell },
  {
    key: 'serial',
    header: 'Serial No.',
    cell: (e) => <span className="whitespace-nowrap">{e.serial_number}</span>,
    hideOnMobile: true,
  },
  { key: 'location', header: 'Location', cell: (e) => e.location ?? '—', hideOnMobile: true },
  { key: 'status', header: 'Status', cell: (e) => <EquipmentStatusBadge status={e.status} /> },
];

const machineColumns: Column<Equipment>[] = [
  ...common,
  {
    key: 'uptime',
    header: 'Uptime',
    align: 'right',
    cell: (e) => <span className="tabular-nums">{e.uptime === null ? '—' : `${e.uptime}%`}</span>,
    hideOnMobile: true,
  },
  {
    key: 'tph',
    header: 'Tests/h',
    align: 'right',
    cell: (e) => <span className="tabular-nums">{e.tests_per_hour ?? '—'}</span>,
    hideOnMobile: true,
  },
  { key: 'last', header: 'Last Maintenance', cell: (e) => <DateText value={e.last_maintenance} />, hideOnMobile: true },
  {
    key: 'next',
    header: 'Next Maintenance',
    cell: (e) => (
      <DateText value={e.next_maintenance} className={e.maintenance_overdue ? 'font-medium text-red-700' : ''} />
    ),
    hideOnMobile: true,
  },
];

const instrumentColumns: Column<Equipment>[] = [
  ...common,
  {
    key: 'temp',
    header: 'Temperature',
    align: 'right',
    cell: (e) => reading(e.temperature, ' °C', tempOut(e)),
    hideOnMobile: true,
  },
  {
    key: 'hum',
    header: 'Humidity',
    align: 'right',
    cell: (e) => reading(e.humidity, '%', humidityOut(e)),
    hideOnMobile: true,
  },
  { key: 'cal', header: 'Calibration Date', cell: (e) => <DateText value={e.calibration_date} />, hideOnMobile: true },
  {
    key: 'nextcal',
    header: 'Next Calibration',
    cell: (e) => (
      <DateText value={e.next_calibration} className={e.calibration_overdue ? 'font-medium text-red-700' : ''} />
    ),
    hideOnMobile: true,
  },
];

/** Machine Integration (/machines) and Instruments (/instruments): one register, two views. */
export function EquipmentPage({ kind }: { kind: EquipmentKind }) {
  const me = useCurrentUser();
  const canRegister = can(me, 'manage_lab');
  const canWork = can(me, 'manage_equipment');
  const summary = useEquipmentSummary(kind);
  const s = summary.data;
  const filters: ListFilter[] = useMemo(
    () => [
      choiceFilter('status', 'Status', 'All Statuses', statusesOf(kind), EQUIPMENT_STATUS_LABELS),
      kind === 'machine'
        ? // The locations come with the figures: a location in the URL is kept until they do.
          { ...choiceFilter('location', 'Location', 'All Locations', s?.locations ?? [], (l) => l), open: true }
        : choiceFilter('type', 'Type', 'All Types', INSTRUMENT_TYPES, (t) => t),
    ],
    [kind, s?.locations],
  );
  const list = usePagedList({ filters, pageSizes: PAGE_SIZES, defaultLimit: 20 });
  const page = useEquipmentPage({ kind, search: list.search, ...list.apiFilters, page: list.page, limit: list.limit });
  const rows = useRowDialogs<Equipment>();
  const [viewing, setViewing] = useState<Equipment | null>(null);
  const remove = useDeleteEquipmentMutation();
  // The open dialog follows the list's fresh copy (a status change, a reading).
  const current = viewing ? (page.data?.equipment.find((e) => e.id === viewing.id) ?? viewing) : null;

  const by = (st: EquipmentStatus) => s?.by_status[st] ?? null;
  const noun = kind === 'machine' ? 'Machine' : 'Instrument';
  const cards =
    kind === 'machine'
      ? [
          {
            label: 'Total Machines',
            value: formatCount(s?.total ?? null),
            hint: 'registered, not archived',
            icon: <Cpu />,
          },
          {
            label: 'Operational',
            value: formatCount(by('operational')),
            hint: s ? `${formatCount(by('error'))} in error, ${formatCount(by('maintenance'))} in maintenance` : '',
            icon: <CheckCircle2 />,
          },
          {
            label: 'Average Uptime',
            value: s?.average_uptime == null ? '—' : `${s.average_uptime}%`,
            hint: `last ${s?.window_days ?? 7} days, from status history`,
            icon: <Gauge />,
          },
          {
            label: 'Tests Run',
            value: formatCount(s?.tests_in_window ?? null),
            hint: `results and QC naming a machine, ${s?.window_days ?? 7} days`,
            icon: <Activity />,
          },
        ]
      : [
          {
            label: 'Total Instruments',
            value: formatCount(s?.total ?? null),
            hint: 'registered, not archived',
            icon: <Microscope />,
          },
          {
            label: 'Operational',
            value: formatCount(by('operational')),
            hint: s ? `${formatCount(by('offline'))} offline` : '',
            icon: <CheckCircle2 />,
          },
          {
            label: 'Calibration Due',
            value: formatCount(by('calibration_due')),
            hint: 'past their calibration due date',
            icon: <AlertTriangle />,
          },
          {
            label: 'Readings Out of Range',
            value: formatCount(s?.readings_out_of_range ?? null),
            hint: 'latest reading outside the limits',
            icon: <Thermometer />,
          },
        ];

  const name = (e: Equipment) => e.name;
  const cannotRegister = () => !canRegister;
  const actions: RowAction<Equipment>[] = [
    { label: (e) => `View ${e.name}`, icon: <Eye />, onClick: setViewing },
    rows.editAction(name, cannotRegister),
    rows.deleteAction(name, cannotRegister),
  ];
  const addButton = canRegister ? rows.addButton(`Add ${noun}`) : undefined;

  return (
    <>
      <ScreenHeader actions={addButton} />
      <SummaryCards label={`${noun} counts`} loading={summary.isPending} error={summary.error} cards={cards} />
      <div className="grid gap-5 min-[1600px]:grid-cols-[minmax(0,1fr)_20rem]">
        <Card className="min-w-0">
          <ListTable
            list={list}
            query={page}
            rows={(p) => p.equipment}
            search={{
              placeholder: 'Search by name, model, serial or location',
              label: `Search ${noun.toLowerCase()}s`,
            }}
            noun={`${noun}s`}
            columns={kind === 'machine' ? machineColumns : instrumentColumns}
            getRowId={(e) => e.id}
            onRowClick={setViewing}
            empty={{
              title: `No ${noun.toLowerCase()}s found`,
              ...clearFiltersEmpty(list),
              hint: canRegister
                ? `Register the lab's ${noun.toLowerCase()}s to track their status, calibration and maintenance.`
                : `No ${noun.toLowerCase()}s are registered yet.`,
              action: addButton,
            }}
            rowActions={actions}
          />
        </Card>
        <UpcomingPanel kind={kind === 'machine' ? 'maintenance' : 'calibration'} />
      </div>
      {canRegister && (
        <>
          <EquipmentFormDialog kind={kind} {...rows.addDialog} equipment={null} />
          <EquipmentFormDialog kind={kind} {...rows.editDialog} equipment={rows.editing} />
          <ConfirmDialog
            {...rows.confirm}
            title={`Delete ${noun}`}
            message={
              rows.deleting
                ? `${deleteMessage(rows.deleting.name)} If results, QC runs, readings or calibration and maintenance records name it, it is archived instead: it leaves the lists, its open work is cancelled and its records stay.`
                : ''
            }
            busy={remove.isPending}
            onConfirm={() => rows.deleting && remove.mutate(rows.deleting.id, { onSuccess: rows.deleted })}
          />
        </>
      )}
      <EquipmentDetailDialog equipment={current} onOpenChange={(o) => !o && setViewing(null)} canWork={canWork} />
    </>
  );
}
