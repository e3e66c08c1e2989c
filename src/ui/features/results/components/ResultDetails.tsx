import type { AutoverifyDecision } from '@shared/schemas/autoverify';
import type { TestResult } from '@shared/schemas/results';
import { Card, CardBody, CardHeader } from '@/components';
import { AutoverifyNote } from './AutoverifyNote';
import { FlagBadge, fullName } from './cells';

/** Spec: "A Result Details section lists results that have a value, with value, unit, normal range and notes" (this page's rows). */
export function ResultDetails({
  rows,
  decisions,
}: {
  rows: TestResult[] | undefined;
  decisions?: Map<number, AutoverifyDecision> | undefined;
}) {
  const withValue = (rows ?? []).filter((r) => r.result_value !== null);
  if (!withValue.length) return null;
  return (
    <Card className="mt-5">
      <CardHeader title="Result Details" description="Results on this page that have a value" />
      <CardBody>
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {withValue.map((r) => (
            <li key={r.key} className="rounded-md border border-slate-200 p-3 text-[13px]">
              <div className="flex items-start justify-between gap-2">
                <p className="font-medium text-slate-900">{r.test_name}</p>
                <FlagBadge flag={r.flag} />
              </div>
              <p className="text-xs text-slate-600">
                {fullName(r)} · {r.sample_number}
              </p>
              <dl className="mt-2 grid grid-cols-[6.5rem_1fr] gap-x-2 gap-y-0.5">
                <dt className="text-slate-600">Value</dt>
                <dd className={r.flag && r.flag !== 'normal' ? 'font-semibold text-slate-900' : 'text-slate-900'}>
                  {r.result_value}
                </dd>
                <dt className="text-slate-600">Unit</dt>
                <dd className="text-slate-900">{r.unit ?? '—'}</dd>
                <dt className="text-slate-600">Normal range</dt>
                <dd className="text-slate-900">{r.normal_range ?? '—'}</dd>
                <dt className="text-slate-600">Notes</dt>
                <dd className="text-slate-900">{r.notes ?? '—'}</dd>
                {r.verified_by_name && (
                  <>
                    <dt className="text-slate-600">Verified by</dt>
                    <dd className="text-slate-900">{r.verified_by_name}</dd>
                  </>
                )}
              </dl>
              <AutoverifyNote r={r} decision={r.id === null ? undefined : decisions?.get(r.id)} className="mt-2" />
            </li>
          ))}
        </ul>
      </CardBody>
    </Card>
  );
}
