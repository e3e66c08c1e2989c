import { useMemo, useState, type ReactNode } from 'react';
import { Ban, CircleCheck, Eye, Pencil, Plus, Trash2 } from 'lucide-react';
import { DetailsDialog, type Details } from './cells';
import {
  Button,
  Card,
  ConfirmDialog,
  DataTable,
  deleteMessage,
  FilterBar,
  PageHeader,
  type Column,
  type RowAction,
} from '@/components';
import { useScreen } from '@/lib/screens';
import { useUrlState } from '@/lib/useUrlState';
import { useCurrentUser } from '@/lib/session';
import { NoAccess } from '@/components/NoAccess';
import { useCatalogueList, useDeleteItemMutation, useSetStatusMutation, type ItemOf } from '../api';
import { categoryOptions, distinctCategories, KINDS, STATUS_FILTER_OPTIONS, type ItemKind } from '../kinds';

/** What a form dialog of the screen gets: the item (null to add) and the kind's categories. */
export interface FormRender<T> {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  item: T | null;
  categories: readonly string[];
}

export interface CatalogueScreenProps<K extends ItemKind> {
  kind: K;
  columns: Column<ItemOf[K]>[];
  subtitle: string;
  searchPlaceholder: string;
  /** Profiles and tests filter by category (spec 2.15); packages do not. */
  categoryFilter?: boolean;
  addLabel: string;
  /** Plural noun for the empty state and the table caption: "test packages". */
  noun: string;
  renderForm: (p: FormRender<ItemOf[K]>) => ReactNode;
  /** What View shows of an item. */
  details: (item: ItemOf[K]) => Details;
}

type Dialogs<T> =
  { type: 'none' } | { type: 'form'; item: T | null } | { type: 'view'; item: T } | { type: 'delete'; item: T };

/**
 * The shared screen of Test Packages, Test Profiles and Individual Tests (spec 2.15): header with
 * Add, filter bar (search on the server, category, status), the table with its four states, row
 * actions View / Edit / Delete (Deactivate and Activate inside View), and the dialogs. Change actions show only
 * to users with manage_tests (the server refuses the others anyway).
 */
