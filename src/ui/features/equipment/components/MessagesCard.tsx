import { useState } from 'react';
import { Eye } from 'lucide-react';
import { MESSAGE_STATUS_LABELS, type InterfaceMessage } from '@shared/schemas/connections';
import {
  Badge,
  Card,
  CardHeader,
  DataTable,
  DateText,
  Dialog,
  QueryPagination,
  queryState,
  type Column,
} from '@/components';
import { errorMessage } from '@/lib/api';
import { useMessage, useMessages } from '../interfaces-api';

/** Machine Integration's message log: every message in and out as received, and the one opened in full. */
export function MessagesCard() {
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
      cell: (m) => `${m.results_count} / ${m.unmatched_count}${m.ignored_count ? ` (${m.ignored_count} ignored)` : ''}`,
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
        {...queryState(q)}
        errorTitle="Error Loading Messages"
        getRowId={(m) => m.id}
        onRowClick={(m) => setViewing(m.id)}
        rowActions={[{ label: (m) => `View message ${m.id}`, icon: <Eye />, onClick: (m) => setViewing(m.id) }]}
        empty={{ title: 'No messages yet', hint: 'Messages appear here as the machines send them.' }}
      />
      <QueryPagination data={q.data} page={page} pageSize={10} onPageChange={setPage} />
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
