import { useState } from 'react';
import { useIsMobile } from '@/lib/useIsMobile';
import { CheckCheck, CheckCircle2, ClipboardCheck, Download, Eye, Lock, ShieldAlert, XCircle } from 'lucide-react';
import type { BulkVerifyResponse, TestResult } from '@shared/schemas/results';
import { resultCode } from '@shared/schemas/results';
import {
  Button,
  buttonClass,
  ConfirmDialog,
  DateText,
  ScreenHeader,
  screenPermissionPage,
  type Column,
  type RowAction,
} from '@/components';
import { useLatestDecisions } from '../decisionsApi';
import { AutoverifyNote } from '../components/AutoverifyNote';
import { useCurrentUser } from '@/lib/session';
import { choiceFilter, type ListFilter } from '@/lib/usePagedList';
import { SAMPLE_PRIORITIES } from '@shared/samples';
import { formatCount, humanize } from '@/lib/format';
import { exportUrl, useBulkVerifyMutation, useResults } from '../api';
import { PatientCell, PriorityBadge, ValidationBadge, ValidationFlags, ValueCell } from '../components/cells';
import { ResultSummaryCards, ResultsTable } from '../components/ResultsQueue';
import { CriticalAlert } from '../components/CriticalAlert';
import { QualityPanels } from '../components/QualityPanels';
import { RejectResultDialog } from '../components/RejectResultDialog';
import { BulkOutcomeDialog } from '../components/BulkOutcomeDialog';
import { REVIEW_WORDS } from '../components/ReviewResultDialog';
import { useResultQueue } from '../components/useResultQueue';
import { SampleValidationDialog } from '../components/SampleValidationDialog';

const FILTERS: ListFilter[] = [
  {
    key: 'status',
    label: 'Status',
    // The queue opens on what awaits validation (pending and review required); All Status shows the
    // verified and rejected too. Newest first across everything hid the work on later pages.
    all: 'awaiting',
    options: [
      { value: 'awaiting', label: 'Awaiting Validation' },
      { value: 'all', label: 'All Status' },
      { value: 'pending', label: 'Pending' },
      { value: 'review_required', label: 'Review Required' },
      { value: 'validated', label: 'Validated' },
      { value: 'rejected', label: 'Rejected' },
    ],
  },
  choiceFilter('priority', 'Priority', 'All Priority', SAMPLE_PRIORITIES, humanize),
  choiceFilter('call', 'Critical calls', 'All Results', ['pending', 'logged'], {
    pending: 'Critical: call not logged',
    logged: 'Critical: call logged',
  }),
];
const selectable = (r: TestResult) => r.id !== null && r.status === 'completed';
/**
 * Bulk Validate takes only results this user may verify (the server's can_verify: not their own
 * entry where self-verification is off, not of a rejected sample) that need no closer look and
 * that no QC rejection holds.
 */
const bulkSelectable = (r: TestResult) => selectable(r) && r.can_verify && r.review_reasons.length === 0 && !r.qc?.held;
/** Why a result is opened on its own: its review reasons, and a QC rejection that holds it. */
const ownLookWords = (r: TestResult) => [
  ...(r.qc?.held ? ['Held by a QC rejection'] : []),
  ...r.review_reasons.map((x) => REVIEW_WORDS[x]),
];
/** Result Validation (spec 001, static there): the real validation queue over entered results. */
export default screenPermissionPage('view_results', 'the validation queue', ResultValidation);

