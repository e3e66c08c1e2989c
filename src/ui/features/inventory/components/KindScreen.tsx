import { LOW_STOCK_HINT, OUT_OF_STOCK_HINT } from '@shared/figures';
import { useMemo } from 'react';
import { AlertTriangle, CalendarClock, Package, ShoppingCart } from 'lucide-react';
import { CONSUMABLE_STATUSES, REAGENT_STATUSES, type ItemKind } from '@shared/inventory';
import type { InventoryItem } from '@shared/schemas/inventory';
import {
  NameCell,
  Card,
  CardBody,
  CardHeader,
  DataTable,
  DateText,
  FilteredTable,
  PageHeader,
  SummaryCards,
  type Column,
} from '@/components';
import { useScreen } from '@/lib/screens';
import { formatCount, humanize } from '@/lib/format';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { choiceFilter, usePagedList, type ListFilter } from '@/lib/usePagedList';
import { useInventoryPage, useInventorySummary } from '../api';
import { useItemActions } from './ItemActions';
import { SuppliersCard } from './SuppliersCard';
import { DayText, EXPIRY_LABELS, StatusBadge, StockCell, qty } from './format';

/** A lab keeps at most a few hundred reagents or consumables: the list comes whole (limit 200) and filters here. */
const WHOLE = 200;

const statusOf = (kind: ItemKind, i: InventoryItem) => (kind === 'reagent' ? i.reagent_status : i.consumable_status);

function columnsFor(kind: ItemKind): Column<InventoryItem>[] {
  const name: Column<InventoryItem> = {
    key: 'name',
    header: kind === 'reagent' ? 'Reagent' : 'Consumable',
    cell: (i) => (
      <NameCell name={i.item_name} detail={[i.catalog_number ?? i.item_code, i.supplier].filter(Boolean).join(' · ')}>
        {/* On a phone the Status (and a reagent's Expiry) columns are hidden: they go under the name. */}
        <span className="mt-1 flex flex-wrap items-center gap-1 text-[13px] text-slate-600 md:hidden">
          <StatusBadge value={statusOf(kind, i)} />
          {kind === 'reagent' && i.expiry_date && (
            <>
              <span>
                Expiry <DayText value={i.expiry_date} />
              </span>
              {i.expiry_state !== 'good' && (
                <StatusBadge value={i.expiry_state} label={EXPIRY_LABELS[i.expiry_state]} />
              )}
            </>
          )}
        </span>
      </NameCell>
    ),
  };
  const quantity: Column<InventoryItem> = {
    key: 'quantity',
    header: 'Quantity',
    align: 'right',
    cell: (i) => <StockCell item={i} />,
  };
  const status: Column<InventoryItem> = {
    key: 'status',
    header: 'Status',
    cell: (i) => <StatusBadge value={statusOf(kind, i)} />,
    hideOnMobile: true,
  };
  if (kind === 'reagent')
    return [
      name,
      quantity,
      {
        key: 'expiry',
        header: 'Expiry',
        cell: (i) => (
          <span className="grid justify-items-start gap-0.5">
            <DayText value={i.expiry_date} />
            {i.expiry_date && <StatusBadge value={i.expiry_state} label={EXPIRY_LABELS[i.expiry_state]} />}
          </span>
        ),
        hideOnMobile: true,
      },
      { key: 'storage', header: 'Storage', cell: (i) => i.storage_temp ?? '—', hideOnMobile: true },
      {
        key: 'days',
        header: 'Days Left',
        align: 'right',
        cell: (i) => (i.days_left === null ? '—' : formatCount(i.days_left)),
        hideOnMobile: true,
      },
      { key: 'last', header: 'Last Used', cell: (i) => <DateText value={i.last_used} />, hideOnMobile: true },
      status,
    ];
  return [
    name,
    quantity,
    {
      key: 'minmax',
      header: 'Min / Max',
      align: 'right',
      cell: (i) => `${i.minimum_stock} / ${i.maximum_stock ?? '—'}`,
      hideOnMobile: true,
    },
    { key: 'level', header: 'Level', cell: (i) => <StatusBadge value={i.stock_level} />, hideOnMobile: true },
    {
      key: 'days',
      header: 'Days Left',
      align: 'right',
      cell: (i) => (i.days_left === null ? '—' : formatCount(i.days_left)),
      hideOnMobile: true,
    },
    status,
  ];
}

const reorderColumns: Column<InventoryItem>[] = [
  { key: 'name', header: 'Item', cell: (i) => <span className="font-medium">{i.item_name}</span> },
  { key: 'qty', header: 'Order', align: 'right', cell: (i) => qty(i.reorder!.quantity, i.unit) },
  { key: 'from', header: 'From', cell: (i) => i.reorder!.supplier ?? 'No supplier set' },
  { key: 'by', header: 'Order By', cell: (i) => <DayText value={i.reorder!.order_by} /> },
  {
    key: 'why',
    header: 'Based On',
    cell: (i) => `${i.daily_usage} ${i.unit}/day, ${i.reorder!.lead_time_days} d lead time, ${i.usable_stock} usable`,
    hideOnMobile: true,
  },
];

