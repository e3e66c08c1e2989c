import { AlertOctagon, CheckCircle2 } from 'lucide-react';
import type { TestResult } from '@shared/schemas/results';
import { Button } from '@/components';
import { useResults, useVerifyResultMutation } from '../api';
import { fullName, ValueCell } from './cells';

/** Critical Values Alert: unverified critical results, each with Validate. Shown only while there are some. */
export function CriticalAlert({ canVerify }: { canVerify: boolean }) {
  const critical = useResults({ critical: 'true', status: 'completed', limit: 20, entered: 'true' });
  const verify = useVerifyResultMutation();
  const rows = critical.data?.results ?? [];
  if (critical.isError) {
    return (
      <p role="alert" className="mb-5 rounded-lg border border-red-200 bg-red-50 p-3 text-[13px] text-red-900">
        Critical values could not be loaded: {critical.error.message}
      </p>
    );
  }
  if (!rows.length) return null;
  return (
    <section aria-labelledby="critical-title" className="mb-5 rounded-lg border border-red-300 bg-red-50 p-4">
      <h2 id="critical-title" className="flex items-center gap-2 text-[15px] font-semibold text-red-900">
        <AlertOctagon className="size-5" aria-hidden="true" />
        Critical Values Alert
        <span className="text-[13px] font-normal">
          ({critical.data!.total} awaiting validation: inform the clinician)
        </span>
      </h2>
      <ul className="mt-3 grid gap-2">
        {rows.map((r: TestResult) => (
          <li
            key={r.key}
            className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-white px-3 py-2 text-[13px] ring-1 ring-red-200"
          >
            <span className="min-w-0">
              <span className="font-medium text-slate-900">{fullName(r)}</span>
              <span className="text-slate-600">
                {' '}
                · {r.patient_number} · {r.sample_number}
              </span>
              <span className="block">
                {r.test_name}: <ValueCell r={r} />{' '}
                <span className="text-slate-600">(range {r.normal_range ?? 'not set'})</span>
              </span>
            </span>
            {canVerify && (
              <Button
                size="sm"
                variant="outline"
                onClick={() => verify.mutate(r)}
                disabled={verify.isPending}
                aria-label={`Validate ${r.test_name} of ${fullName(r)}`}
              >
                <CheckCircle2 />
                Validate
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
