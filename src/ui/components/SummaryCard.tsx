import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

export interface SummaryCardProps {
  label: string;
  /** The figure, already formatted (formatCount, formatInr). Never computed from a table page. */
  value: ReactNode;
  hint?: ReactNode;
  icon?: ReactNode;
  loading?: boolean;
  className?: string;
}

export function SummaryCard({ label, value, hint, icon, loading = false, className }: SummaryCardProps) {
  return (
    <div
      role="group"
      aria-label={label}
      className={cn('rounded-lg border border-slate-200 bg-white p-4 shadow-sm', className)}
    >
      <div className="flex items-start justify-between gap-2">
        <p className="text-[13px] font-medium text-slate-600">{label}</p>
        {icon && (
          <span className="text-slate-400 [&_svg]:size-4" aria-hidden="true">
            {icon}
          </span>
        )}
      </div>
      {loading ? (
        <div className="skeleton mt-2 h-7 w-20" aria-label={`${label}: loading`} />
      ) : (
        <p className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">{value}</p>
      )}
      {hint && <p className="mt-1 text-xs text-slate-600">{hint}</p>}
    </div>
  );
}