export interface KindScreenProps {
  kind: 'reagent' | 'consumable';
}

/** Reagent Management and Consumables Management: items of one kind with the spec's computed statuses. */
export function KindScreen({ kind }: KindScreenProps) {
  const screen = useScreen();
  const me = useCurrentUser();
  const canManage = can(me, 'manage_inventory');
  const summary = useInventorySummary(kind);
  const statuses = kind === 'reagent' ? REAGENT_STATUSES : CONSUMABLE_STATUSES;
  const filters: ListFilter[] = useMemo(
    () => [choiceFilter('status', 'Status', 'All Statuses', statuses, humanize)],
    [statuses],
  );
  const list = usePagedList({ filters, pageSizes: [WHOLE], defaultLimit: WHOLE });
  const items = useInventoryPage({ kind, page: 1, limit: WHOLE });
  const all = items.data?.items;
  const rows = useMemo(() => {
    if (!all) return undefined;
    const s = list.search.trim().toLowerCase();
    const st = list.apiFilters.status;
    return all.filter(
      (i) =>
        (!st || statusOf(kind, i) === st) &&
        (!s ||
          [i.item_name, i.item_code, i.catalog_number ?? '', i.supplier ?? ''].some((x) =>
            x.toLowerCase().includes(s),
          )),
    );
  }, [all, list.search, list.apiFilters.status, kind]);

  const noun = kind === 'reagent' ? 'Reagent' : 'Consumable';
  const { actions, addButton, dialogs } = useItemActions({ kind, noun, canManage });

  const s = summary.data;
  const cards =
    kind === 'reagent'
      ? [
          { label: 'Total Reagents', value: s?.total_items, hint: 'registered', icon: <Package /> },
          { label: 'Low Stock', value: s?.low_stock, hint: LOW_STOCK_HINT, icon: <AlertTriangle /> },
          { label: 'Expiring Soon', value: s?.expiring_soon, hint: 'within the warning days', icon: <CalendarClock /> },
          { label: 'Expired', value: s?.expired, hint: 'stock past its date', icon: <AlertTriangle /> },
        ]
      : [
          { label: 'Total Consumables', value: s?.total_items, hint: 'registered', icon: <Package /> },
          { label: 'Low Stock', value: s?.low_stock, hint: LOW_STOCK_HINT, icon: <AlertTriangle /> },
          { label: 'Out of Stock', value: s?.out_of_stock, hint: OUT_OF_STOCK_HINT, icon: <AlertTriangle /> },
          { label: 'Reorder Due', value: s?.reorder_due, hint: 'see the recommendations', icon: <ShoppingCart /> },
        ];

  const reorders = (all ?? []).filter((i) => i.reorder !== null);

  return (
    <>
      <PageHeader title={screen.title} subtitle={screen.subtitle} actions={addButton} />
      <SummaryCards
        label={`${noun} figures`}
        loading={summary.isPending}
        error={summary.error}
        cards={cards.map((c) => ({ ...c, value: summary.isError ? '—' : formatCount(c.value ?? null) }))}
      />
      <Card className="min-w-0">
        <FilteredTable
          list={list}
          rows={rows}
          totalCount={all?.length}
          loading={items.isPending}
          error={items.error}
          onRetry={() => void items.refetch()}
          columns={columnsFor(kind)}
          getRowId={(i) => i.id}
          caption={`${noun}s`}
          itemLabel={`${noun.toLowerCase()}s`}
          search={{
            placeholder: 'Search by name, code, catalogue number or supplier',
            label: `Search ${noun.toLowerCase()}s`,
          }}
          rowActions={actions}
          errorTitle={`Error Loading ${noun}s`}
          empty={{
            title: `No ${noun.toLowerCase()}s found`,
            filteredHint: 'Try adjusting your search or filter criteria.',
            hint: canManage ? `Add the ${noun.toLowerCase()}s the lab keeps.` : `No ${noun.toLowerCase()}s yet.`,
          }}
        />
      </Card>

      <Card className="mt-5 min-w-0">
        <CardHeader
          title="Reorder Recommendations"
          description="How much to order, from whom and by when: from the last 30 days’ consumption and the supplier’s lead time."
        />
        <CardBody className="p-0">
          <DataTable
            caption="Reorder recommendations"
            rows={all ? reorders : undefined}
            loading={items.isPending}
            error={items.error ?? undefined}
            onRetry={() => void items.refetch()}
            getRowId={(i) => i.id}
            columns={reorderColumns}
            empty={{ title: 'Nothing to order yet', hint: 'Every item lasts beyond its supplier’s lead time.' }}
          />
        </CardBody>
      </Card>
      {kind === 'consumable' && <SuppliersCard canManage={canManage} title="Supplier Performance" />}

      {dialogs}
    </>
  );
}
