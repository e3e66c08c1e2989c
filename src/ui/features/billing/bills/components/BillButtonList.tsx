import type { ReactNode } from 'react';
import type { Bill } from '@shared/schemas/bills';
import { Badge, Money } from '@/components';
import type { useBills } from '../api';

export interface BillButtonListProps {
  query: ReturnType<typeof useBills>;
  /** "Recent bills": the list's accessible name ("Loading recent bills" while it loads). */
  label: string;
  errorText: string;
  emptyText: string;
  /** The button's accessible name: what opening the bill is for. */
  actionLabel: (b: Bill) => string;
  /** The line under the bill number. */
  detail: (b: Bill) => ReactNode;
  /** The figure on the right (rupees) and the badge under it. */
  amount: (b: Bill) => number;
  status: (b: Bill) => string;
  onOpen: (b: Bill) => void;
}

/** A side panel's short list of bills, each a button that opens the bill; its loading, error and empty states. */
export function BillButtonList({ query, label, errorText, emptyText, ...row }: BillButtonListProps) {
  const bills = query.data?.bills;
  if (query.isError) return <p className="p-4 text-sm text-red-700">{errorText}</p>;
  if (!bills) return <div className="skeleton m-4 h-16" aria-label={`Loading ${label.toLowerCase()}`} />;
  if (bills.length === 0) return <p className="p-4 text-sm text-slate-600">{emptyText}</p>;
  return (
    <ul className="divide-y divide-slate-100" aria-label={label}>
      {bills.map((b) => (
        <li key={b.id}>
          <button
            type="button"
            onClick={() => row.onOpen(b)}
            className="flex w-full items-start justify-between gap-3 px-4 py-2.5 text-left hover:bg-slate-50 focus-visible:bg-slate-50"
            aria-label={row.actionLabel(b)}
          >
            <span className="min-w-0">
              <span className="block truncate font-mono text-[13px] text-slate-900">{b.bill_number}</span>
              <span className="block truncate text-xs text-slate-600">{row.detail(b)}</span>
            </span>
            <span className="shrink-0 text-right text-sm">
              <Money rupees={row.amount(b)} className="block" />
              <Badge status={row.status(b)} className="mt-0.5" />
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
