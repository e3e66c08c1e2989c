import { useMemo, useState } from 'react';
import { AlertTriangle, Ban, History, Layers, Pencil, Percent } from 'lucide-react';
import {
  Badge,
  Card,
  FilteredTable,
  Money,
  ScreenHeader,
  screenPermissionPage,
  SummaryCard,
  type Column,
  type RowAction,
  type SortState,
} from '@/components';
import { choiceOptions, usePagedList, type ListFilter } from '@/lib/usePagedList';
import { useCurrentUser } from '@/lib/session';
import { formatCount, humanize } from '@/lib/format';
import { useCatalogueList } from '../api';
import { categoryOptions, formatMarkup, KINDS, markupPercent, STATUS_FILTER_OPTIONS } from '../kinds';
import { EditPriceDialog, PriceHistoryDialog, type PricedItem } from '../components/PriceDialogs';
import { dash, MobileStatus } from '../components/cells';

interface PriceRow extends PricedItem {
  markup: number | null;
}

const TYPE_OPTIONS = choiceOptions('All Types', ['test', 'profile', 'package'], humanize);

const columns: Column<PriceRow>[] = [
  {
    key: 'name',
    header: 'Name',
    sortable: true,
    cell: (r) => (
      <div className="min-w-32">
        <div className="font-medium text-slate-900">{r.name}</div>
        <div className="text-xs text-slate-500">
          <span className="font-mono">{r.code}</span>
          <span className="md:hidden"> · {KINDS[r.kind].typeLabel}</span>
        </div>
        <MobileStatus status={r.status} />
      </div>
    ),
  },
  { key: 'category', header: 'Category', sortable: true, cell: (r) => dash(r.category), hideOnMobile: true },
  {
    key: 'type',
    header: 'Type',
    cell: (r) => <Badge tone="blue">{KINDS[r.kind].typeLabel}</Badge>,
    hideOnMobile: true,
  },
  {
    key: 'base_price',
    header: 'Base Price',
    align: 'right',
    sortable: true,
    cell: (r) => <Money rupees={r.base_price} />,
    hideOnMobile: true,
  },
  {
    key: 'price',
    header: 'Current Price',
    align: 'right',
    sortable: true,
    cell: (r) => (
      <div>
        <Money rupees={r.price} />
        {/* Phones hide the Markup column; the figure sits under the price instead. */}
        <div className="text-xs text-slate-500 md:hidden">
          Markup <Markup value={r.markup} />
        </div>
      </div>
    ),
  },
  {
    key: 'markup',
    header: 'Markup',
    align: 'right',
    sortable: true,
    cell: (r) => <Markup value={r.markup} />,
    hideOnMobile: true,
  },
  { key: 'status', header: 'Status', cell: (r) => <Badge status={r.status} />, hideOnMobile: true },
];

/** A negative markup (priced under base) is shown in red: the lab loses money on it. */
function Markup({ value }: { value: number | null }) {
  const negative = value !== null && value < 0;
  return (
    <span className={negative ? 'font-medium text-red-700 tabular-nums' : 'tabular-nums'}>{formatMarkup(value)}</span>
  );
}

