import { useState } from 'react';
import { Ban, Eye, FileSearch, Play, Power } from 'lucide-react';
import {
  CONNECTION_PROTOCOL_LABELS,
  UNMATCHED_REASON_LABELS,
  type Connection,
  type Unmatched,
} from '@shared/schemas/connections';
import {
  Badge,
  Card,
  CardHeader,
  ConfirmDialog,
  useRowDialogs,
  DataTable,
  queryState,
  DateText,
  QueryPagination,
  type Column,
  type RowAction,
} from '@/components';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { useConnectionAction, useConnections, useUnmatched } from '../interfaces-api';
import { ConnectionDialog } from './ConnectionDialog';
import { ReplayDialog } from './ReplayDialog';
import { AssignDialog, DiscardDialog } from './UnmatchedDialogs';
import { MessagesCard } from './MessagesCard';
import { INSTRUMENT_PRESETS } from '@shared/schemas/instrument-profiles';
import { formatCount } from '@/lib/format';

/**
 * Machine Integration's interfaces: the connections to the lab's machines (manage_lab),
 * the results they sent that matched nothing (update_results), and the message log (manage_lab).
 */
export function InterfacesSection() {
  const me = useCurrentUser();
  const canManage = can(me, 'manage_lab');
  const canResults = can(me, 'update_results');
  if (!canManage && !canResults) return null;
  return (
    <div className="mt-5 grid gap-5">
      {canManage && <ConnectionsCard />}
      {canResults && <UnmatchedCard />}
      {canManage && <MessagesCard />}
    </div>
  );
}

const statusTone = { listening: 'green', connected: 'green', error: 'red', stopped: 'grey' } as const;

function ConnectionsCard() {
  const list = useConnections(true);
  const action = useConnectionAction();
  const rows = useRowDialogs<Connection>();
  const [replaying, setReplaying] = useState<Connection | null>(null);
  const columns: Column<Connection>[] = [
    {
      key: 'name',
      header: 'Connection',
      cell: (c) => (
        <div>
          <div className="font-medium text-slate-900">{c.name}</div>
          <div className="text-xs text-slate-600">{c.equipment_name ?? 'No machine linked'}</div>
        </div>
      ),
    },
    {
      key: 'protocol',
      header: 'Protocol',
      cell: (c) => (
        <div>
          <div>{CONNECTION_PROTOCOL_LABELS[c.protocol]}</div>
          <div className="text-xs text-slate-600">{INSTRUMENT_PRESETS[c.profile].label}</div>
        </div>
      ),
      hideOnMobile: true,
    },
    {
      key: 'where',
      header: 'Where',
      cell: (c) =>
        c.transport === 'folder'
          ? c.path
          : c.transport === 'serial'
            ? `${c.path} · ${c.baud_rate} ${c.data_bits}${(c.parity ?? 'none')[0]!.toUpperCase()}${c.stop_bits}`
            : `${c.transport === 'tcp-client' ? `${c.host}:` : 'port '}${c.port ?? ''}`,
      hideOnMobile: true,
    },
    {
      key: 'status',
      header: 'Status',
      cell: (c) =>
        c.enabled ? (
          <div>
            <Badge tone={statusTone[c.listen_status]}>
              {c.listen_status === 'stopped' ? 'starting' : c.listen_status}
            </Badge>
            {c.last_error && <div className="mt-1 text-xs text-red-700">{c.last_error}</div>}
          </div>
        ) : (
          <Badge tone="grey">disabled</Badge>
        ),
    },
    {
      key: 'codes',
      header: 'Codes',
      cell: (c) => {
        const ignored = c.code_map.filter((e) => e.ignore).length;
        return ignored ? `${c.code_map.length - ignored} + ${ignored} ignored` : c.code_map.length;
      },
      align: 'right',
      hideOnMobile: true,
    },
    { key: 'messages', header: 'Messages', cell: (c) => c.messages, align: 'right', hideOnMobile: true },
    {
      key: 'unmatched',
      header: 'Unmatched',
      cell: (c) => (c.open_unmatched ? <Badge tone="amber">{c.open_unmatched}</Badge> : '0'),
      align: 'right',
      // On a phone the Unmatched Results card below lists them by machine.
      hideOnMobile: true,
    },
  ];
  const actions: RowAction<Connection>[] = [
    rows.editAction((c) => c.name),
    {
      label: (c) => `Enable ${c.name}`,
      icon: <Play />,
      onClick: (c) => action.mutate({ id: c.id, action: 'enable' }),
      hidden: (c) => c.enabled,
    },
    {
      label: (c) => `Disable ${c.name}`,
      icon: <Power />,
      onClick: (c) => action.mutate({ id: c.id, action: 'disable' }),
      hidden: (c) => !c.enabled,
    },
    { label: (c) => `Replay a capture on ${c.name}`, icon: <FileSearch />, onClick: setReplaying },
    rows.deleteAction((c) => c.name),
  ];
  return (
    <Card className="min-w-0">
      <CardHeader
        title="Connections"
        description="How each machine sends its results: ASTM or HL7 over TCP or a serial port, or files in a folder. Enabled connections listen while lims runs."
        actions={rows.addButton('Add Connection')}
      />
      <DataTable
        caption="Machine connections"
        columns={columns}
        rows={list.data}
        {...queryState(list)}
        errorTitle="Error Loading Connections"
        getRowId={(c) => c.id}
        rowActions={actions}
        empty={{
          title: 'No connections yet',
          hint: "Add one for each machine that sends results, with the code map from its test codes to the lab's tests.",
        }}
      />
      <ConnectionDialog connection={rows.editing} {...rows.dialog} />
      <ReplayDialog key={replaying?.id ?? 0} connection={replaying} onClose={() => setReplaying(null)} />
      <ConfirmDialog
        {...rows.confirm}
        title="Delete Connection"
        message={
          rows.deleting
            ? `Delete ${rows.deleting.name}? A connection with messages in its log cannot be deleted: disable it instead.`
            : ''
        }
        busy={action.isPending}
        onConfirm={() =>
          rows.deleting && action.mutate({ id: rows.deleting.id, action: 'remove' }, { onSuccess: rows.deleted })
        }
      />
    </Card>
  );
}

