import { useState, type ReactNode } from 'react';
import { FileDown } from 'lucide-react';
import type { PayerStatement } from '@shared/schemas/payers';
import { localDate } from '@shared/time';
import { formatDate, useLabFormat } from '@/lib/format';
import { useIsMobile } from '@/lib/useIsMobile';
import { buttonClass } from './Button';
import { DataTable, type Column } from './DataTable';
import { DateRangeFields, rangeIsBackwards } from './DateRangeFields';
import { Money } from './Money';

type Entry = PayerStatement['entries'][number];

/** What every account statement has: the period's four figures and its ledger. */
export type LedgerStatement = Pick<PayerStatement, 'opening_balance' | 'billed' | 'paid' | 'closing_balance'> & {
  entries: Entry[];
};

/** A statement's period, this month so far unless changed; `bad` while From is after To. */
export function useStatementPeriod() {
  const fmt = useLabFormat();
  const today = localDate(fmt.timeZone);
  const [range, setRange] = useState({ from: `${today.slice(0, 8)}01`, to: today });
  return { ...range, setRange, bad: rangeIsBackwards(range.from, range.to) };
}
export type StatementPeriod = ReturnType<typeof useStatementPeriod>;

/** Rupee figures in bordered cells, two a row on a phone and four on a desk. */
export function MoneyFigures({ items }: { items: readonly (readonly [string, number])[] }) {
  return (
    <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
      {items.map(([label, v]) => (
        <div key={label} className="rounded-md border border-slate-200 p-2">
          <dt className="text-[13px] text-slate-600">{label}</dt>
          <dd className="font-semibold text-slate-900">
            <Money rupees={v} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

export interface StatementLedgerProps<S extends LedgerStatement> {
  period: StatementPeriod;
  query: { data?: S; isPending: boolean; error: unknown; refetch: () => unknown };
  /** The PDF of the period. */
  pdfHref: string;
  caption: string;
  /** More buttons beside the PDF link. */
  actions?: ReactNode;
  /** What this kind of account shows besides its four figures (a centre's ageing and share). */
  more?: (s: S) => ReactNode;
}

/**
 * An account's statement for a period, for a payer and for a collection centre (the lab's screens
 * and the centre's own login): the period, its PDF, the opening, billed, paid and closing figures,
 * and the ledger of bills and payments with the running balance.
 */
export function StatementLedger<S extends LedgerStatement>({
  period,
  query: st,
  pdfHref,
  caption,
  actions,
  more,
}: StatementLedgerProps<S>) {
  const fmt = useLabFormat();
  const mobile = useIsMobile();
  const columns: Column<Entry>[] = [
    { key: 'date', header: 'Date', cell: (e) => formatDate(e.date, fmt), hideOnMobile: true },
    {
      key: 'what',
      header: 'Entry',
      cell: (e) => (
        <div className="min-w-0">
          {/* On a phone the Date column is hidden (the Paid column would be off screen): the date leads. */}
          {mobile && <span className="block text-[13px] text-slate-600">{formatDate(e.date, fmt)}</span>}
          <span className="block font-mono text-[13px] break-all">{e.reference}</span>
          <span className="block text-[13px] text-slate-600">{e.description}</span>
        </div>
      ),
    },
    { key: 'debit', header: 'Billed', align: 'right', cell: (e) => (e.debit ? <Money rupees={e.debit} /> : '') },
    { key: 'credit', header: 'Paid', align: 'right', cell: (e) => (e.credit ? <Money rupees={e.credit} /> : '') },
    {
      key: 'balance',
      header: 'Balance',
      align: 'right',
      cell: (e) => <Money rupees={e.balance} />,
      hideOnMobile: true,
    },
  ];
  const s = st.data;
  return (
    <div className="grid gap-3 pt-3">
      <div className="flex flex-wrap items-end gap-3">
        <DateRangeFields from={period.from} to={period.to} fieldClassName="" onChange={period.setRange} />
        {period.bad ? null : (
          <a className={buttonClass('outline')} href={pdfHref} target="_blank" rel="noopener">
            <FileDown />
            Statement PDF
          </a>
        )}
        {actions}
      </div>
      {s && (
        <>
          <MoneyFigures
            items={[
              ['Opening balance', s.opening_balance],
              ['Billed', s.billed],
              ['Paid', s.paid],
              ['Closing balance', s.closing_balance],
            ]}
          />
          {more?.(s)}
        </>
      )}
      <DataTable
        columns={columns}
        rows={s?.entries}
        getRowId={(e) => `${e.kind}-${e.reference}-${e.date}`}
        caption={caption}
        loading={st.isPending && !period.bad}
        error={st.error}
        errorTitle="Error Loading Statement"
        onRetry={() => void st.refetch()}
        empty={{ title: 'Nothing in this period', hint: 'No bills or payments between these dates.' }}
      />
    </div>
  );
}
