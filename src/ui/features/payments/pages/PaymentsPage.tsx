import { useState } from 'react';
import { AlertTriangle, Banknote, Eye, Plus, RotateCcw, Wallet } from 'lucide-react';
import { PAYMENT_METHODS } from '@shared/billing';
import { LEDGER_STATUSES, type LedgerEntry, type LedgerListQuery } from '@shared/schemas/payments';
import {
  NameCell,
  Badge,
  Button,
  Card,
  clearFiltersEmpty,
  LIST_DATE_RANGE,
  LIST_DATE_RANGE_KEYS,
  ListDateRangeFields,
  listDateRange,
  DateText,
  ListTable,
  Money,
  ScreenHeader,
  SummaryCards,
  type Column,
  type RowAction,
} from '@/components';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { methodLabel } from '@/lib/billText';
import { formatCount, formatMoney, humanize } from '@/lib/format';
import { choiceFilter, usePagedList, type ListFilter } from '@/lib/usePagedList';
import { usePaymentPage } from '../api';
import { RecordPaymentDialog } from '../components/RecordPaymentDialog';
import { PaymentDetailDialog } from '../components/PaymentDetailDialog';
import { STATUS_TONE } from '../components/status';

const FILTERS: ListFilter[] = [
  choiceFilter('status', 'Status', 'All Statuses', LEDGER_STATUSES, humanize),
  choiceFilter('method', 'Method', 'All Methods', PAYMENT_METHODS, methodLabel),
  choiceFilter('kind', 'Type', 'Payments and refunds', ['payment', 'refund'], {
    payment: 'Payments',
    refund: 'Refunds',
  }),
];

function PaymentStatus({ p }: { p: LedgerEntry }) {
  return (
    <Badge tone={p.kind === 'refund' ? 'blue' : STATUS_TONE[p.status]}>
      {p.kind === 'refund' ? 'refund' : p.status}
    </Badge>
  );
}

const columns: Column<LedgerEntry>[] = [
  {
    key: 'id',
    header: 'Payment',
    cell: (p) => (
      <NameCell
        name={p.payment_number}
        nameClassName="whitespace-nowrap"
        detail={p.bill_number}
        phoneDetail={p.patient_name}
      >
        <span className="mt-0.5 block md:hidden">
          <PaymentStatus p={p} />
        </span>
      </NameCell>
    ),
  },
  {
    key: 'patient',
    header: 'Patient',
    cell: (p) => (
      <div className="min-w-0">
        <span className="block text-slate-900">{p.patient_name}</span>
        {p.patient_code && <span className="block text-[13px] text-slate-600">{p.patient_code}</span>}
      </div>
    ),
    hideOnMobile: true,
  },
  {
    key: 'amount',
    header: 'Amount',
    align: 'right',
    cell: (p) => <Money rupees={p.amount} className={p.amount < 0 ? 'text-red-700' : 'font-medium text-slate-900'} />,
  },
  {
    key: 'method',
    header: 'Method',
    cell: (p) => (
      <div className="min-w-0">
        <span className="block whitespace-nowrap">{methodLabel(p.method)}</span>
        {p.reference && <span className="block text-[13px] break-all text-slate-600">{p.reference}</span>}
      </div>
    ),
    hideOnMobile: true,
  },
  {
    key: 'status',
    header: 'Status',
    cell: (p) => <PaymentStatus p={p} />,
    hideOnMobile: true,
  },
  {
    key: 'date',
    header: 'Date',
    cell: (p) => <DateText value={p.created_at} withTime />,
    hideOnMobile: true,
  },
  { key: 'by', header: 'Processed by', cell: (p) => p.processed_by_name ?? '—', hideOnMobile: true },
];

/** Payment Management (spec 001): the ledger made real. */
export default function PaymentsPage() {
  const me = useCurrentUser();
  const canRecord = can(me, 'create_bills');
  const canManage = can(me, 'manage_bills');
  const list = usePagedList({
    filters: FILTERS,
    pageSizes: [25, 50, 100],
    defaultLimit: 25,
    extra: LIST_DATE_RANGE,
    extraFilters: LIST_DATE_RANGE_KEYS,
  });
  const range = listDateRange(list);
  const page = usePaymentPage(
    {
      search: list.search || undefined,
      ...list.apiFilters,
      from: range.from || undefined,
      to: range.to || undefined,
      page: list.page,
      limit: list.limit,
    } as Partial<LedgerListQuery>,
    !range.backwards,
  );
  const [recording, setRecording] = useState(false);
  const [open, setOpen] = useState<LedgerEntry | null>(null);
  const s = range.backwards ? undefined : page.data?.summary;

  const cards = [
    {
      label: 'Received',
      value: s ? formatMoney(Math.round(s.received * 100)) : '—',
      hint: `${formatCount(s?.count ?? 0)} ledger rows`,
      icon: <Wallet />,
    },
    {
      label: 'Refunded',
      value: s ? formatMoney(Math.round(s.refunded * 100)) : '—',
      hint: 'refunds are their own rows',
      icon: <RotateCcw />,
    },
    {
      label: 'Net',
      value: s ? formatMoney(Math.round(s.net * 100)) : '—',
      hint: 'received less refunds',
      icon: <Banknote />,
    },
    {
      label: 'Pending / Bounced',
      value: s ? `${formatMoney(Math.round(s.pending * 100))} / ${formatMoney(Math.round(s.failed * 100))}` : '—',
      hint: 'cheques not cleared / bounced',
      icon: <AlertTriangle />,
    },
  ];

  const actions: RowAction<LedgerEntry>[] = [
    { label: (p) => `View ${p.payment_number}`, icon: <Eye />, onClick: setOpen },
  ];
  const addButton = canRecord ? (
    <Button onClick={() => setRecording(true)}>
      <Plus />
      Record Payment
    </Button>
  ) : undefined;

  return (
    <>
      <ScreenHeader actions={addButton} />
      <SummaryCards
        label="Payment totals"
        loading={page.isPending && !range.backwards}
        error={range.backwards ? null : page.error}
        cards={cards}
      />
      <Card className="min-w-0">
        <ListTable
          list={list}
          query={page}
          rows={(p) => p.payments}
          search={{ placeholder: 'Search by patient, bill number, reference or PAY-id', label: 'Search payments' }}
          noun="Payments"
          columns={columns}
          getRowId={(p) => p.id}
          invalid={range.invalid}
          onRowClick={setOpen}
          rowActions={actions}
          filterRows={
            <div className="grid grid-cols-2 gap-3 sm:flex sm:items-start">
              <ListDateRangeFields list={list} />
            </div>
          }
          empty={{
            title: 'No payments found',
            ...clearFiltersEmpty(list),
            hint: 'Payments appear here as bills are paid.',
            action: addButton,
          }}
        />
      </Card>
      {canRecord && <RecordPaymentDialog open={recording} onOpenChange={setRecording} />}
      <PaymentDetailDialog payment={open} onClose={() => setOpen(null)} canManage={canManage} />
    </>
  );
}
