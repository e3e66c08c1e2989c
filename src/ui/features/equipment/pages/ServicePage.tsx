import { useState } from 'react';
import {
  AlertTriangle,
  Ban,
  CalendarClock,
  CheckCircle2,
  ClipboardCheck,
  FileBadge,
  FileUp,
  IndianRupee,
  Play,
  Plus,
  Upload,
  Wrench,
} from 'lucide-react';
import {
  CALIBRATION_TYPES,
  MAINTENANCE_TYPES,
  SERVICE_STATUSES,
  SERVICE_STATUS_LABELS,
  type Calibration,
  type Maintenance,
  type ServiceKind,
} from '@shared/schemas/equipment';
import {
  Button,
  Card,
  clearFiltersEmpty,
  LinkButton,
  ListTable,
  ScreenHeader,
  SummaryCards,
  type RowAction,
} from '@/components';
import { formatCount, formatMoney } from '@/lib/format';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { choiceFilter, choiceOptions, usePagedList, type ListFilter } from '@/lib/usePagedList';
import { useCalibrationPage, useMaintenancePage, useServiceStatusMutation, useServiceSummary } from '../api';
import { ScheduleDialog } from '../components/ScheduleDialog';
import { CompleteDialog } from '../components/CompleteDialog';
import { CertificateDialog } from '../components/CertificateDialog';
import { calibrationColumns, maintenanceColumns } from '../components/ServiceColumns';
import { MaintenanceReports } from '../components/MaintenanceReports';

const PAGE_SIZES = [10, 20, 50] as const;
type Service = Calibration | Maintenance;
const isOpen = (s: Service) => s.status === 'scheduled' || s.status === 'in_progress' || s.status === 'overdue';

function filtersOf(kind: ServiceKind): ListFilter[] {
  const types = kind === 'calibration' ? CALIBRATION_TYPES : MAINTENANCE_TYPES;
  return [
    {
      key: 'status',
      label: 'Status',
      options: [
        ...choiceOptions('All Statuses', SERVICE_STATUSES, SERVICE_STATUS_LABELS),
        { value: 'upcoming', label: 'Upcoming (30 days)' },
      ],
    },
    choiceFilter('type', 'Type', 'All Types', types, (t) => t),
  ];
}
const CAL_FILTERS = filtersOf('calibration');
const MAINT_FILTERS = filtersOf('maintenance');

