import { useState } from 'react';
import { CheckCheck, CheckCircle2, ClipboardCheck, Download, Eye, Printer, ShieldAlert, XCircle } from 'lucide-react';
import type { BulkVerifyResponse, TestResult } from '@shared/schemas/results';
import { resultCode } from '@shared/schemas/results';
import {
  Button,
  buttonClass,
  Card,
  DataTable,
  DateText,
  FilterBar,
  PageHeader,
  Pagination,
  SummaryCards,
  type Column,
  type RowAction,
} from '@/components';
import { useScreen } from '@/lib/screens';
import { useCurrentUser } from '@/lib/session';
import { useUrlState } from '@/lib/useUrlState';
import { formatCount } from '@/lib/format';
import { NoAccess } from '@/components/NoAccess';
import { exportUrl, useBulkVerifyMutation, useResults, useResultSummary, useVerifyResultMutation } from '../api';
import { PatientCell, PriorityBadge, ValidationBadge, ValidationFlags, ValueCell } from '../components/cells';
import { usePrintReport } from '../components/PrintReport';
import { CriticalAlert } from '../components/CriticalAlert';
import { RejectResultDialog } from '../components/RejectResultDialog';
import { BulkOutcomeDialog } from '../components/BulkOutcomeDialog';
import { REVIEW_WORDS, ReviewResultDialog } from '../components/ReviewResultDialog';
import { SampleValidationDialog } from '../components/SampleValidationDialog';

const STATUS_OPTIONS = [
  { value: 'all', label: 'All Status' },
  { value: 'pending', label: 'Pending' },
  { value: 'review_required', label: 'Review Required' },
  { value: 'validated', label: 'Validated' },
  { value: 'rejected', label: 'Rejected' },
];
const PRIORITY_OPTIONS = [
  { value: 'all', label: 'All Priority' },
  { value: 'urgent', label: 'Urgent' },
  { value: 'high', label: 'High' },
  { value: 'normal', label: 'Normal' },
  { value: 'low', label: 'Low' },
];
const SUBTITLE = 'Review entered results, validate or reject them, and watch critical values';

const selectable = (r: TestResult) => r.id !== null && r.status === 'completed';
/** Bulk Validate takes only results that need no closer look; the server refuses the others too. */
const bulkSelectable = (r: TestResult) => selectable(r) && r.review_reasons.length === 0;
const CALL_OPTIONS = [
  { value: 'all', label: 'All Results' },
  { value: 'pending', label: 'Critical: call not logged' },
  { value: 'logged', label: 'Critical: call logged' },
];

/** Result Validation (spec 001, static there): the real validation queue over entered results. */
export default function ResultValidationPage() {
  const screen = useScreen();
  const me = useCurrentUser();
  if (!me.permissions.includes('view_results')) {
    return (
      <>
        <PageHeader title={screen.title} subtitle={SUBTITLE} />
        <NoAccess what="the validation queue" permission="view_results" />
      </>
    );
  }
  return <ResultValidation canVerify={me.permissions.includes('verify_results')} />;
}

