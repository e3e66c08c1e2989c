import { LOW_STOCK_HINT } from '@shared/figures';
import { useMemo } from 'react';
import { AlertTriangle, Boxes, CheckCircle2, IndianRupee } from 'lucide-react';
import { ITEM_KINDS, ITEM_STATUSES, STOCK_STATUSES } from '@shared/inventory';
import { DEFAULT_INVENTORY_PAGE_SIZE, INVENTORY_PAGE_SIZES, type InventoryItem } from '@shared/schemas/inventory';
import {
  NameCell,
  Card,
  clearFiltersEmpty,
  ListTable,
  Money,
  ScreenHeader,
  SummaryCards,
  type Column,
} from '@/components';
import { formatCount, formatMoney, humanize } from '@/lib/format';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { choiceFilter, usePagedList, type ListFilter } from '@/lib/usePagedList';
import { useInventoryPage, useInventorySummary } from '../api';
import { useItemActions } from '../components/ItemActions';
import { SuppliersCard } from '../components/SuppliersCard';
import { DayText, StatusBadge, StockCell } from '../components/format';

const columns: Column<InventoryItem>[] = [
  {
    key: 'item',
    header: 'Item',
    cell: (i) => (
      <NameCell
        name={i.item_name}
        detail={
          <>
            {i.item_code}
            <span className="md:hidden"> · {i.category}</span>
          </>
        }
      />
    ),
  },
  { key: 'category', header: 'Category', cell: (i) => i.category, hideOnMobile: true },
  {
    key: 'stock',
    header: 'Current Stock',
    align: 'right',
    cell: (i) => <StockCell item={i} />,
  },
  {
    key: 'minmax',
    header: 'Min / Max',
    align: 'right',
    cell: (i) => `${i.minimum_stock} / ${i.maximum_stock ?? '—'}`,
    hideOnMobile: true,
  },
  { key: 'cost', header: 'Unit Cost', align: 'right', cell: (i) => <Money rupees={i.unit_cost} />, hideOnMobile: true },
  { key: 'supplier', header: 'Supplier', cell: (i) => i.supplier ?? '—', hideOnMobile: true },
  { key: 'expiry', header: 'Expiry', cell: (i) => <DayText value={i.expiry_date} />, hideOnMobile: true },
  { key: 'stock_status', header: 'Stock', cell: (i) => <StatusBadge value={i.stock_status} /> },
  { key: 'status', header: 'Status', cell: (i) => <StatusBadge value={i.status} />, hideOnMobile: true },
];

/** Inventory Management (spec 001, live): the lab's items, their stock from the ledger, suppliers. */
export default function InventoryPage() {
  const me = useCurrentUser();
  const canManage = can(me, 'manage_inventory');
  const summary = useInventorySummary();
  const filters: ListFilter[] = useMemo(
    () => [
      // The lab's own categories come with the figures: a category in the URL is kept until they do.
      {
        ...choiceFilter('category', 'Category', 'All Categories', summary.data?.categories ?? [], (c) => c),
        open: true,
      },
      choiceFilter('status', 'Status', 'All Statuses', ITEM_STATUSES, humanize),
      choiceFilter('stock_status', 'Stock', 'All Stock', STOCK_STATUSES, humanize),
      choiceFilter('kind', 'Kind', 'All Kinds', ITEM_KINDS, humanize),
    ],
    [summary.data],
  );
  const list = usePagedList({ filters, pageSizes: INVENTORY_PAGE_SIZES, defaultLimit: DEFAULT_INVENTORY_PAGE_SIZE });
  const items = useInventoryPage({ search: list.search, ...list.apiFilters, page: list.page, limit: list.limit });

  const { actions, addButton, dialogs } = useItemActions({
    kind: 'general',
    noun: 'Item',
    canManage,
    deleteNote:
      'An item with stock movements is archived: it leaves every list and its ledger stays in the audit trail.',
  });

  const s = summary.data;
  const cards = [
    { label: 'Total Items', value: formatCount(s?.total_items ?? null), hint: 'every kind', icon: <Boxes /> },
    {
      label: 'Low Stock',
      value: formatCount(s?.low_stock ?? null),
      hint: s
        ? `At or below the minimum; ${formatCount(s.out_of_stock)} of them out of stock (nothing usable left)`
        : LOW_STOCK_HINT,
      icon: <AlertTriangle />,
    },
    { label: 'Active Items', value: formatCount(s?.active_items ?? null), hint: 'in use', icon: <CheckCircle2 /> },
    {
      label: 'Total Value',
      value: s ? formatMoney(Math.round(s.total_value * 100)) : '—',
      hint: 'stock on hand at unit cost',
      icon: <IndianRupee />,
    },
  ];

  return (
    <>
      <ScreenHeader actions={addButton} />
      <SummaryCards
        label="Inventory figures"
        loading={summary.isPending}
        error={summary.error}
        cards={cards.map((c) => (summary.isError ? { ...c, value: '—' } : c))}
      />
      <Card className="min-w-0">
        <ListTable
          list={list}
          query={items}
          rows={(p) => p.items}
          search={{ placeholder: 'Search by name, code, category or supplier', label: 'Search inventory' }}
          caption="Inventory items"
          itemLabel="items"
          columns={columns}
          getRowId={(i) => i.id}
          errorTitle="Error Loading Inventory"
          empty={{
            title: 'No inventory items found',
            ...clearFiltersEmpty(list),
            hint: canManage ? 'Add the reagents, consumables and other stock the lab keeps.' : 'No items yet.',
            action: addButton,
          }}
          rowActions={actions}
        />
      </Card>
      <SuppliersCard canManage={canManage} />

      {dialogs}
    </>
  );
}
