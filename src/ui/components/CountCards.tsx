import type { ReactNode } from 'react';
import { SummaryCard } from '@/components';
import { formatCount } from '@/lib/format';
import { NOT_AVAILABLE, type DashboardCounts } from '@/lib/dashboard';

export interface CountCardDef {
  key: keyof DashboardCounts;
  label: string;
  icon: ReactNode;
  /** Hint under a real figure, e.g. "registered". */
  hint: string;
}

/** Summary cards for server counts; null counts read "—" with "not available yet". */
export function CountCards({
  defs,
  counts,
  loading,
}: {
  defs: CountCardDef[];
  counts: DashboardCounts | undefined;
  loading: boolean;
}) {
  return (
    <>
      {defs.map((d) => {
        const value = counts?.[d.key];
        return (
          <SummaryCard
            key={d.key}
            label={d.label}
            icon={d.icon}
            loading={loading}
            value={formatCount(value)}
            hint={value === null ? NOT_AVAILABLE : d.hint}
          />
        );
      })}
    </>
  );
}
