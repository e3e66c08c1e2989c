import type { ReactNode } from 'react';
import type { PagedList } from '@/lib/usePagedList';
import { DataTable, type Column, type RowAction, type SortState } from './DataTable';
import { ListFilterBar } from './ListTable';

export interface FilteredTableProps<T> {
  /** The screen's URL state (usePagedList; its paging is not used). */
  list: PagedList;
  /** The rows after the filters (undefined while loading). */
  rows: T[] | undefined;
  /** How many there are before the filters, for "3 of 12 users" under the table. */
  totalCount?: number;
  loading: boolean;
  /** The query's error (a `queryState(query)` spread gives loading, error and onRetry). */
  error: unknown;
  onRetry: () => void;
  columns: Column<T>[];
  getRowId: (row: T) => string | number;
  caption: string;
  /** "users" in "3 of 12 users". */
  itemLabel: string;
  search?: { placeholder: string; label: string };
  rowActions?: RowAction<T>[];
  empty: { title: string; hint?: ReactNode; filteredHint?: ReactNode };
  errorTitle?: string;
  retryLabel?: string;
  filterExtras?: ReactNode;
  sort?: SortState;
  onSortChange?: (sort: SortState) => void;
  onRowClick?: (row: T) => void;
  /** The rows shown are the previous filter's while the new ones load. */
  dimmed?: boolean;
}

/**
 * The list block of a screen whose list is small enough to come whole (users, catalogue prices, QC
 * materials): the same filter bar and four table states as ListTable, a count instead of a pager.
 */
export function FilteredTable<T>(props: FilteredTableProps<T>) {
  const { list, rows, empty } = props;
  return (
    <>
      <ListFilterBar list={list} search={props.search} extras={props.filterExtras} />
      <DataTable
        caption={props.caption}
        columns={props.columns}
        rows={rows}
        getRowId={props.getRowId}
        loading={props.loading}
        error={props.error ?? undefined}
        errorTitle={props.errorTitle}
        onRetry={props.onRetry}
        retryLabel={props.retryLabel ?? 'Retry Connection'}
        rowActions={props.rowActions}
        sort={props.sort}
        onSortChange={props.onSortChange}
        onRowClick={props.onRowClick}
        className={props.dimmed ? 'opacity-60 transition-opacity' : undefined}
        empty={{ title: empty.title, hint: list.filtersActive ? (empty.filteredHint ?? empty.hint) : empty.hint }}
      />
      {props.totalCount !== undefined && !props.loading && !props.error && rows && rows.length > 0 && (
        <p className="border-t border-slate-100 px-4 py-2 text-[13px] text-slate-600">
          {rows.length} of {props.totalCount} {props.itemLabel}
        </p>
      )}
    </>
  );
}
