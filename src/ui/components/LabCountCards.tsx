import type { useDashboardStats } from '@/lib/dashboard';
import { CountCards, type CountCardDef } from './CountCards';
import { ErrorPanel } from './States';

/**
 * The lab's counts as a row of cards (Dashboard, Home), or, when they cannot be read, the spec's
 * Database Connection Error with Retry Connection in their place.
 */
export function LabCountCards({
  stats,
  defs,
  label,
  className,
}: {
  stats: ReturnType<typeof useDashboardStats>;
  defs: CountCardDef[];
  /** Names the row for screen readers. */
  label: string;
  className: string;
}) {
  if (stats.isError) {
    return (
      <ErrorPanel title="Database Connection Error" query={stats} retryLabel="Retry Connection" className="mb-5" />
    );
  }
  return (
    <section aria-label={label} className={className}>
      <CountCards defs={defs} counts={stats.data} loading={stats.isPending} />
    </section>
  );
}