function UnmatchedCard() {
  const [page, setPage] = useState(1);
  const q = useUnmatched({ page, limit: 10 }, true);
  const [assigning, setAssigning] = useState<Unmatched | null>(null);
  const [discarding, setDiscarding] = useState<Unmatched | null>(null);
  const columns: Column<Unmatched>[] = [
    { key: 'at', header: 'Received', cell: (u) => <DateText value={u.created_at} withTime />, hideOnMobile: true },
    {
      key: 'specimen',
      header: 'Specimen',
      cell: (u) => (
        <div>
          <div className="font-medium">{u.specimen_id || '(none)'}</div>
          <div className="text-xs text-slate-600">{u.connection_name}</div>
        </div>
      ),
    },
    {
      key: 'value',
      header: 'Code and value',
      cell: (u) => (
        <span>
          <span className="font-mono">{u.code}</span> {u.value} {u.unit ?? ''}
        </span>
      ),
    },
    {
      key: 'reason',
      header: 'Why',
      cell: (u) => (
        <div>
          <Badge tone="amber">{UNMATCHED_REASON_LABELS[u.reason]}</Badge>
          <div className="mt-1 text-xs text-slate-600">{u.detail}</div>
        </div>
      ),
      hideOnMobile: true,
    },
  ];
  const actions: RowAction<Unmatched>[] = [
    { label: (u) => `Assign ${u.code} ${u.value}`, icon: <Eye />, onClick: setAssigning },
    { label: (u) => `Discard ${u.code} ${u.value}`, icon: <Ban />, onClick: setDiscarding, destructive: true },
  ];
  return (
    <Card className="min-w-0">
      <CardHeader
        title={`Unmatched Results${q.data ? ` (${formatCount(q.data.total)})` : ''}`}
        description="Values a machine sent that found no sample, no mapped test, or were refused. Assign each to a sample's ordered test, or discard it with a reason."
      />
      <DataTable
        caption="Unmatched results"
        columns={columns}
        rows={q.data?.unmatched}
        {...queryState(q)}
        errorTitle="Error Loading Unmatched Results"
        getRowId={(u) => u.id}
        rowActions={actions}
        empty={{ title: 'Nothing unmatched', hint: 'Every value the machines sent found its sample and test.' }}
      />
      <QueryPagination data={q.data} page={page} pageSize={10} onPageChange={setPage} />
      <AssignDialog row={assigning} onClose={() => setAssigning(null)} />
      <DiscardDialog row={discarding} onClose={() => setDiscarding(null)} />
    </Card>
  );
}
