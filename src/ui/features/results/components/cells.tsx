import type { TestResult } from '@shared/schemas/results';
import { resultCode } from '@shared/schemas/results';
import { Badge, type BadgeTone } from '@/components';
import { cn } from '@/lib/cn';

/** Flag badge (spec: High/Low red, Normal green, Abnormal red); nothing when the test has no usable range. */
const FLAGS: Record<string, { label: string; tone: BadgeTone }> = {
  high: { label: 'High', tone: 'red' },
  low: { label: 'Low', tone: 'red' },
  abnormal: { label: 'Abnormal', tone: 'red' },
  normal: { label: 'Normal', tone: 'green' },
};

export function FlagBadge({ flag }: { flag: string | null }) {
  if (!flag) return <span className="text-slate-500">—</span>;
  const f = FLAGS[flag] ?? { label: flag, tone: 'grey' as const };
  return <Badge tone={f.tone}>{f.label}</Badge>;
}

export function ResultStatusBadge({ r }: { r: TestResult }) {
  return <Badge status={r.status} />;
}

export function ValidationBadge({ r }: { r: TestResult }) {
  if (!r.validation_status) return <Badge status="pending">Awaiting result</Badge>;
  const tone: BadgeTone = { pending: 'amber', review_required: 'amber', validated: 'green', rejected: 'red' }[
    r.validation_status
  ] as BadgeTone;
  const label = {
    pending: 'Pending',
    review_required: 'Review Required',
    validated: 'Validated',
    rejected: 'Rejected',
  }[r.validation_status];
  return <Badge tone={tone}>{label}</Badge>;
}

/** The Result Validation flags: QC Held, Critical Value, Abnormal, Review Required. */
export function ValidationFlags({ r }: { r: TestResult }) {
  const abnormal = r.flag !== null && r.flag !== 'normal';
  const qcHeld = !!r.qc?.held;
  if (!r.is_critical && !abnormal && !r.review_required && !qcHeld) return <span className="text-slate-500">—</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {qcHeld && <Badge tone="red">QC Held</Badge>}
      {r.is_critical && <Badge tone="red">Critical Value</Badge>}
      {abnormal && <Badge tone="red">Abnormal</Badge>}
      {r.review_required && r.status === 'completed' && <Badge tone="amber">Review Required</Badge>}
    </span>
  );
}

export function PriorityBadge({ priority }: { priority: string }) {
  const tone: BadgeTone =
    priority === 'urgent' ? 'red' : priority === 'high' ? 'amber' : priority === 'low' ? 'grey' : 'blue';
  return <Badge tone={tone}>{priority.charAt(0).toUpperCase() + priority.slice(1)}</Badge>;
}

/** Value with its unit; out-of-range values in bold, critical ones in red. */
export function ValueCell({ r }: { r: TestResult }) {
  if (r.result_value === null) return <span className="text-slate-500 italic">Not entered</span>;
  const abnormal = r.flag !== null && r.flag !== 'normal';
  // A structured result's summary can be long: two lines here, every parameter in the review dialog.
  if (r.structured)
    return (
      <span title={r.result_value} className={cn('line-clamp-2 max-w-72', abnormal && 'font-semibold')}>
        {r.result_value}
      </span>
    );
  return (
    <span className={cn('tabular-nums', abnormal && 'font-semibold', r.is_critical && 'text-red-700')}>
      {r.result_value}
      {r.unit && <span className="ml-1 text-xs font-normal text-slate-600">{r.unit}</span>}
    </span>
  );
}

export function PatientCell({ r }: { r: TestResult }) {
  return (
    <span className="grid">
      <span className="font-medium text-slate-900">
        {r.first_name} {r.last_name}
      </span>
      <span className="text-xs text-slate-600">{r.patient_number}</span>
    </span>
  );
}

/** Result IDs are integers here; the column shows "R-" and the id padded to 6 digits (8 characters, as the spec's column). */
export function ResultIdCell({ r }: { r: TestResult }) {
  return <span className="font-mono text-xs text-slate-700">{resultCode(r.id)}</span>;
}

export const fullName = (r: Pick<TestResult, 'first_name' | 'last_name'>) => `${r.first_name} ${r.last_name}`;
