import type { ReactNode } from 'react';
import { AlertCircle, CheckCircle2, Clock, IndianRupee, Receipt, Wallet } from 'lucide-react';
import type { BillSummary } from '@shared/schemas/bills';
import { Badge, Card, CardBody, CardHeader, ErrorPanel, SummaryCards, type SummaryCardItem } from '@/components';
import { formatCount, formatMoney } from '@/lib/format';
import type { useBillSummary } from '../api';
import { paiseOf } from '@/lib/billText';

type SummaryQuery = ReturnType<typeof useBillSummary>;

const inr = (rupees: number) => formatMoney(paiseOf(rupees));
const rate = (s: BillSummary) => `${s.collection_rate.toFixed(1)}%`;
const bills = (n: number) => `${formatCount(n)} ${n === 1 ? 'bill' : 'bills'}`;

/** The cards of one summary, or its error panel (with Retry) when the summary could not be read. */
function Figures({
  summary,
  error,
  cards,
}: {
  summary: SummaryQuery;
  error: { title: string; retryLabel?: string };
  cards: (s: BillSummary | undefined) => SummaryCardItem[];
}) {
  if (summary.isError) {
    return <ErrorPanel {...error} query={summary} className="mb-5" />;
  }
  return <SummaryCards loading={summary.isPending} cards={cards(summary.data)} />;
}

/** The spec's four Bills List cards, from GET /api/bills/summary (every bill of the lab, not this page). */
export function BillsListCards({ summary }: { summary: SummaryQuery }) {
  return (
    <Figures
      summary={summary}
      error={{ title: 'Error Loading Bills' }}
      cards={(s) => [
        {
          label: 'Total Bills',
          icon: <Receipt />,
          value: s && formatCount(s.total_bills),
          hint: s && (s.cancelled_count ? `${formatCount(s.cancelled_count)} cancelled` : 'All bills on record'),
        },
        {
          label: 'Total Revenue',
          icon: <IndianRupee />,
          value: s && inr(s.total_amount),
          hint: s && `${inr(s.paid_amount)} collected`,
        },
        {
          label: 'Paid',
          icon: <CheckCircle2 />,
          value: s && formatCount(s.paid_count),
          hint: s && `Collection rate ${rate(s)}`,
        },
        {
          label: 'Pending',
          icon: <Clock />,
          value: s && formatCount(s.pending_count),
          hint: s && `${formatCount(s.overdue_count)} overdue`,
        },
      ]}
    />
  );
}

/** Billing Management's cards (spec 2.16): Total Revenue, Paid, Pending, Overdue. */
export function ManagementCards({ summary }: { summary: SummaryQuery }) {
  return (
    <Figures
      summary={summary}
      error={{ title: 'Database Connection Error', retryLabel: 'Retry Connection' }}
      cards={(s) => [
        {
          label: 'Total Revenue',
          icon: <IndianRupee />,
          value: s && inr(s.total_amount),
          hint: s && `${bills(s.total_bills - s.cancelled_count)} · today ${inr(s.todays_revenue)}`,
        },
        {
          label: 'Paid',
          icon: <CheckCircle2 />,
          value: s && inr(s.paid_amount),
          hint: s && `${bills(s.paid_count)} fully paid · ${rate(s)}`,
        },
        {
          label: 'Pending',
          icon: <Wallet />,
          value: s && inr(s.outstanding_amount),
          hint: s && `${formatCount(s.pending_count)} unpaid · ${formatCount(s.partial_count)} partial`,
        },
        {
          label: 'Overdue',
          icon: <AlertCircle />,
          value: s && formatCount(s.overdue_count),
          hint: 'Unpaid past the due date',
        },
      ]}
    />
  );
}

function Line({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex items-baseline justify-between gap-3 py-1">
      <dt className="text-slate-600">{label}</dt>
      <dd className="font-medium text-slate-900 tabular-nums" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

function Placeholder({ summary }: { summary: SummaryQuery }) {
  if (summary.isError) return <p className="text-sm text-red-700">Figures could not be loaded.</p>;
  return <div className="skeleton h-24 w-full" aria-label="Loading figures" />;
}

/** Bill Summary (spec 9 figures): collected, outstanding, collection rate, average bill, today's revenue. */
export function BillSummaryCard({ summary }: { summary: SummaryQuery }) {
  const s = summary.data;
  return (
    <Card>
      <CardHeader title="Bill Summary" as="h2" />
      <CardBody className="text-sm">
        {s ? (
          <dl>
            <Line label="Total amount">{inr(s.total_amount)}</Line>
            <Line label="Collected">{inr(s.paid_amount)}</Line>
            <Line label="Outstanding">{inr(s.outstanding_amount)}</Line>
            <Line label="Collection rate" testId="collection-rate">
              {rate(s)}
            </Line>
            <Line label="Average bill">{inr(s.average_bill)}</Line>
            <Line label="Today's revenue">{inr(s.todays_revenue)}</Line>
          </dl>
        ) : (
          <Placeholder summary={summary} />
        )}
      </CardBody>
    </Card>
  );
}

/** Payment Status: how many bills are paid, partly paid and unpaid (cancelled bills are left out). */
export function PaymentStatusCard({ summary }: { summary: SummaryQuery }) {
  const s = summary.data;
  return (
    <Card>
      <CardHeader title="Payment Status" as="h2" />
      <CardBody className="text-sm">
        {s ? (
          <dl>
            <Line label="Paid" testId="count-paid">
              <Badge status="paid">{formatCount(s.paid_count)}</Badge>
            </Line>
            <Line label="Partial" testId="count-partial">
              <Badge status="partial">{formatCount(s.partial_count)}</Badge>
            </Line>
            <Line label="Unpaid" testId="count-unpaid">
              <Badge status="unpaid">{formatCount(s.pending_count)}</Badge>
            </Line>
          </dl>
        ) : (
          <Placeholder summary={summary} />
        )}
      </CardBody>
    </Card>
  );
}
