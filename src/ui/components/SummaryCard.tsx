import type { CSSProperties, ReactNode } from 'react';
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

/**
 * A long figure (₹11,36,19,188.95 on a phone's half-width card) shrinks to the card's width instead
 * of breaking across lines: its font size is capped by the card's inline size (`cqi`) over its
 * length, at about 0.62 em a character for the tabular digits.
 */
function fitStyle(value: ReactNode): CSSProperties | undefined {
  if (typeof value !== 'string' || value.length <= 10) return undefined;
  return { '--fit': `${Math.floor(1000 / (0.62 * value.length)) / 10}cqi` } as CSSProperties;
}

export function SummaryCard({ label, value, hint, icon, loading = false, className }: SummaryCardProps) {
  const fit = fitStyle(value);
  return (
    <div
      role="group"
      aria-label={label}
      className={cn('@container rounded-lg border border-slate-200 bg-white p-4 shadow-sm', className)}
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
          className={cn(
            'mt-1 font-semibold text-slate-900 tabular-nums [overflow-wrap:anywhere]',
            fit
              ? 'text-[length:min(1.25rem,var(--fit))] sm:text-[length:min(1.5rem,var(--fit))]'
              : 'text-xl sm:text-2xl',
          )}
          style={fit}
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
