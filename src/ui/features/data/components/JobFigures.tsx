import type { ReactNode } from 'react';
import { AlertTriangle, CheckCircle2, Database, DownloadCloud, FileStack, Loader, Upload } from 'lucide-react';
import { Card, CardBody, CardHeader, ErrorPanel, SummaryCards } from '@/components';
import type { DataJobSummary } from '@shared/schemas/data-jobs';
import { formatCount } from '@/lib/format';
import { useJobSummary, type Scope } from '../api';
import { entityLabel, formatBytes, formatLabel } from './jobParts';

const n = (v: number | null | undefined) => (v === null || v === undefined ? '—' : formatCount(v));

/** The screen's cards, from the jobs of its scope (checks left out). */
export function JobCards({ scope }: { scope: Scope }) {
  const summary = useJobSummary(scope);
  const s = summary.data;
  const kind = scope.type === 'import' ? 'Imports' : scope.type === 'export' ? 'Exports' : 'Operations';
  const cards = [
    {
      label: `Total ${kind}`,
      value: n(s?.total),
      hint: s ? `${formatCount(s.by_origin.web)} here, ${formatCount(s.by_origin.cli)} on the command line` : '—',
      icon: <FileStack />,
    },
    {
      label: 'Completed',
      value: n(s?.completed),
      hint: s?.success_rate !== null && s ? `${s.success_rate}% of finished jobs` : 'none finished yet',
      icon: <CheckCircle2 />,
    },
    {
      label: 'Failed',
      value: n(s?.failed),
      hint: s ? `${formatCount(s.cancelled)} cancelled, ${formatCount(s.running)} running` : '—',
      icon: <AlertTriangle />,
    },
    scope.type === 'export'
      ? {
          label: 'Records Exported',
          value: n(s?.records_exported),
          hint: s ? `${formatCount(s.downloads)} downloads, ${formatBytes(s.bytes)}` : '—',
          icon: <DownloadCloud />,
        }
      : {
          label: scope.type === 'import' ? 'Records Imported' : 'Records Moved',
          value: n(s ? s.records_imported + (scope.type === 'import' ? 0 : s.records_exported) : null),
          hint: s ? `${formatCount(s.rows_checked)} rows checked` : '—',
          icon: <Upload />,
        },
  ];
  return (
    <SummaryCards
      label={`${kind} counts`}
      loading={summary.isPending}
      error={summary.error}
      cards={summary.isError ? cards.map((c) => ({ ...c, value: '—' })) : cards}
    />
  );
}

function Bars({ items, empty }: { items: { label: string; value: number; hint?: string }[]; empty: string }) {
  const max = Math.max(1, ...items.map((i) => i.value));
  if (!items.length) return <p className="text-[13px] text-slate-600">{empty}</p>;
  return (
    <ul className="space-y-2">
      {items.map((i) => (
        <li key={i.label}>
          <div className="flex justify-between gap-2 text-[13px]">
            <span className="text-slate-800">{i.label}</span>
            <span className="text-slate-600 tabular-nums">{i.hint ?? formatCount(i.value)}</span>
          </div>
          <div className="mt-0.5 h-1.5 rounded bg-slate-100">
            <div className="h-full rounded bg-primary-500" style={{ width: `${(i.value / max) * 100}%` }} />
          </div>
        </li>
      ))}
    </ul>
  );
}

function Panel({ title, icon, children }: { title: string; icon: ReactNode; children: ReactNode }) {
  return (
    <Card className="min-w-0">
      <CardHeader title={title} icon={icon} />
      <CardBody>{children}</CardBody>
    </Card>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-[13px] text-slate-600">{label}</dt>
      <dd className="text-lg font-semibold text-slate-900 tabular-nums">{value}</dd>
    </div>
  );
}

/** The last 14 lab days as small columns: imports and exports per day. */
function Days({ s }: { s: DataJobSummary }) {
  const max = Math.max(1, ...s.by_day.map((d) => d.imports + d.exports));
  return (
    <div>
      <div className="flex h-20 items-end gap-1" aria-label="Jobs per day, last 14 days" role="img">
        {s.by_day.map((d) => (
          <div
            key={d.day}
            className="flex flex-1 flex-col justify-end"
            title={`${d.day}: ${d.imports} imports, ${d.exports} exports`}
          >
            <div className="bg-primary-300" style={{ height: `${(d.exports / max) * 72}px` }} />
            <div className="bg-primary-600" style={{ height: `${(d.imports / max) * 72}px` }} />
          </div>
        ))}
      </div>
      <p className="mt-1 text-[12px] text-slate-600">
        Last 14 days: <span className="text-primary-700">■</span> imports <span className="text-primary-300">■</span>{' '}
        exports
      </p>
    </div>
  );
}

/**
 * The analytics panels of a data screen from its jobs: Analytics (jobs by type, format and day)
 * and, for imports, Data Quality (rows checked, error rate, the columns most often wrong); for
 * exports, Export Usage (downloads, file sizes).
 */
export function JobAnalytics({ scope, title }: { scope: Scope; title: string }) {
  const summary = useJobSummary(scope);
  const s = summary.data;
  if (summary.isError)
    return <ErrorPanel title="Error Loading Analytics" query={summary} />;
  if (!s) return null;
  const errorRate = s.rows_checked ? Math.round((s.row_errors / s.rows_checked) * 1000) / 10 : null;
  return (
    <section aria-label={title} className="mt-5 grid gap-4 lg:grid-cols-3">
      <Panel title={title} icon={<Database />}>
        <dl className="mb-3 grid grid-cols-2 gap-3">
          <Figure label="Success rate" value={s.success_rate === null ? '—' : `${s.success_rate}%`} />
          <Figure label="Average time" value={s.avg_seconds === null ? '—' : `${s.avg_seconds} s`} />
        </dl>
        <Days s={s} />
      </Panel>
      <Panel title="By Type" icon={<FileStack />}>
        <Bars
          items={s.by_entity.map((e) => ({
            label: entityLabel(e.entity),
            value: e.jobs,
            hint: `${formatCount(e.jobs)} jobs · ${formatCount(e.records)} records${e.failed ? ` · ${formatCount(e.failed)} failed` : ''}`,
          }))}
          empty="No jobs yet."
        />
        <div className="mt-4">
          <Bars
            items={s.by_format.map((f) => ({ label: formatLabel(f.format), value: f.jobs }))}
            empty=""
          />
        </div>
      </Panel>
      {scope.type === 'export' ? (
        <Panel title="Export Usage" icon={<DownloadCloud />}>
          <dl className="grid grid-cols-2 gap-3">
            <Figure label="Downloads" value={formatCount(s.downloads)} />
            <Figure label="Records exported" value={formatCount(s.records_exported)} />
            <Figure label="Files written" value={formatBytes(s.bytes)} />
            <Figure
              label="Per export"
              value={s.exports ? formatBytes(Math.round(s.bytes / s.exports)) : '—'}
            />
          </dl>
        </Panel>
      ) : (
        <Panel title="Data Quality" icon={<Loader />}>
          <dl className="mb-3 grid grid-cols-2 gap-3">
            <Figure label="Rows checked" value={formatCount(s.rows_checked)} />
            <Figure label="Rows with errors" value={errorRate === null ? '—' : `${errorRate}%`} />
          </dl>
          <p className="mb-2 text-[13px] font-medium text-slate-800">Columns most often wrong</p>
          <Bars
            items={s.error_columns.map((c) => ({ label: c.column, value: c.errors }))}
            empty="No errors in the recent files."
          />
        </Panel>
      )}
    </section>
  );
}
