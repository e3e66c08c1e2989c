import { AGEING_BUCKETS, AGEING_LABELS, type CentreStatement } from '@shared/schemas/centres';
import { formatDate, useLabFormat } from '@/lib/format';
import { Money } from './Money';
import { MoneyFigures, StatementLedger, type StatementLedgerProps } from './StatementLedger';

export { useStatementPeriod, type StatementPeriod } from './StatementLedger';

/**
 * A centre's statement for a period: the ledger, what it owed at the end by age, and the share.
 * The same view for the lab (Centres > Statement) and for the centre's own login.
 */
export function CentreStatementView(props: Omit<StatementLedgerProps<CentreStatement>, 'more'>) {
  const fmt = useLabFormat();
  return (
    <StatementLedger
      {...props}
      more={(s) => (
        <>
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
          <MoneyFigures
            items={[
              ['Tests billed', s.share.billed],
              ['Centre’s share', s.share.centre],
              ['Lab’s share', s.share.lab],
            ]}
          />
        </>
      )}
    />
  );
}
