import { useState, type ReactNode } from 'react';
import { Ban, CircleCheck, ClipboardPlus, Pencil, Trash2 } from 'lucide-react';
import type { QcMaterial, QcRun } from '@shared/schemas/qc';
import {
  Badge,
  Button,
  DataTable,
  DateText,
  Dialog,
  EmptyState,
  ErrorPanel,
  FormField,
  Textarea,
  LoadingState,
  Select,
  type Column,
} from '@/components';
import { formatDate, formatDateTime, useLabFormat } from '@/lib/format';
import { useOverrideRunMutation, useQcRuns, useUpdateQcMaterialMutation } from '../api';
import { useCurrentUser } from '@/lib/session';
import { expiryHint, expiryTone, formatQcValue, rangeText, targetText } from '../qcText';
import { LeveyJenningsChart } from './LeveyJenningsChart';
import { RunBadge } from './RunBadge';

export interface MaterialDetailDialogProps {
  /** The row the user opened; the dialog shows the server's fresh copy once loaded. */
  material: QcMaterial;
  onOpenChange: (open: boolean) => void;
  canManage: boolean;
  onRecordRun: (m: QcMaterial) => void;
  onEdit: (m: QcMaterial) => void;
  onDelete: (m: QcMaterial) => void;
}

const runColumns: Column<QcRun>[] = [
  { key: 'performed_at', header: 'Performed', cell: (r) => <DateText value={r.performed_at} withTime /> },
  {
    key: 'value',
    header: 'Value',
    align: 'right',
    cell: (r) => <span className="tabular-nums">{formatQcValue(r.value)}</span>,
  },
  { key: 'z', header: 'z', align: 'right', cell: (r) => <span className="tabular-nums">{r.z_score.toFixed(2)}</span> },
  {
    key: 'status',
    header: 'Status',
    cell: (r) => (
      <span className="grid gap-0.5">
        <RunBadge status={r.status} />
        {r.overridden_at && <span className="text-xs text-slate-600">Overridden: {r.override_reason}</span>}
      </span>
    ),
  },
  { key: 'rules', header: 'Rules', cell: (r) => (r.rules.length ? r.rules.join(', ') : '—') },
  { key: 'by', header: 'Performed By', hideOnMobile: true, cell: (r) => r.performed_by_name ?? '—' },
  { key: 'comments', header: 'Comments', hideOnMobile: true, cell: (r) => r.comments ?? '—' },
];