export function CatalogueScreen<K extends ItemKind>(props: CatalogueScreenProps<K>) {
  const {
    kind,
    columns,
    subtitle,
    searchPlaceholder,
    categoryFilter = false,
    addLabel,
    noun,
    renderForm,
    details,
  } = props;
  const k = KINDS[kind];
  const screen = useScreen();
  const me = useCurrentUser();
  const canView = me.permissions.includes('view_tests');
  const canManage = me.permissions.includes('manage_tests');

  const [q, setQ, resetQ, isActive] = useUrlState({ search: '', category: 'all', status: 'all' });
  const filters = { search: q.search, category: categoryFilter ? q.category : 'all', status: q.status };
  const listed = useCatalogueList(kind, filters, { enabled: canView });
  // The unfiltered list gives the category choices and suggestions (and is the same cache entry
  // as the table when no filter is set).
  const everything = useCatalogueList(kind, {}, { enabled: canView });
  const categories = useMemo(() => distinctCategories(everything.data), [everything.data]);

  const [dialog, setDialog] = useState<Dialogs<ItemOf[K]>>({ type: 'none' });
  const close = () => setDialog({ type: 'none' });
  const remove = useDeleteItemMutation(kind);

  if (!canView) {
    return (
      <>
        <PageHeader title={screen.title} subtitle={subtitle} />
        <NoAccess what="the test catalogue" permission="view_tests" />
      </>
    );
  }

  const rowActions: RowAction<ItemOf[K]>[] = [
    { label: (r) => `View ${r.name}`, icon: <Eye />, onClick: (r) => setDialog({ type: 'view', item: r }) },
    {
      label: (r) => `Edit ${r.name}`,
      icon: <Pencil />,
      onClick: (r) => setDialog({ type: 'form', item: r }),
      hidden: () => !canManage,
    },
    {
      label: (r) => `Delete ${r.name}`,
      icon: <Trash2 />,
      destructive: true,
      onClick: (r) => setDialog({ type: 'delete', item: r }),
      hidden: () => !canManage,
    },
  ];

  const filtered = isActive('search', 'category', 'status');
  const total = everything.data?.length ?? listed.data?.length ?? 0;
  const selects = [
    ...(categoryFilter
      ? [
          {
            key: 'category',
            label: 'Category',
            value: q.category,
            options: categoryOptions(everything.data, q.category),
          },
        ]
      : []),
    { key: 'status', label: 'Status', value: q.status, options: STATUS_FILTER_OPTIONS },
  ];

  return (
    <>
      <PageHeader
        title={screen.title}
        subtitle={subtitle}
        actions={
          canManage && (
            <Button onClick={() => setDialog({ type: 'form', item: null })}>
              <Plus />
              {addLabel}
            </Button>
          )
        }
      />
      <Card className="min-w-0">
        <div className="border-b border-slate-100 p-3">
          <FilterBar
            search={q.search}
            onSearchChange={(search) => setQ({ search }, { replace: true })}
            searchPlaceholder={searchPlaceholder}
            selects={selects}
            onSelectChange={(key, value) => setQ({ [key]: value })}
            active={filtered}
            onClear={resetQ}
          />
        </div>
        <DataTable
          caption={screen.title}
          columns={columns}
          rows={listed.data}
          getRowId={(r) => r.id}
          loading={listed.isPending}
          error={listed.error}
          onRetry={() => void listed.refetch()}
          retryLabel="Retry Connection"
          rowActions={rowActions}
          empty={{
            title: `No ${noun} found`,
            hint: filtered
              ? 'Try adjusting your search or filter criteria.'
              : canManage
                ? `Use ${addLabel} to create the first one.`
                : undefined,
          }}
        />
        {listed.data && listed.data.length > 0 && (
          <p className="border-t border-slate-100 px-4 py-2 text-[13px] text-slate-600">
            {listed.data.length} of {total} {total === 1 ? noun.replace(/s$/, '') : noun}
          </p>
        )}
      </Card>

      {renderForm({
        open: dialog.type === 'form',
        onOpenChange: (o) => !o && close(),
        item: dialog.type === 'form' ? dialog.item : null,
        categories,
      })}
      {dialog.type === 'view' && (
        <DetailsDialog
          open
          onOpenChange={(o) => !o && close()}
          title={dialog.item.name}
          {...details(dialog.item)}
          footer={
            canManage && (
              <ViewActions
                item={dialog.item}
                kind={kind}
                onEdit={() => setDialog({ type: 'form', item: dialog.item })}
                onDone={close}
              />
            )
          }
        />
      )}
      <ConfirmDialog
        open={dialog.type === 'delete'}
        onOpenChange={(o) => !o && close()}
        title={`Delete ${k.label.toLowerCase()}`}
        message={dialog.type === 'delete' ? deleteMessage(dialog.item.name) : ''}
        busy={remove.isPending}
        onConfirm={() => {
          if (dialog.type !== 'delete') return;
          remove.mutate({ id: dialog.item.id, name: dialog.item.name }, { onSettled: close });
        }}
      />
    </>
  );
}

/**
 * Deactivate / Activate (an edit of the status: an item in use cannot be deleted, and the server
 * says to deactivate it instead) and Edit, at the foot of the View dialog.
 */
function ViewActions(props: {
  item: { id: number; name: string; status: string };
  kind: ItemKind;
  onEdit: () => void;
  onDone: () => void;
}) {
  const { item, kind, onEdit, onDone } = props;
  const setStatus = useSetStatusMutation(kind);
  const active = item.status === 'active';
  const next = active ? 'inactive' : 'active';
  return (
    <>
      <Button
        variant="outline"
        loading={setStatus.isPending}
        loadingText="Saving..."
        onClick={() => setStatus.mutate({ id: item.id, name: item.name, status: next }, { onSuccess: onDone })}
      >
        {active ? <Ban /> : <CircleCheck />}
        {active ? 'Deactivate' : 'Activate'}
      </Button>
      <Button onClick={onEdit}>
        <Pencil />
        Edit
      </Button>
    </>
  );
}
