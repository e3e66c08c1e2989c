import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ClipboardList, ListChecks, Plus, Receipt, UserPlus } from 'lucide-react';
import type { Permission } from '@shared/roles';
import type { Bill } from '@shared/schemas/bills';
import {
  Badge,
  Card,
  CardBody,
  CardHeader,
  DataTable,
  DateText,
  FilterBar,
  LinkButton,
  Money,
  PageHeader,
  Pagination,
} from '@/components';
import { useScreen } from '@/lib/screens';
import { NoAccess } from '@/components/NoAccess';
import { useIsMobile } from '@/lib/useIsMobile';
import { useCurrentUser } from '@/lib/session';
import { useUrlState } from '@/lib/useUrlState';
import { useBillSummary, useBills, type BillFilters } from '../api';
import { BillDetailsDialog } from '../components/BillDetailsDialog';
import { billColumns, billRowActions } from '../components/columns';
import { MANAGEMENT_STATUS_OPTIONS, oneOf, patientName } from '@/lib/billText';
import { ManagementCards } from '../components/SummaryPanels';

const PAGE_SIZES = [10, 20, 50] as const;
const DEFAULTS = { search: '', status: 'all', page: 1, limit: 10 };
/** How many overdue bills the collection panel lists (the oldest debts are in the Bills List). */
const OVERDUE_SHOWN = 5;

