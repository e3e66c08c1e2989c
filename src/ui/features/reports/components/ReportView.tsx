import { lazy, Suspense, useState } from 'react';
import { Download, FileText, Printer, X } from 'lucide-react';
import type { ReportPage, ReportPeriodQuery, ReportResult } from '@shared/schemas/reports';
import { Button, Card, CardHeader, DateText, ErrorPanel, LoadingState, Money, Pagination } from '@/components';
import { formatCount } from '@/lib/format';
import { openPdf } from '@/lib/openPdf';
import { reportFileUrl, useReport } from '../api';
import { REPORT_PDF_MAX_ROWS } from '@shared/reports';

// recharts is loaded with the first chart, not with the page.
const ReportChart = lazy(() => import('./ReportChart'));

type Cell = string | number | null | undefined;

export function CellText({ value, kind }: { value: Cell; kind: ReportResult['columns'][number]['kind'] }) {
  if (value === null || value === undefined || value === '') return <span className="text-slate-400">—</span>;
  if (typeof value === 'number') {
    if (kind === 'money') return <Money rupees={value} />;
    if (kind === 'percent') return <span className="tabular-nums">{value.toFixed(2)}%</span>;
    return <span className="tabular-nums">{formatCount(value)}</span>;
  }
  if (kind === 'date') return <DateText value={value} />;
  if (kind === 'datetime') return <DateText value={value} withTime />;
  return <>{value}</>;
}

export const rowsText = (n: number) => `${formatCount(n)} ${n === 1 ? 'row' : 'rows'}`;

const right = (kind: string) => kind === 'money' || kind === 'number' || kind === 'percent';

const PAGE_SIZES = [50, 100, 200] as const;

/**
 * The report's rows in pages: a register of a busy quarter has tens of thousands of rows. A report
 * the server paged (`report.page`) holds one page and asks for another through `onPage`; a report
 * with every row (the monthly report's sections) is paged here. The totals are the whole period's;
 * the downloads carry every row.
 */