const plural = (n: number, word: string) => `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;

function compare(a: PriceRow, b: PriceRow, key: string): number {
  if (key === 'price') return a.price - b.price;
  if (key === 'base_price') return a.base_price - b.base_price;
  // Items without a base price have no markup: they sort after every number.
  if (key === 'markup') return (a.markup ?? Infinity) - (b.markup ?? Infinity);
  if (key === 'category') return (a.category ?? '').localeCompare(b.category ?? '');
  return a.name.localeCompare(b.name);
}

/**
 * Test Pricing Management, made real: every test, profile and package with its base price,
 * current price and markup; Edit price saves through /api/pricing (kept as history) and Price
 * history lists who changed what when. The whole catalogue is loaded, so the cards and filters
 * work on all of it.
 */
export default screenPermissionPage('view_tests', 'catalogue prices', TestPricing);

const PRICING_EXTRA = { sort: 'name', dir: 'asc' };

function TestPricing() {
  const me = useCurrentUser();
  const canManage = me.permissions.includes('manage_tests');
  const tests = useCatalogueList('test', {});
  const profiles = useCatalogueList('profile', {});
  const packages = useCatalogueList('package', {});
  const queries = [tests, profiles, packages];
  const loading = queries.some((x) => x.isPending);
  const error = queries.find((x) => x.error)?.error ?? null;

  const all = useMemo<PriceRow[]>(() => {
    const row = (kind: PriceRow['kind']) => (i: Omit<PricedItem, 'kind'>) => ({
      kind,
      id: i.id,
      name: i.name,
      code: i.code,
      category: i.category,
      base_price: i.base_price,
      price: i.price,
      status: i.status,
      markup: markupPercent(i.price, i.base_price),
    });
    return [
      ...(tests.data ?? []).map(row('test')),
      ...(profiles.data ?? []).map(row('profile')),
      ...(packages.data ?? []).map(row('package')),
    ];
  }, [tests.data, profiles.data, packages.data]);

  const filters = useMemo<ListFilter[]>(
    () => [
      { key: 'type', label: 'Type', options: TYPE_OPTIONS },
      { key: 'category', label: 'Category', open: true, options: categoryOptions(all, 'all') },
      { key: 'status', label: 'Status', options: STATUS_FILTER_OPTIONS },
    ],
    [all],
  );
  const list = usePagedList({ filters, pageSizes: [], defaultLimit: 0, extra: PRICING_EXTRA });
  const q = {
    type: list.values.type!,
    category: list.values.category!,
    status: list.values.status!,
    search: list.search,
    sort: String(list.state.sort),
    dir: String(list.state.dir),
  };

  const rows = useMemo(() => {
    const s = q.search.trim().toLowerCase();
    const out = all.filter(
      (r) =>
        (q.type === 'all' || r.kind === q.type) &&
        (q.category === 'all' || r.category === q.category) &&
        (q.status === 'all' || r.status === q.status) &&
        (!s ||
          r.name.toLowerCase().includes(s) ||
          r.code.toLowerCase().includes(s) ||
          (r.category ?? '').toLowerCase().includes(s)),
    );
    const dir = q.dir === 'desc' ? -1 : 1;
    return out.sort((a, b) => dir * compare(a, b, q.sort) || a.name.localeCompare(b.name));
  }, [all, q.type, q.category, q.status, q.search, q.sort, q.dir]);

  const [editing, setEditing] = useState<PriceRow | null>(null);
  const [viewing, setViewing] = useState<PriceRow | null>(null);

  const withBase = all.filter((r) => r.markup !== null);
  const avgMarkup = withBase.length ? withBase.reduce((s, r) => s + (r.markup ?? 0), 0) / withBase.length : null;
  const count = (kind: string) => all.filter((r) => r.kind === kind).length;
  const cards = [
    {
      label: 'Catalogue Items',
      value: formatCount(all.length),
      hint: `${plural(count('test'), 'test')} · ${plural(count('profile'), 'profile')} · ${plural(count('package'), 'package')}`,
      icon: <Layers />,
    },
    {
      label: 'Average Markup',
      value: formatMarkup(avgMarkup),
      hint: `over ${plural(withBase.length, 'item')} with a base price`,
      icon: <Percent />,
    },
    {
      label: 'Priced Below Base',
      value: formatCount(all.filter((r) => r.price < r.base_price).length),
      hint: 'current price under base price',
      icon: <AlertTriangle />,
    },
    {
      label: 'Inactive Items',
      value: formatCount(all.filter((r) => r.status !== 'active').length),
      hint: 'deactivated, kept for the record',
      icon: <Ban />,
    },
  ];

  const rowActions: RowAction<PriceRow>[] = [
    { label: (r) => `Edit price of ${r.name}`, icon: <Pencil />, onClick: setEditing, hidden: () => !canManage },
    { label: (r) => `Price history of ${r.name}`, icon: <History />, onClick: setViewing },
  ];
  const sort: SortState = { key: q.sort, dir: q.dir === 'desc' ? 'desc' : 'asc' };

  return (
    <>
      <ScreenHeader subtitle="Base price, current price and markup of every test, profile and package" />
      <section aria-label="Pricing summary" className="mb-5 grid grid-cols-2 gap-3 lg:grid-cols-4">
        {cards.map((c) => (
          <SummaryCard
            key={c.label}
            label={c.label}
            icon={c.icon}
            hint={c.hint}
            loading={loading}
            value={error ? '—' : c.value}
          />
        ))}
      </section>
      <Card className="min-w-0">
        <FilteredTable
          list={list}
          rows={rows}
          totalCount={all.length}
          itemLabel="items"
          loading={loading}
          error={error}
          onRetry={() => queries.forEach((x) => void x.refetch())}
          columns={columns}
          getRowId={(r) => `${r.kind}-${r.id}`}
          caption="Catalogue prices"
          search={{ placeholder: 'Search by name, code or category...', label: 'Search by name, code or category...' }}
          rowActions={rowActions}
          sort={sort}
          onSortChange={(s) => list.setState({ sort: s.key, dir: s.dir })}
          empty={{
            title: 'No priced items found',
            hint: 'Add tests, profiles and packages on their screens; their prices show here.',
            filteredHint: 'Try adjusting your search or filter criteria.',
          }}
        />
      </Card>
      <EditPriceDialog item={editing} onOpenChange={(o) => !o && setEditing(null)} />
      <PriceHistoryDialog item={viewing} onOpenChange={(o) => !o && setViewing(null)} />
    </>
  );
}
