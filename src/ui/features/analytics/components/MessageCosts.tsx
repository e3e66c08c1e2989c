import { useQuery } from '@tanstack/react-query';
import { IndianRupee } from 'lucide-react';
import { reportDeliveryApi } from '@shared/api/report-delivery';
import type { ChannelCost } from '@shared/schemas/report-delivery';
import { Card, CardHeader, DataTable, ErrorPanel, type Column } from '@/components';
import { call } from '@/lib/api';
import { formatCount, formatMoney } from '@/lib/format';

interface MonthRow {
  month: string;
  whatsapp: ChannelCost | undefined;
  sms: ChannelCost | undefined;
  email: ChannelCost | undefined;
  total: number;
}

const cell = (c: ChannelCost | undefined) =>
  c ? `${formatCount(c.messages)} · ${formatMoney(Math.round(c.cost * 100))}` : '—';

const columns: Column<MonthRow>[] = [
  { key: 'month', header: 'Month', cell: (r) => r.month },
  { key: 'whatsapp', header: 'WhatsApp', cell: (r) => cell(r.whatsapp), align: 'right' },
  { key: 'sms', header: 'SMS', cell: (r) => cell(r.sms), align: 'right' },
  { key: 'email', header: 'Email', cell: (r) => cell(r.email), align: 'right' },
  { key: 'total', header: 'Total', cell: (r) => formatMoney(Math.round(r.total * 100)), align: 'right' },
];

/** What report messages cost per channel per month, at the prices the lab entered when each was sent. */
export function MessageCosts() {
  const q = useQuery({
    queryKey: ['report-delivery', 'costs'],
    queryFn: ({ signal }) => call(reportDeliveryApi.costs, { query: { months: 6 } }, signal).then((r) => r.costs),
  });
  const months = [...new Set((q.data ?? []).map((c) => c.month))].sort().reverse();
  const rows = q.data
    ? months.map((month): MonthRow => {
        const of = (ch: ChannelCost['channel']) => q.data.find((c) => c.month === month && c.channel === ch);
        return {
          month,
          whatsapp: of('whatsapp'),
          sms: of('sms'),
          email: of('email'),
          total: q.data.filter((c) => c.month === month).reduce((t, c) => t + c.cost, 0),
        };
      })
    : undefined;
  return (
    <Card>
      <CardHeader
        title="Report messages: cost per channel"
        icon={<IndianRupee />}
        description="Report links sent per month (UTC months) and their cost at the lab's price per message"
      />
      {q.isError ? (
        <ErrorPanel title="Could not load message costs" query={q} />
      ) : (
        <DataTable
          caption="Report message costs per month"
          columns={columns}
          rows={rows}
          getRowId={(r) => r.month}
          loading={q.isPending}
          empty={{ title: 'No report messages sent in the last 6 months' }}
        />
      )}
    </Card>
  );
}