export function ReportTable({ report, onPage }: { report: ReportResult; onPage?: (page: ReportPage) => void }) {
  const [localPage, setLocalPage] = useState(1);
  const [localSize, setLocalSize] = useState<number>(PAGE_SIZES[0]);
  const server = report.page !== null && onPage !== undefined;
  const pageSize = server ? report.page!.limit : localSize;
  const total = server ? report.row_count : report.rows.length;
  const totalPages = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(server ? report.page!.page : localPage, totalPages);
  const shown = server ? report.rows : report.rows.slice((current - 1) * pageSize, current * pageSize);
  const setPage = (page: number) => (server ? onPage({ page, limit: pageSize }) : setLocalPage(page));
  const setPageSize = (limit: number) => {
    if (server) onPage({ page: 1, limit });
    else {
      setLocalSize(limit);
      setLocalPage(1);
    }
  };
  const totals = report.totals;
  const hasTotals = totals && report.columns.some((c) => totals[c.key] !== undefined && totals[c.key] !== null);
  const extra = totals
    ? Object.entries(totals).filter(([k, v]) => !report.columns.some((c) => c.key === k) && v !== null)
    : [];
  return (
    <div className="grid gap-2">
      <div className="overflow-x-auto rounded border border-slate-200">
        <table className="w-full text-[13px]" aria-label={`${report.title} table`}>
          <thead className="bg-slate-50 text-left text-slate-600">
            <tr>
              {report.columns.map((c) => (
                <th
                  key={c.key}
                  scope="col"
                  className={`px-3 py-2 font-medium whitespace-nowrap ${right(c.kind) ? 'text-right' : ''}`}
                >
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {total === 0 ? (
              <tr>
                <td colSpan={report.columns.length} className="px-3 py-6 text-center text-slate-500">
                  No rows in this period. Try a longer date range.
                </td>
              </tr>
            ) : (
              shown.map((row, i) => (
                <tr key={(current - 1) * pageSize + i}>
                  {report.columns.map((c) => (
                    <td key={c.key} className={`px-3 py-1.5 ${right(c.kind) ? 'text-right' : ''}`}>
                      <CellText value={row[c.key]} kind={c.kind} />
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
          {hasTotals && (
            <tfoot className="bg-slate-50 font-semibold">
              <tr data-testid="report-totals">
                {report.columns.map((c) => (
                  <td key={c.key} className={`px-3 py-2 ${right(c.kind) ? 'text-right' : ''}`}>
                    {totals[c.key] === null || totals[c.key] === undefined ? null : typeof totals[c.key] ===
                      'string' ? (
                      totals[c.key]
                    ) : (
                      <CellText value={totals[c.key]} kind={c.kind} />
                    )}
                  </td>
                ))}
              </tr>
            </tfoot>
          )}
        </table>
        {total > PAGE_SIZES[0] && (
          <Pagination
            className="border-t border-slate-200"
            page={current}
            totalPages={totalPages}
            total={total}
            pageSize={pageSize}
            pageSizes={PAGE_SIZES}
            onPageChange={setPage}
            onPageSizeChange={setPageSize}
            itemLabel="rows"
          />
        )}
      </div>
      {extra.length > 0 && (
        <p className="text-[13px] text-slate-700">
          {extra.map(([k, v]) => `${k.replace(/_/g, ' ')}: ${typeof v === 'number' ? formatCount(v) : v}`).join(' · ')}
        </p>
      )}
    </div>
  );
}

/** View: one report for the chosen period, its chart, table, totals and downloads. */
export function ReportView({
  id,
  period,
  canExport,
  onClose,
}: {
  id: string;
  period: ReportPeriodQuery;
  canExport: boolean;
  onClose: () => void;
}) {
  // Another period starts again at its first page (the page size is kept).
  const periodKey = JSON.stringify(period);
  const [paging, setPaging] = useState({ periodKey, page: { page: 1, limit: PAGE_SIZES[0] as number } });
  const page = paging.periodKey === periodKey ? paging.page : { page: 1, limit: paging.page.limit };
  const setPage = (p: ReportPage) => setPaging({ periodKey, page: p });
  const q = useReport(id, period, page);
  const r = q.data;
  const print = () =>
    void openPdf(reportFileUrl(id, period, 'pdf'), {
      preparing: 'Preparing the report',
      failed: 'The report could not be printed',
    });
  // The server makes no PDF past this many rows (409 REPORT_TOO_LARGE_FOR_PDF): said here before it is asked.
  const tooBigForPdf = r !== undefined && r.row_count > REPORT_PDF_MAX_ROWS;
  return (
    <Card className="min-w-0" aria-live="polite">
      <CardHeader
        title={r ? r.title : 'Report'}
        description={
          r ? (
            <>
              <DateText value={r.from} /> to <DateText value={r.to} /> · {rowsText(r.row_count)}
            </>
          ) : undefined
        }
        icon={<FileText />}
        actions={
          <Button size="icon-sm" variant="ghost" onClick={onClose} aria-label="Close report">
            <X />
          </Button>
        }
      />
      <div className="flex flex-wrap gap-2 border-b border-slate-100 px-4 pb-3">
        {tooBigForPdf ? (
          <Button size="sm" variant="outline" disabled aria-describedby="report-pdf-limit">
            <Download />
            PDF
          </Button>
        ) : (
          <FileLink href={reportFileUrl(id, period, 'pdf')} label="PDF" />
        )}
        {canExport && (
          <>
            <FileLink href={reportFileUrl(id, period, 'csv')} label="CSV" />
            <FileLink href={reportFileUrl(id, period, 'xlsx')} label="XLSX" />
          </>
        )}
        <Button size="sm" variant="outline" onClick={print} disabled={tooBigForPdf}>
          <Printer />
          Print
        </Button>
        {tooBigForPdf && (
          <p id="report-pdf-limit" className="basis-full text-[12px] text-amber-700">
            {formatCount(r.row_count)} rows are too many for a PDF (at most {formatCount(REPORT_PDF_MAX_ROWS)}):{' '}
            {canExport ? 'download CSV or XLSX, or choose a shorter period.' : 'choose a shorter period.'}
          </p>
        )}
      </div>
      <div className="grid gap-4 p-4">
        {q.isError ? (
          <ErrorPanel title="Error Loading Report" query={q} />
        ) : !r ? (
          <LoadingState text="Running report..." />
        ) : (
          <>
            {r.chart && (
              <Suspense fallback={<LoadingState text="Loading chart..." />}>
                <ReportChart chart={r.chart} />
              </Suspense>
            )}
            <ReportTable report={r} onPage={setPage} />
            {r.notes.map((n) => (
              <p key={n} className="text-[12px] text-slate-500">
                {n}
              </p>
            ))}
          </>
        )}
      </div>
    </Card>
  );
}

/** A download of the report as a file: a link dressed as the small outline button. */
function FileLink({ href, label }: { href: string; label: string }) {
  return (
    <a className="inline-flex" href={href} download>
      <Button size="sm" variant="outline" tabIndex={-1}>
        <Download />
        {label}
      </Button>
    </a>
  );
}
