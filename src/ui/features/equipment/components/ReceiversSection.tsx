import { useState } from 'react';
import { RotateCcw } from 'lucide-react';
import {
  DELIVERY_STATUSES,
  RECEIVER_KINDS,
  type Delivery,
  type DeliveryStatus,
  type Receiver,
  type ReceiverCreate,
  type ReceiverKind,
} from '@shared/schemas/interop-out';
import {
  Badge,
  Card,
  CardHeader,
  Checkbox,
  ConfirmDialog,
  useRowDialogs,
  DataTable,
  queryState,
  DateText,
  FormDialog,
  FormField,
  Input,
  QueryPagination,
  Select,
  type Column,
  type RowAction,
} from '@/components';
import { useFieldForm } from '@/lib/forms';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import {
  useDeliveries,
  usePayerChoices,
  useReceivers,
  useRemoveReceiver,
  useRetryDelivery,
  useSaveReceiver,
} from '../receivers-api';
import { bindText } from '@/lib/bindText';

/**
 * Reports out: the hospitals and systems the lab pushes its verified reports to, as
 * HL7 v2 over MLLP or FHIR R4 over HTTP, and the log of every delivery with its answer (manage_lab).
 */
export function ReceiversSection() {
  const me = useCurrentUser();
  if (!can(me, 'manage_lab')) return null;
  return (
    <div className="mt-5 grid gap-5">
      <ReceiversCard />
      <DeliveriesCard />
    </div>
  );
}

const KIND_LABELS: Record<ReceiverKind, string> = {
  mllp: 'HL7 v2 over MLLP',
  http: 'FHIR R4 over HTTP',
};

const STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: 'Waiting',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
};
const statusTone = { pending: 'amber', sending: 'blue', sent: 'green', failed: 'red' } as const;

const target = (r: Pick<Receiver, 'kind' | 'host' | 'port' | 'url'>) =>
  r.kind === 'mllp' ? `${r.host ?? ''}:${r.port ?? ''}` : (r.url ?? '');

function ReceiversCard() {
  const list = useReceivers();
  const remove = useRemoveReceiver();
  const rows = useRowDialogs<Receiver>();
  const columns: Column<Receiver>[] = [
    {
      key: 'name',
      header: 'Receiver',
      cell: (r) => (
        <div>
          <div className="font-medium text-slate-900">{r.name}</div>
          <div className="text-xs break-all text-slate-600">
            {KIND_LABELS[r.kind]} · {target(r)}
          </div>
        </div>
      ),
    },
    {
      key: 'reports',
      header: 'Reports',
      cell: (r) => (r.payer_name ? `Bills of ${r.payer_name}` : 'Every verified report'),
      hideOnMobile: true,
    },
    {
      key: 'status',
      header: 'Status',
      cell: (r) => (r.enabled ? <Badge tone="green">enabled</Badge> : <Badge tone="grey">disabled</Badge>),
    },
    { key: 'sent', header: 'Sent', cell: (r) => r.sent, align: 'right' },
    {
      key: 'waiting',
      header: 'Waiting / Failed',
      cell: (r) => (
        <span>
          {r.waiting} / {r.failed ? <Badge tone="red">{r.failed}</Badge> : '0'}
        </span>
      ),
      align: 'right',
      hideOnMobile: true,
    },
    {
      key: 'last',
      header: 'Last sent',
      cell: (r) => (r.last_sent_at ? <DateText value={r.last_sent_at} withTime /> : 'Never'),
      hideOnMobile: true,
    },
  ];
  const actions: RowAction<Receiver>[] = [rows.editAction((r) => r.name), rows.deleteAction((r) => r.name)];
  return (
    <Card className="min-w-0">
      <CardHeader
        title="Report Receivers"
        description="Hospitals and systems that receive each verified report as it is completed: HL7 v2 ORU^R01 over MLLP or a FHIR R4 Bundle over HTTP. Failed sends are retried over about an hour."
        actions={rows.addButton('Add Receiver')}
      />
      <DataTable
        caption="Report receivers"
        columns={columns}
        rows={list.data}
        {...queryState(list)}
        errorTitle="Error Loading Receivers"
        getRowId={(r) => r.id}
        rowActions={actions}
        empty={{
          title: 'No receivers yet',
          hint: 'Add one when a referring hospital asks for your reports in its own system.',
        }}
      />
      <ReceiverDialog receiver={rows.editing} {...rows.dialog} />
      <ConfirmDialog
        {...rows.confirm}
        title="Delete Receiver"
        message={
          rows.deleting
            ? `Delete ${rows.deleting.name} and its delivery log (${rows.deleting.sent} sent, ${rows.deleting.waiting} waiting)? Reports waiting for it are not sent.`
            : ''
        }
        busy={remove.isPending}
        onConfirm={() => rows.deleting && remove.mutate(rows.deleting.id, { onSuccess: rows.deleted })}
      />
    </Card>
  );
}

interface FormState {
  name: string;
  kind: ReceiverKind;
  host: string;
  port: string;
  url: string;
  payer_id: string;
  enabled: boolean;
}

const formOf = (r: Receiver | null): FormState => ({
  name: r?.name ?? '',
  kind: r?.kind ?? 'mllp',
  host: r?.host ?? '',
  port: r?.port ? String(r.port) : '',
  url: r?.url ?? '',
  payer_id: r?.payer_id ? String(r.payer_id) : '',
  enabled: r?.enabled ?? true,
});

