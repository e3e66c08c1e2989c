import { CheckCircle2, Clock, FlaskConical, TestTube, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { SAMPLE_PRIORITIES, SAMPLE_STATUSES, SAMPLE_TYPES, type SamplePriority } from '@shared/samples';
import type { Sample } from '@shared/schemas/samples';
import { Badge, type BadgeTone, type SelectOption } from '@/components';
import { humanize } from '@/lib/format';
import { choiceOptions } from '@/lib/usePagedList';

/** Sample Collection: all, pending, collected, processing, completed, rejected (spec 001 Sample Collection). */
export const STATUS_OPTIONS: SelectOption[] = choiceOptions('All Status', SAMPLE_STATUSES, humanize);
/** Barcode System and Sample Tracking leave pending out (spec 001 section 4). */
export const OPEN_STATUS_OPTIONS: SelectOption[] = STATUS_OPTIONS.filter((o) => o.value !== 'pending');
export const PRIORITY_OPTIONS: SelectOption[] = choiceOptions('All Priority', SAMPLE_PRIORITIES, humanize);
export const PRIORITY_CHOICES: SelectOption[] = SAMPLE_PRIORITIES.map((p) => ({ value: p, label: humanize(p) }));
export const TYPE_CHOICES: SelectOption[] = SAMPLE_TYPES.map((t) => ({ value: t, label: t }));

/** A URL value that is not one of the options falls back to "all", so a bad bookmark still loads. */
export function oneOf(value: string, options: readonly SelectOption[]): string {
  return options.some((o) => o.value === value) ? value : 'all';
}

const PRIORITY_TONES: Record<SamplePriority, BadgeTone> = { urgent: 'red', high: 'amber', normal: 'grey', low: 'grey' };

/** Spec 4: urgent, high, normal (and low); anything else shows as normal. */
export function PriorityBadge({ priority }: { priority: string }) {
  const p = (SAMPLE_PRIORITIES as readonly string[]).includes(priority) ? (priority as SamplePriority) : 'normal';
  return <Badge tone={PRIORITY_TONES[p]}>{humanize(p)}</Badge>;
}

const STATUS_ICONS: Record<string, ReactNode> = {
  pending: <Clock />,
  collected: <TestTube />,
  processing: <FlaskConical />,
  completed: <CheckCircle2 />,
  rejected: <XCircle />,
};

/** Status with its icon (Sample Tracking) or as a plain badge. */
export function StatusBadge({ status, icon = false }: { status: string; icon?: boolean }) {
  return (
    <Badge status={status} className="gap-1 [&_svg]:size-3.5">
      {icon && <span aria-hidden="true">{STATUS_ICONS[status] ?? <Clock />}</span>}
      {humanize(status)}
    </Badge>
  );
}

export function patientName(s: Pick<Sample, 'first_name' | 'last_name'>): string {
  const name = `${s.first_name ?? ''} ${s.last_name ?? ''}`.trim();
  return name || 'Unknown Patient';
}

export function collectorName(s: Pick<Sample, 'collector_first_name' | 'collector_last_name'>): string | null {
  const name = `${s.collector_first_name ?? ''} ${s.collector_last_name ?? ''}`.trim();
  return name || null;
}

/** "3 h 20 min", "45 min", "2 d 4 h": a processing time people read at a glance. */
export function formatMinutes(total: number): string {
  const m = Math.max(0, Math.round(total));
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** The link between a rejected sample and the tube drawn again for it, shown on both. */
export function RecollectLink({ s }: { s: Pick<Sample, 'recollect_of_code' | 'recollected_as_code'> }) {
  if (s.recollected_as_code)
    return <span className="block text-xs text-slate-600">Recollected as {s.recollected_as_code}</span>;
  if (s.recollect_of_code)
    return <span className="block text-xs text-amber-800">Recollection of {s.recollect_of_code}</span>;
  return null;
}
