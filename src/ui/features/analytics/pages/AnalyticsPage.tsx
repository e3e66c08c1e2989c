import { useState } from 'react';
import { Activity, Download, FlaskConical, IndianRupee, RefreshCw, TestTube, Users } from 'lucide-react';
import {
  ANALYTICS_CHART_TYPES,
  ANALYTICS_RANGES,
  type Analytics,
  type AnalyticsChartType,
  type AnalyticsRange,
} from '@shared/schemas/analytics';
import {
  Button,
  Card,
  CardBody,
  CardHeader,
  ErrorPanel,
  FormField,
  LoadingState,
  ScreenHeader,
  Select,
  SummaryCards,
} from '@/components';
import { formatCount, formatDate, formatMoney, formatMoneyShort, humanize, useLabFormat } from '@/lib/format';
import { notify } from '@/lib/notify';
import { useUrlState } from '@/lib/useUrlState';
import { useAnalytics } from '../api';
import { ChartCard } from '../components/ChartCard';
import { MessageCosts } from '../components/MessageCosts';
import { downloadText, toCsv } from '../csv';

const rupees = (r: number) => formatMoney(Math.round(r * 100));
const minutes = (m: number | null) => {
  if (m === null) return '—';
  if (m < 60) return `${m} min`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
};

/** Analytics Dashboard (spec 001): every figure from the lab's records over the range. */
export default function AnalyticsPage() {
  const f = useLabFormat();
  const [state, set] = useUrlState({ days: 30, chart: 'bar' });
  const days = ((ANALYTICS_RANGES as readonly number[]).includes(state.days) ? state.days : 30) as AnalyticsRange;
  const chart = (
    (ANALYTICS_CHART_TYPES as readonly string[]).includes(state.chart) ? state.chart : 'bar'
  ) as AnalyticsChartType;
  const q = useAnalytics(days);
  const a = q.data;
  const [refreshing, setRefreshing] = useState(false);

  const refresh = async () => {
    setRefreshing(true);
    const r = await q.refetch();
    setRefreshing(false);
    if (r.isError) notify.error('Could not refresh analytics', r.error);
    else
      notify.success(
        'Analytics refreshed',
        `Figures as of ${new Date().toLocaleTimeString('en-IN', { timeZone: f.timeZone })}`,
      );
  };

  const exportCsv = () => {
    if (!a) return;
    downloadText(`analytics-${a.from}-to-${a.to}.csv`, analyticsCsv(a));
    notify.success('Analytics exported', `Last ${a.days} days, ${a.from} to ${a.to}`);
  };

  const cards = [
    {
      label: 'Patients',
      value: a ? formatCount(a.cards.patients) : '—',
      hint: 'with a sample collected',
      icon: <Users />,
    },
    {
      label: 'Samples Collected',
      value: a ? formatCount(a.cards.samples_collected) : '—',
      hint: a ? `${a.performance.samples_per_day} a day` : '',
      icon: <TestTube />,
    },
    {
      label: 'Results Verified',
      value: a ? formatCount(a.cards.results_verified) : '—',
      hint: a ? `${formatCount(a.performance.verification_backlog)} waiting now` : '',
      icon: <FlaskConical />,
    },
    {
      label: 'Revenue',
      value: a ? rupees(a.cards.revenue) : '—',
      hint: 'billed, cancelled bills excluded',
      icon: <IndianRupee />,
    },
  ];

  return (
    <>
      <ScreenHeader
        actions={
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => void refresh()} disabled={refreshing}>
              <RefreshCw className={refreshing ? 'animate-spin' : undefined} />
              {refreshing ? 'Refreshing...' : 'Refresh'}
            </Button>
            <Button onClick={exportCsv} disabled={!a}>
              <Download />
              Export Data
            </Button>
          </div>
        }
      />
      <div className="mb-4 grid grid-cols-2 gap-3 sm:flex sm:items-end">
        <FormField label="Time range" className="sm:w-44">
          <Select
            value={String(days)}
            onChange={(e) => set({ days: Number(e.target.value) })}
            options={ANALYTICS_RANGES.map((d) => ({ value: String(d), label: `Last ${d} days` }))}
          />
        </FormField>
        <FormField label="Chart type" className="sm:w-44">
          <Select
            value={chart}
            onChange={(e) => set({ chart: e.target.value })}
            options={ANALYTICS_CHART_TYPES.map((c) => ({ value: c, label: `${humanize(c)} chart` }))}
          />
        </FormField>
        {a && (
          <p className="col-span-2 text-[13px] text-slate-600 sm:pb-2">
            {formatDate(a.from, f)} to {formatDate(a.to, f)}
          </p>
        )}
      </div>
      <SummaryCards label="Analytics figures" loading={q.isPending} error={q.error} cards={cards} />
      {q.isError ? (
        <ErrorPanel title="Error Loading Analytics" query={q} />
      ) : !a ? (
        <Card>
          <LoadingState text="Loading analytics..." />
        </Card>
      ) : (
        <div className="grid gap-5">
          <ChartCard
            title="Daily workload"
            description="Samples collected and results verified per lab day"
            type={chart}
            rows={a.daily.map((d) => ({ date: d.date, samples: d.samples_collected, verified: d.results_verified }))}
            category={{ key: 'date', label: 'Day', format: (v) => formatDate(v, f) }}
            series={[
              { key: 'samples', label: 'Samples collected', color: '#2563eb' },
              { key: 'verified', label: 'Results verified', color: '#059669' },
            ]}
            format={(v) => formatCount(v)}
            integers
            empty="No samples or results in this range"
          />
          <div className="grid gap-5 lg:grid-cols-2">
            <ChartCard
              title="Revenue by category"
              description="Bill lines after line discounts, cancelled bills excluded"
              type={chart}
              rows={a.revenue_by_category.map((c) => ({ category: c.category, revenue: c.revenue, lines: c.lines }))}
              category={{ key: 'category', label: 'Category' }}
              series={[{ key: 'revenue', label: 'Revenue', color: '#7c3aed' }]}
              format={rupees}
              axisFormat={formatMoneyShort}
              empty="Nothing billed in this range"
            />
            <ChartCard
              title="Test distribution"
              description="Tests ordered on the samples collected (top 10)"
              type={chart}
              rows={a.test_distribution.map((t) => ({ test: t.test_name, count: t.count }))}
              category={{ key: 'test', label: 'Test' }}
              series={[{ key: 'count', label: 'Tests', color: '#d97706' }]}
              format={(v) => formatCount(v)}
              integers
              empty="No tests ordered in this range"
            />
          </div>
          <Performance a={a} />
          <MessageCosts />
        </div>
      )}
    </>
  );
}

