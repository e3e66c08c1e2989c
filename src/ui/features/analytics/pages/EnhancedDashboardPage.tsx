import type { ReactNode } from 'react';
import { AlertTriangle, Clock, FlaskConical, Package, TestTube, Timer, Wrench } from 'lucide-react';
import { SAMPLE_STATUSES } from '@shared/samples';
import { LOW_STOCK_DEFINITION, OUT_OF_STOCK_DEFINITION, TURNAROUND_TARGET_DEFINITION } from '@shared/figures';
import type { LiveBoard } from '@shared/schemas/analytics';
import {
  Badge,
  Card,
  CardBody,
  CardHeader,
  EmptyState,
  ErrorPanel,
  LoadingState,
  ScreenHeader,
  screenPermissionPage,
  SummaryCards,
} from '@/components';
import { formatCount, formatDate, formatDateTime, humanize, useLabFormat } from '@/lib/format';
import { localParts } from '@shared/time';
import { LIVE_REFRESH_MS, useLiveBoard } from '../api';
import { ChartCard } from '../components/ChartCard';

/**
 * Enhanced Dashboard: the lab's day, read again every 15 s without reloading. The screen's
 * declaration checks view_results; the board reads the samples too.
 */
export default screenPermissionPage('view_samples', 'the live operations board', LiveScreen);

/** "12 min", "3 h 05 min", "2 d 4 h". */
function duration(m: number): string {
  if (m < 60) return `${m} min`;
  if (m < 1440) return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
  return `${Math.floor(m / 1440)} d ${Math.floor((m % 1440) / 60)} h`;
}

function LiveScreen() {
  const f = useLabFormat();
  const q = useLiveBoard();
  const live = q.data;
  const updated = live ? localParts(f.timeZone, new Date(live.updated_at)) : null;

  const todaySamples = live?.samples_by_status.reduce((s, x) => s + x.count, 0) ?? 0;
  const cards = [
    {
      label: "Today's Samples",
      value: live ? formatCount(todaySamples) : '—',
      hint: 'registered or collected today',
      icon: <TestTube />,
    },
    {
      label: 'Awaiting Verification',
      value: live ? formatCount(live.awaiting_verification.count) : '—',
      hint:
        live?.awaiting_verification.oldest_minutes != null
          ? `oldest waiting ${duration(live.awaiting_verification.oldest_minutes)}`
          : 'nothing waiting',
      icon: <FlaskConical />,
    },
    {
      label: 'Critical Not Called',
      value: live ? formatCount(live.critical_unacknowledged.count) : '—',
      hint: 'critical values with no call logged',
      icon: <AlertTriangle />,
    },
    {
      label: 'TAT Breaches',
      value: live ? formatCount(live.tat_breaches.count) : '—',
      hint: "past the test's target, collection to verification",
      icon: <Timer />,
    },
  ];

  return (
    <>
      <ScreenHeader
        actions={
          <p className="text-[13px] text-slate-600" data-testid="live-updated">
            <Clock className="mr-1 inline size-4 align-[-3px]" aria-hidden />
            {updated
              ? `Updated at ${updated.h}:${updated.mi}:${updated.s} · refreshes every ${LIVE_REFRESH_MS / 1000} s`
              : 'Loading...'}
            {q.isRefetching && <span className="ml-1">(reading...)</span>}
          </p>
        }
      />
      {live && (
        <p className="mb-3 text-[13px] text-slate-600">
          {formatDate(live.date, f)} ({live.time_zone})
        </p>
      )}
      <SummaryCards label="Today's figures" loading={q.isPending} error={q.error} cards={cards} />
      {q.isError && !live ? (
        <ErrorPanel title="Error Loading Dashboard" query={q} />
      ) : !live ? (
        <Card>
          <LoadingState text="Loading the dashboard..." />
        </Card>
      ) : (
        <div className="grid gap-5">
          {q.isError && (
            <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
              Could not read the board just now; the figures below are from the last reading.
            </p>
          )}
          <div className="grid gap-5 lg:grid-cols-2">
            <ChartCard
              title="Samples by status"
              description="Today's samples"
              type="bar"
              rows={SAMPLE_STATUSES.map((s) => ({
                status: humanize(s),
                count: live.samples_by_status.find((x) => x.status === s)?.count ?? 0,
              }))}
              category={{ key: 'status', label: 'Status' }}
              series={[{ key: 'count', label: 'Samples', color: '#2563eb' }]}
              format={(v) => formatCount(v)}
              integers
              empty="No samples registered or collected today"
            />
            <ListCard
              title="Awaiting verification"
              icon={<FlaskConical />}
              list={live.awaiting_verification}
              empty="No result is waiting for verification"
              head={['Sample', 'Test', 'Entered', 'Waiting']}
              row={(r) => ({
                key: String(r.result_id),
                cells: [
                  <span className="font-mono">{r.sample_code}</span>,
                  <>
                    {r.test_name} {r.is_critical && <Badge tone="red">Critical</Badge>}
                  </>,
                  formatDateTime(r.entered_at, f),
                  duration(r.waiting_minutes),
                ],
              })}
            />
          </div>
          <div className="grid gap-5 lg:grid-cols-2">
            <ListCard
              title="Critical values not yet called"
              icon={<AlertTriangle />}
              list={live.critical_unacknowledged}
              empty="Every critical value has its call logged"
              head={['Sample', 'Test', 'Value', 'Since']}
              row={(r) => ({
                key: String(r.result_id),
                cells: [
                  <span className="font-mono">{r.sample_code}</span>,
                  r.test_name,
                  <span className="font-semibold text-red-700">
                    {r.value ?? '—'} {r.unit ?? ''}
                  </span>,
                  duration(r.minutes_since),
                ],
              })}
            />
            <ListCard
              title="Turnaround breaches"
              icon={<Timer />}
              list={live.tat_breaches}
              empty="No test is past its target TAT"
              definition={TURNAROUND_TARGET_DEFINITION}
              head={['Sample', 'Test', 'Target', 'Elapsed', 'State']}
              row={(r) => ({
                key: `${r.sample_code}-${r.test_id}`,
                cells: [
                  <span className="font-mono">{r.sample_code}</span>,
                  r.test_name,
                  duration(r.target_minutes),
                  <span className="font-semibold text-red-700">{duration(r.elapsed_minutes)}</span>,
                  r.verified ? <Badge tone="amber">Verified late</Badge> : <Badge tone="red">Open</Badge>,
                ],
              })}
            />
          </div>
          {(live.low_stock || live.overdue_calibrations) && (
            <div className="grid gap-5 lg:grid-cols-2">
              {live.low_stock && <LowStock data={live.low_stock} />}
              {live.overdue_calibrations && <Calibrations data={live.overdue_calibrations} />}
            </div>
          )}
        </div>
      )}
    </>
  );
}

