import { Card, CardBody, CardHeader, DateText, ErrorPanel, LoadingState } from '@/components';
import { formatCount } from '@/lib/format';
import { useValidationQuality } from '../api';

const KIND = { verified: 'Verified', amended: 'Amended', sent_back: 'Sent back', called: 'Critical call logged' };
const pct = (p: number | null) => (p === null ? '—' : `${p}%`);

/** Result Validation's Quality Metrics and Recent Activity: the same figures as Lab Reports, last 30 days. */
export function QualityPanels() {
  const q = useValidationQuality();
  const a = q.data;
  return (
    <div className="mt-5 grid gap-5 lg:grid-cols-2">
      <Card className="min-w-0">
        <CardHeader title="Quality Metrics" description={a ? `Last 30 days (${a.from} to ${a.to})` : undefined} />
        <CardBody>
          {q.isPending ? (
            <LoadingState text="Loading quality metrics..." />
          ) : q.isError ? (
            <ErrorPanel title="Error Loading Quality Metrics" query={q} />
          ) : (
            <dl className="grid grid-cols-2 gap-3 text-[13px]">
              <Metric
                label="Amendment rate"
                value={pct(a!.quality.amendment_rate)}
                hint={`${formatCount(a!.quality.amended_results)} of ${formatCount(a!.quality.verified_results)} verified`}
              />
              <Metric
                label="Sample rejection rate"
                value={pct(a!.quality.rejection_rate)}
                hint={`${formatCount(a!.quality.rejected_samples)} of ${formatCount(a!.quality.samples)} samples`}
              />
              <Metric
                label="Sent back for re-entry"
                value={formatCount(a!.quality.sent_back_results)}
                hint={`of ${formatCount(a!.quality.entered_results)} entered`}
              />
              <Metric
                label="Turnaround (median)"
                value={a!.turnaround.median_hours === null ? '—' : `${a!.turnaround.median_hours} h`}
                hint={`${formatCount(a!.turnaround.reports)} reports completed`}
              />
            </dl>
          )}
        </CardBody>
      </Card>
      <Card className="min-w-0">
        <CardHeader title="Recent Activity" />
        <CardBody>
          {a && a.recent.length === 0 && <p className="text-[13px] text-slate-600">No validation activity yet.</p>}
          {a && a.recent.length > 0 && (
            <ul className="grid gap-1 text-[13px]">
              {a.recent.map((r, i) => (
                <li key={`${r.kind}-${r.at}-${i}`}>
                  <span className="font-medium">{KIND[r.kind]}</span> {r.test_name} · {r.sample_code}
                  <span className="block text-slate-600">
                    {r.by ?? '—'} · <DateText value={r.at} withTime />
                  </span>
                </li>
              ))}
            </ul>
          )}
          {q.isPending && <LoadingState text="Loading recent activity..." />}
        </CardBody>
      </Card>
    </div>
  );
}

function Metric({ label, value, hint }: { label: string; value: string; hint: string }) {
  return (
    <div>
      <dt className="text-slate-600">{label}</dt>
      <dd className="text-[18px] font-semibold tabular-nums">{value}</dd>
      <dd className="text-[12px] text-slate-600">{hint}</dd>
    </div>
  );
}
