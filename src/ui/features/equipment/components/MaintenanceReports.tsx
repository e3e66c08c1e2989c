import { useState } from 'react';
import { Download, FileText } from 'lucide-react';
import { MAINTENANCE_REPORTS, MAINTENANCE_REPORT_LABELS, type MaintenanceReportKind } from '@shared/schemas/equipment';
import { maintenanceApi } from '@shared/api/equipment';
import { Card, CardBody, CardHeader, FormField, Input, Money, buttonClass } from '@/components';
import { contractUrl } from '@/lib/api';
import { formatDate, useLabFormat } from '@/lib/format';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { useMaintenanceReport } from '../api';

/** Maintenance reports (Monthly, Equipment, Technician) as tables, with CSV and PDF downloads. */
export function MaintenanceReports() {
  const me = useCurrentUser();
  const [kind, setKind] = useState<MaintenanceReportKind>('monthly');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const invalid = from !== '' && to !== '' && from > to;
  const report = useMaintenanceReport(kind, invalid ? '' : from, invalid ? '' : to);
  const query = { from: from || undefined, to: to || undefined };
  const first = kind === 'monthly' ? 'Month' : kind === 'equipment' ? 'Equipment' : 'Technician';
  const r = report.data;
  const lab = useLabFormat();
  return (
    <Card className="mt-5 min-w-0">
      <CardHeader
        title="Maintenance Reports"
        description={
          r
            ? `Records by the day of the work (or the due date while open), ${formatDate(r.from, lab)} to ${formatDate(r.to, lab)}`
            : 'Records by month, equipment and technician'
        }
        actions={
          <div className="flex flex-wrap gap-2">
            {can(me, 'export_data') && (
              <a
                className={buttonClass('outline', 'sm')}
                href={contractUrl(maintenanceApi.reportCsv, { params: { report: kind }, query })}
                download
              >
                <Download />
                CSV
              </a>
            )}
            <a
              className={buttonClass('outline', 'sm')}
              href={contractUrl(maintenanceApi.reportPdf, { params: { report: kind }, query })}
              target="_blank"
              rel="noreferrer"
            >
              <FileText />
              PDF
            </a>
          </div>
        }
      />
      <CardBody>
        <div className="mb-3 flex flex-wrap items-end gap-3">
          <div role="tablist" aria-label="Report" className="flex gap-1">
            {MAINTENANCE_REPORTS.map((k) => (
              <button
                key={k}
                role="tab"
                aria-selected={kind === k}
                className={
                  kind === k
                    ? 'rounded-md bg-slate-900 px-3 py-1.5 text-[13px] text-white'
                    : 'rounded-md px-3 py-1.5 text-[13px] text-slate-700 hover:bg-slate-100'
                }
                onClick={() => setKind(k)}
              >
                {MAINTENANCE_REPORT_LABELS[k]}
              </button>
            ))}
          </div>
          <FormField label="From">
            <Input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
          </FormField>
          <FormField label="To" error={invalid ? 'From is after To' : undefined}>
            <Input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
          </FormField>
        </div>
        {report.isPending ? (
          <p className="text-[13px] text-slate-600">Loading…</p>
        ) : report.isError ? (
          <p className="text-[13px] text-red-700">Could not load the report.</p>
        ) : r && r.rows.length === 0 ? (
          <p className="text-[13px] text-slate-600">No maintenance records in this period.</p>
        ) : r ? (
          <div className="overflow-x-auto">
            <table className="w-full text-[13px]">
              <caption className="sr-only">{`Maintenance report by ${first.toLowerCase()}`}</caption>
              <thead>
                <tr className="border-b border-slate-200 text-left text-slate-600">
                  <th className="py-1.5 pr-3 font-medium">{first}</th>
                  {['Records', 'Completed', 'Open', 'Overdue', 'Cancelled', 'Cost'].map((h) => (
                    <th key={h} className="py-1.5 pl-3 text-right font-medium">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {[...r.rows, r.totals].map((x, i) => (
                  <tr
                    key={x.key}
                    className={
                      i === r.rows.length ? 'border-t border-slate-300 font-semibold' : 'border-b border-slate-100'
                    }
                  >
                    <td className="py-1.5 pr-3">{x.label}</td>
                    {[x.records, x.completed, x.open, x.overdue, x.cancelled].map((n, j) => (
                      <td key={j} className="py-1.5 pl-3 text-right tabular-nums">
                        {n}
                      </td>
                    ))}
                    <td className="py-1.5 pl-3 text-right">
                      <Money rupees={x.cost} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </CardBody>
    </Card>
  );
}
