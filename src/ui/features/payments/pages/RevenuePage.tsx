import { useState } from 'react';
import { Download, FileText, IndianRupee, RotateCcw, TrendingUp, Users } from 'lucide-react';
import { revenueApi } from '@shared/api/revenue';
import { addDays, localDate } from '@shared/time';
import type { RevenueDaily } from '@shared/schemas/revenue';
import {
  FileLinkButton,
  Card,
  CardHeader,
  DateRangeFields,
  DateText,
  ErrorPanel,
  FormField,
  Input,
  LoadingState,
  Money,
  RequireScreenPermission,
  ScreenHeader,
  SummaryCards,
} from '@/components';
import { contractUrl } from '@/lib/api';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { formatCount, formatDate, formatMoney, useLabFormat } from '@/lib/format';
import { useRevenueAnalytics, useRevenueDaily } from '../api';
import { DayClosingPanel } from '../components/DayClosingPanel';
import { Analytics, Methods, Trends } from '../components/RevenueCharts';

/** Revenue Reports (spec 001) from the ledger, and the cashiers' day-end closing. */
export default function RevenuePage() {
  const me = useCurrentUser();
  // A cashier without view_reports still closes their own day here.
  if (!can(me, 'view_reports') && can(me, 'create_bills'))
    return (
      <>
        <ScreenHeader />
        <DayClosingPanel />
      </>
    );
  return (
    <RequireScreenPermission permission="view_reports" what="revenue reports">
      <RevenueScreen />
    </RequireScreenPermission>
  );
}

/** The change against the previous period, green when it is good news: more revenue, fewer refunds. */
function change(pct: number | null, lessIsBetter = false) {
  if (pct === null) return 'no figures for the previous period';
  const text = `${pct > 0 ? '+' : ''}${pct.toFixed(1)}% vs previous period`;
  const good = pct === 0 || pct > 0 !== lessIsBetter;
  return <span className={good ? 'text-emerald-700' : 'text-red-700'}>{text}</span>;
}

function RevenueScreen() {
  const me = useCurrentUser();
  const f = useLabFormat();
  const today = localDate(f.timeZone);
  const [from, setFrom] = useState(addDays(today, -29));
  const [to, setTo] = useState(today);
  const [search, setSearch] = useState('');
  const bad = !from || !to || from > to;
  const daily = useRevenueDaily(from, to, !bad);
  const analytics = useRevenueAnalytics(from, to, !bad);
  const a = analytics.data;
  const canExport = can(me, 'export_data');
  const exportUrl = (format: 'csv' | 'xlsx' | 'pdf') => contractUrl(revenueApi.export, { query: { from, to, format } });

  const cards = [
    {
      label: 'Net Revenue',
      value: a ? formatMoney(Math.round(a.cards.total.current * 100)) : '—',
      hint: a ? change(a.cards.total.change_percent) : '',
      icon: <IndianRupee />,
    },
    {
      label: 'Patients Billed',
      value: a ? formatCount(a.cards.patients.current) : '—',
      hint: a ? change(a.cards.patients.change_percent) : '',
      icon: <Users />,
    },
    {
      label: 'Average Bill',
      value: a ? formatMoney(Math.round(a.cards.average_bill.current * 100)) : '—',
      hint: a ? change(a.cards.average_bill.change_percent) : '',
      icon: <TrendingUp />,
    },
    {
      label: 'Refunds',
      value: a ? formatMoney(Math.round(a.cards.refunds.current * 100)) : '—',
      hint: a ? change(a.cards.refunds.change_percent, true) : '',
      icon: <RotateCcw />,
    },
  ];

  return (
    <>
      <ScreenHeader
        actions={
          canExport ? (
            <div className="flex flex-wrap gap-2">
              <FileLinkButton href={exportUrl('csv')} download variant="outline" icon={<Download />}>
                CSV
              </FileLinkButton>
              <FileLinkButton href={exportUrl('xlsx')} download variant="outline" icon={<Download />}>
                XLSX
              </FileLinkButton>
              <FileLinkButton href={exportUrl('pdf')} icon={<FileText />}>
                Generate Report (PDF)
              </FileLinkButton>
            </div>
          ) : undefined
        }
      />
      <div className="mb-4 grid grid-cols-2 gap-3 sm:flex sm:items-start">
        <DateRangeFields
          from={from}
          to={to}
          onChange={(range) => {
            setFrom(range.from);
            setTo(range.to);
          }}
        />
        <FormField label="Find a day" className="col-span-2 sm:w-56">
          <Input
            type="search"
            placeholder={`e.g. ${formatDate(today, f)}`}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </FormField>
      </div>
      <SummaryCards
        label="Revenue figures"
        loading={analytics.isPending && !bad}
        error={analytics.error}
        cards={cards}
      />
      {daily.isError ? (
        <ErrorPanel title="Error Loading Revenue" query={daily} />
      ) : !daily.data ? (
        <Card>
          <LoadingState text="Loading revenue..." />
        </Card>
      ) : (
        <div className="grid gap-5">
          <DailyTable data={daily.data} search={search} />
          <div className="grid gap-5 lg:grid-cols-2">
            <Trends data={daily.data} />
            <Methods data={daily.data} />
          </div>
          {a && <Analytics data={a} />}
        </div>
      )}
      <div className="mt-5">
        <DayClosingPanel />
      </div>
    </>
  );
}

