import { useState } from 'react';
import {
  BarChart3,
  Database,
  Eye,
  FileBarChart,
  FileText,
  IndianRupee,
  Plus,
  Printer,
  Trash2,
  CalendarCheck,
} from 'lucide-react';
import { REPORT_TYPES } from '@shared/reports';
import type { ReportEntry } from '@shared/schemas/reports';
import {
  Badge,
  Button,
  Card,
  CardHeader,
  ConfirmDialog,
  DateText,
  EmptyState,
  ErrorPanel,
  FormField,
  IconButton,
  LoadingState,
  ScreenHeader,
  Select,
  SummaryCards,
  type BadgeTone,
} from '@/components';
import { openPdf } from '@/lib/openPdf';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { formatCount, formatMoney, humanize } from '@/lib/format';
import { useUrlState } from '@/lib/useUrlState';
import { choiceOptions } from '@/lib/usePagedList';
import { notify } from '@/lib/notify';
import { reportFileUrl, useDeleteCustomReport, useReportCatalogue } from '../api';
import { PeriodBar, periodQuery } from '../components/PeriodBar';
import { ReportView } from '../components/ReportView';
import { CustomReportDialog } from '../components/CustomReportDialog';

const TYPE_TONE: Record<string, BadgeTone> = {
  patient: 'blue',
  financial: 'green',
  laboratory: 'amber',
  doctor: 'grey',
};