function LowStock({ data }: { data: NonNullable<LiveBoard['low_stock']> }) {
  return (
    <ListCard
      title="Low stock"
      icon={<Package />}
      list={data}
      empty="No item is low or out of stock"
      definition={`${LOW_STOCK_DEFINITION} ${OUT_OF_STOCK_DEFINITION}`}
      head={['Item', 'Stock', 'Alert']}
      row={(r) => ({
        key: `${r.item_name}-${r.alert_type}`,
        cells: [
          r.item_name,
          formatCount(r.current_stock),
          <Badge tone={r.alert_type === 'out_of_stock' ? 'red' : 'amber'}>{humanize(r.alert_type)}</Badge>,
        ],
      })}
    />
  );
}

function Calibrations({ data }: { data: NonNullable<LiveBoard['overdue_calibrations']> }) {
  const f = useLabFormat();
  return (
    <ListCard
      title="Overdue calibrations"
      icon={<Wrench />}
      list={data}
      empty="No calibration is overdue"
      head={['Equipment', 'Calibration', 'Due', 'Overdue']}
      row={(r) => ({
        key: `${r.equipment_name}-${r.due_date}-${r.type}`,
        cells: [r.equipment_name, humanize(r.type), formatDate(r.due_date, f), `${r.days_overdue} d`],
      })}
    />
  );
}

function ListCard<T>({
  list,
  row,
  ...props
}: {
  title: string;
  icon: ReactNode;
  /** The board's list: how many there are, and the oldest of them. */
  list: { count: number; items: T[] };
  empty: string;
  head: string[];
  row: (item: T) => { key: string; cells: ReactNode[] };
  /** What the figure counts, printed under the list. */
  definition?: string;
}) {
  const rows = list.items.map(row);
  const { count } = list;
  return (
    <Card className="min-w-0">
      <CardHeader
        title={
          <>
            {props.title} <span className="ml-1 text-slate-500 tabular-nums">({formatCount(count)})</span>
          </>
        }
        icon={props.icon}
        description={count > rows.length ? `The ${rows.length} oldest of ${formatCount(count)}` : undefined}
      />
      <CardBody>
        {rows.length === 0 ? (
          <EmptyState title={props.empty} />
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">{props.title}</caption>
              <thead className="border-b border-slate-200 text-[13px] text-slate-600">
                <tr>
                  {props.head.map((h) => (
                    <th key={h} scope="col" className="px-2 py-1.5 font-medium">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.key} className="border-b border-slate-100">
                    {r.cells.map((c, i) => (
                      <td key={i} className="px-2 py-1.5">
                        {c}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {props.definition && <p className="mt-2 text-[12px] text-slate-600">{props.definition}</p>}
      </CardBody>
    </Card>
  );
}