function ResultValidation() {
  const me = useCurrentUser();
  const canVerify = me.permissions.includes('verify_results');
  const canExport = me.permissions.includes('export_data');
  const { list, summary, review, actions, dialogs } = useResultQueue(FILTERS, canVerify);
  const filters = {
    search: list.search,
    validation: list.values.status,
    priority: list.values.priority,
    critical_call: list.values.call,
    entered: 'true',
  };
  const results = useResults({ ...filters, page: list.page, limit: list.limit });
  const bulk = useBulkVerifyMutation();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [rejecting, setRejecting] = useState<TestResult | null>(null);
  const [outcome, setOutcome] = useState<BulkVerifyResponse | null>(null);
  const [sampleUnit, setSampleUnit] = useState<number | null>(null);
  // On a phone the Patient, Status and Flags columns are hidden; their content joins Test and Result.
  const mobile = useIsMobile();
  const rows = results.data?.results;
  const decisions = useLatestDecisions(rows).data;
  const pageSelectable = (rows ?? []).filter(bulkSelectable).map((r) => r.id!);
  const allOnPage = pageSelectable.length > 0 && pageSelectable.every((id) => selected.has(id));

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
              selectable(r) && !r.can_verify ? (
                <Lock
                  className="size-4 text-slate-500"
                  role="img"
                  aria-label={`${resultCode(r.id)} cannot be validated by you: ${r.verify_refusal ?? ''}`}
                >
                  <title>{r.verify_refusal ?? ''}</title>
                </Lock>
              ) : selectable(r) && !bulkSelectable(r) ? (
                <Eye
                  className="size-4 text-amber-700"
                  role="img"
                  aria-label={`${resultCode(r.id)} needs review on its own: ${ownLookWords(r).join(', ')}`}
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
    { key: 'patient', header: 'Patient', cell: (r) => <PatientCell r={r} />, hideOnMobile: true },
    {
      key: 'test',
      header: 'Test',
      cell: (r) => (
        <span className="grid">
          {mobile && (
            <span className="font-medium text-slate-900">
              {r.first_name} {r.last_name}
            </span>
          )}
          <span>{r.test_name}</span>
          <span className="font-mono text-xs text-slate-600">{r.sample_number}</span>
          {mobile && (
            <span className="mt-0.5">
              <ValidationBadge r={r} />
            </span>
          )}
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
          <AutoverifyNote
            r={r}
            decision={r.id === null ? undefined : decisions?.get(r.id)}
            className="mt-0.5 max-w-72 sm:min-w-52"
          />
          {mobile && (
            <span className="mt-0.5">
              <ValidationFlags r={r} />
            </span>
          )}
        </span>
      ),
    },
    { key: 'flags', header: 'Flags', cell: (r) => <ValidationFlags r={r} />, hideOnMobile: true },
    {
      key: 'status',
      header: 'Status',
      cell: (r) => (
        <span className="flex flex-col items-start gap-0.5">
          <ValidationBadge r={r} />
          {r.rejection_reason && <span className="text-xs text-red-800">{r.rejection_reason}</span>}
        </span>
      ),
      hideOnMobile: true,
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
    actions.verify('Validate', (r) => !canVerify || !bulkSelectable(r), <CheckCircle2 />),
    actions.review((r) => r.id === null || (bulkSelectable(r) && !r.is_critical)),
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
      hidden: (r) => !canVerify || !selectable(r) || !r.can_verify,
    },
    actions.print(),
    // Phones: the row has room for two icons; the visit report is on the sample's and the bill's details.
    actions.visitReport(() => mobile),
  ];

  const [confirming, setConfirming] = useState(false);
  function bulkValidate() {
    bulk.mutate([...selected], {
      onSuccess: (out) => {
        setSelected(new Set());
        setOutcome(out);
      },
      onSettled: () => setConfirming(false),
    });
  }
  const n = selected.size;
  const countText = `${formatCount(n)} ${n === 1 ? 'result' : 'results'}`;

  return (
    <>
      <ScreenHeader
        actions={
          <>
            {canExport && (
              <a href={exportUrl(filters)} download className={buttonClass('outline', 'md')}>
                <Download />
                Export Report
              </a>
            )}
            {canVerify && (
              <Button
                onClick={() => setConfirming(true)}
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

      <ResultSummaryCards
        summary={summary}
        cards={[
          {
            label: 'Pending Validation',
            icon: <ClipboardCheck />,
            count: 'pending_validation',
            hint: 'Entered, within range',
          },
          {
            label: 'Review Required',
            icon: <Eye />,
            count: 'review_required',
            hint: (s) => `${formatCount(s.critical)} critical`,
          },
          {
            label: 'Validated Today',
            icon: <CheckCircle2 />,
            count: 'validated_today',
            hint: (s) => `${formatCount(s.verified)} validated in all`,
          },
          { label: 'Rejected', icon: <ShieldAlert />, count: 'rejected', hint: 'Sent back for re-entry' },
        ]}
      />

      <CriticalAlert onReview={review} />

      <ResultsTable
        list={list}
        query={results}
        columns={columns}
        caption="Validation queue"
        searchLabel="Search the validation queue"
        rowActions={rowActions}
        emptyHint="Entered results appear here for validation."
      />

      <QualityPanels />

      {dialogs}
      {rejecting && <RejectResultDialog result={rejecting} onOpenChange={(o) => !o && setRejecting(null)} />}
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
      <ConfirmDialog
        open={confirming}
        onOpenChange={(o) => !bulk.isPending && setConfirming(o)}
        title="Bulk Validate"
        message={`Validate ${countText}? Each will be released as verified by you, ${me.first_name} ${me.last_name}; a result the server must refuse is listed afterwards with the reason.`}
        confirmLabel={`Validate ${countText}`}
        busyLabel="Validating..."
        busy={bulk.isPending}
        destructive={false}
        onConfirm={bulkValidate}
      />
      {outcome && <BulkOutcomeDialog outcome={outcome} onOpenChange={(o) => !o && setOutcome(null)} />}
    </>
  );
}
