import { SAMPLE_REGISTERED_DEFINITION } from '@shared/figures';
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { DEPARTMENT_LABELS, type LabReportAnalytics } from '@shared/schemas/lab-reports';
import { Button, Card, CardBody, CardHeader, DateText, ErrorPanel, LoadingState, Select } from '@/components';
import { formatCount } from '@/lib/format';
import { useLabReportAnalytics } from '../api';

const RANGES = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
  { value: '365', label: 'Last 365 days' },
];

const ACTIVITY: Record<LabReportAnalytics['recent'][number]['kind'], string> = {
  verified: 'Verified',
  amended: 'Amended',
  sent_back: 'Sent back',
  called: 'Critical call logged',
};

const hours = (h: number | null) => (h === null ? '—' : `${h} h`);
const percent = (p: number | null) => (p === null ? '—' : `${p}%`);

/** Report Analytics (reports per day, turnaround) and Quality Metrics, from GET /api/lab-reports/analytics. */
export default function ReportAnalytics() {
  const [days, setDays] = useState(30);
  const [table, setTable] = useState(false);
  const q = useLabReportAnalytics(days);
  const a = q.data;
  return (
    <div className="mt-5 grid gap-5 lg:grid-cols-3">
      <Card className="min-w-0 lg:col-span-2">
        <CardHeader
          title="Report Analytics"
          description={a ? `Samples registered and reports completed per day, ${a.from} to ${a.to}` : undefined}
          actions={
            <div className="flex items-center gap-2">
              <Select
                aria-label="Time range"
                value={String(days)}
                onChange={(e) => setDays(Number(e.target.value))}
                options={RANGES}
              />
              <Button variant="outline" size="sm" onClick={() => setTable((t) => !t)} aria-pressed={table}>
                {table ? 'Show chart' : 'Show table'}
              </Button>
            </div>
          }
        />
        <CardBody>
          {q.isPending ? (
            <LoadingState text="Loading report analytics..." />
          ) : q.isError ? (
            <ErrorPanel title="Error Loading Report Analytics" query={q} />
          ) : table ? (
            <PerDayTable a={a!} />
          ) : (
            <div className="h-64" role="img" aria-label="Bar chart of samples registered and reports completed per day">
              <ResponsiveContainer width="100%" height="100%">
                <BarChart data={a!.per_day} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} />
                  <XAxis dataKey="date" tickFormatter={(d: string) => d.slice(5)} fontSize={11} />
                  <YAxis allowDecimals={false} fontSize={11} />
                  <Tooltip />
                  <Legend />
                  <Bar dataKey="registered" name="Registered" fill="#2563eb" />
                  <Bar dataKey="completed" name="Completed" fill="#16a34a" />
                </BarChart>
              </ResponsiveContainer>
            </div>
          )}
          {a && (
            <p data-testid="registered-definition" className="mt-2 text-[12px] text-slate-600">
              {SAMPLE_REGISTERED_DEFINITION}
            </p>
          )}
          {a && (
            <dl className="mt-4 grid grid-cols-2 gap-3 text-[13px] sm:grid-cols-4">
              <Figure label="Reports completed" value={formatCount(a.turnaround.reports)} />
              <Figure label="Turnaround (median)" value={hours(a.turnaround.median_hours)} />
              <Figure label="Turnaround (90th pct.)" value={hours(a.turnaround.p90_hours)} />
              {a.turnaround_by_department.map((d) => (
                <Figure
                  key={d.department}
                  label={`${DEPARTMENT_LABELS[d.department]} (median)`}
                  value={`${hours(d.median_hours)} · ${formatCount(d.results)} results`}
                />
              ))}
            </dl>
          )}
          <p className="mt-3 text-[12px] text-slate-600">
            Turnaround: collection to the verification that completed the report.
          </p>
        </CardBody>
      </Card>

      <Card className="min-w-0">
        <CardHeader title="Quality Metrics" description={a ? `${a.from} to ${a.to}` : undefined} />
        <CardBody>
          {a ? (
            <dl className="grid gap-3 text-[13px]">
              <Figure
                label="Amendment rate"
                value={percent(a.quality.amendment_rate)}
                hint={`${formatCount(a.quality.amended_results)} of ${formatCount(a.quality.verified_results)} verified results amended`}
              />
              <Figure
                label="Sample rejection rate"
                value={percent(a.quality.rejection_rate)}
                hint={`${formatCount(a.quality.rejected_samples)} of ${formatCount(a.quality.samples)} samples rejected`}
              />
              <Figure
                label="Results sent back"
                value={formatCount(a.quality.sent_back_results)}
                hint={`of ${formatCount(a.quality.entered_results)} entered`}
              />
              <Figure
                label="Critical values called"
                value={`${formatCount(a.quality.critical_called)} / ${formatCount(a.quality.critical_values)}`}
                hint={
                  a.quality.critical_call_median_minutes === null
                    ? 'No calls logged'
                    : `Median ${a.quality.critical_call_median_minutes} min from entry to call`
                }
              />
            </dl>
          ) : (
            <LoadingState text="Loading quality metrics..." />
          )}
        </CardBody>
      </Card>

      {a && (
        <Card className="min-w-0 lg:col-span-3">
          <CardHeader title="Recent Activity" description="Latest verifications, amendments, send-backs and calls" />
          <CardBody>
            {a.recent.length === 0 ? (
              <p className="text-[13px] text-slate-600">No results have been verified yet.</p>
            ) : (
              <ul className="grid gap-1 text-[13px]">
                {a.recent.map((r, i) => (
                  <li key={`${r.kind}-${r.at}-${i}`} className="flex flex-wrap gap-x-2">
                    <span className="font-medium">{ACTIVITY[r.kind]}</span>
                    <span>
                      {r.test_name} · {r.sample_code}
                    </span>
                    <span className="text-slate-600">
                      {r.by ?? '—'} · <DateText value={r.at} withTime />
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </CardBody>
        </Card>
      )}
    </div>
  );
}

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div>
      <dt className="text-slate-600">{label}</dt>
      <dd className="text-[18px] font-semibold text-slate-900 tabular-nums">{value}</dd>
      {hint && <dd className="text-[12px] text-slate-600">{hint}</dd>}
    </div>
  );
}

function PerDayTable({ a }: { a: LabReportAnalytics }) {
  return (
    <div className="max-h-64 overflow-auto">
      <table className="w-full text-[13px]">
        <caption className="sr-only">Samples registered and reports completed per day</caption>
        <thead>
          <tr className="text-left text-slate-600">
            <th scope="col" className="py-1">
              Date
            </th>
            <th scope="col" className="py-1 text-right">
              Registered
            </th>
            <th scope="col" className="py-1 text-right">
              Completed
            </th>
          </tr>
        </thead>
        <tbody>
          {a.per_day.map((d) => (
            <tr key={d.date} className="border-t border-slate-100">
              <td className="py-1">{d.date}</td>
              <td className="py-1 text-right tabular-nums">{d.registered}</td>
              <td className="py-1 text-right tabular-nums">{d.completed}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