function DailyTable({ data, search }: { data: RevenueDaily; search: string }) {
  const f = useLabFormat();
  // A day is found as it is typed from the table ("26/11/2026", "26/11") or as ISO ("2026-11-26").
  const q = search.trim();
  const days = data.days
    .filter((d) => d.date.includes(q) || formatDate(d.date, f).includes(q))
    .slice()
    .reverse();
  const cols = [
    'Date',
    'Total (net)',
    'Cash',
    'Card',
    'UPI',
    'Bank',
    'Cheque',
    'Insurance',
    'Refunds',
    'Patients',
    'Avg bill',
  ];
  return (
    <Card className="min-w-0">
      <CardHeader
        icon={<IndianRupee />}
        title="Daily Revenue"
        description="Money received per lab day by method; refunds their own column; total = received less refunds"
      />
      <div className="overflow-x-auto">
        <table className="w-full min-w-[900px] text-[13px]" aria-label="Daily revenue">
          <thead className="bg-slate-50 text-left text-slate-600">
            <tr>
              {cols.map((c, i) => (
                <th key={c} className={`px-3 py-2 font-medium ${i ? 'text-right' : ''}`}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {days.map((d) => (
              <tr key={d.date} data-testid={`revenue-${d.date}`}>
                <td className="px-3 py-2 whitespace-nowrap">
                  <DateText value={d.date} />
                </td>
                {[d.total, d.cash, d.card, d.upi, d.bank_transfer, d.cheque, d.insurance, d.refunds].map((v, i) => (
                  <td key={i} className={`px-3 py-2 text-right ${i === 0 ? 'font-semibold text-slate-900' : ''}`}>
                    <Money rupees={v} />
                  </td>
                ))}
                <td className="px-3 py-2 text-right tabular-nums">{formatCount(d.patients)}</td>
                <td className="px-3 py-2 text-right">
                  <Money rupees={d.average_bill} />
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot className="bg-slate-50 font-semibold">
            <tr>
              <td className="px-3 py-2">Total</td>
              {[
                data.totals.total,
                data.totals.cash,
                data.totals.card,
                data.totals.upi,
                data.totals.bank_transfer,
                data.totals.cheque,
                data.totals.insurance,
                data.totals.refunds,
              ].map((v, i) => (
                <td key={i} className="px-3 py-2 text-right" data-testid={i === 0 ? 'revenue-total' : undefined}>
                  <Money rupees={v} />
                </td>
              ))}
              <td className="px-3 py-2 text-right tabular-nums">{formatCount(data.totals.patients)}</td>
              <td className="px-3 py-2 text-right">
                <Money rupees={data.totals.average_bill} />
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
    </Card>
  );
}
