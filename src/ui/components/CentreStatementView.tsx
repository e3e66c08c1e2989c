import { useState, type ReactNode } from 'react';
import { FileDown } from 'lucide-react';
import { AGEING_BUCKETS, AGEING_LABELS, type CentreStatement } from '@shared/schemas/centres';
import { localDate } from '@shared/time';
import { formatDate, useLabFormat } from '@/lib/format';
import { buttonClass } from './Button';
import { DataTable, type Column } from './DataTable';
import { DateRangeFields, rangeIsBackwards } from './DateRangeFields';
import { Money } from './Money';
import { NameCell } from './NameCell';

type Entry = CentreStatement['entries'][number];

/** A statement's period, this month so far unless changed; `bad` while From is after To. */
export function useStatementPeriod() {
  const fmt = useLabFormat();
  const today = localDate(fmt.timeZone);
  const [range, setRange] = useState({ from: `${today.slice(0, 8)}01`, to: today });
  return { ...range, setRange, bad: rangeIsBackwards(range.from, range.to) };
}
export type StatementPeriod = ReturnType<typeof useStatementPeriod>;

function Figures({ items }: { items: readonly (readonly [string, number])[] }) {
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

export interface CentreStatementViewProps {
  period: StatementPeriod;
  query: { data?: CentreStatement; isPending: boolean; error: unknown; refetch: () => unknown };
  /** The PDF of the period (the lab's route or the centre portal's). */
  pdfHref: string;
  caption: string;
  /** More buttons beside the PDF link (the lab's "Send now"). */
  actions?: ReactNode;
}

/**
 * A centre's statement for a period: the ledger, what it owed at the end by age, and the share.
 * The same view for the lab (Centres > Statement) and for the centre's own login.
 */
export function CentreStatementView({ period, query: st, pdfHref, caption, actions }: CentreStatementViewProps) {
  const fmt = useLabFormat();
  const columns: Column<Entry>[] = [
    { key: 'date', header: 'Date', cell: (e) => formatDate(e.date, fmt) },
    {
      key: 'what',
      header: 'Entry',
      cell: (e) => (
        <NameCell
          name={e.reference}
          detail={e.description}
          nameClassName="font-mono text-[13px] font-normal break-all"
        />
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
          <>
            <a className={buttonClass('outline')} href={pdfHref} target="_blank" rel="noopener">
              <FileDown />
              Statement PDF
            </a>
            {actions}
          </>
        )}
      </div>
      {s && (
        <>
          <Figures
            items={[
              ['Opening balance', s.opening_balance],
              ['Billed', s.billed],
              ['Paid', s.paid],
              ['Closing balance', s.closing_balance],
            ]}
          />
          <h3 className="text-sm font-semibold text-slate-900">Owed at {formatDate(s.to, fmt)}, by age</h3>
          <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-5">
            {AGEING_BUCKETS.map((b) => (
              <div key={b} className="rounded-md border border-slate-200 p-2">
                <dt className="text-[13px] text-slate-600">{AGEING_LABELS[b]}</dt>
                <dd className={s.ageing[b] > 0 && b !== 'not_due' ? 'font-semibold text-red-700' : 'font-semibold'}>
                  <Money rupees={s.ageing[b]} />
                </dd>
              </div>
            ))}
          </dl>
          <h3 className="text-sm font-semibold text-slate-900">Share of the period’s tests (before GST)</h3>
          <Figures
            items={[
              ['Tests billed', s.share.billed],
              ['Centre’s share', s.share.centre],
              ['Lab’s share', s.share.lab],
            ]}
          />
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
