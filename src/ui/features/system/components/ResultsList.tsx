import { Badge, EmptyState } from '@/components';
import { formatDate, useLabFormat } from '@/lib/format';

export interface TestEntry {
  id: number;
  name: string;
  status: 'pending' | 'success' | 'error';
  message: string;
  at: Date;
}

/** The debug screen's results: each run appends a Pending entry, then a Success or Error one (spec 4). */
export function ResultsList({ entries }: { entries: TestEntry[] }) {
  const f = useLabFormat();
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone: f.timeZone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  if (entries.length === 0) {
    return <EmptyState title="No test results yet. Run some tests to see results here." />;
  }
  return (
    <ol className="divide-y divide-slate-100" aria-label="Test results" aria-live="polite">
      {entries.map((e) => (
        <li key={e.id} className="flex items-start gap-3 px-4 py-2.5 text-[13px]">
          <Badge status={e.status} className="mt-0.5 w-16 justify-center" />
          <div className="min-w-0 flex-1">
            <p className="font-medium text-slate-900">{e.name}</p>
            <p className="break-words text-slate-700">{e.message}</p>
          </div>
          <time dateTime={e.at.toISOString()} className="text-xs whitespace-nowrap text-slate-600 tabular-nums">
            {formatDate(e.at, f)} {time.format(e.at)}
          </time>
        </li>
      ))}
    </ol>
  );
}
