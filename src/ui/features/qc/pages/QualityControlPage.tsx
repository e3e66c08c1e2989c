import { useMemo, useState } from 'react';
import { AlertTriangle, CheckCircle2, ClipboardPlus, Eye, FlaskConical, Percent, Plus, XCircle } from 'lucide-react';
import type { QcMaterial } from '@shared/schemas/qc';
import {
  Button,
  Card,
  ConfirmDialog,
  deleteMessage,
  ErrorPanel,
  FilteredTable,
  PageHeader,
  RequirePermission,
  SummaryCards,
  type RowAction,
} from '@/components';
import { useScreen } from '@/lib/screens';
import { useCurrentUser } from '@/lib/session';
import { usePagedList, type ListFilter } from '@/lib/usePagedList';
import { formatCount, formatDate, useLabFormat } from '@/lib/format';
import { useDeleteQcMaterialMutation, useQcMaterials, useQcSummary } from '../api';
import { qcColumns } from '../components/qcColumns';
import { MaterialDetailDialog } from '../components/MaterialDetailDialog';
import { MaterialFormDialog } from '../components/MaterialFormDialog';
import { RecordRunDialog } from '../components/RecordRunDialog';
import { TestRunDialog } from '../components/TestRunDialog';
import { RUN_STATUS_OPTIONS } from '../qcText';

type Dialogs =
  | { type: 'none' }
  | { type: 'view'; material: QcMaterial }
  | { type: 'form'; material: QcMaterial | null; from?: QcMaterial }
  | { type: 'run'; material: QcMaterial | null; from?: QcMaterial }
  | { type: 'delete'; material: QcMaterial };

/** Quality Control (spec 001): control materials and their runs, judged by the Westgard rules on entry. */
export default function QualityControlPage() {
  const me = useCurrentUser();
  const screen = useScreen();
  const subtitle = 'Control materials, QC runs and Westgard rules with Levey-Jennings charts';
  return (
    <RequirePermission permission="view_results" what="quality control" title={screen.title} subtitle={subtitle}>
      <QualityControl canManage={me.permissions.includes('manage_qc')} title={screen.title} subtitle={subtitle} />
    </RequirePermission>
  );
}