/** Overdue Bills: unpaid past their due date; each opens the bill, where the payment is recorded. */
function OverdueBills({ onOpen }: { onOpen: (b: Bill) => void }) {
  const overdue = useBills({ status: 'overdue', page: 1, limit: OVERDUE_SHOWN });
  const bills = overdue.data?.bills;
  return (
    <Card>
      <CardHeader
        title="Payment Collection"
        description={overdue.data ? `${overdue.data.total} overdue` : undefined}
        as="h2"
      />
      <CardBody className="p-0">
        {overdue.isError ? (
          <p className="p-4 text-sm text-red-700">Overdue bills could not be loaded.</p>
        ) : !bills ? (
          <div className="skeleton m-4 h-16" aria-label="Loading overdue bills" />
        ) : bills.length === 0 ? (
          <p className="p-4 text-sm text-slate-600">No overdue bills.</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Overdue bills">
            {bills.map((b) => (
              <li key={b.id}>
                <button
                  type="button"
                  onClick={() => onOpen(b)}
                  className="flex w-full items-start justify-between gap-3 px-4 py-2.5 text-left hover:bg-slate-50"
                  aria-label={`Collect payment for bill ${b.bill_number}`}
                >
                  <span className="min-w-0">
                    <span className="block truncate font-mono text-[13px] text-slate-900">{b.bill_number}</span>
                    <span className="block truncate text-xs text-slate-600">
                      {patientName(b)} · due <DateText value={b.due_date} />
                    </span>
                  </span>
                  <span className="shrink-0 text-right text-sm">
                    <Money rupees={b.balance} className="block" />
                    <Badge status="overdue" className="mt-0.5" />
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}

function BillingTools({ can }: { can: (p: Permission) => boolean }) {
  const links = [
    { to: '/op-bill', label: 'OP Bill', icon: Receipt, show: can('create_bills') },
    {
      to: '/patient-registration-billing',
      label: 'Register Patient with Bill',
      icon: UserPlus,
      show: can('create_bills'),
    },
    { to: '/bills-list', label: 'Bills List', icon: ListChecks, show: true },
    { to: '/test-pricing', label: 'Test Pricing', icon: ClipboardList, show: true },
  ];
  return (
    <Card>
      <CardHeader title="Billing Tools" as="h2" />
      <CardBody className="p-0">
        <ul className="divide-y divide-slate-100">
          {links
            .filter((l) => l.show)
            .map((l) => (
              <li key={l.to}>
                <Link
                  to={l.to}
                  className="flex items-center gap-2 px-4 py-2.5 text-sm text-primary-700 hover:bg-slate-50"
                >
                  <l.icon className="size-4 text-slate-500" aria-hidden="true" />
                  {l.label}
                </Link>
              </li>
            ))}
        </ul>
      </CardBody>
    </Card>
  );
}

/**
 * Billing Management (spec 2.16, the live variant), also served at /billing: the lab's figures,
 * bills searchable by number, patient name or patient ID, Bill Details, print and download.
 */
function BillingManagementScreen() {
  const screen = useScreen();
  const user = useCurrentUser();
  const phone = useIsMobile();
  const can = (p: Permission) => user.permissions.includes(p);
  const [q, setQ, resetQ, isActive] = useUrlState(DEFAULTS);
  const filters: BillFilters = { search: q.search, status: oneOf(q.status, MANAGEMENT_STATUS_OPTIONS) };
  const limit = (PAGE_SIZES as readonly number[]).includes(q.limit) ? q.limit : 10;
  const page = Math.max(1, Math.trunc(q.page));
  const list = useBills({ ...filters, page, limit });
  const summary = useBillSummary();
  const filtersActive = isActive('search', 'status');
  const [viewing, setViewing] = useState<Bill | null>(null);

  const totalPages = list.data?.totalPages;
  useEffect(() => {
    if (totalPages !== undefined && page > totalPages) setQ({ page: totalPages }, { replace: true });
  }, [page, totalPages, setQ]);

  const columns = [
    billColumns.number,
    billColumns.patient,
    billColumns.doctor,
    billColumns.amount,
    billColumns.status,
    { ...billColumns.payment, header: 'Payment' },
    { ...billColumns.date, header: 'Date' },
  ];

  return (
    <>
      <PageHeader
        title={screen.title}
        subtitle="Bills, payments and what is still owed"
        actions={
          can('create_bills') && (
            <LinkButton to="/op-bill">
              <Plus />
              Create Bill
            </LinkButton>
          )
        }
      />

      <ManagementCards summary={summary} />

      <div className="grid grid-cols-1 items-start gap-5 xl:grid-cols-[minmax(0,1fr)_17rem]">
        <Card>
          <CardHeader title="Bills" />
          <div className="border-b border-slate-100 p-3">
            <FilterBar
              search={q.search}
              onSearchChange={(search) => setQ({ search, page: 1 }, { replace: true })}
              searchPlaceholder="Search by bill number, patient name or patient ID"
              searchLabel="Search bills"
              selects={[
                { key: 'status', label: 'Status', value: filters.status ?? 'all', options: MANAGEMENT_STATUS_OPTIONS },
              ]}
              onSelectChange={(key, value) => setQ({ [key]: value, page: 1 })}
              active={filtersActive}
              onClear={resetQ}
            />
          </div>
          <DataTable
            caption="Bills"
            columns={columns}
            rows={list.data?.bills}
            getRowId={(b) => b.id}
            loading={list.isPending}
            skeletonRows={Math.min(limit, 10)}
            error={list.isError ? list.error : undefined}
            onRetry={() => void list.refetch()}
            retryLabel="Retry Connection"
            empty={{
              title: 'No bills found',
              hint: filtersActive ? 'Try adjusting your search or filter criteria' : 'No bills have been created yet',
            }}
            rowActions={billRowActions({ onView: setViewing, compact: phone })}
            className={list.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}
          />
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
        <aside aria-label="Billing panels" className="grid grid-cols-1 gap-5 md:grid-cols-2 xl:grid-cols-1">
          <OverdueBills onOpen={setViewing} />
          <BillingTools can={can} />
        </aside>
      </div>

      <BillDetailsDialog
        bill={viewing}
        onOpenChange={(open) => !open && setViewing(null)}
        canPay={can('create_bills')}
      />
    </>
  );
}

/** Without view_bills the server refuses every bills call: say so once, naming the permission. */
export default function BillingManagementPage() {
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
  return <BillingManagementScreen />;
}
