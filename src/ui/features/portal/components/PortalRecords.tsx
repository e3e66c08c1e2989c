import type { ReactNode } from 'react';
import { CalendarDays, Download, FileText, FlaskConical, Receipt, Stethoscope } from 'lucide-react';
import type { PortalAppointment, PortalBill, PortalResult } from '@shared/schemas/portal';
import { Badge, DateText, EmptyState, ErrorPanel, LoadingState, Money, buttonClass } from '@/components';
import { contractUrl } from '@/lib/api';
import { portalApi } from '@shared/api/portal';
import { humanize } from '@/lib/format';
import { FlagBadge } from '@/components/FlagBadge';
import { methodLabel } from '@/lib/billText';

/** Spec 2.14: completed, paid and scheduled read as positive (green); pending as secondary. */
function PortalStatus({ status }: { status: string }) {
  return <Badge status={status} />;
}

interface QueryState<T> {
  data: T[] | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** Loading, error and empty states shared by the three tabs; children render the data. */
function States<T>({
  q,
  loading,
  empty,
  children,
}: {
  q: QueryState<T>;
  loading: string;
  empty: { title: string; hint: string; icon: ReactNode };
  children: (rows: T[]) => ReactNode;
}) {
  if (q.isPending) return <LoadingState text={loading} />;
  if (q.isError) return <ErrorPanel title="Could not load your records" query={q} className="m-4" />;
  if (!q.data?.length) return <EmptyState title={empty.title} hint={empty.hint} icon={empty.icon} />;
  return <>{children(q.data)}</>;
}

export function AppointmentsList({ q }: { q: QueryState<PortalAppointment> }) {
  return (
    <States
      q={q}
      loading="Loading appointments..."
      empty={{
        title: 'No appointments',
        hint: 'Your visits and booked appointments with our doctors appear here.',
        icon: <CalendarDays />,
      }}
    >
      {(rows) => (
        <ul className="divide-y divide-slate-100">
          {rows.map((a) => (
            <li key={a.id} className="flex flex-wrap items-start justify-between gap-3 px-4 py-3">
              <div className="flex min-w-0 gap-3">
                <span
                  className="mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-full bg-primary-50 text-primary-700"
                  aria-hidden="true"
                >
                  <Stethoscope className="size-4" />
                </span>
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">{a.doctor_name ?? 'Doctor to be assigned'}</p>
                  <p className="text-[13px] text-slate-600">
                    {[a.doctor_specialization, humanize(a.type)].filter(Boolean).join(' · ')}
                  </p>
                  {a.chief_complaint && <p className="mt-1 text-[13px] text-slate-700">{a.chief_complaint}</p>}
                  {a.follow_up_date && (
                    <p className="mt-1 text-[13px] text-slate-700">
                      Follow-up on <DateText value={a.follow_up_date} />
                    </p>
                  )}
                </div>
              </div>
              <div className="flex items-center gap-2 pl-12 text-[13px] sm:flex-col sm:items-end sm:gap-1 sm:pl-0 sm:text-right">
                <span className="font-medium text-slate-900">
                  <DateText value={a.date} />
                  {a.time && <span className="ml-1 tabular-nums">{a.time}</span>}
                </span>
                <PortalStatus status={a.status} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </States>
  );
}

interface SampleGroup {
  sampleId: string;
  reportUrl: string;
  date: string;
  results: PortalResult[];
}

/** Results of one sample share one report, so they are listed together under it. */
function bySample(rows: PortalResult[]): SampleGroup[] {
  const groups = new Map<string, SampleGroup>();
  for (const r of rows) {
    const g = groups.get(r.sample_id) ?? {
      sampleId: r.sample_id,
      reportUrl: r.report_url,
      date: r.test_date,
      results: [],
    };
    g.results.push(r);
    groups.set(r.sample_id, g);
  }
  return [...groups.values()];
}

export function ResultsList({ q }: { q: QueryState<PortalResult> }) {
  return (
    <States
      q={q}
      loading="Loading test results..."
      empty={{
        title: 'No test results yet',
        hint: 'Results appear here as soon as the lab has checked and verified them.',
        icon: <FlaskConical />,
      }}
    >
      {(rows) => (
        <div className="grid gap-3 p-3 sm:p-4">
          {bySample(rows).map((g) => (
            <section
              key={g.sampleId}
              aria-label={`Sample ${g.sampleId}`}
              className="rounded-lg border border-slate-200"
            >
              <header className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-100 bg-slate-50 px-3 py-2">
                <div className="text-[13px] text-slate-700">
                  <span className="font-medium text-slate-900">
                    <DateText value={g.date} />
                  </span>
                  <span className="ml-2 font-mono text-xs text-slate-500">{g.sampleId}</span>
                </div>
                <a href={g.reportUrl} target="_blank" rel="noopener" className={buttonClass('outline', 'sm')}>
                  <FileText />
                  View report
                </a>
              </header>
              <ul className="divide-y divide-slate-100">
                {g.results.map((r) => (
                  <li key={r.id} className="grid gap-1 px-3 py-2.5 sm:grid-cols-[1fr_auto] sm:items-center sm:gap-4">
                    <div className="min-w-0">
                      <p className="font-medium text-slate-900">{r.test_name}</p>
                      <p className="text-[13px] text-slate-600">Normal range: {r.normal_range ?? '—'}</p>
                      {r.remarks && <p className="text-[13px] text-slate-700">{r.remarks}</p>}
                    </div>
                    <div className="flex flex-wrap items-center gap-2 sm:justify-end">
                      <span className="text-base font-semibold text-slate-900 tabular-nums">
                        {r.result_value ?? '—'}{' '}
                        {r.unit && <span className="text-[13px] font-normal text-slate-600">{r.unit}</span>}
                      </span>
                      <FlagBadge flag={r.flag} />
                      <PortalStatus status={r.status} />
                    </div>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </States>
  );
}

function Line({ label, rupees }: { label: string; rupees: number }) {
  return (
    <li className="flex justify-between gap-3 py-0.5">
      <span className="min-w-0">{label}</span>
      <Money rupees={rupees} />
    </li>
  );
}

export function BillsList({ q }: { q: QueryState<PortalBill> }) {
  return (
    <States
      q={q}
      loading="Loading bills..."
      empty={{ title: 'No bills', hint: 'Your bills and payments appear here.', icon: <Receipt /> }}
    >
      {(rows) => (
        <div className="grid gap-3 p-3 sm:p-4">
          {rows.map((b) => (
            <section key={b.id} aria-label={`Bill ${b.bill_number}`} className="rounded-lg border border-slate-200">
              <header className="flex flex-wrap items-start justify-between gap-2 border-b border-slate-100 px-3 py-2.5">
                <div>
                  <p className="font-mono text-[13px] font-medium text-slate-900">{b.bill_number}</p>
                  <p className="text-[13px] text-slate-600">
                    <DateText value={b.bill_date} /> · {methodLabel(b.payment_method)}
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-1.5">
                  <PortalStatus status={b.payment_status} />
                  {b.status !== b.payment_status && <PortalStatus status={b.status} />}
                </div>
              </header>
              <ul className="px-3 py-2 text-[13px] text-slate-700">
                {b.items.map((i, n) => (
                  <Line key={n} label={i.qty > 1 ? `${i.name} × ${i.qty}` : i.name} rupees={i.total} />
                ))}
                {b.consultation_fee > 0 && <Line label="Consultation fee" rupees={b.consultation_fee} />}
                {b.discount_amount > 0 && <Line label="Discount" rupees={-b.discount_amount} />}
                {b.tax_amount > 0 && <Line label="Tax" rupees={b.tax_amount} />}
              </ul>
              <footer className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 px-3 py-2.5">
                <dl className="flex flex-wrap gap-x-5 gap-y-1 text-[13px]">
                  <div>
                    <dt className="inline text-slate-600">Total </dt>
                    <dd className="inline font-semibold text-slate-900">
                      <Money rupees={b.total_amount} />
                    </dd>
                  </div>
                  <div>
                    <dt className="inline text-slate-600">Paid </dt>
                    <dd className="inline text-slate-900">
                      <Money rupees={b.paid_amount} />
                    </dd>
                  </div>
                  {b.balance > 0 && b.status !== 'cancelled' && (
                    <div>
                      <dt className="inline text-slate-600">Balance </dt>
                      <dd className="inline font-medium text-amber-800">
                        <Money rupees={b.balance} />
                      </dd>
                    </div>
                  )}
                </dl>
                <div className="flex flex-wrap gap-2">
                  {b.report_url && (
                    <a
                      href={contractUrl(portalApi.visitReportPdf, { params: { id: b.id } })}
                      target="_blank"
                      rel="noopener"
                      className={buttonClass('outline', 'sm')}
                      aria-label={`Lab report of bill ${b.bill_number} (PDF)`}
                    >
                      <FileText />
                      Lab report
                    </a>
                  )}
                  <a
                    href={contractUrl(portalApi.billPdf, { params: { id: b.id }, query: { download: '1' } })}
                    download
                    className={buttonClass('outline', 'sm')}
                    aria-label={`Download bill ${b.bill_number} (PDF)`}
                  >
                    <Download />
                    Download PDF
                  </a>
                </div>
              </footer>
            </section>
          ))}
        </div>
      )}
    </States>
  );
}