function QualityControl({ canManage, title, subtitle }: { canManage: boolean; title: string; subtitle: string }) {
  const lab = useLabFormat();
  // The unfiltered list (the same cache entry when no filter is set) feeds the test filter and the run dialog.
  const everything = useQcMaterials({});
  const testOptions = useMemo(() => {
    const seen = new Map<string, string>();
    for (const m of everything.data ?? []) seen.set(String(m.test_id), m.test_name);
    const opts = [...seen].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label));
    return [{ value: 'all', label: 'All Tests' }, ...opts];
  }, [everything.data]);
  const filterList = useMemo<ListFilter[]>(
    () => [
      { key: 'status', label: 'Status', options: RUN_STATUS_OPTIONS },
      { key: 'test', label: 'Test', open: true, options: testOptions },
    ],
    [testOptions],
  );
  const qs = usePagedList({ filters: filterList, pageSizes: [], defaultLimit: 0 });
  const list = useQcMaterials({ search: qs.search, last_status: qs.values.status, test_id: qs.values.test });
  const summary = useQcSummary();
  const remove = useDeleteQcMaterialMutation();
  const [dialog, setDialog] = useState<Dialogs>({ type: 'none' });
  const [testRunOpen, setTestRunOpen] = useState(false);
  const close = () => setDialog({ type: 'none' });
  // A run or an edit started from a material's details returns there, so the new point shows on its chart.
  const back = () => setDialog((d) => ('from' in d && d.from ? { type: 'view', material: d.from } : { type: 'none' }));

  const active = (everything.data ?? []).filter((m) => m.status === 'active');

  const rowActions: RowAction<QcMaterial>[] = [
    { label: (m) => `View ${m.control_id}`, icon: <Eye />, onClick: (m) => setDialog({ type: 'view', material: m }) },
    {
      label: (m) => `Record QC run for ${m.control_id}`,
      icon: <ClipboardPlus />,
      onClick: (m) => setDialog({ type: 'run', material: m }),
      hidden: (m) => !canManage || m.status !== 'active',
    },
  ];

  const s = summary.data;
  return (
    <>
      <PageHeader
        title={title}
        subtitle={subtitle}
        actions={
          canManage && (
            <>
              <Button variant="outline" onClick={() => setDialog({ type: 'run', material: null })}>
                <ClipboardPlus />
                Record QC Run
              </Button>
              <Button variant="outline" onClick={() => setTestRunOpen(true)}>
                <ClipboardPlus />
                Run All Levels
              </Button>
              <Button onClick={() => setDialog({ type: 'form', material: null })}>
                <Plus />
                Add Control Material
              </Button>
            </>
          )
        }
      />

      {summary.isError ? (
        <ErrorPanel title="Error Loading QC Summary" query={summary} retryLabel="Retry" className="mb-5" />
      ) : (
        <SummaryCards
          loading={summary.isPending}
          cards={[
            {
              label: 'Total Runs',
              icon: <FlaskConical />,
              value: s && formatCount(s.total_runs),
              hint:
                s && `${formatCount(s.active_materials)} active control material${s.active_materials === 1 ? '' : 's'}`,
            },
            {
              label: 'Passed',
              icon: <CheckCircle2 />,
              value: s && formatCount(s.passed),
              hint: s && `${formatCount(s.warnings)} more with a 1-2s warning`,
            },
            {
              label: 'Failed/Rejected',
              icon: <XCircle />,
              value: s && formatCount(s.failed),
              hint: 'Runs breaking a rejection rule',
            },
            {
              label: 'Pass Rate',
              icon: <Percent />,
              value: s && `${s.pass_rate.toFixed(1)}%`,
              hint: 'Passed ÷ all runs',
            },
          ]}
        />
      )}

      {s && s.expiring_soon.length > 0 && (
        <section
          aria-label="Control materials expiring soon"
          className="mb-5 flex items-start gap-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-[13px] text-amber-950"
        >
          <AlertTriangle className="mt-0.5 size-4 shrink-0 text-amber-700" aria-hidden="true" />
          <div className="min-w-0">
            <p className="font-medium">
              {s.expiring_soon.length} control material{s.expiring_soon.length === 1 ? '' : 's'} expire
              {s.expiring_soon.length === 1 ? 's' : ''} within 30 days
            </p>
            <ul className="mt-1 space-y-0.5">
              {s.expiring_soon.slice(0, 5).map((e) => (
                <li key={e.id}>
                  {e.control_id} · {e.test_name} · lot {e.lot_number}: {formatDate(e.expiry_date, lab)}
                  {e.days_to_expiry === 0
                    ? ' (today)'
                    : ` (${e.days_to_expiry} day${e.days_to_expiry === 1 ? '' : 's'})`}
                </li>
              ))}
            </ul>
          </div>
        </section>
      )}

      <Card className="min-w-0">
        <FilteredTable
          list={qs}
          rows={list.data}
          loading={list.isPending}
          error={list.isError ? list.error : undefined}
          onRetry={() => void list.refetch()}
          retryLabel="Retry"
          columns={qcColumns}
          getRowId={(m) => m.id}
          caption="QC records"
          itemLabel="control materials"
          search={{ placeholder: 'Search by control ID, test, lot or material', label: 'Search QC records' }}
          rowActions={rowActions}
          onRowClick={(m) => setDialog({ type: 'view', material: m })}
          empty={{
            title: 'No QC records found',
            hint: canManage
              ? 'Use Add Control Material to set up the first control lot.'
              : 'No control materials have been set up yet.',
            filteredHint: 'Try adjusting your search or filter criteria',
          }}
          dimmed={list.isPlaceholderData}
        />
      </Card>

      {dialog.type === 'view' && (
        <MaterialDetailDialog
          material={dialog.material}
          onOpenChange={(o) => !o && close()}
          canManage={canManage}
          onRecordRun={(m) => setDialog({ type: 'run', material: m, from: m })}
          onEdit={(m) => setDialog({ type: 'form', material: m, from: m })}
          onDelete={(m) => setDialog({ type: 'delete', material: m })}
        />
      )}
      <MaterialFormDialog
        open={dialog.type === 'form'}
        onOpenChange={(o) => !o && back()}
        material={dialog.type === 'form' ? dialog.material : null}
      />
      <RecordRunDialog
        open={dialog.type === 'run'}
        onOpenChange={(o) => !o && back()}
        material={dialog.type === 'run' ? dialog.material : null}
        materials={active}
      />
      <TestRunDialog open={testRunOpen} onOpenChange={setTestRunOpen} materials={active} canManage={canManage} />
      <ConfirmDialog
        open={dialog.type === 'delete'}
        onOpenChange={(o) => !o && close()}
        title="Delete control material"
        message={
          dialog.type === 'delete' ? deleteMessage(`${dialog.material.control_id} (${dialog.material.name})`) : ''
        }
        busy={remove.isPending}
        onConfirm={() => {
          if (dialog.type === 'delete') remove.mutate(dialog.material, { onSettled: close });
        }}
      />
    </>
  );
}
