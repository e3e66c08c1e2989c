import { useMemo, useState, type ReactNode } from 'react';
import { Ban, CircleCheck, Eye, Pencil, Plus, Trash2 } from 'lucide-react';
import { DetailsDialog, type Details } from './cells';
import {
  Button,
  Card,
  ConfirmDialog,
  deleteMessage,
  FilteredTable,
  PageHeader,
  RequirePermission,
  queryState,
  type Column,
  type RowAction,
} from '@/components';
import { useScreen } from '@/lib/screens';
import { usePagedList, type ListFilter } from '@/lib/usePagedList';
import { useCurrentUser } from '@/lib/session';
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
  const screen = useScreen();
  return (
    <RequirePermission permission="view_tests" what="the test catalogue" title={screen.title} subtitle={props.subtitle}>
      <Catalogue {...props} />
    </RequirePermission>
  );
}

function Catalogue<K extends ItemKind>(props: CatalogueScreenProps<K>) {
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
  const canManage = me.permissions.includes('manage_tests');

  // The unfiltered list gives the category choices and suggestions (and is the same cache entry
  // as the table when no filter is set).
  const everything = useCatalogueList(kind, {});
  const categories = useMemo(() => distinctCategories(everything.data), [everything.data]);
  const filterList = useMemo<ListFilter[]>(
    () => [
      ...(categoryFilter
        ? [{ key: 'category', label: 'Category', open: true, options: categoryOptions(everything.data, 'all') }]
        : []),
      { key: 'status', label: 'Status', options: STATUS_FILTER_OPTIONS },
    ],
    [categoryFilter, everything.data],
  );
  const list = usePagedList({ filters: filterList, pageSizes: [], defaultLimit: 0 });
  const listed = useCatalogueList(kind, {
    search: list.search,
    category: list.values.category ?? 'all',
    status: list.values.status!,
  });

  const [dialog, setDialog] = useState<Dialogs<ItemOf[K]>>({ type: 'none' });
  const close = () => setDialog({ type: 'none' });
  const remove = useDeleteItemMutation(kind);

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

  const total = everything.data?.length ?? listed.data?.length ?? 0;

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
        <FilteredTable
          list={list}
          rows={listed.data}
          totalCount={total}
          itemLabel={total === 1 ? noun.replace(/s$/, '') : noun}
          {...queryState(listed)}
          columns={columns}
          getRowId={(r) => r.id}
          caption={screen.title}
          search={{ placeholder: searchPlaceholder, label: searchPlaceholder }}
          rowActions={rowActions}
          empty={{
            title: `No ${noun} found`,
            hint: canManage ? `Use ${addLabel} to create the first one.` : undefined,
            filteredHint: 'Try adjusting your search or filter criteria.',
          }}
        />
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
