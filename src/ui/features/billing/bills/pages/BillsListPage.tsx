import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Download, Plus, RefreshCw } from 'lucide-react';
import type { Permission } from '@shared/roles';
import type { Bill } from '@shared/schemas/bills';
import {
  Button,
  Card,
  CardHeader,
  DataTable,
  FilterBar,
  LinkButton,
  LoadingState,
  PageHeader,
  Pagination,
  buttonClass,
} from '@/components';
import { useScreen } from '@/lib/screens';
import { NoAccess } from '@/components/NoAccess';
import { useIsMobile } from '@/lib/useIsMobile';
import { formatCount } from '@/lib/format';
import { notify } from '@/lib/notify';
import { useCurrentUser } from '@/lib/session';
import { useUrlState } from '@/lib/useUrlState';
import { billKeys } from '@/lib/bills';
import { billsExportUrl, useBillSummary, useBills, type BillFilters } from '../api';
import { BillDetailsDialog } from '../components/BillDetailsDialog';
import { EditBillDialog } from '../components/EditBillDialog';
import { billColumns, billRowActions } from '../components/columns';
import { BILLS_LIST_STATUS_OPTIONS, DATE_RANGE_OPTIONS, PAYMENT_STATUS_OPTIONS, oneOf } from '@/lib/billText';
import { QuickActions, RecentBills } from '../components/SidePanels';
import { BillSummaryCard, BillsListCards, PaymentStatusCard } from '../components/SummaryPanels';

const PAGE_SIZES = [10, 20, 50] as const;
const DEFAULTS = { search: '', status: 'all', payment_status: 'all', date_range: 'all', page: 1, limit: 10 };

/** Bills List (spec 2.16): server figures, filters in the URL, server paging, real bill actions. */
function BillsListScreen() {
  const screen = useScreen();
  const user = useCurrentUser();
  const phone = useIsMobile();
  const can = (p: Permission) => user.permissions.includes(p);
  const qc = useQueryClient();
  const [q, setQ, resetQ, isActive] = useUrlState(DEFAULTS);
  const filters: BillFilters = {
    search: q.search,
    status: oneOf(q.status, BILLS_LIST_STATUS_OPTIONS),
    payment_status: oneOf(q.payment_status, PAYMENT_STATUS_OPTIONS),
    date_range: oneOf(q.date_range, DATE_RANGE_OPTIONS),
  };
  const limit = (PAGE_SIZES as readonly number[]).includes(q.limit) ? q.limit : 10;
  const page = Math.max(1, Math.trunc(q.page));
  const list = useBills({ ...filters, page, limit });
  const summary = useBillSummary();
  const filtersActive = isActive('search', 'status', 'payment_status', 'date_range');

  const [viewing, setViewing] = useState<Bill | null>(null);
  const [editing, setEditing] = useState<Bill | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const filterBar = useRef<HTMLDivElement>(null);

  // A stale bookmark (or the last bill of a page cancelled away by a filter) can point past the end.
  const totalPages = list.data?.totalPages;
  useEffect(() => {
    if (totalPages !== undefined && page > totalPages) setQ({ page: totalPages }, { replace: true });
  }, [page, totalPages, setQ]);

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
      <PageHeader
        title={screen.title}
        subtitle="Every bill with its payments: view, edit, print and download"
        actions={
          <>
            <Button variant="outline" onClick={() => void refresh()} loading={refreshing} loadingText="Refreshing...">
              <RefreshCw />
              Refresh
            </Button>
            <a href={exportUrl} download className={buttonClass('outline')} onClick={onExport}>
              <Download />
              Export
            </a>
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
          <div ref={filterBar} className="border-b border-slate-100 p-3">
            <FilterBar
              search={q.search}
              onSearchChange={(search) => setQ({ search, page: 1 }, { replace: true })}
              searchPlaceholder="Search by bill number, patient name or code"
              searchLabel="Search bills"
              selects={[
                { key: 'status', label: 'Status', value: filters.status ?? 'all', options: BILLS_LIST_STATUS_OPTIONS },
                {
                  key: 'payment_status',
                  label: 'Payment Status',
                  value: filters.payment_status ?? 'all',
                  options: PAYMENT_STATUS_OPTIONS,
                },
                {
                  key: 'date_range',
                  label: 'Date Range',
                  value: filters.date_range ?? 'all',
                  options: DATE_RANGE_OPTIONS,
                },
              ]}
              onSelectChange={(key, value) => setQ({ [key]: value, page: 1 })}
              active={filtersActive}
              onClear={resetQ}
            />
          </div>
          {list.isPending ? (
            <LoadingState text="Loading bills data..." />
          ) : (
            <DataTable
              caption="Bills"
              columns={columns}
              rows={list.data?.bills}
              getRowId={(b) => b.id}
              error={list.isError ? list.error : undefined}
              errorTitle="Error Loading Bills"
              onRetry={() => void refresh()}
              retryLabel="Retry"
              empty={{
                title: 'No bills found',
                hint: filtersActive ? 'Try adjusting your search or filter criteria' : 'No bills have been created yet',
              }}
              rowActions={actions}
              className={list.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}
            />
          )}
          {list.data && list.data.total > 0 && !list.isError && (
            <Pagination
              className="border-t border-slate-100"
              page={page}
              totalPages={list.data.totalPages}
              total={list.data.total}
              pageSize={limit}
              pageSizes={PAGE_SIZES}
              onPageChange={(p) => setQ({ page: p })}
              onPageSizeChange={(size) => setQ({ limit: size, page: 1 })}
              itemLabel="bills"
            />
          )}
        </Card>

        <aside aria-label="Bill panels" className="grid grid-cols-1 gap-5 md:grid-cols-2 xl:grid-cols-1">
          <BillSummaryCard summary={summary} />
          <PaymentStatusCard summary={summary} />
          <RecentBills filters={filters} onOpen={setViewing} />
          <QuickActions filters={filters} onFilter={focusFilters} canCreate={can('create_bills')} />
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

/** Without view_bills the server refuses every bills call: say so once, naming the permission. */
export default function BillsListPage() {
  const screen = useScreen();
  const user = useCurrentUser();
  if (!user.permissions.includes('view_bills')) {
    return (
      <>
        <PageHeader title={screen.title} />
        <NoAccess what="bills" permission="view_bills" />
      </>
    );
  }
  return <BillsListScreen />;
}
