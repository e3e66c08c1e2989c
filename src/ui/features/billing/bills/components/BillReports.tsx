import { Printer } from 'lucide-react';
import { tubeLabel } from '@shared/tubes';
import { Badge, ErrorPanel, FileLinkButton, LoadingState } from '@/components';
import { reportPdfUrl, useBillReports } from '../api';

/**
 * Reports of a bill, for the desk that prints and hands them over (print_reports): one per sample,
 * Print once released; otherwise why not (results awaited, a critical value not yet telephoned,
 * money due where the lab holds reports). Never a result value.
 */
export function BillReports({ billId }: { billId: number }) {
  const reports = useBillReports(billId);
  return (
    <section aria-labelledby="reports-title">
      <h3 id="reports-title" className="mb-1.5 text-sm font-semibold text-slate-900">
        Reports
      </h3>
      {reports.isError ? (
        <ErrorPanel title="Error Loading Reports" query={reports} />
      ) : !reports.data ? (
        <LoadingState text="Loading reports..." />
      ) : reports.data.length === 0 ? (
        <p className="text-sm text-slate-600">No samples on this bill.</p>
      ) : (
        <ul aria-label="Reports" className="divide-y divide-slate-100 rounded-lg border border-slate-200">
          {reports.data.map((r) => (
            <li key={r.sample_id} className="flex flex-wrap items-center gap-3 px-3 py-2 text-[13px]">
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center gap-1.5">
                  <span className="font-mono text-slate-900">{r.sample_code}</span>
                  <span className="text-slate-600">{tubeLabel(r.container) ?? r.sample_type}</span>
                  {r.status === 'rejected' ? (
                    <Badge tone="red">Rejected</Badge>
                  ) : (
                    <Badge tone={r.printable ? 'green' : 'amber'}>{r.printable ? 'Released' : 'Not ready'}</Badge>
                  )}
                  {r.report_print_count > 0 && (
                    <span className="text-xs text-slate-600">printed {r.report_print_count}×</span>
                  )}
                </div>
                <div className="text-slate-700">{r.tests.join(', ')}</div>
                {r.reason && <div className="text-xs text-slate-600">{r.reason}</div>}
              </div>
              {r.printable && (
                <FileLinkButton href={reportPdfUrl(r.sample_id)} variant="outline" size="sm" icon={<Printer />}>
                  Print report
                </FileLinkButton>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
