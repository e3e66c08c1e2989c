import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { ClipboardList, ListChecks, Plus, Receipt, UserPlus } from 'lucide-react';
import type { Permission } from '@shared/roles';
import type { Bill } from '@shared/schemas/bills';
import { Card, CardBody, CardHeader, DateText, LinkButton, ListTable, ScreenHeader } from '@/components';
import { formatCount } from '@/lib/format';
import { useIsMobile } from '@/lib/useIsMobile';
import { useCurrentUser } from '@/lib/session';
import { usePagedList, type ListFilter } from '@/lib/usePagedList';
import { useBillSummary, useBills } from '../api';
import { BillDetailsDialog } from '../components/BillDetailsDialog';
import { billColumns, billRowActions } from '../components/columns';
import { MANAGEMENT_STATUS_OPTIONS, patientName } from '@/lib/billText';
import { ManagementCards } from '../components/SummaryPanels';
import { BillButtonList } from '../components/BillButtonList';
import {
  BillingSettingsPanel,
  FinancialOverview,
  PaymentMethodsPanel,
  TaxCalculator,
} from '../components/FinancePanels';

const PAGE_SIZES = [10, 20, 50] as const;
const FILTERS: ListFilter[] = [{ key: 'status', label: 'Status', options: MANAGEMENT_STATUS_OPTIONS }];
/** How many overdue bills the collection panel lists (the oldest debts are in the Bills List). */
const OVERDUE_SHOWN = 5;

/** Overdue Bills: unpaid past their due date; each opens the bill, where the payment is recorded. */
function OverdueBills({ onOpen }: { onOpen: (b: Bill) => void }) {
  const overdue = useBills({ status: 'overdue', page: 1, limit: OVERDUE_SHOWN });
  return (
    <Card>
      <CardHeader
        title="Payment Collection"
        description={overdue.data ? `${formatCount(overdue.data.total)} overdue` : undefined}
        as="h2"
      />
      <CardBody className="p-0">
        <BillButtonList
          query={overdue}
          label="Overdue bills"
          errorText="Overdue bills could not be loaded."
          emptyText="No overdue bills."
          actionLabel={(b) => `Collect payment for bill ${b.bill_number}`}
          detail={(b) => (
            <>
              {patientName(b)} · due <DateText value={b.due_date} />
            </>
          )}
          amount={(b) => b.balance}
          status={() => 'overdue'}
          onOpen={onOpen}
        />
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
export default function BillingManagementPage() {
  const user = useCurrentUser();
  const phone = useIsMobile();
  const can = (p: Permission) => user.permissions.includes(p);
  const paged = usePagedList({ filters: FILTERS, pageSizes: PAGE_SIZES, defaultLimit: 10 });
  const list = useBills({ search: paged.search, ...paged.values, page: paged.page, limit: paged.limit });
  const summary = useBillSummary();
  const [viewing, setViewing] = useState<Bill | null>(null);
  // Advanced Billing's Invoice Templates and Discount Management tiles open the Settings panel.
  const { hash } = useLocation();
  useEffect(() => {
    if (hash === '#billing-settings') document.getElementById('billing-settings')?.scrollIntoView();
  }, [hash]);

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
      <ScreenHeader
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
          <ListTable
            list={paged}
            query={list}
            rows={(p) => p.bills}
            search={{ placeholder: 'Search by bill number, patient name or patient ID', label: 'Search bills' }}
            caption="Bills"
            itemLabel="bills"
            columns={columns}
            getRowId={(b) => b.id}
            retryLabel="Retry Connection"
            empty={{
              title: 'No bills found',
              hint: 'No bills have been created yet',
              filteredHint: 'Try adjusting your search or filter criteria',
            }}
            rowActions={billRowActions({ onView: setViewing, compact: phone })}
          />
        </Card>
        <aside aria-label="Billing panels" className="grid grid-cols-1 gap-5 md:grid-cols-2 xl:grid-cols-1">
          <OverdueBills onOpen={setViewing} />
          <BillingTools can={can} />
        </aside>
      </div>

      <section
        aria-label="Finance panels"
        className="mt-5 grid grid-cols-1 items-start gap-5 md:grid-cols-2 xl:grid-cols-4"
      >
        <FinancialOverview />
        <PaymentMethodsPanel />
        <TaxCalculator />
        <BillingSettingsPanel canEdit={can('system_settings')} />
      </section>

      <BillDetailsDialog
        bill={viewing}
        onOpenChange={(open) => !open && setViewing(null)}
        canPay={can('create_bills')}
      />
    </>
  );
}
