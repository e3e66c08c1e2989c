import type { UseQueryResult } from '@tanstack/react-query';
import { Activity, CheckCircle2, FlaskConical, GitCommitVertical, TestTube } from 'lucide-react';
import type { ReactNode } from 'react';
import type { SampleSummary } from '@shared/schemas/samples';
import { Card, CardBody, CardHeader, ErrorPanel } from '@/components';
import { formatCount } from '@/lib/format';
import { formatMinutes } from '../text';

function Loading() {
  return <div className="skeleton h-16 w-full" aria-label="Loading" />;
}

function Step({ icon, label, count, tone }: { icon: ReactNode; label: string; count: number; tone: string }) {
  return (
    <li className="flex items-center gap-3">
      <span
        className={`flex size-8 items-center justify-center rounded-full [&_svg]:size-4 ${tone}`}
        aria-hidden="true"
      >
        {icon}
      </span>
      <span className="flex-1 text-sm text-slate-700">{label}</span>
      <span className="text-lg font-semibold text-slate-900 tabular-nums">{formatCount(count)}</span>
    </li>
  );
}

/** Timeline: how many samples sit at each step of the lab right now. */
export function TimelineCard({ summary }: { summary: UseQueryResult<SampleSummary> }) {
  const s = summary.data;
  return (
    <Card>
      <CardHeader title="Timeline" icon={<GitCommitVertical />} description="Samples at each step now" />
      <CardBody>
        {summary.isPending ? (
          <Loading />
        ) : summary.isError ? (
          <ErrorPanel title="Could not load the timeline" error={summary.error} />
        ) : s ? (
          <ol aria-label="Sample timeline" className="grid gap-3">
            <Step icon={<TestTube />} label="Collected" count={s.collected} tone="bg-blue-50 text-blue-700" />
            <Step icon={<FlaskConical />} label="Processing" count={s.processing} tone="bg-amber-50 text-amber-700" />
            <Step icon={<CheckCircle2 />} label="Completed" count={s.completed} tone="bg-green-50 text-green-700" />
          </ol>
        ) : null}
      </CardBody>
    </Card>
  );
}

/**
 * Real-time Status: completion rate (completed / total, rounded; 0 with no samples) and the average
 * processing time measured from the lab's completed samples, where the spec showed a fixed text.
 */
export function RealtimeStatusCard({ summary }: { summary: UseQueryResult<SampleSummary> }) {
  const s = summary.data;
  return (
    <Card>
      <CardHeader title="Real-time Status" icon={<Activity />} />
      <CardBody>
        {summary.isPending ? (
          <Loading />
        ) : summary.isError ? (
          <ErrorPanel title="Could not load the status" error={summary.error} />
        ) : s ? (
          <dl className="grid gap-4">
            <div role="group" aria-label="Completion Rate">
              <dt className="text-[13px] text-slate-600">Completion Rate</dt>
              <dd className="text-2xl font-semibold text-slate-900 tabular-nums">{s.completion_rate}%</dd>
              <div className="mt-1.5 h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
                <div className="h-full rounded-full bg-green-600" style={{ width: `${s.completion_rate}%` }} />
              </div>
              <p className="mt-1 text-xs text-slate-600">
                {formatCount(s.completed)} of {formatCount(s.total)} samples completed
              </p>
            </div>
            <div role="group" aria-label="Average Processing Time">
              <dt className="text-[13px] text-slate-600">Average Processing Time</dt>
              {s.avg_processing_minutes === null ? (
                <dd className="text-sm text-slate-700">
                  Not enough data yet: no sample has gone from collection to completion.
                </dd>
              ) : (
                <dd>
                  <span className="text-2xl font-semibold text-slate-900 tabular-nums">
                    {formatMinutes(s.avg_processing_minutes)}
                  </span>
                  <p className="mt-1 text-xs text-slate-600">
                    Collection to completion, over {formatCount(s.timed_completed)} completed{' '}
                    {s.timed_completed === 1 ? 'sample' : 'samples'}
                  </p>
                </dd>
              )}
            </div>
          </dl>
        ) : null}
      </CardBody>
    </Card>
  );
}
