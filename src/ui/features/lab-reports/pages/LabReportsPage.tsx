import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { AlertOctagon, CheckCircle2, ClipboardList, Eye, FileText, ScrollText } from 'lucide-react';
import {
  LAB_REPORT_STATUSES,
  LAB_REPORT_STATUS_LABELS,
  DEPARTMENT_LABELS,
  type LabReport,
} from '@shared/schemas/lab-reports';
import { resultsApi } from '@shared/api/results';
import {
  Badge,
  buttonClass,
  Card,
  DateText,
  LIST_DATE_RANGE,
  LIST_DATE_RANGE_KEYS,
  ListDateRangeFields,
  listDateRange,
  ListTable,
  LoadingState,
  ScreenHeader,
  SummaryCards,
  type BadgeTone,
  type Column,
} from '@/components';
import { contractUrl } from '@/lib/api';
import { formatCount } from '@/lib/format';
import { useCurrentUser } from '@/lib/session';
import { choiceFilter, usePagedList, type ListFilter } from '@/lib/usePagedList';
import { useLabReports, useLabReportSummary, useUncalledCriticals } from '../api';
import { TemplatesCard } from '../components/TemplatesCard';
import { ReportSettingsCard } from '../components/ReportSettingsCard';

// Charts (recharts) load only when this screen draws them.
const ReportAnalytics = lazy(() => import('../components/ReportAnalytics'));

const FILTERS: ListFilter[] = [
  choiceFilter('status', 'Status', 'All Status', LAB_REPORT_STATUSES, LAB_REPORT_STATUS_LABELS),
];

export const STATUS_TONE: Record<LabReport['status'], BadgeTone> = {
  completed: 'green',
  pending_review: 'amber',
  in_progress: 'blue',
  draft: 'grey',
  cancelled: 'red',
};

/** Who generated or reviewed a report and when, or "Not yet". */
function DoneBy({ by, at }: { by: string | null; at: string | null }) {
  if (!at) return <span className="text-slate-500">Not yet</span>;
  return (
    <span className="text-[13px]">
      {by ?? '—'}
      <span className="block text-slate-600">
        <DateText value={at} withTime />
      </span>
    </span>
  );
}

