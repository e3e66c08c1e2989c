import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Barcode, CheckCircle2, FlaskConical, TestTube, TestTubes } from 'lucide-react';
import type { SampleSummary } from '@shared/schemas/samples';
import { SummaryCard } from '@/components';
import { errorMessage } from '@/lib/api';
import { formatCount } from '@/lib/format';

export type CardKey = 'total' | 'with_barcode' | 'collected' | 'processing' | 'completed';

const CARDS: Record<CardKey, { label: string; icon: ReactNode; hint: (s: SampleSummary) => string }> = {
  total: {
    label: 'Total Samples',
    icon: <TestTubes />,
    hint: (s) => `${formatCount(s.pending)} pending · ${formatCount(s.rejected)} rejected`,
  },
  with_barcode: {
    label: 'With Barcodes',
    icon: <Barcode />,
    hint: (s) => `${formatCount(s.without_barcode)} without a barcode`,
  },
  collected: { label: 'Collected', icon: <TestTube />, hint: () => 'Waiting to be processed' },
  processing: { label: 'Processing', icon: <FlaskConical />, hint: () => 'In the lab now' },
  completed: { label: 'Completed', icon: <CheckCircle2 />, hint: (s) => `${s.completion_rate}% of all samples` },
};

/** The screen's four summary cards, figures from GET /api/samples/summary (never from the table page). */
export function SampleCards({ summary, cards }: { summary: UseQueryResult<SampleSummary>; cards: CardKey[] }) {
  const s = summary.data;
  return (
    <section aria-label="Sample summary" className="mb-5 grid grid-cols-2 gap-3 lg:grid-cols-4">
      {cards.map((key) => {
        const c = CARDS[key];
        return (
          <SummaryCard
            key={key}
            label={c.label}
            icon={c.icon}
            loading={summary.isPending}
            value={s ? formatCount(s[key]) : '—'}
            hint={summary.isError ? `Could not load: ${errorMessage(summary.error)}` : s ? c.hint(s) : undefined}
          />
        );
      })}
    </section>
  );
}