/** A material's details, its Levey-Jennings chart and every run, with the write actions for QC staff. */
export function MaterialDetailDialog({
  material: opened,
  onOpenChange,
  canManage,
  onRecordRun,
  onEdit,
  onDelete,
}: MaterialDetailDialogProps) {
  const lab = useLabFormat();
  const canOverride = useCurrentUser().permissions.includes('manage_lab');
  const runs = useQcRuns(opened.id);
  const toggle = useUpdateQcMaterialMutation();
  const m = runs.data?.material ?? opened;
  // Any rejection not yet accepted may be holding results (levels are judged one by one), not only the latest.
  const openRejections = runs.data?.runs.filter((r) => r.status === 'failed' && !r.overridden_at) ?? [];
  const tone = expiryTone(m);
  const unit = m.unit ? ` ${m.unit}` : '';

  const footer = canManage && (
    <>
      {m.run_count === 0 && (
        <Button variant="outline" onClick={() => onDelete(m)}>
          <Trash2 />
          Delete
        </Button>
      )}
      <Button
        variant="outline"
        loading={toggle.isPending}
        loadingText="Saving..."
        onClick={() => toggle.mutate({ id: m.id, body: { is_active: !m.is_active } })}
      >
        {m.is_active ? <Ban /> : <CircleCheck />}
        {m.is_active ? 'Deactivate' : 'Activate'}
      </Button>
      <Button variant="outline" onClick={() => onEdit(m)}>
        <Pencil />
        Edit
      </Button>
      {m.status === 'active' && (
        <Button onClick={() => onRecordRun(m)}>
          <ClipboardPlus />
          Record QC Run
        </Button>
      )}
    </>
  );

  return (
    <Dialog
      open
      onOpenChange={onOpenChange}
      size="xl"
      title={`${m.control_id} · ${m.name}`}
      description={`${m.test_name}${m.level ? ` · ${m.level}` : ''} · ${m.control_type} control · lot ${m.lot_number}`}
      footer={footer}
    >
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-[13px] sm:grid-cols-4">
        <Fact label="Target (mean ± SD)" value={`${targetText(m)}${unit}`} />
        <Fact label="Acceptable Range (± 2SD)" value={`${rangeText(m)}${unit}`} />
        <Fact
          label="Expiry Date"
          value={
            <span className={tone === 'expired' ? 'text-red-700' : tone === 'soon' ? 'text-amber-800' : undefined}>
              {formatDate(m.expiry_date, lab)} · {expiryHint(m)}
            </span>
          }
        />
        <Fact label="Status" value={<Badge status={m.status} />} />
        <Fact label="Runs" value={String(m.run_count)} />
        <Fact label="Passed" value={String(m.passed_count)} />
        <Fact label="Pass Rate" value={`${m.pass_rate.toFixed(1)}%`} />
        <Fact label="Last Run" value={m.last_run ? <RunBadge status={m.last_run.status} /> : 'No runs yet'} />
      </dl>

      <section aria-labelledby="lj-title" className="mt-5">
        <h3 id="lj-title" className="mb-2 text-sm font-semibold text-slate-900">
          Levey-Jennings Chart
        </h3>
        {runs.isPending ? (
          <LoadingState text="Loading QC runs..." />
        ) : runs.isError ? (
          <ErrorPanel title="Error Loading QC Runs" query={runs} retryLabel="Retry" />
        ) : runs.data.runs.length === 0 ? (
          <EmptyState
            title="No QC runs recorded yet"
            hint={
              canManage && m.status === 'active' ? 'Use Record QC Run to enter the first control value.' : undefined
            }
          />
        ) : (
          <LeveyJenningsChart material={m} runs={runs.data.runs} />
        )}
      </section>

      {canOverride && openRejections.length > 0 && <OverrideRun runs={openRejections} />}
      {runs.data && runs.data.runs.length > 0 && (
        <section aria-labelledby="runs-title" className="mt-5">
          <h3 id="runs-title" className="mb-2 text-sm font-semibold text-slate-900">
            Runs ({runs.data.runs.length})
          </h3>
          <div className="overflow-hidden rounded-md border border-slate-200">
            <DataTable
              caption={`QC runs of ${m.control_id}`}
              columns={runColumns}
              rows={runs.data.runs}
              getRowId={(r) => r.id}
              empty={{ title: 'No QC runs recorded yet' }}
            />
          </div>
        </section>
      )}
    </Dialog>
  );
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-slate-600">{label}</dt>
      <dd className="mt-0.5 font-medium break-words text-slate-900">{value}</dd>
    </div>
  );
}

/**
 * A supervisor accepts a rejected run with a reason, the latest or an earlier one: while the latest
 * run of a level is rejected, no patient result of the test entered after it can be verified.
 */
function OverrideRun({ runs }: { runs: QcRun[] }) {
  const lab = useLabFormat();
  const override = useOverrideRunMutation();
  const [runId, setRunId] = useState(runs[0]!.id);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const chosen = runs.find((r) => r.id === runId) ?? runs[0]!;
  const label = (r: QcRun) =>
    `${formatDateTime(r.performed_at, lab)} · ${formatQcValue(r.value)} · ${r.rules.filter((x) => x !== '1-2s').join(', ') || r.rules.join(', ')}`;
  return (
    <section aria-labelledby="override-title" className="mt-5 rounded-md border border-red-200 bg-red-50/50 p-3">
      <h3 id="override-title" className="text-sm font-semibold text-red-900">
        Override a rejected run
      </h3>
      <p className="mt-1 text-[13px] text-red-900">
        A rejected run holds the results of this test entered after it, until the level passes again. A supervisor may
        accept it with a reason, the latest run or an earlier one.
      </p>
      {runs.length > 1 && (
        <FormField label="Run to accept" className="mt-2">
          <Select
            value={String(chosen.id)}
            onChange={(e) => setRunId(Number(e.target.value))}
            options={runs.map((r) => ({ value: String(r.id), label: label(r) }))}
          />
        </FormField>
      )}
      {runs.length === 1 && <p className="mt-1 text-[13px] text-red-900">{label(chosen)}</p>}
      <FormField label="Reason to accept the run anyway" required error={error} className="mt-2">
        <Textarea rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
      </FormField>
      <Button
        variant="outline"
        size="sm"
        className="mt-2"
        loading={override.isPending}
        loadingText="Overriding..."
        onClick={() => {
          if (!reason.trim()) return setError('Reason is required');
          setError(undefined);
          override.mutate(
            { id: chosen.id, reason: reason.trim() },
            {
              onSuccess: () => {
                setReason('');
                const next = runs.find((r) => r.id !== chosen.id);
                if (next) setRunId(next.id);
              },
            },
          );
        }}
      >
        Override Rejection
      </Button>
    </section>
  );
}
