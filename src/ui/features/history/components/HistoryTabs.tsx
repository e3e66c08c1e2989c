import { FlagBadge } from '@/components/FlagBadge';
import type { ReactNode } from 'react';
import {
  CalendarCheck,
  ClipboardList,
  FileText,
  FlaskConical,
  IndianRupee,
  Pencil,
  Receipt,
  TestTubes,
} from 'lucide-react';
import type { HistoryBill, HistorySample, HistoryTestResult, PatientHistory, Visit } from '@shared/schemas/history';
import { Badge, DataTable, DateText, Money, SummaryCard, type Column, type RowAction } from '@/components';
import { formatCount, formatMoney, humanize } from '@/lib/format';
import { methodLabel } from '@/lib/billText';

const dash = (v: string | number | null | undefined): ReactNode =>
  v === null || v === undefined || v === '' ? '—' : v;

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-[12px] font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-0.5 break-words text-slate-900">{children}</dd>
    </div>
  );
}

export function OverviewTab({ history, portal }: { history: PatientHistory; portal?: ReactNode }) {
  const { patient: p, totals } = history;
  return (
    <div className="grid gap-4 p-4">
      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-3 lg:grid-cols-4">
        <Item label="Patient ID">
          <span className="font-mono">{p.patient_id}</span>
        </Item>
        <Item label="Age / Gender">
          {p.age_text ?? '—'} / {dash(p.gender)}
        </Item>
        <Item label="Date of Birth">
          <DateText value={p.date_of_birth} />
          {p.dob_estimated && ' (approx., from age)'}
        </Item>
        <Item label="Blood Group">{dash(p.blood_group)}</Item>
        <Item label="Phone">{dash(p.phone)}</Item>
        <Item label="Email">{dash(p.email)}</Item>
        <Item label="Registered">
          <DateText value={p.created_at} />
        </Item>
        <Item label="Address">{dash([p.address, p.city, p.state, p.pincode].filter(Boolean).join(', '))}</Item>
      </dl>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-5">
        <SummaryCard label="Visits" value={formatCount(totals.visits)} icon={<CalendarCheck />} />
        <SummaryCard label="Test Results" value={formatCount(totals.test_results)} icon={<FlaskConical />} />
        <SummaryCard label="Samples Collected" value={formatCount(totals.samples_collected)} icon={<TestTubes />} />
        <SummaryCard label="Bills" value={formatCount(totals.bills)} icon={<Receipt />} />
        <SummaryCard
          label="Total Amount"
          value={formatMoney(Math.round(totals.total_amount * 100))}
          hint="Bills not cancelled"
          icon={<IndianRupee />}
          className="col-span-2 md:col-span-1"
        />
      </div>
      {portal}
    </div>
  );
}

export function VisitsTab({
  visits,
  onEdit,
  canEdit,
}: {
  visits: Visit[];
  onEdit: (v: Visit) => void;
  canEdit: boolean;
}) {
  const columns: Column<Visit>[] = [
    {
      key: 'date',
      header: 'Date',
      cell: (v) => (
        <span className="whitespace-nowrap">
          <DateText value={v.visit_date} />
          {v.visit_time && <span className="ml-1 text-slate-500 tabular-nums">{v.visit_time}</span>}
        </span>
      ),
    },
    { key: 'type', header: 'Type', cell: (v) => humanize(v.visit_type), hideOnMobile: true },
    {
      key: 'doctor',
      header: 'Doctor',
      cell: (v) => (
        <div>
          <div className="font-medium text-slate-900">{v.doctor_name ?? 'No doctor'}</div>
          {v.doctor_specialization && <div className="text-xs text-slate-500">{v.doctor_specialization}</div>}
        </div>
      ),
    },
    { key: 'complaint', header: 'Chief Complaint', cell: (v) => dash(v.chief_complaint), hideOnMobile: true },
    {
      key: 'diagnosis',
      header: 'Diagnosis / Treatment',
      cell: (v) => (
        <div className="max-w-xs">
          <div>{dash(v.diagnosis)}</div>
          {v.treatment && <div className="text-xs text-slate-500">{v.treatment}</div>}
        </div>
      ),
      hideOnMobile: true,
    },
    {
      key: 'follow_up',
      header: 'Follow-up',
      cell: (v) => (v.follow_up_date ? <DateText value={v.follow_up_date} /> : '—'),
      hideOnMobile: true,
    },
    {
      key: 'bill',
      header: 'Bill',
      cell: (v) => <span className="font-mono text-xs">{dash(v.bill_number)}</span>,
      hideOnMobile: true,
    },
    { key: 'status', header: 'Status', cell: (v) => <Badge status={v.status} /> },
  ];
  const actions: RowAction<Visit>[] = [
    {
      label: (v) => `Update visit of ${v.visit_date}`,
      icon: <Pencil />,
      onClick: onEdit,
      hidden: (v) => !canEdit || v.status === 'cancelled',
    },
  ];
  return (
    <DataTable
      caption="Visits"
      columns={columns}
      rows={visits}
      getRowId={(v) => v.id}
      empty={{
        title: 'No visits yet',
        hint: 'Consultations billed with a doctor and booked appointments appear here.',
      }}
      rowActions={canEdit ? actions : undefined}
    />
  );
}