function ResultValidation({ canVerify }: { canVerify: boolean }) {
  const screen = useScreen();
  const [q, setQ, resetQ, isActive] = useUrlState({
    search: '',
    status: 'all',
    priority: 'all',
    call: 'all',
    page: 1,
    limit: 50,
  });
  const filters = {
    search: q.search,
    validation: q.status,
    priority: q.priority,
    critical_call: q.call,
    entered: 'true',
  };
  const list = useResults({ ...filters, page: q.page, limit: q.limit });
  const summary = useResultSummary();
  const verify = useVerifyResultMutation();
  const report = usePrintReport(canVerify);
  const bulk = useBulkVerifyMutation();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [rejecting, setRejecting] = useState<TestResult | null>(null);
  const [outcome, setOutcome] = useState<BulkVerifyResponse | null>(null);
  const [reviewing, setReviewing] = useState<TestResult | null>(null);
  const [sampleUnit, setSampleUnit] = useState<number | null>(null);
  const filtered = isActive('search', 'status', 'priority', 'call');
  const rows = list.data?.results;
  const pageSelectable = (rows ?? []).filter(bulkSelectable).map((r) => r.id!);
  const allOnPage = pageSelectable.length > 0 && pageSelectable.every((id) => selected.has(id));
  const s = summary.data;

  const toggle = (id: number, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const columns: Column<TestResult>[] = [
    ...(canVerify
      ? [
          {
            key: 'select',
            header: (
              <input
                type="checkbox"
                className="size-4 accent-primary-600"
                aria-label="Select all results awaiting validation on this page"
                checked={allOnPage}
                disabled={pageSelectable.length === 0}
                onChange={(e) =>
                  setSelected(
                    (prev) =>
                      new Set(
                        e.target.checked
                          ? [...prev, ...pageSelectable]
                          : [...prev].filter((id) => !pageSelectable.includes(id)),
                      ),
                  )
                }
              />
            ),
            cell: (r: TestResult) =>
              selectable(r) && !bulkSelectable(r) ? (
                <Eye
                  className="size-4 text-amber-700"
                  role="img"
                  aria-label={`${resultCode(r.id)} needs review on its own: ${r.review_reasons.map((x) => REVIEW_WORDS[x]).join(', ')}`}
                />
              ) : selectable(r) ? (
                <input
                  type="checkbox"
                  className="size-4 accent-primary-600"
                  aria-label={`Select ${resultCode(r.id)} (${r.test_name})`}
                  checked={selected.has(r.id!)}
                  onChange={(e) => toggle(r.id!, e.target.checked)}
                />
              ) : null,
            className: 'w-8',
          },
        ]
      : []),
    { key: 'patient', header: 'Patient', cell: (r) => <PatientCell r={r} /> },
    {
      key: 'test',
      header: 'Test',
      cell: (r) => (
        <span className="grid">
          <span>{r.test_name}</span>
          <span className="font-mono text-xs text-slate-600">{r.sample_number}</span>
        </span>
      ),
    },
    {
      key: 'result',
      header: 'Result',
      cell: (r) => (
        <span className="grid">
          <ValueCell r={r} />
          <span className="text-xs whitespace-nowrap text-slate-600">
            {r.normal_range ? `Range ${r.normal_range}` : 'No range'}
          </span>
        </span>
      ),
    },
    { key: 'flags', header: 'Flags', cell: (r) => <ValidationFlags r={r} /> },
    {
      key: 'status',
      header: 'Status',
      cell: (r) => (
        <span className="flex flex-col items-start gap-0.5">
          <ValidationBadge r={r} />
          {r.rejection_reason && <span className="text-xs text-red-800">{r.rejection_reason}</span>}
        </span>
      ),
    },
    {
      key: 'by',
      header: 'Validated By',
      cell: (r) => r.verified_by_name ?? <span className="text-slate-500">—</span>,
      hideOnMobile: true,
    },
    {
      key: 'at',
      header: 'Validated At',
      cell: (r) =>
        r.verified_at ? <DateText value={r.verified_at} withTime /> : <span className="text-slate-500">—</span>,
      hideOnMobile: true,
    },
    { key: 'priority', header: 'Priority', cell: (r) => <PriorityBadge priority={r.priority} />, hideOnMobile: true },
  ];

  const rowActions: RowAction<TestResult>[] = [
    {
      label: (r) => `Validate ${resultCode(r.id)} (${r.test_name})`,
      icon: <CheckCircle2 />,
      onClick: (r) => verify.mutate(r),
      hidden: (r) => !canVerify || !bulkSelectable(r),
      disabled: () => verify.isPending,
    },
    {
      label: (r) => `Review ${resultCode(r.id)} (${r.test_name})`,
      icon: <Eye />,
      onClick: (r) => setReviewing(r),
      hidden: (r) => r.id === null || (bulkSelectable(r) && !r.is_critical),
    },
    {
      label: (r) => `Reject ${resultCode(r.id)} (${r.test_name})`,
      icon: <XCircle />,
      destructive: true,
      onClick: (r) => setRejecting(r),
      hidden: (r) => !canVerify || !selectable(r),
    },
    {
      label: (r) => `Validate sample ${r.sample_number} as a whole`,
      icon: <ClipboardCheck />,
      onClick: (r) => setSampleUnit(r.sample_id),
      hidden: (r) => !canVerify || !selectable(r),
    },
    {
      label: (r) => `Print report of ${r.sample_number}`,
      icon: <Printer />,
      onClick: (r) => report.print(r.sample_id),
    },
  ];

  function bulkValidate() {
    bulk.mutate([...selected], {
      onSuccess: (out) => {
        setSelected(new Set());
        setOutcome(out);
      },
    });
  }

  return (
    <>
      <PageHeader
        title={screen.title}
        subtitle={SUBTITLE}
        actions={
          <>
            <a href={exportUrl(filters)} download className={buttonClass('outline', 'md')}>
              <Download />
              Export Report
            </a>
            {canVerify && (
              <Button
                onClick={bulkValidate}
                disabled={selected.size === 0}
                loading={bulk.isPending}
                loadingText="Validating..."
              >
                <CheckCheck />
                Bulk Validate{selected.size ? ` (${selected.size})` : ''}
              </Button>
            )}
          </>
        }
      />

      <SummaryCards
        loading={summary.isPending}
        cards={[
          {
            label: 'Pending Validation',
            icon: <ClipboardCheck />,
            value: s ? formatCount(s.pending_validation) : '—',
            hint: 'Entered, within range',
          },
          {
            label: 'Review Required',
            icon: <Eye />,
            value: s ? formatCount(s.review_required) : '—',
            hint: s && `${formatCount(s.critical)} critical`,
          },
          {
            label: 'Validated Today',
            icon: <CheckCircle2 />,
            value: s ? formatCount(s.validated_today) : '—',
            hint: s && `${formatCount(s.verified)} validated in all`,
          },
          {
            label: 'Rejected',
            icon: <ShieldAlert />,
            value: s ? formatCount(s.rejected) : '—',
            hint: 'Sent back for re-entry',
          },
        ]}
      />
      {summary.isError && (
        <p className="-mt-3 mb-4 text-[13px] text-red-700">The figures could not be loaded: {summary.error.message}</p>
      )}

      <CriticalAlert onReview={setReviewing} />

      <Card className="min-w-0">
        <div className="border-b border-slate-100 p-3">
          <FilterBar
            search={q.search}
            onSearchChange={(search) => setQ({ search, page: 1 }, { replace: true })}
            searchPlaceholder="Search by patient, patient ID, test or sample ID"
            searchLabel="Search the validation queue"
            selects={[
              { key: 'status', label: 'Status', value: q.status, options: STATUS_OPTIONS },
              { key: 'priority', label: 'Priority', value: q.priority, options: PRIORITY_OPTIONS },
              { key: 'call', label: 'Critical calls', value: q.call, options: CALL_OPTIONS },
            ]}
            onSelectChange={(key, value) => setQ({ [key]: value, page: 1 })}
            active={filtered}
            onClear={resetQ}
          />
        </div>
        <DataTable
          caption="Validation queue"
          columns={columns}
          rows={rows}
          getRowId={(r) => r.key}
          loading={list.isPending}
          error={list.isError ? list.error : undefined}
          errorTitle="Error Loading Test Results"
          onRetry={() => void list.refetch()}
          retryLabel="Retry"
          rowActions={rowActions}
          empty={{
            title: 'No test results found',
            hint: filtered
              ? 'Try adjusting your search or filter criteria'
              : 'Entered results appear here for validation.',
          }}
          className={list.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}
        />
        {list.data && list.data.total > 0 && (
          <Pagination
            page={q.page}
            totalPages={list.data.totalPages}
            total={list.data.total}
            pageSize={q.limit}
            pageSizes={[20, 50, 100]}
            onPageChange={(page) => setQ({ page })}
            onPageSizeChange={(limit) => setQ({ limit, page: 1 })}
            itemLabel="results"
          />
        )}
      </Card>

      {reviewing && (
        <ReviewResultDialog result={reviewing} canVerify={canVerify} onOpenChange={(o) => !o && setReviewing(null)} />
      )}
      {rejecting && <RejectResultDialog result={rejecting} onOpenChange={(o) => !o && setRejecting(null)} />}
      {report.dialog}
      {sampleUnit !== null && (
        <SampleValidationDialog
          sampleId={sampleUnit}
          onOpenChange={(o) => !o && setSampleUnit(null)}
          onDone={(out) => {
            setSampleUnit(null);
            setOutcome(out);
          }}
        />
      )}
      {outcome && <BulkOutcomeDialog outcome={outcome} onOpenChange={(o) => !o && setOutcome(null)} />}
    </>
  );
}
