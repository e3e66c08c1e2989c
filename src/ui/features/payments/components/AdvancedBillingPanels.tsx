import { Link } from 'react-router';
import { Calculator, FileText, Percent, Repeat, Split } from 'lucide-react';
import type { Bill, BillSummary } from '@shared/schemas/bills';
import { addDays, localDate } from '@shared/time';
import { Badge, Button, Card, CardBody, CardHeader, DateText, Money } from '@/components';
import { patientName } from '@/lib/billText';
import { formatCount, useLabFormat } from '@/lib/format';
import { useBillRecords, useLedgerPeriods, usePaymentPage } from '../api';

/** How many overdue bills the panel lists, oldest due first is the Billing Records' status filter. */
const OVERDUE_SHOWN = 5;
/** Payment Trends: this month and the five before it. */
const TREND_MONTHS = 6;

function useLabToday(): string {
  return localDate(useLabFormat().timeZone);
}

/** Calendar months ending with the lab's current one: [{ label, from, to }] oldest first. */
function lastMonths(today: string, n: number) {
  const out: { month: string; from: string; to: string }[] = [];
  let y = Number(today.slice(0, 4));
  let m = Number(today.slice(5, 7));
  for (let i = 0; i < n; i++) {
    const mm = String(m).padStart(2, '0');
    const from = `${y}-${mm}-01`;
    const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
    out.unshift({ month: `${y}-${mm}`, from, to: i === 0 ? today : addDays(next, -1) });
    m -= 1;
    if (m === 0) {
      m = 12;
      y -= 1;
    }
  }
  return out;
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const monthLabel = (ym: string) => `${MONTH_NAMES[Number(ym.slice(5, 7)) - 1]} ${ym.slice(0, 4)}`;

function Retry({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <p role="alert" className="p-4 text-[13px] text-red-700">
      {what} could not be loaded.{' '}
      <button type="button" className="underline" onClick={onRetry}>
        Retry
      </button>
    </p>
  );
}

/** Overdue Bills: unpaid past their due date, each with Collect Payment (the Record Payment dialog on that bill). */
export function OverdueBillsPanel({ onCollect }: { onCollect: ((b: Bill) => void) | null }) {
  const q = useBillRecords({ status: 'overdue', page: 1, limit: OVERDUE_SHOWN });
  const bills = q.data?.bills;
  return (
    <Card>
      <CardHeader
        title="Overdue Bills"
        description={q.data ? `${formatCount(q.data.total)} overdue` : undefined}
        as="h2"
      />
      <CardBody className="p-0">
        {q.isError ? (
          <Retry what="Overdue bills" onRetry={() => void q.refetch()} />
        ) : !bills ? (
          <div className="skeleton m-4 h-16" aria-label="Loading overdue bills" />
        ) : bills.length === 0 ? (
          <p className="p-4 text-sm text-slate-600">No overdue bills.</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Overdue bills">
            {bills.map((b) => (
              <li key={b.id} className="flex items-center justify-between gap-3 px-4 py-2.5">
                <span className="min-w-0">
                  <span className="block truncate font-mono text-[13px] text-slate-900">{b.bill_number}</span>
                  <span className="block truncate text-xs text-slate-600">
                    {patientName(b)} · due <DateText value={b.due_date} />
                  </span>
                  <Money rupees={b.balance} className="block text-sm font-medium text-red-700" />
                </span>
                {onCollect && (
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => onCollect(b)}
                    aria-label={`Collect payment for bill ${b.bill_number}`}
                  >
                    Collect Payment
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}

/** Financial Summary: what was billed and is owed (all live bills), and this month's money from the ledger. */
export function FinancialSummary({ summary, error }: { summary: BillSummary | undefined; error: Error | null }) {
  const today = useLabToday();
  const month = usePaymentPage({ from: `${today.slice(0, 8)}01`, to: today, limit: 1 });
  const m = month.data?.summary;
  const rows: [string, number | undefined, string?][] = [
    ['Billed (all live bills)', summary?.total_amount],
    ['Collected on them', summary?.paid_amount],
    ['Outstanding', summary?.outstanding_amount, 'font-semibold'],
    ['of which overdue', summary?.overdue_amount, 'text-red-700'],
    ['Received this month', m?.received],
    ['Refunded this month', m?.refunded],
    ['Net this month', m?.net, 'font-semibold'],
    ['Cheques pending', m?.pending],
  ];
  return (
    <Card>
      <CardHeader
        title="Financial Summary"
        as="h2"
        description={
          summary
            ? `Collection rate ${summary.collection_rate}% · average bill ₹${summary.average_bill.toFixed(2)}`
            : undefined
        }
      />
      <CardBody>
        {error || month.error ? (
          <Retry what="The figures" onRetry={() => void month.refetch()} />
        ) : (
          <dl className="grid gap-1.5 text-sm" aria-label="Financial summary">
            {rows.map(([label, v, cls]) => (
              <div key={label} className="flex justify-between gap-3">
                <dt className="text-slate-600">{label}</dt>
                <dd className={cls ?? 'text-slate-900'}>{v === undefined ? '…' : <Money rupees={v} />}</dd>
              </div>
            ))}
          </dl>
        )}
      </CardBody>
    </Card>
  );
}

/** The trend table's columns: the label and its cell's classes (Refunded goes on a phone). */
const TREND_HEADS = [
  ['Month', 'px-4 py-2 font-medium'],
  ['Received', 'px-2 py-2 text-right font-medium'],
  ['Refunded', 'hidden px-2 py-2 text-right font-medium sm:table-cell'],
  ['Net', 'px-4 py-2 text-right font-medium'],
] as const;

/** Payment Trends: money received, refunded and net per month for six months, from the ledger. */
export function PaymentTrends() {
  const today = useLabToday();
  const months = lastMonths(today, TREND_MONTHS);
  const results = useLedgerPeriods(months);
  const failed = results.find((r) => r.error);
  const nets = results.map((r) => r.data?.summary.net ?? 0);
  const top = Math.max(1, ...nets.map(Math.abs));
  return (
    <Card>
      <CardHeader title="Payment Trends" as="h2" description="Net money received per month (received less refunds)" />
      <CardBody className="p-0">
        {failed ? (
          <Retry what="Payment trends" onRetry={() => results.forEach((r) => void r.refetch())} />
        ) : (
          <table className="w-full text-sm" aria-label="Payment trends">
            <thead className="text-left text-xs text-slate-600">
              <tr>
                {TREND_HEADS.map(([label, className]) => (
                  <th key={label} scope="col" className={className}>
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {months.map((mo, i) => {
                const s = results[i]?.data?.summary;
                return (
                  <tr key={mo.month}>
                    <th scope="row" className="px-4 py-2 text-left font-normal whitespace-nowrap text-slate-700">
                      {monthLabel(mo.month)}
                      <span
                        aria-hidden="true"
                        className="mt-1 block h-1.5 rounded bg-primary-500"
                        style={{ width: `${Math.round((Math.abs(nets[i] ?? 0) / top) * 100)}%` }}
                      />
                    </th>
                    <td className="px-2 py-2 text-right">{s ? <Money rupees={s.received} /> : '…'}</td>
                    <td className="hidden px-2 py-2 text-right sm:table-cell">
                      {s ? <Money rupees={s.refunded} /> : '…'}
                    </td>
                    <td className="px-4 py-2 text-right font-medium">{s ? <Money rupees={s.net} /> : '…'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </CardBody>
    </Card>
  );
}

/**
 * The spec's feature tiles, each leading to the real feature. The online Payment Gateway tile is
 * left out (docs/decisions.md: lims runs on the clinic's LAN with no payment provider).
 */
export function FeatureTiles() {
  const tiles = [
    {
      to: '/op-bill',
      title: 'Auto Calculation',
      text: 'OP Bill works out lines, GST, discount and total.',
      icon: Calculator,
    },
    {
      to: '/invoices',
      title: 'Recurring Bills',
      text: 'A payer’s bills of a period on one monthly GST invoice.',
      icon: Repeat,
    },
    {
      to: '/advanced-billing?status=partial',
      title: 'Payment Plans',
      text: 'Bills being paid in parts: the partly paid bills.',
      icon: Split,
    },
    {
      to: '/billing-management#billing-settings',
      title: 'Invoice Templates',
      text: 'The lab’s GSTIN and state printed on invoices, and bill due days.',
      icon: FileText,
    },
    {
      to: '/billing-management#billing-settings',
      title: 'Discount Management',
      text: 'The most each role may discount without an approver.',
      icon: Percent,
    },
  ];
  return (
    <section aria-label="Billing features" className="mt-5 grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-5">
      {tiles.map((t) => (
        <Link
          key={t.title}
          to={t.to}
          className="rounded-lg border border-slate-200 bg-white p-4 hover:border-primary-300 hover:bg-slate-50"
        >
          <t.icon className="mb-2 size-5 text-primary-600" aria-hidden="true" />
          <span className="block text-sm font-semibold text-slate-900">{t.title}</span>
          <span className="mt-0.5 block text-[13px] text-slate-600">{t.text}</span>
        </Link>
      ))}
    </section>
  );
}

/** A bill's payment method column: the methods the ledger received money by, or Not Paid. */
export function PaidMethods({ bill, label }: { bill: Bill; label: (m: string) => string }) {
  const methods = bill.paid_methods ?? [];
  if (!methods.length) return <Badge tone="grey">Not Paid</Badge>;
  return <span className="whitespace-nowrap">{methods.map(label).join(', ')}</span>;
}
