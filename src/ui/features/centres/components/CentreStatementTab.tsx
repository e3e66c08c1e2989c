import { useState } from 'react';
import { AGEING_BUCKETS, AGEING_LABELS, type Centre, type CentreStatement } from '@shared/schemas/centres';
import { FileDown } from 'lucide-react';
import { centresApi } from '@shared/api/centres';
import { DataTable, DateRangeFields, Money, buttonClass, rangeIsBackwards, type Column } from '@/components';
import { contractUrl } from '@/lib/api';
import { formatDate, useLabFormat } from '@/lib/format';
import { localDate } from '@shared/time';
import { useCentreStatement } from '../api';

type Entry = CentreStatement['entries'][number];

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

/** A centre's statement for a period: the ledger, what it owed at the end by age, and the share. */
export function CentreStatementTab({ centre }: { centre: Centre }) {
  const fmt = useLabFormat();
  const today = localDate(fmt.timeZone);
  const [from, setFrom] = useState(`${today.slice(0, 8)}01`);
  const [to, setTo] = useState(today);
  const bad = rangeIsBackwards(from, to);
  const st = useCentreStatement(centre.id, from, to);
  const columns: Column<Entry>[] = [
    { key: 'date', header: 'Date', cell: (e) => formatDate(e.date, fmt) },
    {
      key: 'what',
      header: 'Entry',
      cell: (e) => (
        <div className="min-w-0">
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
        <DateRangeFields
          from={from}
          to={to}
          fieldClassName=""
          onChange={(r) => {
            setFrom(r.from);
            setTo(r.to);
          }}
        />
        {bad ? null : (
          <a
            className={buttonClass('outline')}
            href={contractUrl(centresApi.statementPdf, { params: { id: centre.id }, query: { from, to } })}
            target="_blank"
            rel="noopener"
          >
            <FileDown />
            Statement PDF
          </a>
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
        caption={`Statement of ${centre.name}`}
        loading={st.isPending && !bad}
        error={st.error}
        errorTitle="Error Loading Statement"
        onRetry={() => void st.refetch()}
        empty={{ title: 'Nothing in this period', hint: 'No bills or payments between these dates.' }}
      />
    </div>
  );
}