/** Reports (spec 001): the catalogue, its cards and data summary, and View with table and chart. */
export default function ReportsPage() {
  const me = useCurrentUser();
  const [state, set, reset] = useUrlState({ type: 'all', range: '30', from: '', to: '', report: '' });
  const [custom, setCustom] = useState(false);
  const [deleting, setDeleting] = useState<ReportEntry | null>(null);
  const remove = useDeleteCustomReport();
  const period = periodQuery(state);
  const catalogue = useReportCatalogue(
    { ...(period ?? {}), ...(state.type !== 'all' ? { type: state.type as ReportEntry['type'] } : {}) },
    !!period,
  );
  const c = catalogue.data;
  const canExport = can(me, 'export_data');
  const filtered = state.type !== 'all' || state.range !== '30';

  const cards = [
    {
      label: 'Total Reports',
      value: c ? formatCount(c.cards.total_reports) : '—',
      hint: 'reports generated, all time',
      icon: <FileBarChart />,
    },
    {
      label: 'Generated Today',
      value: c ? formatCount(c.cards.generated_today) : '—',
      hint: 'views and downloads today',
      icon: <CalendarCheck />,
    },
    {
      label: 'Total Revenue',
      value: c ? formatMoney(Math.round(c.cards.total_revenue * 100)) : '—',
      hint: c ? 'net collected in the period' : '',
      icon: <IndianRupee />,
    },
    {
      label: 'Active Reports',
      value: c ? formatCount(c.cards.active_reports) : '—',
      hint: 'in the catalogue for you',
      icon: <BarChart3 />,
    },
  ];

  const print = (id: string) =>
    period &&
    void openPdf(reportFileUrl(id, period, 'pdf'), {
      preparing: 'Preparing the report',
      failed: 'The report could not be printed',
    });

  return (
    <>
      <ScreenHeader
        actions={
          can(me, 'create_reports') ? (
            <Button onClick={() => setCustom(true)}>
              <Plus />
              Custom Report
            </Button>
          ) : undefined
        }
      />
      <SummaryCards
        label="Report figures"
        loading={catalogue.isPending && !!period}
        error={catalogue.error}
        cards={cards}
      />
      <div className="mb-4 grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-end">
        <FormField label="Report type" className="sm:w-44">
          <Select
            value={state.type}
            onChange={(e) => set({ type: e.target.value })}
            options={choiceOptions('All types', REPORT_TYPES, humanize)}
          />
        </FormField>
        <PeriodBar value={state} onChange={(p) => set(p)} />
        {filtered && (
          <Button variant="ghost" onClick={() => reset()}>
            Clear Filters
          </Button>
        )}
      </div>
      {state.report && period && (
        <div className="mb-5">
          <ReportView
            key={state.report}
            id={state.report}
            period={period}
            canExport={canExport}
            onClose={() => set({ report: '' })}
          />
        </div>
      )}
      <div className="grid gap-5 lg:grid-cols-[1fr_18rem]">
        <Card className="min-w-0">
          <CardHeader
            icon={<FileText />}
            title="Available Reports"
            description={
              c ? (
                <>
                  {c.reports.length} reports · figures for <DateText value={c.from} /> to <DateText value={c.to} />
                </>
              ) : undefined
            }
          />
          {catalogue.isError ? (
            <ErrorPanel title="Error Loading Reports" query={catalogue} />
          ) : !c ? (
            <LoadingState text={period ? 'Loading reports...' : 'Choose a valid date range'} />
          ) : c.reports.length === 0 ? (
            <EmptyState
              title="No reports found"
              hint={filtered ? 'Try adjusting your search or filter criteria' : undefined}
            />
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-[13px]" aria-label="Available reports">
                <thead className="bg-slate-50 text-left text-slate-600">
                  <tr>
                    <th className="px-3 py-2 font-medium">Report</th>
                    <th className="px-3 py-2 font-medium">Type</th>
                    <th className="hidden px-3 py-2 font-medium md:table-cell">Last generated</th>
                    <th className="px-3 py-2 text-right font-medium">Count</th>
                    <th className="px-3 py-2 text-right font-medium">Actions</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {c.reports.map((r) => (
                    <tr
                      key={r.id}
                      data-testid={`report-${r.id}`}
                      className={state.report === r.id ? 'bg-primary-50' : undefined}
                    >
                      <td className="px-3 py-2">
                        <div className="font-medium text-slate-900">{r.name}</div>
                        <div className="text-[12px] text-slate-500">{r.description}</div>
                      </td>
                      <td className="px-3 py-2">
                        <Badge tone={TYPE_TONE[r.type]}>{humanize(r.type)}</Badge>
                      </td>
                      <td className="hidden px-3 py-2 md:table-cell">
                        {r.last_generated ? (
                          <DateText value={r.last_generated} withTime />
                        ) : (
                          <span className="text-slate-400">Never</span>
                        )}
                      </td>
                      <td className="px-3 py-2 text-right tabular-nums">{formatCount(r.count)}</td>
                      <td className="px-3 py-2">
                        <div className="flex justify-end gap-1">
                          <IconButton
                            size="icon-sm"
                            label={`View ${r.name}`}
                            icon={<Eye />}
                            onClick={() => set({ report: r.id })}
                          />
                          <IconButton
                            size="icon-sm"
                            label={`Print ${r.name}`}
                            icon={<Printer />}
                            onClick={() => print(r.id)}
                          />
                          {r.custom && can(me, 'create_reports') && (
                            <IconButton
                              size="icon-sm"
                              label={`Delete ${r.name}`}
                              icon={<Trash2 />}
                              onClick={() => setDeleting(r)}
                            />
                          )}
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Card>
        <Card className="h-fit">
          <CardHeader icon={<Database />} title="Data Summary" description="What the lab’s records hold" />
          {c ? (
            <dl className="grid grid-cols-2 gap-3 p-4 text-[13px] lg:grid-cols-1">
              {(
                [
                  ['Patients', c.data_summary.patients],
                  ['Doctors', c.data_summary.doctors],
                  ['Samples', c.data_summary.samples],
                  ['Test results', c.data_summary.test_results],
                  ['Bills', c.data_summary.bills],
                ] as const
              ).map(([label, n]) => (
                <div key={label} className="flex items-baseline justify-between gap-2">
                  <dt className="text-slate-600">{label}</dt>
                  <dd className="font-semibold tabular-nums">{formatCount(n)}</dd>
                </div>
              ))}
            </dl>
          ) : (
            <LoadingState text="Loading..." />
          )}
        </Card>
      </div>
      <CustomReportDialog open={custom} onOpenChange={setCustom} onSaved={(id) => set({ report: id })} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete report"
        message={`Are you sure you want to delete ${deleting?.name ?? ''}?`}
        confirmLabel="Delete"
        busy={remove.isPending}
        destructive
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSettled: () => setDeleting(null),
            onSuccess: () => state.report === deleting.id && set({ report: '' }),
            onError: (err) => notify.error('Could not delete the report', err),
          })
        }
      />
    </>
  );
}
