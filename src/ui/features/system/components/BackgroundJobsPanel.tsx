import { Timer } from 'lucide-react';
import { Badge, Card, CardHeader, DataTable, DateText, RefreshButton, queryState, type Column } from '@/components';
import { formatMs, useBackgroundJobs, type JobStatus } from '../api';

function LastRun({ job }: { job: JobStatus }) {
  if (!job.last_run_at) return <span className="text-slate-500">Not yet</span>;
  return (
    <span className="flex flex-wrap items-center gap-1.5">
      <DateText value={job.last_run_at} withTime />
      {job.running ? (
        <Badge tone="amber">Running</Badge>
      ) : (
        <Badge status={job.last_outcome === 'failed' ? 'failed' : 'ok'}>
          {job.last_outcome === 'failed' ? 'Failed' : 'OK'}
        </Badge>
      )}
    </span>
  );
}

const columns: Column<JobStatus>[] = [
  {
    key: 'name',
    header: 'Job',
    cell: (j) => (
      <div className="min-w-40">
        <div className="font-mono text-[13px] text-slate-900">{j.name}</div>
        <div className="text-xs text-slate-600">{j.description}</div>
        {/* On a phone the Last error column is hidden: the error shows under the job. */}
        {j.last_error && <p className="mt-0.5 text-xs break-words text-red-700 md:hidden">{j.last_error}</p>}
      </div>
    ),
  },
  { key: 'period', header: 'Every', cell: (j) => formatMs(j.period_ms), className: 'whitespace-nowrap' },
  { key: 'last', header: 'Last run', cell: (j) => <LastRun job={j} /> },
  {
    key: 'duration',
    header: 'Took',
    align: 'right',
    hideOnMobile: true,
    cell: (j) => (j.last_duration_ms === null ? '—' : formatMs(j.last_duration_ms)),
    className: 'whitespace-nowrap tabular-nums',
  },
  {
    key: 'next',
    header: 'Next run',
    cell: (j) =>
      j.next_run_at ? (
        <DateText value={j.next_run_at} withTime />
      ) : (
        <span className="text-slate-500">{j.running ? 'After this run' : '—'}</span>
      ),
  },
  {
    key: 'error',
    header: 'Last error',
    hideOnMobile: true,
    cell: (j) =>
      j.last_error ? (
        <div className="max-w-80 min-w-48 text-xs">
          <p className="break-words text-red-700">{j.last_error}</p>
          <p className="text-slate-600">
            <DateText value={j.last_error_at} withTime /> · {j.failures} of {j.runs} runs failed
          </p>
        </div>
      ) : (
        <span className="text-slate-500">None</span>
      ),
  },
];

/**
 * The server's recurring jobs (src/server/jobs.ts) as its scheduler last saw them: for the server's
 * operator (manage_tenants), since they work on every lab of the server. This server's alone: each
 * lims serve on a shared PostgreSQL runs its own.
 */
export function BackgroundJobsPanel() {
  const jobs = useBackgroundJobs(true);
  return (
    <Card>
      <CardHeader
        title="Background jobs"
        icon={<Timer />}
        description="What this server runs on its own clock: last run, next run and the last error of each."
        actions={<RefreshButton query={jobs} variant="ghost" size="sm" />}
      />
      <DataTable
        caption="Background jobs"
        columns={columns}
        rows={jobs.data}
        getRowId={(j) => j.name}
        {...queryState(jobs)}
        errorTitle="Background Jobs Unavailable"
        skeletonRows={4}
        empty={{
          title: 'No background jobs',
          hint: 'Jobs run in lims serve; this server was started without them.',
        }}
      />
    </Card>
  );
}
