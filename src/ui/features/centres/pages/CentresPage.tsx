import { useState } from 'react';
import { AlertTriangle, Building2, IndianRupee, Wallet } from 'lucide-react';
import type { Centre } from '@shared/schemas/centres';
import {
  Badge,
  Card,
  FilteredTable,
  FormField,
  Money,
  ScreenHeader,
  Select,
  SummaryCards,
  useRowDialogs,
  queryState,
  type Column,
  type RowAction,
} from '@/components';
import { formatCount, formatMoney, humanize } from '@/lib/format';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { choiceFilter, usePagedList, type ListFilter } from '@/lib/usePagedList';
import { useCentres, useCentreSettings, useCentreSettingsMutation } from '../api';
import { CentreFormDialog } from '../components/CentreFormDialog';
import { CentreAccountDialog } from '../components/CentreAccountDialog';

const FILTERS: ListFilter[] = [choiceFilter('status', 'Status', 'All Statuses', ['active', 'inactive'], humanize)];

const columns: Column<Centre>[] = [
  {
    key: 'name',
    header: 'Centre',
    cell: (c) => (
      <div className="min-w-0">
        <span className="block font-medium text-slate-900">{c.name}</span>
        <span className="block text-[13px] text-slate-600">
          {[c.contact_person, c.phone].filter(Boolean).join(' · ') || '—'}
        </span>
      </div>
    ),
  },
  {
    key: 'gstin',
    header: 'GSTIN',
    cell: (c) => <span className="font-mono text-[13px]">{c.gstin ?? '—'}</span>,
    hideOnMobile: true,
  },
  {
    key: 'terms',
    header: 'Credit',
    cell: (c) => (
      <span className="text-[13px] whitespace-nowrap">
        {c.credit_days} days · {c.credit_limit === null ? 'no limit' : formatMoney(Math.round(c.credit_limit * 100))}
      </span>
    ),
    hideOnMobile: true,
  },
  {
    key: 'share',
    header: 'Share',
    cell: (c) => (
      <span className="text-[13px] whitespace-nowrap">
        {c.share_percent}% {c.share_basis === 'lab_share' ? 'lab' : 'centre'}
      </span>
    ),
    hideOnMobile: true,
  },
  { key: 'balance', header: 'Owes', align: 'right', cell: (c) => <Money rupees={c.balance} /> },
  {
    key: 'status',
    header: 'Status',
    cell: (c) =>
      c.hold.on_hold ? (
        <Badge tone="red">On hold</Badge>
      ) : c.status === 'active' ? (
        <Badge tone="green">Active</Badge>
      ) : (
        <Badge tone="grey">Inactive</Badge>
      ),
  },
];

/**
 * Collection Centres: the partner centres, their account and hold, and what a breach does. The
 * screen's declaration checks view_bills before the page loads.
 */
export default function CentresPage() {
  const me = useCurrentUser();
  const canManage = can(me, 'manage_bills');
  const list = usePagedList({ filters: FILTERS, pageSizes: [], defaultLimit: 0 });
  const centres = useCentres({ search: list.search, status: list.apiFilters.status });
  const all = useCentres({ search: '' });
  const rows = useRowDialogs<Centre>();
  const [account, setAccount] = useState<Centre | null>(null);
  const data = all.data;
  const cards = [
    {
      label: 'Centres',
      value: data ? formatCount(data.length) : '—',
      hint: 'active and inactive',
      icon: <Building2 />,
    },
    {
      label: 'Owed by centres',
      value: data ? formatMoney(data.reduce((s, c) => s + Math.round(c.balance * 100), 0)) : '—',
      hint: 'their bills less payments',
      icon: <IndianRupee />,
    },
    {
      label: 'On hold',
      value: data ? formatCount(data.filter((c) => c.hold.on_hold).length) : '—',
      hint: 'past a limit or credit days',
      icon: <AlertTriangle />,
    },
    {
      label: 'Overdue bills',
      value: data ? formatCount(data.reduce((s, c) => s + c.hold.overdue_bills, 0)) : '—',
      hint: 'past their credit days',
      icon: <Wallet />,
    },
  ];
  const actions: RowAction<Centre>[] = [
    { label: (c) => `Account of ${c.name}`, icon: <Wallet />, onClick: setAccount },
    rows.editAction(
      (c) => c.name,
      () => !canManage,
    ),
  ];
  const addButton = canManage ? rows.addButton('Add Centre') : undefined;
  // Keep the open account in step with the list after a payment or an edit.
  const shown = account ? (data?.find((c) => c.id === account.id) ?? account) : null;
  return (
    <>
      <ScreenHeader actions={addButton} />
      <SummaryCards label="Centre figures" loading={all.isPending} error={all.error} cards={cards} />
      <Card className="min-w-0">
        <FilteredTable
          list={list}
          rows={centres.data}
          totalCount={data?.length}
          {...queryState(centres)}
          columns={columns}
          getRowId={(c) => c.id}
          caption="Collection centres"
          itemLabel="centres"
          search={{ placeholder: 'Search by name, GSTIN or contact', label: 'Search centres' }}
          rowActions={actions}
          onRowClick={setAccount}
          errorTitle="Error Loading Centres"
          empty={{
            title: 'No centres yet',
            hint: canManage
              ? 'Add the clinics that send you samples and settle monthly.'
              : 'No centres have been added.',
            filteredHint: 'Try adjusting your search or filter criteria.',
          }}
          filterExtras={<BreachSetting />}
        />
      </Card>
      {canManage && (
        <>
          <CentreFormDialog {...rows.addDialog} centre={null} />
          <CentreFormDialog {...rows.editDialog} centre={rows.editing} />
        </>
      )}
      <CentreAccountDialog centre={shown} onClose={() => setAccount(null)} />
    </>
  );
}

/** The lab's choice on a breach: refuse the bill, or let a manager approve it. */
function BreachSetting() {
  const me = useCurrentUser();
  const settings = useCentreSettings();
  const save = useCentreSettingsMutation();
  if (!settings.data) return null;
  return (
    <FormField label="On a breach" className="min-w-[14rem]">
      <Select
        value={settings.data.on_breach}
        disabled={!can(me, 'manage_lab') || save.isPending}
        onChange={(e) => save.mutate({ on_breach: e.target.value as 'refuse' | 'approver' })}
        options={[
          { value: 'refuse', label: 'Refuse the bill' },
          { value: 'approver', label: 'A manager may approve it' },
        ]}
      />
    </FormField>
  );
}
