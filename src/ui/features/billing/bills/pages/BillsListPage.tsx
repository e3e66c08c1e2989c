import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Download, Plus, RefreshCw } from 'lucide-react';
import type { Permission } from '@shared/roles';
import type { Bill } from '@shared/schemas/bills';
import { Button, Card, CardHeader, LinkButton, ListTable, buttonClass, ScreenHeader } from '@/components';
import { useIsMobile } from '@/lib/useIsMobile';
import { formatCount } from '@/lib/format';
import { notify } from '@/lib/notify';
import { useCurrentUser } from '@/lib/session';
import { usePagedList, type ListFilter } from '@/lib/usePagedList';
import { billKeys } from '@/lib/bills';
import { billsExportUrl, useBillSummary, useBills, type BillFilters } from '../api';
import { BillDetailsDialog } from '../components/BillDetailsDialog';
import { EditBillDialog } from '../components/EditBillDialog';
import { billColumns, billRowActions } from '../components/columns';
import { BILLS_LIST_STATUS_OPTIONS, DATE_RANGE_OPTIONS, PAYMENT_STATUS_OPTIONS } from '@/lib/billText';
import { QuickActions, RecentBills } from '../components/SidePanels';
import { BillSummaryCard, BillsListCards, PaymentStatusCard } from '../components/SummaryPanels';

const PAGE_SIZES = [10, 20, 50] as const;
const FILTERS: ListFilter[] = [
  { key: 'status', label: 'Status', options: BILLS_LIST_STATUS_OPTIONS },
  { key: 'payment_status', label: 'Payment Status', options: PAYMENT_STATUS_OPTIONS },
  { key: 'date_range', label: 'Date Range', options: DATE_RANGE_OPTIONS },
];

/** Bills List (spec 2.16): server figures, filters in the URL, server paging, real bill actions. */
export default function BillsListPage() {
  const user = useCurrentUser();
  const phone = useIsMobile();
  const can = (p: Permission) => user.permissions.includes(p);
  const qc = useQueryClient();
  const paged = usePagedList({ filters: FILTERS, pageSizes: PAGE_SIZES, defaultLimit: 10 });
  const filters: BillFilters = { search: paged.search, ...paged.values };
  const list = useBills({ ...filters, page: paged.page, limit: paged.limit });
  const summary = useBillSummary();

  const [viewing, setViewing] = useState<Bill | null>(null);
  const [editing, setEditing] = useState<Bill | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const filterBar = useRef<HTMLDivElement>(null);

  const refresh = async () => {
    setRefreshing(true);
    try {
      // Refetches the table, the figures and Recent Bills: every active bills query.
      await qc.refetchQueries({ queryKey: billKeys.all, type: 'active' });
      // refetchQueries does not throw: look for a query that failed before saying all is fresh.
      const failed = qc
        .getQueryCache()
        .findAll({ queryKey: billKeys.all, type: 'active' })
        .find((query) => query.state.status === 'error');
      if (failed) notify.error('Refresh failed', failed.state.error);
      else notify.success('Refreshed', 'Bills data has been refreshed');
    } finally {
      setRefreshing(false);
    }
  };

  const focusFilters = () => {
    const input = filterBar.current?.querySelector('input');
    filterBar.current?.scrollIntoView({ behavior: 'smooth', block: 'center' });
    input?.focus({ preventScroll: true });
  };

  const columns = [
    billColumns.number,
    billColumns.patient,
    billColumns.date,
    billColumns.amount,
    billColumns.status,
    billColumns.payment,
    billColumns.doctor,
  ];
  const actions = billRowActions({
    onView: setViewing,
    onEdit: can('manage_bills') ? setEditing : undefined,
    compact: phone,
  });
  const exportUrl = billsExportUrl(filters);
  const onExport = () => notify.info('Export Started', 'The bills CSV is downloading');

  return (
    <>
      <ScreenHeader
        subtitle="Every bill with its payments: view, edit, print and download"
        actions={
          <>
            <Button variant="outline" onClick={() => void refresh()} loading={refreshing} loadingText="Refreshing...">
              <RefreshCw />
              Refresh
            </Button>
            {can('export_data') && (
              <a href={exportUrl} download className={buttonClass('outline')} onClick={onExport}>
                <Download />
                Export
              </a>
            )}
            {can('create_bills') && (
              <LinkButton to="/op-bill">
                <Plus />
                Create Bill
              </LinkButton>
            )}
          </>
        }
      />

      <BillsListCards summary={summary} />

      <div className="grid grid-cols-1 items-start gap-5 xl:grid-cols-[minmax(0,1fr)_17rem]">
        <Card>
          <CardHeader
            title={list.data && !list.isError ? `Bills List (${formatCount(list.data.total)})` : 'Bills List'}
          />
          <div ref={filterBar}>
            <ListTable
              list={paged}
              query={list}
              rows={(p) => p.bills}
              search={{ placeholder: 'Search by bill number, patient name or code', label: 'Search bills' }}
              noun="Bills"
              columns={columns}
              getRowId={(b) => b.id}
              loadingText="Loading bills data..."
              onRetry={() => void refresh()}
              empty={{
                title: 'No bills found',
                hint: 'No bills have been created yet',
                filteredHint: 'Try adjusting your search or filter criteria',
              }}
              rowActions={actions}
            />
          </div>
        </Card>

        <aside aria-label="Bill panels" className="grid grid-cols-1 gap-5 md:grid-cols-2 xl:grid-cols-1">
          <BillSummaryCard summary={summary} />
          <PaymentStatusCard summary={summary} />
          <RecentBills filters={filters} onOpen={setViewing} />
          <QuickActions
            filters={filters}
            onFilter={focusFilters}
            canCreate={can('create_bills')}
            canExport={can('export_data')}
          />
        </aside>
      </div>

      <BillDetailsDialog
        bill={viewing}
        onOpenChange={(open) => !open && setViewing(null)}
        canPay={can('create_bills')}
      />
      {can('manage_bills') && (
        <EditBillDialog
          bill={editing}
          onOpenChange={(open) => !open && setEditing(null)}
          canDelete={can('delete_bills')}
        />
      )}
    </>
  );
}
