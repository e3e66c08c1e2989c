import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

export interface SummaryCardProps {
  label: string;
  /** The figure, already formatted (formatCount, formatMoney). Never computed from a table page. */
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
        <p
          data-testid="summary-value"
          className="mt-1 text-xl font-semibold text-slate-900 tabular-nums [overflow-wrap:anywhere] sm:text-2xl"
        >
          {value}
        </p>
      )}
      {hint && <p className="mt-1 text-xs text-slate-600">{hint}</p>}
    </div>
  );
}

export interface SummaryCardItem {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  icon?: ReactNode;
}

/** A screen's row of figure cards (two across on phones, four on wide screens). */
export function SummaryCards({
  cards,
  loading = false,
  label,
  error,
  className = 'mb-5 grid grid-cols-2 gap-3 lg:grid-cols-4',
}: {
  cards: SummaryCardItem[];
  loading?: boolean;
  /** The figures' query failed: said under the cards (which show dashes). */
  error?: Error | null;
  /** Names the row for screen readers ("User counts"). */
  label?: string;
  className?: string;
}) {
  const body = cards.map((c) => <SummaryCard key={c.label} loading={loading} {...c} />);
  return (
    <>
      {label ? (
        <section aria-label={label} className={className}>
          {body}
        </section>
      ) : (
        <div className={className}>{body}</div>
      )}
      {error && <p className="-mt-3 mb-4 text-[13px] text-red-700">The figures could not be loaded: {error.message}</p>}
    </>
  );
}
