import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { humanize } from '@/lib/format';

export type BadgeTone = 'green' | 'amber' | 'red' | 'blue' | 'grey';

const tones: Record<BadgeTone, string> = {
  green: 'bg-green-50 text-green-800 ring-green-600/25',
  amber: 'bg-amber-50 text-amber-900 ring-amber-600/30',
  red: 'bg-red-50 text-red-800 ring-red-600/25',
  blue: 'bg-blue-50 text-blue-800 ring-blue-600/25',
  grey: 'bg-slate-100 text-slate-700 ring-slate-500/25',
};

/** One colour per meaning, everywhere (docs/ui.md). Unknown statuses are grey. */
const STATUS_TONES: Record<string, BadgeTone> = {
  done: 'green',
  completed: 'green',
  complete: 'green',
  paid: 'green',
  verified: 'green',
  validated: 'green',
  approved: 'green',
  normal: 'green',
  active: 'green',
  success: 'green',
  ok: 'green',
  passed: 'green',
  in_stock: 'green',
  scheduled: 'green',
  pending: 'amber',
  partial: 'amber',
  processing: 'amber',
  in_progress: 'amber',
  low: 'amber',
  low_stock: 'amber',
  unpaid: 'amber',
  warning: 'amber',
  review_required: 'amber',
  abnormal: 'red',
  overdue: 'red',
  rejected: 'red',
  critical: 'red',
  high: 'red',
  failed: 'red',
  error: 'red',
  expired: 'red',
  out_of_stock: 'red',
  info: 'blue',
  collected: 'blue',
  received: 'blue',
  new: 'blue',
  suspended: 'red',
  inactive: 'grey',
  cancelled: 'grey',
  canceled: 'grey',
  none: 'grey',
  draft: 'grey',
};

export function statusTone(status: string): BadgeTone {
  return (
    STATUS_TONES[
      status
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_')
    ] ?? 'grey'
  );
}

export interface BadgeProps {
  /** A status value ("paid", "pending"...): picks the colour and, without children, the text. */
  status?: string;
  tone?: BadgeTone;
  children?: ReactNode;
  className?: string;
}

export function Badge({ status, tone, children, className }: BadgeProps) {
  const t = tone ?? (status ? statusTone(status) : 'grey');
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        tones[t],
        className,
      )}
    >
      {children ?? (status ? humanize(status) : null)}
    </span>
  );
}
