import { useIsMobile } from '@/lib/useIsMobile';
import { useState } from 'react';
import {
  AlertTriangle,
  CheckCircle2,
  ClipboardList,
  ClipboardPen,
  Clock,
  FlaskConical,
  Pencil,
  Trash2,
} from 'lucide-react';
import type { TestResult } from '@shared/schemas/results';
import { resultCode } from '@shared/schemas/results';
import {
  Button,
  ConfirmDialog,
  deleteMessage,
  LinkButton,
  ScreenHeader,
  screenPermissionPage,
  type RowAction,
} from '@/components';
import { useCurrentUser } from '@/lib/session';
import { choiceFilter, type ListFilter } from '@/lib/usePagedList';
import { formatCount, humanize } from '@/lib/format';
import { ResultSummaryCards, ResultsTable } from '../components/ResultsQueue';
import { useResultQueue } from '../components/useResultQueue';
import { useDeleteResultMutation, useResults } from '../api';
import { useLatestDecisions } from '../decisionsApi';
import { entryColumns } from '../components/resultColumns';
import { EnterResultsDialog } from '../components/EnterResultsDialog';
import { EditResultDialog } from '../components/EditResultDialog';
import { ResultDetails } from '../components/ResultDetails';
import { fullName } from '../components/cells';

const FILTERS: ListFilter[] = [
  choiceFilter(
    'status',
    'Status',
    'All Status',
    ['completed', 'verified', 'pending', 'abnormal', 'rejected'],
    humanize,
  ),
];

type Dialogs =
  | { type: 'none' }
  | { type: 'enter'; sampleId: number | null }
  | { type: 'edit'; result: TestResult }
  | { type: 'delete'; result: TestResult };

/** Result Entry (spec 001): the results list with the worklist of tests awaiting a result, and real entry. */
export default screenPermissionPage('view_results', 'test results', ResultEntry);

function ResultEntry() {
  const me = useCurrentUser();
  const canEnter = me.permissions.includes('update_results');
  const canVerify = me.permissions.includes('verify_results');
  const { list, summary, actions, dialogs } = useResultQueue(FILTERS, canVerify);
  const results = useResults({ search: list.search, ...list.apiFilters, page: list.page, limit: list.limit });
  const decisions = useLatestDecisions(results.data?.results).data;
  const mobile = useIsMobile();
  const remove = useDeleteResultMutation();
  const [dialog, setDialog] = useState<Dialogs>({ type: 'none' });
  const close = () => setDialog({ type: 'none' });

  const rowActions: RowAction<TestResult>[] = [
    {
      label: (r) => `Enter result for ${r.test_name} on ${r.sample_number}`,
      icon: <ClipboardPen />,
      onClick: (r) => setDialog({ type: 'enter', sampleId: r.sample_id }),
      hidden: (r) => !canEnter || r.id !== null,
    },
    // Abnormal, critical, delta-failed, amended or QC-held results are opened on their own, not verified in one click.
    actions.verify(
      'Verify',
      (r) => !canVerify || !r.can_verify || r.review_reasons.length > 0 || !!r.qc?.held,
      <CheckCircle2 />,
    ),
    actions.review((r) => r.id === null || (r.review_reasons.length === 0 && !r.is_critical && !r.qc?.held)),
    actions.print((r) => r.status !== 'completed' && r.status !== 'verified'),
    // Phones: the row has room for two icons; the visit report is on the sample's and the bill's details.
    actions.visitReport((r) => mobile || r.status !== 'verified'),
    {
      label: (r) => `${r.status === 'verified' ? 'Amend' : 'Edit'} ${resultCode(r.id)} (${r.test_name})`,
      icon: <Pencil />,
      onClick: (r) => setDialog({ type: 'edit', result: r }),
      hidden: (r) => !canEnter || r.id === null,
    },
    {
      label: (r) => `Delete ${resultCode(r.id)} (${r.test_name})`,
      icon: <Trash2 />,
      destructive: true,
      onClick: (r) => setDialog({ type: 'delete', result: r }),
      hidden: (r) => !canEnter || r.id === null || r.status === 'verified',
    },
  ];

  return (
    <>
      <ScreenHeader
        actions={
          canEnter && (
            <>
              <LinkButton to="/samples" variant="outline">
                <FlaskConical />
                Enter New Result
              </LinkButton>
              <Button onClick={() => setDialog({ type: 'enter', sampleId: null })}>
                <ClipboardPen />
                Enter Results
              </Button>
            </>
          )
        }
      />

      <ResultSummaryCards
        summary={summary}
        cards={[
          {
            label: 'Total Results',
            icon: <ClipboardList />,
            count: 'total',
            hint: 'Entered, plus tests awaiting a result',
          },
          {
            label: 'Completed',
            icon: <CheckCircle2 />,
            count: 'completed',
            hint: (s) => `${formatCount(s.verified)} verified`,
          },
          { label: 'Pending', icon: <Clock />, count: 'pending', hint: 'Ordered tests without a result' },
          {
            label: 'Abnormal',
            icon: <AlertTriangle />,
            count: 'abnormal',
            hint: (s) =>
              s.critical ? `${formatCount(s.critical)} critical awaiting verification` : 'High, low or abnormal flag',
          },
        ]}
      />

      <ResultsTable
        list={list}
        query={results}
        columns={entryColumns(decisions)}
        caption="Test results"
        searchLabel="Search test results"
        rowActions={rowActions}
        emptyHint="Results appear here once samples with ordered tests are collected."
      />

      <ResultDetails rows={results.data?.results} decisions={decisions} />

      {dialog.type === 'enter' && (
        <EnterResultsDialog open onOpenChange={(o) => !o && close()} sampleId={dialog.sampleId} />
      )}
      {dialog.type === 'edit' && <EditResultDialog result={dialog.result} onOpenChange={(o) => !o && close()} />}
      <ConfirmDialog
        open={dialog.type === 'delete'}
        onOpenChange={(o) => !o && close()}
        title="Delete result"
        message={
          dialog.type === 'delete'
            ? deleteMessage(
                `${dialog.result.test_name} result ${resultCode(dialog.result.id)} of ${fullName(dialog.result)}`,
              )
            : ''
        }
        busy={remove.isPending}
        onConfirm={() => {
          if (dialog.type === 'delete') remove.mutate(dialog.result, { onSettled: close });
        }}
      />
      {dialogs}
    </>
  );
}
