import { useState } from 'react';
import { Ban, Eye, Pencil, Play, Plus, Power, Trash2, X } from 'lucide-react';
import {
  CONNECTION_PROTOCOLS,
  CONNECTION_PROTOCOL_LABELS,
  CONNECTION_TRANSPORTS,
  CONNECTION_TRANSPORT_LABELS,
  MESSAGE_STATUS_LABELS,
  UNMATCHED_REASON_LABELS,
  type Connection,
  type ConnectionCreate,
  type InterfaceMessage,
  type Unmatched,
} from '@shared/schemas/connections';
import {
  Badge,
  Button,
  Card,
  CardHeader,
  Checkbox,
  ConfirmDialog,
  DataTable,
  DateText,
  Dialog,
  FormField,
  Input,
  Pagination,
  Select,
  Textarea,
  type Column,
  type RowAction,
} from '@/components';
import { ApiError, errorMessage } from '@/lib/api';
import { useCatalogueList } from '@/lib/catalogue';
import { useEntryEquipment } from '@/lib/equipment';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import {
  useAssignUnmatched,
  useConnectionAction,
  useConnections,
  useDiscardUnmatched,
  useMessage,
  useMessages,
  useSaveConnection,
  useUnmatched,
} from '../interfaces-api';

/**
 * Machine Integration's interfaces (issue 18): the connections to the lab's machines (manage_lab),
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
  const [editing, setEditing] = useState<Connection | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Connection | null>(null);
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
      cell: (c) => CONNECTION_PROTOCOL_LABELS[c.protocol],
      hideOnMobile: true,
    },
    {
      key: 'where',
      header: 'Where',
      cell: (c) =>
        c.transport === 'folder' ? c.path : `${c.transport === 'tcp-client' ? `${c.host}:` : 'port '}${c.port ?? ''}`,
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
    { key: 'codes', header: 'Codes', cell: (c) => c.code_map.length, align: 'right', hideOnMobile: true },
    { key: 'messages', header: 'Messages', cell: (c) => c.messages, align: 'right', hideOnMobile: true },
    {
      key: 'unmatched',
      header: 'Unmatched',
      cell: (c) => (c.open_unmatched ? <Badge tone="amber">{c.open_unmatched}</Badge> : '0'),
      align: 'right',
    },
  ];
  const actions: RowAction<Connection>[] = [
    { label: (c) => `Edit ${c.name}`, icon: <Pencil />, onClick: setEditing },
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
    { label: (c) => `Delete ${c.name}`, icon: <Trash2 />, onClick: setDeleting, destructive: true },
  ];
  return (
    <Card className="min-w-0">
      <CardHeader
        title="Connections"
        description="How each machine sends its results: ASTM or HL7 over TCP, or files in a folder. Enabled connections listen while lims runs."
        actions={
          <Button onClick={() => setEditing('new')}>
            <Plus />
            Add Connection
          </Button>
        }
      />
      <DataTable
        caption="Machine connections"
        columns={columns}
        rows={list.data}
        loading={list.isPending}
        error={list.error}
        onRetry={() => void list.refetch()}
        errorTitle="Error Loading Connections"
        getRowId={(c) => c.id}
        rowActions={actions}
        empty={{
          title: 'No connections yet',
          hint: "Add one for each machine that sends results, with the code map from its test codes to the lab's tests.",
        }}
      />
      <ConnectionDialog
        connection={editing === 'new' ? null : editing}
        open={editing !== null}
        onOpenChange={(o) => !o && setEditing(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete Connection"
        message={
          deleting
            ? `Delete ${deleting.name}? A connection with messages in its log cannot be deleted: disable it instead.`
            : ''
        }
        busy={action.isPending}
        onConfirm={() =>
          deleting && action.mutate({ id: deleting.id, action: 'remove' }, { onSuccess: () => setDeleting(null) })
        }
      />
    </Card>
  );
}

interface MapRow {
  code: string;
  test_id: string;
  unit: string;
  factor: string;
}

interface FormState {
  name: string;
  equipment_id: string;
  protocol: ConnectionCreate['protocol'];
  transport: ConnectionCreate['transport'];
  host: string;
  port: string;
  path: string;
  lenient: boolean;
  enabled: boolean;
  code_map: MapRow[];
}

function formOf(c: Connection | null): FormState {
  return {
    name: c?.name ?? '',
    equipment_id: c?.equipment_id ? String(c.equipment_id) : '',
    protocol: c?.protocol ?? 'astm',
    transport: c?.transport ?? 'tcp-server',
    host: c?.host ?? '',
    port: c?.port ? String(c.port) : '',
    path: c?.path ?? '',
    lenient: c?.lenient ?? true,
    enabled: c?.enabled ?? false,
    code_map: (c?.code_map ?? []).map((e) => ({
      code: e.code,
      test_id: String(e.test_id),
      unit: e.unit ?? '',
      factor: e.factor === null ? '' : String(e.factor),
    })),
  };
}

function ConnectionDialog({
  connection,
  open,
  onOpenChange,
}: {
  connection: Connection | null;
  open: boolean;
  onOpenChange: (o: boolean) => void;
}) {
  const save = useSaveConnection();
  const tests = useCatalogueList('test', {}, { enabled: open });
  const machines = useEntryEquipment(open);
  const [f, setF] = useState<FormState>(formOf(connection));
  const [errors, setErrors] = useState<Record<string, string>>({});
  // A fresh form each time the dialog opens (state reset while rendering, not in an effect).
  const openedFor = open ? (connection ?? 'new') : null;
  const [seen, setSeen] = useState<Connection | 'new' | null>(null);
  if (openedFor !== seen) {
    setSeen(openedFor);
    if (openedFor !== null) {
      setF(formOf(connection));
      setErrors({});
    }
  }
  const set = <K extends keyof FormState>(k: K, v: FormState[K]) => setF((x) => ({ ...x, [k]: v }));
  const setRow = (i: number, patch: Partial<MapRow>) =>
    setF((x) => ({ ...x, code_map: x.code_map.map((r, j) => (j === i ? { ...r, ...patch } : r)) }));
  const submit = () => {
    const body = {
      name: f.name,
      equipment_id: f.equipment_id ? Number(f.equipment_id) : null,
      protocol: f.protocol,
      transport: f.transport,
      host: f.host || null,
      port: f.port === '' ? null : f.port,
      path: f.path || null,
      lenient: f.lenient,
      enabled: f.enabled,
      code_map: f.code_map.map((r) => ({
        code: r.code,
        test_id: r.test_id === '' ? null : Number(r.test_id),
        unit: r.unit || null,
        factor: r.factor === '' ? null : r.factor,
      })),
    } as unknown as ConnectionCreate;
    save.mutate(
      { id: connection?.id ?? null, body },
      {
        onSuccess: () => onOpenChange(false),
        onError: (err) => {
          const next: Record<string, string> = {};
          if (err instanceof ApiError) for (const d of err.details) next[d.path] = d.message;
          if (!Object.keys(next).length) next.form = errorMessage(err);
          setErrors(next);
        },
      },
    );
  };
  const testOptions = (tests.data ?? []).map((t) => ({ value: String(t.id), label: `${t.name} (${t.code})` }));
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !save.isPending && onOpenChange(o)}
      size="xl"
      title={connection ? `Edit Connection: ${connection.name}` : 'Add Connection'}
      description="Results are matched to the sample by the barcode the machine reads, and to the test by the code map. They are entered as the machine and wait for verification."
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={save.isPending}>
            Cancel
          </Button>
          <Button onClick={submit} loading={save.isPending} loadingText="Saving...">
            {connection ? 'Save Changes' : 'Add Connection'}
          </Button>
        </>
      }
    >
      <div className="grid items-start gap-4 sm:grid-cols-2">
        {errors.form && <p className="text-sm text-red-700 sm:col-span-2">{errors.form}</p>}
        <FormField label="Name" required error={errors.name}>
          <Input value={f.name} onChange={(e) => set('name', e.target.value)} placeholder="e.g. Sysmex XN-550" />
        </FormField>
        <FormField label="Machine" error={errors.equipment_id} hint="Results name it as their instrument.">
          <Select
            value={f.equipment_id}
            onChange={(e) => set('equipment_id', e.target.value)}
            placeholder="Not linked"
            options={(machines.data ?? []).map((m) => ({ value: String(m.id), label: m.name }))}
          />
        </FormField>
        <FormField label="Protocol" required error={errors.protocol}>
          <Select
            value={f.protocol}
            onChange={(e) => set('protocol', e.target.value as FormState['protocol'])}
            options={CONNECTION_PROTOCOLS.map((p) => ({ value: p, label: CONNECTION_PROTOCOL_LABELS[p] }))}
          />
        </FormField>
        <FormField label="Transport" required error={errors.transport}>
          <Select
            value={f.transport}
            onChange={(e) => set('transport', e.target.value as FormState['transport'])}
            options={CONNECTION_TRANSPORTS.map((t) => ({ value: t, label: CONNECTION_TRANSPORT_LABELS[t] }))}
          />
        </FormField>
        {f.transport === 'folder' ? (
          <FormField label="Folder" required error={errors.path} className="sm:col-span-2">
            <Input value={f.path} onChange={(e) => set('path', e.target.value)} placeholder="/srv/analyser/out" />
          </FormField>
        ) : (
          <>
            <FormField
              label={f.transport === 'tcp-client' ? 'Machine host' : 'Listen on (address)'}
              required={f.transport === 'tcp-client'}
              error={errors.host}
              hint={
                f.transport === 'tcp-server'
                  ? "Empty: the server's own address. 0.0.0.0 for the whole network."
                  : undefined
              }
            >
              <Input value={f.host} onChange={(e) => set('host', e.target.value)} />
            </FormField>
            <FormField label="Port" required error={errors.port}>
              <Input inputMode="numeric" value={f.port} onChange={(e) => set('port', e.target.value)} />
            </FormField>
          </>
        )}
        <div className="flex flex-col gap-2 sm:col-span-2">
          <Checkbox
            label="Lenient ASTM frames (accept frames over 247 bytes and a missing CR LF, as many machines send)"
            checked={f.lenient}
            onChange={(e) => set('lenient', e.target.checked)}
          />
          <Checkbox
            label="Enabled (listen now)"
            checked={f.enabled}
            onChange={(e) => set('enabled', e.target.checked)}
          />
        </div>
        <fieldset className="sm:col-span-2">
          <legend className="mb-2 text-sm font-medium text-slate-900">Code map</legend>
          {errors.code_map && <p className="mb-2 text-sm text-red-700">{errors.code_map}</p>}
          <div className="grid gap-2">
            {f.code_map.map((r, i) => (
              <div
                key={i}
                className="grid grid-cols-2 items-start gap-2 rounded-md border border-slate-200 p-2 md:grid-cols-[8rem_1fr_7rem_6rem_auto]"
              >
                <FormField label="Machine code" error={errors[`code_map.${i}.code`]}>
                  <Input value={r.code} onChange={(e) => setRow(i, { code: e.target.value })} placeholder="685/" />
                </FormField>
                <FormField label="Test" error={errors[`code_map.${i}.test_id`]}>
                  <Select
                    value={r.test_id}
                    onChange={(e) => setRow(i, { test_id: e.target.value })}
                    placeholder="Select test"
                    options={testOptions}
                  />
                </FormField>
                <FormField label="Unit sent" error={errors[`code_map.${i}.unit`]}>
                  <Input value={r.unit} onChange={(e) => setRow(i, { unit: e.target.value })} />
                </FormField>
                <FormField label="Factor" error={errors[`code_map.${i}.factor`]}>
                  <Input inputMode="decimal" value={r.factor} onChange={(e) => setRow(i, { factor: e.target.value })} />
                </FormField>
                <Button
                  variant="ghost"
                  className="self-end"
                  aria-label={`Remove code ${r.code || i + 1}`}
                  onClick={() => setF((x) => ({ ...x, code_map: x.code_map.filter((_, j) => j !== i) }))}
                >
                  <X />
                </Button>
              </div>
            ))}
          </div>
          <Button
            variant="outline"
            className="mt-2"
            onClick={() =>
              setF((x) => ({ ...x, code_map: [...x.code_map, { code: '', test_id: '', unit: '', factor: '' }] }))
            }
          >
            <Plus />
            Add Code
          </Button>
        </fieldset>
      </div>
    </Dialog>
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
        title={`Unmatched Results${q.data ? ` (${q.data.total})` : ''}`}
        description="Values a machine sent that found no sample, no mapped test, or were refused. Assign each to a sample's ordered test, or discard it with a reason."
      />
      <DataTable
        caption="Unmatched results"
        columns={columns}
        rows={q.data?.unmatched}
        loading={q.isPending}
        error={q.error}
        onRetry={() => void q.refetch()}
        errorTitle="Error Loading Unmatched Results"
        getRowId={(u) => u.id}
        rowActions={actions}
        empty={{ title: 'Nothing unmatched', hint: 'Every value the machines sent found its sample and test.' }}
      />
      {q.data && q.data.totalPages > 1 && (
        <Pagination
          page={page}
          totalPages={q.data.totalPages}
          total={q.data.total}
          pageSize={10}
          onPageChange={setPage}
        />
      )}
      <AssignDialog row={assigning} onClose={() => setAssigning(null)} />
      <DiscardDialog row={discarding} onClose={() => setDiscarding(null)} />
    </Card>
  );
}

function AssignDialog({ row, onClose }: { row: Unmatched | null; onClose: () => void }) {
  const assign = useAssignUnmatched();
  const tests = useCatalogueList('test', {}, { enabled: row !== null });
  const [sample, setSample] = useState('');
  const [test, setTest] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [seen, setSeen] = useState<Unmatched | null>(null);
  if (row !== seen) {
    setSeen(row);
    if (row) {
      setSample(row.sample_id ? String(row.sample_id) : '');
      setTest(row.test_id ? String(row.test_id) : '');
      setErrors({});
    }
  }
  const submit = () => {
    if (!row) return;
    assign.mutate(
      {
        id: row.id,
        body: { sample_id: Number(sample) || (sample as never), test_id: Number(test) || (test as never) },
      },
      {
        onSuccess: onClose,
        onError: (err) => {
          const next: Record<string, string> = {};
          if (err instanceof ApiError) for (const d of err.details) next[d.path] = d.message;
          if (!Object.keys(next).length) next.form = errorMessage(err);
          setErrors(next);
        },
      },
    );
  };
  return (
    <Dialog
      open={row !== null}
      onOpenChange={(o) => !o && !assign.isPending && onClose()}
      title="Assign Unmatched Result"
      description={
        row
          ? `${row.code} = ${row.value} ${row.unit ?? ''} from ${row.connection_name}, specimen ${row.specimen_id || '(none)'}`
          : ''
      }
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={assign.isPending}>
            Cancel
          </Button>
          <Button onClick={submit} loading={assign.isPending} loadingText="Entering...">
            Enter Result
          </Button>
        </>
      }
    >
      <div className="grid gap-4">
        {errors.form && <p className="text-sm text-red-700">{errors.form}</p>}
        <FormField
          label="Sample (internal number)"
          required
          error={errors.sample_id}
          hint={
            row?.sample_code
              ? `The specimen ID names sample ${row.sample_code}.`
              : 'No sample has this specimen ID: enter the sample it belongs to.'
          }
        >
          <Input inputMode="numeric" value={sample} onChange={(e) => setSample(e.target.value)} />
        </FormField>
        <FormField label="Test" required error={errors.test_id} hint="It must be ordered on the sample.">
          <Select
            value={test}
            onChange={(e) => setTest(e.target.value)}
            placeholder="Select test"
            options={(tests.data ?? []).map((t) => ({ value: String(t.id), label: `${t.name} (${t.code})` }))}
          />
        </FormField>
      </div>
    </Dialog>
  );
}

function DiscardDialog({ row, onClose }: { row: Unmatched | null; onClose: () => void }) {
  const discard = useDiscardUnmatched();
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const [seen, setSeen] = useState<Unmatched | null>(null);
  if (row !== seen) {
    setSeen(row);
    if (row) {
      setReason('');
      setError('');
    }
  }
  return (
    <Dialog
      open={row !== null}
      onOpenChange={(o) => !o && !discard.isPending && onClose()}
      title="Discard Unmatched Result"
      description={row ? `${row.code} = ${row.value} ${row.unit ?? ''}, specimen ${row.specimen_id || '(none)'}` : ''}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={discard.isPending}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            loading={discard.isPending}
            loadingText="Discarding..."
            onClick={() =>
              row &&
              discard.mutate(
                { id: row.id, reason },
                {
                  onSuccess: onClose,
                  onError: (err) =>
                    setError(err instanceof ApiError && err.details[0] ? err.details[0].message : errorMessage(err)),
                },
              )
            }
          >
            Discard
          </Button>
        </>
      }
    >
      <FormField label="Reason" required error={error}>
        <Textarea value={reason} onChange={(e) => setReason(e.target.value)} rows={3} />
      </FormField>
    </Dialog>
  );
}

function MessagesCard() {
  const [page, setPage] = useState(1);
  const q = useMessages({ page, limit: 10 }, true);
  const [viewing, setViewing] = useState<number | null>(null);
  const detail = useMessage(viewing);
  const columns: Column<InterfaceMessage>[] = [
    { key: 'at', header: 'Time', cell: (m) => <DateText value={m.received_at} withTime /> },
    { key: 'conn', header: 'Connection', cell: (m) => m.connection_name, hideOnMobile: true },
    {
      key: 'dir',
      header: 'Message',
      cell: (m) => `${m.direction === 'in' ? 'In' : 'Out'} · ${m.message_type ?? m.protocol.toUpperCase()}`,
      hideOnMobile: true,
    },
    {
      key: 'status',
      header: 'Status',
      cell: (m) => (
        <Badge
          tone={
            m.status === 'processed' || m.status === 'sent' || m.status === 'answered'
              ? 'green'
              : m.status === 'partial' || m.status === 'unmatched'
                ? 'amber'
                : 'red'
          }
        >
          {MESSAGE_STATUS_LABELS[m.status]}
        </Badge>
      ),
    },
    {
      key: 'counts',
      header: 'Entered / Unmatched',
      cell: (m) => `${m.results_count} / ${m.unmatched_count}`,
      align: 'right',
    },
    { key: 'ack', header: 'ACK', cell: (m) => m.ack ?? '—', hideOnMobile: true },
  ];
  return (
    <Card className="min-w-0">
      <CardHeader
        title="Message Log"
        description="Every message in and out, kept as received, with the acknowledgement sent."
      />
      <DataTable
        caption="Interface messages"
        columns={columns}
        rows={q.data?.messages}
        loading={q.isPending}
        error={q.error}
        onRetry={() => void q.refetch()}
        errorTitle="Error Loading Messages"
        getRowId={(m) => m.id}
        onRowClick={(m) => setViewing(m.id)}
        rowActions={[{ label: (m) => `View message ${m.id}`, icon: <Eye />, onClick: (m) => setViewing(m.id) }]}
        empty={{ title: 'No messages yet', hint: 'Messages appear here as the machines send them.' }}
      />
      {q.data && q.data.totalPages > 1 && (
        <Pagination
          page={page}
          totalPages={q.data.totalPages}
          total={q.data.total}
          pageSize={10}
          onPageChange={setPage}
        />
      )}
      <Dialog
        open={viewing !== null}
        onOpenChange={(o) => !o && setViewing(null)}
        size="xl"
        title={`Message ${viewing ?? ''}`}
        description={
          detail.data
            ? `${detail.data.connection_name} · ${detail.data.size} bytes · ${MESSAGE_STATUS_LABELS[detail.data.status]}${detail.data.error ? ` · ${detail.data.error}` : ''}`
            : ''
        }
      >
        {detail.isPending ? (
          <p className="text-sm text-slate-600">Loading...</p>
        ) : detail.error ? (
          <p className="text-sm text-red-700">{errorMessage(detail.error)}</p>
        ) : (
          <pre className="max-h-[60vh] overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-3 text-xs">
            {detail.data?.raw}
          </pre>
        )}
      </Dialog>
    </Card>
  );
}