export function ResultsTab({ results, samples }: { results: HistoryTestResult[]; samples: HistorySample[] }) {
  const columns: Column<HistoryTestResult>[] = [
    {
      key: 'test',
      header: 'Test',
      cell: (r) => (
        <div>
          <div className="font-medium text-slate-900">{r.test_name}</div>
          <div className="font-mono text-xs text-slate-500">{r.sample_id}</div>
          {/* The Status column is hidden on phones; an unverified value must still read as such. */}
          <Badge status={r.status} className="mt-1 md:hidden" />
        </div>
      ),
    },
    {
      key: 'value',
      header: 'Result',
      cell: (r) => (
        <span className={r.is_critical ? 'font-semibold text-red-700' : undefined}>
          {dash(r.result_value)} {r.result_value && r.unit ? <span className="text-slate-500">{r.unit}</span> : null}
        </span>
      ),
    },
    { key: 'range', header: 'Normal Range', cell: (r) => dash(r.normal_range), hideOnMobile: true },
    { key: 'flag', header: 'Flag', cell: (r) => <FlagBadge flag={r.flag} /> },
    { key: 'status', header: 'Status', cell: (r) => <Badge status={r.status} />, hideOnMobile: true },
    { key: 'date', header: 'Date', cell: (r) => <DateText value={r.created_at} />, hideOnMobile: true },
    { key: 'notes', header: 'Notes', cell: (r) => dash(r.notes), hideOnMobile: true },
  ];
  const sampleColumns: Column<HistorySample>[] = [
    { key: 'sample', header: 'Sample ID', cell: (s) => <span className="font-mono text-[13px]">{s.sample_id}</span> },
    { key: 'type', header: 'Type', cell: (s) => s.sample_type },
    { key: 'tests', header: 'Tests', cell: (s) => dash(s.tests.join(', ')), hideOnMobile: true },
    {
      key: 'collected',
      header: 'Collected',
      cell: (s) => (s.collection_date ? <DateText value={s.collection_date} withTime /> : '—'),
      hideOnMobile: true,
    },
    { key: 'status', header: 'Status', cell: (s) => <Badge status={s.status} /> },
  ];
  return (
    <div>
      <DataTable
        caption="Test results"
        columns={columns}
        rows={results}
        getRowId={(r) => r.id}
        empty={{ title: 'No test results yet', hint: "Results entered for this patient's samples appear here." }}
      />
      <h3 className="border-t border-slate-100 px-4 pt-4 pb-2 text-[13px] font-semibold tracking-wide text-slate-700 uppercase">
        Samples ({formatCount(samples.length)})
      </h3>
      <DataTable
        caption="Samples"
        columns={sampleColumns}
        rows={samples}
        getRowId={(s) => s.id}
        empty={{ title: 'No samples collected yet' }}
      />
    </div>
  );
}

export function BillsTab({
  bills,
  pdfUrl,
  openReport,
}: {
  bills: HistoryBill[];
  pdfUrl?: (bill: HistoryBill) => string;
  /** Opens the visit's report (every released result of the bill's samples). */
  openReport?: (bill: HistoryBill) => void;
}) {
  const columns: Column<HistoryBill>[] = [
    {
      key: 'number',
      header: 'Bill Number',
      cell: (b) => <span className="font-mono text-[13px]">{b.bill_number}</span>,
    },
    { key: 'date', header: 'Date', cell: (b) => <DateText value={b.bill_date} />, hideOnMobile: true },
    { key: 'amount', header: 'Amount', cell: (b) => <Money rupees={b.total_amount} />, align: 'right' },
    { key: 'paid', header: 'Paid', cell: (b) => <Money rupees={b.paid_amount} />, align: 'right', hideOnMobile: true },
    { key: 'method', header: 'Method', cell: (b) => methodLabel(b.payment_method), hideOnMobile: true },
    { key: 'status', header: 'Status', cell: (b) => <Badge status={b.status} /> },
  ];
  const actions: RowAction<HistoryBill>[] = [
    ...(pdfUrl
      ? [
          {
            label: (b: HistoryBill) => `Open bill ${b.bill_number} (PDF)`,
            icon: <FileText />,
            onClick: (b: HistoryBill) => window.open(pdfUrl(b), '_blank', 'noopener'),
          },
        ]
      : []),
    ...(openReport
      ? [
          {
            label: (b: HistoryBill) => `Open lab report of bill ${b.bill_number} (PDF)`,
            icon: <ClipboardList />,
            onClick: openReport,
            hidden: (b: HistoryBill) => b.status === 'cancelled',
          },
        ]
      : []),
  ];
  return (
    <DataTable
      caption="Bills"
      columns={columns}
      rows={bills}
      getRowId={(b) => b.id}
      empty={{ title: 'No bills yet', hint: 'Bills created for this patient appear here.' }}
      rowActions={actions.length ? actions : undefined}
    />
  );
}
