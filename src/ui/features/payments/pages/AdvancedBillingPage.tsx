import { useState } from 'react';
import { AlertTriangle, CheckCircle2, Clock, IndianRupee, Plus, Receipt, Upload } from 'lucide-react';
import { PAYMENT_METHODS } from '@shared/billing';
import type { Bill, BillListQuery } from '@shared/schemas/bills';
import {
  Badge,
  Card,
  CardHeader,
  clearFiltersEmpty,
  DateText,
  LinkButton,
  ListTable,
  Money,
  ScreenHeader,
  SummaryCards,
  type Column,
  type RowAction,
} from '@/components';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { BILLS_LIST_STATUS_OPTIONS, methodLabel, patientName } from '@/lib/billText';
import { formatCount, formatMoney } from '@/lib/format';
import { choiceFilter, usePagedList, type ListFilter } from '@/lib/usePagedList';
import { useBillFigures, useBillRecords } from '../api';
import { RecordPaymentDialog } from '../components/RecordPaymentDialog';
import {
  FeatureTiles,
  FinancialSummary,
  OverdueBillsPanel,
  PaidMethods,
  PaymentTrends,
} from '../components/AdvancedBillingPanels';

const FILTERS: ListFilter[] = [
  { key: 'status', label: 'Status', options: [...BILLS_LIST_STATUS_OPTIONS] },
  choiceFilter('payment_method', 'Payment method', 'All Methods', PAYMENT_METHODS, methodLabel),
];

const columns: Column<Bill>[] = [
  {
    key: 'bill_number',
    header: 'Bill Number',
    cell: (b) => (
      <div className="min-w-0">
        <span className="block font-mono text-[13px] whitespace-nowrap text-slate-900">{b.bill_number}</span>
        <span className="block text-[13px] text-slate-600 md:hidden">{patientName(b)}</span>
        <Badge status={b.status} className="mt-0.5 md:hidden" />
        {b.payer_name && <span className="block text-xs text-slate-500">Bill to {b.payer_name}</span>}
      </div>
    ),
  },
  {
    key: 'patient',
    header: 'Patient',
    cell: (b) => (
      <div className="min-w-0">
        <span className="block text-slate-900">{patientName(b)}</span>
        <span className="block text-[13px] text-slate-600">{b.patient_patient_id}</span>
      </div>
    ),
    hideOnMobile: true,
  },
  { key: 'total', header: 'Total', align: 'right', cell: (b) => <Money rupees={b.final_amount} />, hideOnMobile: true },
  { key: 'paid', header: 'Paid', align: 'right', cell: (b) => <Money rupees={b.paid_amount} />, hideOnMobile: true },
  {
    key: 'balance',
    header: 'Balance',
    align: 'right',
    cell: (b) => (
      <Money
        rupees={b.status === 'cancelled' ? 0 : b.balance}
        className={b.balance > 0 && b.status !== 'cancelled' ? 'font-medium text-slate-900' : 'text-slate-600'}
      />
    ),
  },
  { key: 'status', header: 'Status', cell: (b) => <Badge status={b.status} />, hideOnMobile: true },
  {
    key: 'method',
    header: 'Payment Method',
    cell: (b) => <PaidMethods bill={b} label={methodLabel} />,
    hideOnMobile: true,
  },
  {
    key: 'due_date',
    header: 'Due Date',
    cell: (b) => <DateText value={b.due_date} />,
    hideOnMobile: true,
  },
];

/** Advanced Billing (spec 001): the lab's bills with due dates, what is owed and collected, all from the database. */
export default function AdvancedBillingPage() {
  const me = useCurrentUser();
  const canCollect = can(me, 'create_bills');
  const list = usePagedList({ filters: FILTERS, pageSizes: [10, 25, 50], defaultLimit: 10 });
  const records = useBillRecords({
    search: list.search || undefined,
    ...list.apiFilters,
    page: list.page,
    limit: list.limit,
  } as Partial<BillListQuery>);
  const figures = useBillFigures();
  const s = figures.data;
  const [collecting, setCollecting] = useState<Bill | null>(null);

  const cards = [
    {
      label: 'Total Bills',
      value: formatCount(s?.total_bills),
      hint: s ? `${formatMoney(Math.round(s.total_amount * 100))} billed` : undefined,
      icon: <Receipt />,
    },
    {
      label: 'Paid Bills',
      value: formatCount(s?.paid_count),
      hint: s ? `${formatMoney(Math.round(s.paid_amount * 100))} collected` : undefined,
      icon: <CheckCircle2 />,
    },
    {
      label: 'Pending Bills',
      value: formatCount(s?.pending_count),
      hint: s ? `and ${formatCount(s.partial_count)} partly paid` : undefined,
      icon: <Clock />,
    },
    {
      label: 'Overdue Bills',
      value: formatCount(s?.overdue_count),
      hint: s ? `${formatMoney(Math.round(s.overdue_amount * 100))} overdue` : undefined,
      icon: <AlertTriangle />,
    },
  ];

  const actions: RowAction<Bill>[] = [
    {
      label: (b) => `Collect payment for bill ${b.bill_number}`,
      icon: <IndianRupee />,
      onClick: setCollecting,
      hidden: (b) => !canCollect || b.status === 'cancelled' || b.balance <= 0,
    },
  ];

  return (
    <>
      <ScreenHeader
        actions={
          canCollect && (
            <>
              <LinkButton to="/import" variant="outline">
                <Upload />
                Import
              </LinkButton>
              <LinkButton to="/op-bill">
                <Plus />
                Create Bill
              </LinkButton>
            </>
          )
        }
      />
      <SummaryCards label="Bill counts" loading={figures.isPending} error={figures.error} cards={cards} />
      {/* The records need the full width up to 1536 px (nine columns); the panels sit beside them only above. */}
      <div className="grid grid-cols-1 items-start gap-5 2xl:grid-cols-[minmax(0,1fr)_20rem]">
        <Card className="min-w-0">
          <CardHeader title="Billing Records" />
          <ListTable
            list={list}
            query={records}
            rows={(p) => p.bills}
            search={{ placeholder: 'Search by bill number, patient name or ID', label: 'Search bills' }}
            caption="Billing records"
            itemLabel="bills"
            columns={columns}
            getRowId={(b) => b.id}
            errorTitle="Error Loading Bills"
            rowActions={actions}
            empty={{
              title: 'No bills found',
              hint: 'Bills appear here as they are made on OP Bill.',
              ...clearFiltersEmpty(list),
            }}
          />
        </Card>
        <aside
          aria-label="Billing panels"
          className="grid grid-cols-1 items-start gap-5 md:grid-cols-2 2xl:grid-cols-1"
        >
          <OverdueBillsPanel onCollect={canCollect ? setCollecting : null} />
          <FinancialSummary summary={s} error={figures.error} />
        </aside>
      </div>
      <div className="mt-5">
        <PaymentTrends />
      </div>
      <FeatureTiles />
      {canCollect && (
        <RecordPaymentDialog
          key={collecting?.id ?? 0}
          open={collecting !== null}
          onOpenChange={(o) => !o && setCollecting(null)}
          initialBill={collecting}
        />
      )}
    </>
  );
}
