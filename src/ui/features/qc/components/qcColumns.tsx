import type { QcMaterial } from '@shared/schemas/qc';
import { Badge, DateText, type Column } from '@/components';
import { formatDate, useLabFormat } from '@/lib/format';
import { cn } from '@/lib/cn';
import { expiryHint, expiryTone, formatQcValue, rangeText, targetText } from '../qcText';
import { RunBadge } from './RunBadge';

function Expiry({ m }: { m: QcMaterial }) {
  const lab = useLabFormat();
  const tone = expiryTone(m);
  return (
    <span
      className={cn(
        'flex flex-col tabular-nums whitespace-nowrap',
        tone === 'expired' && 'text-red-700',
        tone === 'soon' && 'text-amber-800',
      )}
    >
      <span className={cn(tone !== 'ok' && 'font-medium')}>{formatDate(m.expiry_date, lab)}</span>
      {/* Colour is never the only sign: the state is written under the date. */}
      {tone !== 'ok' && <span className="text-xs">{tone === 'expired' ? 'Expired' : expiryHint(m)}</span>}
    </span>
  );
}

function LastStatus({ m }: { m: QcMaterial }) {
  if (m.status === 'inactive') return <Badge status="inactive" />;
  if (!m.last_run) return <span className="text-slate-500">No runs</span>;
  const r = m.last_run;
  return (
    <span className="inline-flex flex-col items-start gap-0.5">
      <RunBadge status={r.status} />
      {r.rules.length > 0 && <span className="text-xs text-slate-600">{r.rules.join(', ')}</span>}
      <span className="text-xs text-slate-600 tabular-nums md:hidden">
        {formatQcValue(r.value)}
        {m.unit ? ` ${m.unit}` : ''}
      </span>
    </span>
  );
}

/** The spec's QC record fields, in its order; the less urgent ones step aside on a phone. */
export const qcColumns: Column<QcMaterial>[] = [
  {
    key: 'control_id',
    header: 'Control ID',
    cell: (m) => (
      <span className="flex flex-col">
        <span className="font-medium whitespace-nowrap text-slate-900">{m.control_id}</span>
        {/* A phone has no room for the Test column: the test rides under the id. */}
        <span className="text-xs text-slate-600 md:hidden">{m.test_name}</span>
      </span>
    ),
  },
  {
    key: 'test',
    header: 'Test',
    hideOnMobile: true,
    cell: (m) => (
      <span className="flex min-w-[7rem] flex-col">
        <span className="text-slate-900">{m.test_name}</span>
        {m.level && <span className="text-xs text-slate-600">{m.level}</span>}
      </span>
    ),
  },
  { key: 'control_type', header: 'Control Type', hideOnMobile: true, cell: (m) => m.control_type },
  {
    key: 'lot_number',
    header: 'Lot Number',
    hideOnMobile: true,
    cell: (m) => <span className="whitespace-nowrap">{m.lot_number}</span>,
  },
  { key: 'expiry_date', header: 'Expiry Date', hideOnMobile: true, cell: (m) => <Expiry m={m} /> },
  { key: 'status', header: 'Status', cell: (m) => <LastStatus m={m} /> },
  {
    key: 'target',
    header: 'Target',
    hideOnMobile: true,
    cell: (m) => <span className="tabular-nums whitespace-nowrap">{targetText(m)}</span>,
  },
  {
    key: 'last_value',
    header: 'Last Value',
    align: 'right',
    hideOnMobile: true,
    cell: (m) =>
      m.last_run ? (
        <span className="tabular-nums whitespace-nowrap">
          {formatQcValue(m.last_run.value)}
          {m.unit && <span className="ml-1 text-xs text-slate-600">{m.unit}</span>}
        </span>
      ) : (
        '—'
      ),
  },
  {
    key: 'range',
    header: 'Acceptable Range',
    hideOnMobile: true,
    cell: (m) => <span className="tabular-nums whitespace-nowrap">{rangeText(m)}</span>,
  },
  {
    key: 'performed_by',
    header: 'Performed By',
    hideOnMobile: true,
    cell: (m) => m.last_run?.performed_by_name ?? '—',
  },
  {
    key: 'performed_at',
    header: 'Performed Date',
    hideOnMobile: true,
    cell: (m) => (m.last_run ? <DateText value={m.last_run.performed_at} /> : '—'),
  },
];
