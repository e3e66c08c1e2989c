import { AlertOctagon, PhoneCall } from 'lucide-react';
import type { TestResult } from '@shared/schemas/results';
import { Badge, Button } from '@/components';
import { useResults } from '../api';
import { fullName, ValueCell } from './cells';

/**
 * Critical Values Alert: critical results whose call to the clinician is not logged yet (verified or
 * not), each opening its review, where the call is logged and the result validated. Shown only while
 * there are some: a report with a critical value is held until its call is logged.
 */
export function CriticalAlert({ onReview }: { onReview: (r: TestResult) => void }) {
  const critical = useResults({ critical_call: 'pending', limit: 20, entered: 'true' });
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
          ({critical.data!.total} to telephone: call the clinician and log the call)
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
            <span className="flex items-center gap-2">
              <Badge status={r.status} />
              <Button
                size="sm"
                variant="outline"
                onClick={() => onReview(r)}
                aria-label={`Review ${r.test_name} of ${fullName(r)} and log the call`}
              >
                <PhoneCall />
                Review &amp; Log Call
              </Button>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
