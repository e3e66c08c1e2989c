import { Activity, HardDrive } from 'lucide-react';
import type { TenantSummary } from '@shared/schemas/tenants';
import { Card, CardBody, CardHeader, DateText } from '@/components';
import { formatBytes, plural } from './labAddress';

type Lab = TenantSummary['top_storage'][number];

function Bars({
  labs,
  value,
  text,
  empty,
}: {
  labs: Lab[];
  value: (l: Lab) => number;
  text: (l: Lab) => string;
  empty: string;
}) {
  if (labs.length === 0) return <p className="text-[13px] text-slate-600">{empty}</p>;
  const max = Math.max(...labs.map(value), 1);
  return (
    <ol className="grid gap-3">
      {labs.map((l) => (
        <li key={l.id} className="grid gap-1">
          <div className="flex items-baseline justify-between gap-3 text-[13px]">
            <span className="truncate font-medium text-slate-900">{l.name}</span>
            <span className="shrink-0 text-slate-700 tabular-nums">{text(l)}</span>
          </div>
          <div className="h-2 rounded bg-slate-100" aria-hidden="true">
            <div className="h-2 rounded bg-primary-500" style={{ width: `${Math.max(2, (value(l) / max) * 100)}%` }} />
          </div>
        </li>
      ))}
    </ol>
  );
}

/** Tenant Performance and Resource Usage (spec 001, Multi-Tenant Setup): the leading labs, from the server's counts. */
export function TenantPanels({ summary }: { summary: TenantSummary }) {
  return (
    <div className="mt-5 grid gap-4 lg:grid-cols-2">
      <Card>
        <CardHeader
          icon={<Activity />}
          title="Tenant Performance"
          description="Labs with the most tests performed (results entered)."
        />
        <CardBody>
          <Bars
            labs={summary.top_tests}
            value={(l) => l.tests}
            text={(l) => `${plural(l.tests, 'test')} · ${plural(l.patients, 'patient')}`}
            empty="No lab has entered a result yet."
          />
        </CardBody>
      </Card>
      <Card>
        <CardHeader
          icon={<HardDrive />}
          title="Resource Usage"
          description={
            <>
              Stored data per lab; {formatBytes(summary.storage_bytes)} on the server in all (measured{' '}
              <DateText value={summary.storage_measured_at} withTime />
              ).
            </>
          }
        />
        <CardBody>
          <Bars
            labs={summary.top_storage}
            value={(l) => l.storage_bytes}
            text={(l) => `${formatBytes(l.storage_bytes)} · ${plural(l.users, 'user')}`}
            empty="No data stored yet."
          />
        </CardBody>
      </Card>
    </div>
  );
}
