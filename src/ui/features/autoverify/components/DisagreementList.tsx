import type { Disagreement } from '@shared/schemas/autoverify';
import { Badge, Card, CardBody, CardHeader, DateText } from '@/components';

const HUMAN: Record<Disagreement['human'], string> = {
  verified: 'Verified it',
  rejected: 'Sent it back',
  amended: 'Changed the value',
  waiting: 'Not yet dealt with',
};

function whatThePersonDid(d: Disagreement): string {
  if (d.human === 'verified') return `Verified it${d.verified_by_name ? ` (${d.verified_by_name})` : ''}`;
  if (d.human === 'rejected') return `Sent it back${d.rejection_reason ? `: ${d.rejection_reason}` : ''}`;
  return HUMAN[d.human];
}

/** One group of disagreements, each with what the rules said (and why) and what the person did. */
export function DisagreementList({
  title,
  description,
  rows,
  tone,
}: {
  title: string;
  description: string;
  rows: Disagreement[];
  tone: 'red' | 'amber';
}) {
  return (
    <Card className="mb-5">
      <CardHeader
        title={
          <span className="flex flex-wrap items-center gap-2">
            {title}
            <Badge tone={tone}>{rows.length}</Badge>
          </span>
        }
        description={description}
      />
      <CardBody>
        {rows.length === 0 ? (
          <p className="text-sm text-slate-600">None in this period.</p>
        ) : (
          <ul className="grid gap-3" aria-label={title}>
            {rows.map((d) => {
              const held = d.reasons.filter((r) => !r.passed);
              const passed = d.reasons.filter((r) => r.passed);
              return (
                <li key={d.result_id} className="rounded-md border border-slate-200 p-3 text-[13px]">
                  <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
                    <p className="text-sm font-medium text-slate-900">
                      {d.test_name}{' '}
                      <span className="tabular-nums">
                        {d.value ?? '—'}
                        {d.unit ? ` ${d.unit}` : ''}
                      </span>
                    </p>
                    <p className="text-slate-600">
                      {d.patient_name} · {d.patient_code} · <span className="font-mono text-xs">{d.sample_code}</span> ·{' '}
                      <DateText value={d.decided_at} withTime />
                    </p>
                  </div>
                  <dl className="mt-2 grid gap-x-3 gap-y-1 sm:grid-cols-[9rem_1fr]">
                    <dt className="text-slate-600">The rules</dt>
                    <dd className="text-slate-900">
                      {d.kind === 'would_release_held' ? 'Would release' : 'Would hold'}
                      {held.length > 0 && (
                        <ul className="mt-0.5 list-disc pl-4 text-red-800">
                          {held.map((r) => (
                            <li key={r.rule + r.text}>{r.text}</li>
                          ))}
                        </ul>
                      )}
                      {passed.length > 0 && (
                        <details className="mt-0.5 text-slate-700">
                          <summary className="cursor-pointer">{passed.length} conditions passed</summary>
                          <ul className="list-disc pl-4">
                            {passed.map((r) => (
                              <li key={r.rule + r.text}>{r.text}</li>
                            ))}
                          </ul>
                        </details>
                      )}
                    </dd>
                    <dt className="text-slate-600">The validator</dt>
                    <dd className="text-slate-900">{whatThePersonDid(d)}</dd>
                  </dl>
                </li>
              );
            })}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}