function ReceiverDialog({
  receiver,
  open,
  onOpenChange,
}: {
  receiver: Receiver | null;
  open: boolean;
  onOpenChange: (o: boolean) => void;
}) {
  const save = useSaveReceiver();
  const payers = usePayerChoices(open);
  // A fresh form each time the dialog opens.
  const {
    values: f,
    set,
    errors,
    showErrors,
  } = useFieldForm(() => formOf(receiver), {
    resetFor: open ? (receiver ?? 'new') : null,
  });
  const text = bindText(f, set);
  const submit = () => {
    const mllp = f.kind === 'mllp';
    const body = {
      name: f.name,
      kind: f.kind,
      host: mllp ? f.host || null : null,
      port: mllp ? (f.port === '' ? null : f.port) : null,
      url: mllp ? null : f.url || null,
      payer_id: f.payer_id ? Number(f.payer_id) : null,
      enabled: f.enabled,
    } as unknown as ReceiverCreate;
    save.mutate({ id: receiver?.id ?? null, body }, { onSuccess: () => onOpenChange(false), onError: showErrors });
  };
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={receiver ? `Edit Receiver: ${receiver.name}` : 'Add Receiver'}
      description="Each report is queued for the receiver when its results are all verified, and sent within seconds while lims runs."
      busy={save.isPending}
      onSubmit={submit}
      submitLabel={receiver ? 'Save Changes' : 'Add Receiver'}
      error={errors.form}
    >
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField label="Name" required error={errors.name}>
          <Input {...text('name')} placeholder="e.g. City Hospital HIS" />
        </FormField>
        <FormField label="Sends" required error={errors.kind}>
          <Select {...text('kind')} options={RECEIVER_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }))} />
        </FormField>
        {f.kind === 'mllp' ? (
          <>
            <FormField label="Host" required error={errors.host} hint="The interface engine's address.">
              <Input {...text('host')} placeholder="e.g. 10.0.0.5" />
            </FormField>
            <FormField label="Port" required error={errors.port}>
              <Input inputMode="numeric" {...text('port')} placeholder="e.g. 6661" />
            </FormField>
          </>
        ) : (
          <FormField
            label="URL"
            required
            error={errors.url}
            hint="The Bundle is POSTed here as application/fhir+json."
            className="sm:col-span-2"
          >
            <Input {...text('url')} placeholder="https://his.example.in/fhir" />
          </FormField>
        )}
        <FormField
          label="Reports of"
          error={errors.payer_id}
          hint="Only the reports of bills charged to this payer, or every report."
          className="sm:col-span-2"
        >
          <Select
            {...text('payer_id')}
            placeholder="Every verified report"
            options={(payers.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
          />
        </FormField>
        <div className="sm:col-span-2">
          <Checkbox
            label="Enabled (send reports now)"
            checked={f.enabled}
            onChange={(e) => set('enabled', e.target.checked)}
          />
        </div>
      </div>
    </FormDialog>
  );
}

function DeliveriesCard() {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const q = useDeliveries({ page, limit: 10, status });
  const retry = useRetryDelivery();
  const columns: Column<Delivery>[] = [
    { key: 'at', header: 'Queued', cell: (d) => <DateText value={d.created_at} withTime />, hideOnMobile: true },
    {
      key: 'what',
      header: 'Report',
      cell: (d) => (
        <div>
          <div className="font-medium text-slate-900">{d.sample_code}</div>
          <div className="text-xs text-slate-600">to {d.receiver_name}</div>
        </div>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      cell: (d) => (
        <div>
          <Badge tone={statusTone[d.status]}>{STATUS_LABELS[d.status]}</Badge>
          {d.last_error && d.status !== 'sent' && <div className="mt-1 text-xs text-red-700">{d.last_error}</div>}
        </div>
      ),
    },
    { key: 'answer', header: 'Answer', cell: (d) => d.response ?? '—', hideOnMobile: true },
    { key: 'attempts', header: 'Attempts', cell: (d) => d.attempts, align: 'right', hideOnMobile: true },
    {
      key: 'sent',
      header: 'Sent',
      cell: (d) => (d.sent_at ? <DateText value={d.sent_at} withTime /> : '—'),
      hideOnMobile: true,
    },
  ];
  return (
    <Card className="min-w-0">
      <CardHeader
        title="Report Deliveries"
        description="Every report queued for a receiver, with the receiver's answer (the HL7 ACK code or the HTTP status). A failed delivery can be sent again."
        actions={
          <Select
            aria-label="Delivery status"
            className="w-36"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as DeliveryStatus | '');
              setPage(1);
            }}
            placeholder="All statuses"
            options={DELIVERY_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
          />
        }
      />
      <DataTable
        caption="Report deliveries"
        columns={columns}
        rows={q.data?.deliveries}
        {...queryState(q)}
        errorTitle="Error Loading Deliveries"
        getRowId={(d) => d.id}
        rowActions={[
          {
            label: (d) => `Send ${d.sample_code} to ${d.receiver_name} again`,
            icon: <RotateCcw />,
            onClick: (d) => retry.mutate(d.id),
            hidden: (d) => d.status !== 'failed',
          },
        ]}
        empty={{
          title: status ? 'No deliveries with this status' : 'No deliveries yet',
          hint: 'Reports appear here when they are completed by verification and a receiver wants them.',
        }}
      />
      <QueryPagination data={q.data} page={page} pageSize={10} onPageChange={setPage} itemLabel="deliveries" />
    </Card>
  );
}
