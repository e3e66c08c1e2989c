import { useEffect, type ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Paged } from '@shared/schemas/common';
import type { PagedList } from '@/lib/usePagedList';
import { Button } from './Button';
import { DataTable, type Column, type RowAction } from './DataTable';
import { FilterBar } from './FilterBar';
import { Pagination } from './Pagination';
import { LoadingState } from './States';
import { listNames, type ListNames } from './listNames';

interface ListTableOwnProps<T, P extends Paged> {
  /** The screen's URL state (usePagedList). */
  list: PagedList;
  /** The page query (TanStack Query, placeholderData: keepPreviousData). */
  query: UseQueryResult<P>;
  rows: (page: P) => T[];
  columns: Column<T>[];
  getRowId: (row: T) => string | number;
  search?: { placeholder: string; label: string; onEnter?: (text: string) => boolean };
  rowActions?: RowAction<T>[];
  /** The empty state with no filters, and (filteredHint) when a filter or search is active. */
  empty: { title: string; hint?: ReactNode; filteredHint?: ReactNode; action?: ReactNode; filteredAction?: ReactNode };
  retryLabel?: string;
  onRetry?: () => void;
  /** A spinner with this text while the first page loads, instead of skeleton rows. */
  loadingText?: string;
  /** Extra controls in the filter bar (date range, export...). */
  filterExtras?: ReactNode;
  onRowClick?: (row: T) => void;
  /** The filters cannot be asked of the server (a From date after To): no rows, this message instead. */
  invalid?: string;
  /** Extra filter rows under the filter bar (date range, free-text entity...). */
  filterRows?: ReactNode;
}

/** Its caption, and "patients" in "Showing 1 to 10 of 52 patients": one noun, or each named (ListNames). */
export type ListTableProps<T, P extends Paged> = ListTableOwnProps<T, P> & ListNames;

/**
 * The list block of a list screen: filter bar (search + selects + clear), the table with its four
 * states (loading, error with Retry, empty, data), the pager, and the page clamp: after a delete or
 * from a stale bookmark the page can lie past the end, so it moves to the last page there is.
 */
export function ListTable<T, P extends Paged>(props: ListTableProps<T, P>) {
  const { list, query, empty, invalid } = props;
  const { caption, itemLabel, errorTitle } = listNames(props);
  const totalPages = query.data?.totalPages;
  const { page, setPage } = list;
  useEffect(() => {
    if (totalPages !== undefined && page > totalPages) setPage(totalPages, true);
  }, [page, totalPages, setPage]);

  return (
    <>
      <ListFilterBar list={list} search={props.search} extras={props.filterExtras} rows={props.filterRows} />
      {props.loadingText && query.isPending ? (
        <LoadingState text={props.loadingText} />
      ) : (
        <DataTable
          caption={caption}
          columns={props.columns}
          rows={invalid ? [] : query.data ? props.rows(query.data) : undefined}
          getRowId={props.getRowId}
          loading={query.isPending && !invalid}
          skeletonRows={Math.min(list.limit, 10)}
          error={query.isError && !invalid ? query.error : undefined}
          errorTitle={errorTitle}
          onRetry={props.onRetry ?? (() => void query.refetch())}
          retryLabel={props.retryLabel ?? 'Retry'}
          empty={
            invalid
              ? { title: empty.title, hint: invalid }
              : list.filtersActive
                ? { title: empty.title, hint: empty.filteredHint ?? empty.hint, action: empty.filteredAction }
                : { title: empty.title, hint: empty.hint, action: empty.action }
          }
          rowActions={props.rowActions}
          onRowClick={props.onRowClick}
          className={query.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}
        />
      )}
      {query.data && query.data.total > 0 && !query.isError && !invalid && (
        <Pagination
          className="border-t border-slate-100"
          page={page}
          totalPages={query.data.totalPages}
          total={query.data.total}
          pageSize={list.limit}
          pageSizes={list.pageSizes}
          onPageChange={(p) => setPage(p)}
          onPageSizeChange={list.setLimit}
          itemLabel={itemLabel}
        />
      )}
    </>
  );
}

export interface ListFilterBarProps {
  list: PagedList;
  search?: { placeholder: string; label: string; debounceMs?: number; onEnter?: (text: string) => boolean };
  /** Extra controls inside the bar (date range, export...). */
  extras?: ReactNode;
  /** Extra filter rows under the bar. */
  rows?: ReactNode;
  /** No border and padding of its own (the screen places the bar in a card of its own). */
  bare?: boolean;
}

/** The filter bar of a list screen, bound to its URL state: search, the select filters, Clear. */
export function ListFilterBar({ list, search, extras, rows, bare }: ListFilterBarProps) {
  if (!search && list.filters.length === 0 && !extras) return null;
  return (
    <div className={`${bare ? '' : 'border-b border-slate-100 p-3'}${rows ? ' grid gap-3' : ''}`}>
      <FilterBar
        search={search ? list.search : undefined}
        onSearchChange={search ? list.setSearch : undefined}
        searchPlaceholder={search?.placeholder}
        searchLabel={search?.label}
        debounceMs={search?.debounceMs}
        onSearchEnter={search?.onEnter}
        selects={list.filters.map((f) => {
          const value = list.values[f.key] ?? 'all';
          // An open filter (options loaded later, or from the data) still shows a bookmarked value as chosen.
          const missing = f.open && !f.options.some((o) => o.value === value);
          return {
            key: f.key,
            label: f.label,
            value,
            options: missing ? [...f.options, { value, label: value }] : f.options,
          };
        })}
        onSelectChange={list.setFilter}
        active={list.filtersActive}
        onClear={list.reset}
      >
        {extras}
      </FilterBar>
      {rows}
    </div>
  );
}

/**
 * The usual empty state while a search or filter is active: the hint to adjust it (or the screen's
 * own `filteredHint`) and a Clear Filters button that clears them.
 * `empty={{ title, hint, action, ...clearFiltersEmpty(list) }}`.
 */
export function clearFiltersEmpty(
  list: Pick<PagedList, 'reset'>,
  filteredHint: ReactNode = 'Try adjusting your search or filter criteria.',
) {
  return {
    filteredHint,
    filteredAction: (
      <Button variant="outline" onClick={list.reset}>
        Clear Filters
      </Button>
    ),
  };
}
