import { lazy, Suspense, useState } from 'react';
import { Download, FileText, Printer } from 'lucide-react';
import { localDate } from '@shared/time';
import {
  Button,
  FileLinkButton,
  Card,
  CardHeader,
  ErrorPanel,
  isPastMonth,
  LoadingState,
  MonthPicker,
  previousMonth,
  ScreenHeader,
} from '@/components';
import { openPdf } from '@/lib/openPdf';
import { useLabFormat } from '@/lib/format';
import { useUrlState } from '@/lib/useUrlState';
import { monthlyPdfUrl, useMonthly } from '../api';
import { ReportTable, rowsText } from '../components/ReportView';

const ReportChart = lazy(() => import('../components/ReportChart'));

/** Comprehensive Reports: the monthly management report on screen and as one PDF. */
export default function ComprehensiveReportsPage() {
  const f = useLabFormat();
  const today = localDate(f.timeZone);
  const [state, set] = useUrlState({ month: previousMonth(today) });
  const valid = isPastMonth(state.month, today);
  const monthly = useMonthly(state.month, valid);
  const [open, setOpen] = useState<string | null>(null);
  const m = monthly.data;
  const show = (v: number | null, kind: string) =>
    v === null
      ? '—'
      : kind === 'money'
        ? `₹${v.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`
        : kind === 'percent'
          ? `${v.toFixed(2)}%`
          : v.toLocaleString('en-IN');

  return (
    <>
      <ScreenHeader
        actions={
          valid ? (
            <div className="flex flex-wrap gap-2">
              <FileLinkButton href={monthlyPdfUrl(state.month)} download variant="outline" icon={<Download />}>
                Download PDF
              </FileLinkButton>
              <Button
                onClick={() =>
                  void openPdf(monthlyPdfUrl(state.month), {
                    preparing: 'Preparing the monthly report',
                    failed: 'The monthly report could not be printed',
                  })
                }
              >
                <Printer />
                Print
              </Button>
            </div>
          ) : undefined
        }
      />
      <MonthPicker
        month={state.month}
        today={today}
        onChange={(month) => set({ month })}
        commandLabel="Also from the command line"
        command={['lims report monthly', `--month ${state.month}`, '--out report.pdf']}
      />
      {!valid ? null : monthly.isError ? (
        <ErrorPanel title="Error Loading Report" query={monthly} />
      ) : !m ? (
        <Card>
          <LoadingState text="Preparing the monthly report..." />
        </Card>
      ) : (
        <div className="grid gap-5">
          <Card>
            <CardHeader
              icon={<FileText />}
              title={`Key figures: ${m.month}`}
              description={`${m.from} to ${m.to}, the lab’s calendar days`}
            />
            <dl className="grid gap-x-6 gap-y-2 p-4 text-[13px] sm:grid-cols-2 lg:grid-cols-3">
              {m.figures.map((x) => (
                <div key={x.label} className="flex items-baseline justify-between gap-3 border-b border-slate-100 py-1">
                  <dt className="text-slate-600">{x.label}</dt>
                  <dd className="font-semibold tabular-nums" data-testid={`figure-${x.label}`}>
                    {show(x.value, x.kind)}
                  </dd>
                </div>
              ))}
            </dl>
          </Card>
          <div className="grid gap-5 lg:grid-cols-2">
            {m.sections.map((s) => (
              <Card key={s.id} className="min-w-0">
                <CardHeader
                  title={s.title}
                  description={rowsText(s.rows.length)}
                  actions={
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => setOpen(open === s.id ? null : s.id)}
                      aria-expanded={open === s.id}
                    >
                      {open === s.id ? 'Hide table' : 'Show table'}
                    </Button>
                  }
                />
                <div className="grid gap-3 p-4">
                  {s.chart && (
                    <Suspense fallback={<LoadingState text="Loading chart..." />}>
                      <ReportChart chart={s.chart} />
                    </Suspense>
                  )}
                  {open === s.id && <ReportTable report={s} />}
                </div>
              </Card>
            ))}
          </div>
        </div>
      )}
    </>
  );
}