/** Calibration Management (/calibration) and Maintenance Management (/maintenance). */
export function ServicePage({ kind }: { kind: ServiceKind }) {
  const me = useCurrentUser();
  const canWork = can(me, 'manage_equipment');
  const cal = kind === 'calibration';
  const list = usePagedList({ filters: cal ? CAL_FILTERS : MAINT_FILTERS, pageSizes: PAGE_SIZES, defaultLimit: 20 });
  const q = { search: list.search, ...list.apiFilters, page: list.page, limit: list.limit };
  const calPage = useCalibrationPage(q, cal);
  const maintPage = useMaintenancePage(q, !cal);
  const summary = useServiceSummary(kind);
  const setStatus = useServiceStatusMutation(kind);
  const [scheduling, setScheduling] = useState(false);
  const [completing, setCompleting] = useState<Service | null>(null);
  const [certificate, setCertificate] = useState<Calibration | null>(null);
  const s = summary.data;
  const label = cal ? 'Calibration' : 'Maintenance';

  const cards = [
    {
      label: cal ? 'Total Calibrations' : 'Total Records',
      value: formatCount(s?.total ?? null),
      hint: s ? `${formatCount(s.completed)} completed` : '',
      icon: cal ? <ClipboardCheck /> : <Wrench />,
    },
    {
      label: 'Overdue',
      value: formatCount(s?.overdue ?? null),
      hint: 'open and past the due date',
      icon: <AlertTriangle />,
    },
    {
      label: 'Upcoming',
      value: formatCount(s?.upcoming ?? null),
      hint: 'due in the next 30 days',
      icon: <CalendarClock />,
    },
    cal
      ? {
          label: 'Certificates',
          value: formatCount(s?.certificates ?? null),
          hint: 'completed with a certificate',
          icon: <FileBadge />,
        }
      : {
          label: 'Cost This Month',
          value: s ? formatMoney(Math.round(s.cost_this_month * 100)) : '—',
          hint: 'work recorded this month',
          icon: <IndianRupee />,
        },
  ];

  const actions: RowAction<Service>[] = [
    {
      label: (r) => `Record work on ${r.equipment_name}`,
      icon: <CheckCircle2 />,
      onClick: setCompleting,
      hidden: (r) => !canWork || !isOpen(r),
    },
    {
      label: (r) => `Start ${r.equipment_name}`,
      icon: <Play />,
      onClick: (r) => setStatus.mutate({ id: r.id, status: 'in_progress' }),
      hidden: (r) => !canWork || !isOpen(r) || r.status === 'in_progress',
    },
    {
      label: (r) => `Upload certificate for ${r.equipment_name}`,
      icon: <Upload />,
      onClick: (r) => setCertificate(r as Calibration),
      hidden: (r) => !cal || !canWork || r.status === 'cancelled',
    },
    {
      label: (r) => `Cancel ${r.equipment_name}`,
      icon: <Ban />,
      onClick: (r) => setStatus.mutate({ id: r.id, status: 'cancelled' }),
      destructive: true,
      hidden: (r) => !canWork || !isOpen(r),
    },
  ];

  const headerActions = (
    <div className="flex flex-wrap gap-2">
      {canWork && cal && (
        // The spec's Calibration Import: past records from a CSV, XLSX or JSON file, through the import screen.
        <LinkButton to="/import?entity=calibrations" variant="outline">
          <FileUp />
          Import
        </LinkButton>
      )}
      {canWork && (
        <Button onClick={() => setScheduling(true)}>
          <Plus />
          Schedule {label}
        </Button>
      )}
    </div>
  );
  const empty = {
    title: cal ? 'No calibration records found' : 'No maintenance records found',
    ...clearFiltersEmpty(list),
    hint: canWork
      ? `Schedule the ${label.toLowerCase()} of the lab's machines and instruments.`
      : 'Nothing is scheduled yet.',
  };
  // What the two registers' tables share; each brings its own page query, rows and columns.
  const table = {
    list,
    search: {
      placeholder: 'Search by equipment, serial, technician or notes',
      label: `Search ${label.toLowerCase()} records`,
    },
    caption: `${label} records`,
    itemLabel: 'records',
    getRowId: (r: Service) => r.id,
    errorTitle: cal ? 'Error Loading Calibrations' : 'Error Loading Maintenance',
    empty,
  };

  return (
    <>
      <ScreenHeader actions={headerActions} />
      <SummaryCards label={`${label} counts`} loading={summary.isPending} error={summary.error} cards={cards} />
      <Card className="min-w-0">
        {cal ? (
          <ListTable
            {...table}
            query={calPage}
            rows={(p) => p.calibrations}
            columns={calibrationColumns}
            rowActions={actions as RowAction<Calibration>[]}
          />
        ) : (
          <ListTable
            {...table}
            query={maintPage}
            rows={(p) => p.maintenance}
            columns={maintenanceColumns}
            rowActions={actions as RowAction<Maintenance>[]}
          />
        )}
      </Card>
      {!cal && <MaintenanceReports />}
      {canWork && <ScheduleDialog kind={kind} open={scheduling} onOpenChange={setScheduling} />}
      <CompleteDialog kind={kind} record={completing} onOpenChange={(o) => !o && setCompleting(null)} />
      <CertificateDialog record={certificate} onOpenChange={(o) => !o && setCertificate(null)} />
    </>
  );
}
