import { formatBytes as sharedFormatBytes } from '@shared/bytes';
import { Badge, type BadgeTone } from '@/components';
import { DATA_ENTITY_LABELS, DATA_JOB_STATUS_LABELS, FORMAT_LABELS, type DataJob } from '@shared/schemas/data-jobs';
import { formatCount } from '@/lib/format';

/** Green done, amber running or waiting, red failed, grey cancelled (docs/ui.md's colours). */
export const STATUS_TONES: Record<DataJob['status'], BadgeTone> = {
  completed: 'green',
  in_progress: 'amber',
  pending: 'amber',
  failed: 'red',
  cancelled: 'grey',
};

export function JobStatus({ job }: { job: DataJob }) {
  const running = job.status === 'in_progress' || job.status === 'pending';
  return (
    <div className="min-w-0">
      <Badge tone={STATUS_TONES[job.status]}>{DATA_JOB_STATUS_LABELS[job.status]}</Badge>
      {running && job.percent !== null && (
        <div
          className="mt-1 h-1.5 w-24 overflow-hidden rounded bg-slate-200"
          role="progressbar"
          aria-label={`${job.name} progress`}
          aria-valuenow={job.percent}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <div className="h-full bg-amber-500" style={{ width: `${job.percent}%` }} />
        </div>
      )}
    </div>
  );
}

export function entityLabel(entity: string): string {
  return DATA_ENTITY_LABELS[entity as keyof typeof DATA_ENTITY_LABELS] ?? entity;
}

export function formatLabel(format: DataJob['format']): string {
  return FORMAT_LABELS[format];
}

/** A file's size, or a dash when it is not known. */
export function formatBytes(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : sharedFormatBytes(n);
}

/** What a job did, in one line: "20 new, 0 updated", "1,204 records", "2 errors in 20 rows". */
export function jobOutcome(job: DataJob): string {
  if (job.status === 'pending') return 'waiting for its turn';
  if (job.status === 'in_progress')
    return `${formatCount(job.processed)} ${job.type === 'import' ? 'rows read' : 'records written'}`;
  if (job.type === 'export') return `${formatCount(job.records ?? 0)} records`;
  if (job.status === 'completed')
    return job.dry_run
      ? `${formatCount(job.records ?? 0)} rows valid`
      : `${formatCount(job.inserted)} new, ${formatCount(job.updated)} updated`;
  if (job.errors) return `${formatCount(job.errors)} errors in ${formatCount(job.records ?? 0)} rows`;
  return job.error_message ? 'file refused' : `${formatCount(job.records ?? 0)} rows`;
}