function Performance({ a }: { a: Analytics }) {
  const p = a.performance;
  const rows: [string, string, string][] = [
    ['Samples per day', String(p.samples_per_day), `${formatCount(a.cards.samples_collected)} in ${a.days} days`],
    ['Turnaround, median', minutes(p.tat_median_minutes), 'collection to verification'],
    ['Turnaround, 90th percentile', minutes(p.tat_p90_minutes), `of ${formatCount(p.tat_results)} verified results`],
    ['Verification backlog', formatCount(p.verification_backlog), 'entered, not yet verified (now)'],
    [
      'Rejection rate',
      p.rejection_rate === null ? '—' : `${p.rejection_rate}%`,
      `${formatCount(p.rejected_samples)} rejected of ${formatCount(a.cards.samples_collected)} collected`,
    ],
  ];
  return (
    <Card>
      <CardHeader title="Performance metrics" icon={<Activity />} />
      <CardBody>
        <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
          {rows.map(([label, value, hint]) => (
            <div key={label} className="rounded-md border border-slate-200 p-3">
              <dt className="text-[13px] text-slate-600">{label}</dt>
              <dd className="mt-1 text-xl font-semibold tabular-nums text-slate-900">{value}</dd>
              <dd className="text-xs text-slate-500">{hint}</dd>
            </div>
          ))}
        </dl>
      </CardBody>
    </Card>
  );
}

/** Exactly what the screen shows, section by section, money in rupees. */
export function analyticsCsv(a: Analytics): string {
  const p = a.performance;
  return toCsv([
    { title: `Analytics ${a.from} to ${a.to} (last ${a.days} days, ${a.time_zone})`, rows: [] },
    {
      title: 'Summary',
      rows: [
        ['figure', 'value'],
        ['patients', a.cards.patients],
        ['samples_collected', a.cards.samples_collected],
        ['results_verified', a.cards.results_verified],
        ['revenue_rupees', a.cards.revenue.toFixed(2)],
      ],
    },
    {
      title: 'Daily workload',
      rows: [
        ['date', 'samples_collected', 'results_verified', 'revenue_rupees'],
        ...a.daily.map((d) => [d.date, d.samples_collected, d.results_verified, d.revenue.toFixed(2)]),
      ],
    },
    {
      title: 'Revenue by category',
      rows: [
        ['category', 'lines', 'revenue_rupees'],
        ...a.revenue_by_category.map((c) => [c.category, c.lines, c.revenue.toFixed(2)]),
      ],
    },
    {
      title: 'Test distribution',
      rows: [['test', 'count'], ...a.test_distribution.map((t) => [t.test_name, t.count])],
    },
    {
      title: 'Performance metrics',
      rows: [
        ['metric', 'value'],
        ['samples_per_day', p.samples_per_day],
        ['tat_median_minutes', p.tat_median_minutes],
        ['tat_p90_minutes', p.tat_p90_minutes],
        ['tat_results', p.tat_results],
        ['verification_backlog', p.verification_backlog],
        ['rejected_samples', p.rejected_samples],
        ['rejection_rate_percent', p.rejection_rate],
      ],
    },
  ]);
}