/** Lab Reports (spec 001, static there): the real register of patient lab reports and its figures. */
export default function LabReportsPage() {
  const me = useCurrentUser();
  const canManage = me.permissions.includes('manage_lab');
  const list = usePagedList({
    filters: FILTERS,
    pageSizes: [10, 25, 50, 100],
    defaultLimit: 25,
    extra: LIST_DATE_RANGE,
    extraFilters: LIST_DATE_RANGE_KEYS,
  });
  const range = listDateRange(list);
  const reports = useLabReports(
    {
      search: list.search,
      status: list.values.status!,
      from: range.from,
      to: range.to,
      page: list.page,
      limit: list.limit,
    },
    !range.backwards,
  );
  const summary = useLabReportSummary();
  const s = summary.data;

  const columns: Column<LabReport>[] = [
    {
      key: 'report',
      header: 'Report',
      cell: (r) => (
        <span className="whitespace-nowrap">
          <span className="font-medium text-slate-900">{r.report_number}</span>
          <span className="block text-[13px] text-slate-600">{r.barcode ?? 'No barcode'}</span>
        </span>
      ),
    },
    {
      key: 'patient',
      header: 'Patient',
      cell: (r) => (
        <span>
          <span className="font-medium text-slate-900">{r.patient_name}</span>
          <span className="block text-[13px] text-slate-600">{r.patient_number}</span>
        </span>
      ),
    },
    {
      key: 'tests',
      header: 'Tests',
      cell: (r) => (
        <span className="block max-w-xs">
          <span className="line-clamp-2" title={r.test_name}>
            {r.test_name}
          </span>
          <span className="block text-[12px] text-slate-600">
            {r.departments.map((d) => DEPARTMENT_LABELS[d]).join(', ')}
          </span>
        </span>
      ),
      hideOnMobile: true,
    },
    {
      key: 'status',
      header: 'Status',
      cell: (r) => <Badge tone={STATUS_TONE[r.status]}>{LAB_REPORT_STATUS_LABELS[r.status]}</Badge>,
    },
    {
      key: 'results',
      header: 'Results',
      align: 'right',
      cell: (r) => (
        <span className="whitespace-nowrap tabular-nums" title={`${r.verified_count} verified`}>
          {r.result_count} / {r.test_count}
        </span>
      ),
    },
    {
      key: 'critical',
      header: 'Critical',
      align: 'right',
      cell: (r) =>
        r.critical_values ? (
          <Badge tone="red">
            {r.critical_values}
            {r.critical_uncalled ? ` (${r.critical_uncalled} to call)` : ''}
          </Badge>
        ) : (
          <span className="text-slate-500">0</span>
        ),
    },
    {
      key: 'generated',
      header: 'Generated',
      hideOnMobile: true,
      cell: (r) => <DoneBy by={r.generated_by} at={r.generated_at} />,
    },
    {
      key: 'reviewed',
      header: 'Reviewed',
      hideOnMobile: true,
      cell: (r) => <DoneBy by={r.reviewed_by} at={r.reviewed_at} />,
    },
  ];

  return (
    <>
      <ScreenHeader />
      <SummaryCards
        loading={summary.isPending}
        error={summary.isError ? summary.error : null}
        cards={[
          {
            label: 'Total Reports',
            icon: <ScrollText />,
            value: s ? formatCount(s.total) : '—',
            hint: s && `${formatCount(s.by_status.draft)} draft · ${formatCount(s.by_status.in_progress)} in progress`,
          },
          {
            label: 'Completed',
            icon: <CheckCircle2 />,
            value: s ? formatCount(s.by_status.completed) : '—',
            hint: s && `${formatCount(s.completed_today)} released today`,
          },
          {
            label: 'Pending Review',
            icon: <ClipboardList />,
            value: s ? formatCount(s.by_status.pending_review) : '—',
            hint: 'All results entered, not all verified',
          },
          {
            label: 'Critical Values',
            icon: <AlertOctagon />,
            value: s ? formatCount(s.critical_reports) : '—',
            hint: s && `${formatCount(s.critical_uncalled)} with a call still to log`,
          },
        ]}
      />

      <CriticalValuesAlert />

      <Card className="min-w-0">
        <ListTable
          list={list}
          query={reports}
          rows={(p) => p.reports}
          columns={columns}
          getRowId={(r) => r.id}
          caption="Lab reports"
          itemLabel="reports"
          search={{
            placeholder: 'Search by patient, patient ID, report or sample ID, barcode',
            label: 'Search lab reports',
          }}
          rowActions={[
            {
              label: (r) => `Open the report of ${r.sample_code}`,
              icon: <FileText />,
              onClick: (r) => window.open(contractUrl(resultsApi.report, { params: { id: r.id } }), '_blank'),
              hidden: (r) => r.status === 'cancelled' || r.critical_uncalled > 0,
            },
            {
              label: (r) => `Review the results of ${r.sample_code}`,
              icon: <Eye />,
              onClick: (r) => window.location.assign(`/result-validation?search=${encodeURIComponent(r.sample_code)}`),
              hidden: (r) => r.result_count === 0,
            },
          ]}
          invalid={range.invalid}
          errorTitle="Error Loading Lab Reports"
          empty={{
            title: 'No lab reports found',
            hint: 'A report appears here when a sample is ordered or collected.',
            filteredHint: 'Try adjusting your search or filter criteria',
          }}
          filterRows={
            <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-start">
              <ListDateRangeFields list={list} />
            </div>
          }
        />
      </Card>
      <p className="mt-2 text-[13px] text-slate-600">
        One report per sample. Its status follows the results: Draft (nothing entered), In Progress (some entered),
        Pending Review (all entered, not all verified), Completed (all verified), Cancelled (sample rejected). Dates are
        the lab&apos;s calendar days of collection.
      </p>

      <Suspense fallback={<LoadingState text="Loading report analytics..." />}>
        <ReportAnalytics />
      </Suspense>

      <div className="mt-5 grid gap-5 lg:grid-cols-2">
        <TemplatesCard canManage={canManage} />
        <ReportSettingsCard canManage={canManage} />
      </div>
    </>
  );
}

/** Reports held by a critical value whose telephone call is not logged; Review Now opens those results. */
function CriticalValuesAlert() {
  const q = useUncalledCriticals();
  if (q.isError)
    return (
      <p role="alert" className="mb-5 rounded-lg border border-red-200 bg-red-50 p-3 text-[13px] text-red-900">
        Critical values could not be loaded: {q.error.message}
      </p>
    );
  const rows = q.data?.reports ?? [];
  if (!rows.length) return null;
  return (
    <section aria-labelledby="lr-critical" className="mb-5 rounded-lg border border-red-300 bg-red-50 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="lr-critical" className="flex items-center gap-2 text-[15px] font-semibold text-red-900">
          <AlertOctagon className="size-5" aria-hidden="true" />
          Critical Values Alert
          <span className="text-[13px] font-normal">
            ({q.data!.total} report{q.data!.total === 1 ? '' : 's'} held until the call is logged)
          </span>
        </h2>
        <Link to="/result-validation?call=pending" className={buttonClass('destructive', 'sm')}>
          Review Now
        </Link>
      </div>
      <ul className="mt-3 grid gap-2">
        {rows.map((r) => (
          <li
            key={r.id}
            className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-white px-3 py-2 text-[13px] ring-1 ring-red-200"
          >
            <span>
              <span className="font-medium text-slate-900">{r.patient_name}</span>
              <span className="text-slate-600">
                {' '}
                · {r.patient_number} · {r.sample_code} · {r.critical_uncalled} critical value
                {r.critical_uncalled === 1 ? '' : 's'} to call
              </span>
            </span>
            <Link
              to={`/result-validation?call=pending&search=${encodeURIComponent(r.sample_code)}`}
              className={buttonClass('outline', 'sm')}
              aria-label={`Review Now: critical values of ${r.sample_code}`}
            >
              Review Now
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
