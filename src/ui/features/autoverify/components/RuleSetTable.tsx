import { CheckCircle2, Copy, Pencil, PlayCircle } from 'lucide-react';
import type { AutoverifyState, RuleSet } from '@shared/schemas/autoverify';
import { Badge, DataTable, DateText, type Column, type RowAction } from '@/components';
import { versionName } from '../api';
import { modeName, versionState } from '../ruleSetState';

export interface RuleSetTableProps {
  rows: RuleSet[] | undefined;
  state: AutoverifyState | undefined;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  canDraft: boolean;
  canApprove: boolean;
  onEdit: (r: RuleSet) => void;
  onNewVersion: (r: RuleSet) => void;
  onApprove: (r: RuleSet) => void;
  onActivate: (r: RuleSet) => void;
}

function Who({ name, at }: { name: string | null; at: string | null }) {
  if (!name && !at) return <span className="text-slate-500">—</span>;
  return (
    <span className="grid">
      <span className="text-slate-900">{name ?? 'Unknown user'}</span>
      {at && <DateText value={at} withTime className="text-xs text-slate-600" />}
    </span>
  );
}

/** Every version of the lab's rule sets, newest first, with who drafted and approved it and its state. */
export function RuleSetTable(p: RuleSetTableProps) {
  const columns: Column<RuleSet>[] = [
    {
      key: 'version',
      header: 'Rule Set',
      cell: (r) => (
        <span className="grid">
          <span className="font-medium text-slate-900">{versionName(r)}</span>
          {r.notes && <span className="line-clamp-1 max-w-64 text-xs text-slate-600">{r.notes}</span>}
        </span>
      ),
    },
    {
      key: 'state',
      header: 'State',
      cell: (r) => {
        const s = versionState(r, p.state);
        // In force but held by the lab-wide stop: the version's state alone would read as running.
        const stopped = (s.label === 'Live' || s.label === 'Shadow') && p.state?.stops.some((x) => x.test_id === null);
        return (
          <span className="grid justify-items-start gap-0.5">
            {stopped && <Badge tone="red">Stopped</Badge>}
            <Badge tone={s.tone}>
              {s.label === 'Scheduled' && s.activation ? `Scheduled: ${modeName(s.activation.mode)}` : s.label}
            </Badge>
          </span>
        );
      },
    },
    {
      key: 'drafted',
      header: 'Drafted by',
      cell: (r) => <Who name={r.created_by_name} at={r.created_at} />,
      hideOnMobile: true,
    },
    { key: 'approved', header: 'Approved by', cell: (r) => <Who name={r.approved_by_name} at={r.approved_at} /> },
    {
      key: 'from',
      header: 'Active from',
      cell: (r) => {
        const a = versionState(r, p.state).activation;
        return a ? (
          <span className="grid">
            <DateText value={a.active_from} withTime />
            <span className="text-xs text-slate-600">
              {modeName(a.mode)}
              {a.activated_by_name ? `, by ${a.activated_by_name}` : ''}
            </span>
          </span>
        ) : (
          <span className="text-slate-500">—</span>
        );
      },
    },
  ];
  const actions: RowAction<RuleSet>[] = [
    {
      label: (r) => `Edit ${versionName(r)}`,
      icon: <Pencil />,
      onClick: p.onEdit,
      hidden: (r) => !p.canDraft || r.status !== 'draft',
    },
    {
      label: (r) => `Approve ${versionName(r)}`,
      icon: <CheckCircle2 />,
      onClick: p.onApprove,
      hidden: (r) => !p.canApprove || r.status !== 'draft',
    },
    {
      label: (r) => `Activate ${versionName(r)}`,
      icon: <PlayCircle />,
      onClick: p.onActivate,
      hidden: (r) => !p.canApprove || r.status !== 'approved',
    },
    {
      label: (r) => `New version of ${versionName(r)}`,
      icon: <Copy />,
      onClick: p.onNewVersion,
      hidden: () => !p.canDraft,
    },
  ];
  return (
    <DataTable
      columns={columns}
      rows={p.rows}
      getRowId={(r) => r.id}
      caption="Rule set versions"
      loading={p.loading}
      error={p.error}
      errorTitle="Error Loading Rule Sets"
      onRetry={p.onRetry}
      retryLabel="Retry"
      rowActions={actions}
      onRowClick={(r) => (r.status === 'draft' && p.canDraft ? p.onEdit(r) : undefined)}
      empty={{
        title: 'No rule sets yet',
        hint: p.canDraft
          ? 'Use New Rule Set to start from the lab’s default rules.'
          : 'A validator or the pathologist drafts the first rule set.',
      }}
    />
  );
}
