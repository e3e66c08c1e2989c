import type { ReactNode } from 'react';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { cn } from '@/lib/cn';
import { IconButton } from './Tooltip';
import { EmptyState, ErrorPanel } from './States';

export interface Column<T> {
  /** Stable id; also the sort key sent to the server when sortable. */
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  align?: 'left' | 'right' | 'center';
  sortable?: boolean;
  className?: string;
  /** Hide on narrow screens (phones) to keep the table readable. */
  hideOnMobile?: boolean;
  /** Hide below this screen width too (a column whose content another cell repeats there). */
  hideBelow?: 'xl' | '2xl';
  /**
   * Stays at the right edge while the table scrolls sideways, so a row's buttons are never cut
   * off on a narrow screen. Default: on for the column keyed 'actions' (and the row-actions column).
   */
  sticky?: boolean;
}

export interface RowAction<T> {
  /** Accessible name + tooltip; make it specific ("Delete Asha Rao") via a function. */
  label: string | ((row: T) => string);
  icon: ReactNode;
  onClick: (row: T) => void;
  destructive?: boolean;
  hidden?: (row: T) => boolean;
  disabled?: (row: T) => boolean;
}

export interface SortState {
  key: string;
  dir: 'asc' | 'desc';
}

export interface DataTableProps<T> {
  columns: Column<T>[];
  rows: T[] | undefined;
  getRowId: (row: T) => string | number;
  /** Accessible table name, e.g. "Patients". */
  caption: string;
  loading?: boolean;
  skeletonRows?: number;
  error?: unknown;
  errorTitle?: string;
  onRetry?: () => void;
  retryLabel?: string;
  empty: { title: string; hint?: ReactNode; action?: ReactNode };
  rowActions?: RowAction<T>[];
  sort?: SortState;
  onSortChange?: (sort: SortState) => void;
  onRowClick?: (row: T) => void;
  className?: string;
}

const alignClass = { left: 'text-left', right: 'text-right', center: 'text-center' };

/**
 * A cell pinned to the right edge: opaque (the columns scrolling under it must not show through),
 * with a faint edge so the eye sees that there is more to the left.
 */
const stickyCell = 'sticky right-0 z-[1] shadow-[-6px_0_6px_-6px_rgba(15,23,42,0.18)]';
const stickyBody = `${stickyCell} bg-white group-hover:bg-slate-50`;
const stickyHead = `${stickyCell} bg-slate-50`;
const isSticky = <T,>(c: Column<T>) => c.sticky ?? c.key === 'actions';

/** The lims table: the four states (loading skeleton, error, empty, data), sortable headers, icon row actions. */
export function DataTable<T>({
  columns,
  rows,
  getRowId,
  caption,
  loading = false,
  skeletonRows = 5,
  error,
  errorTitle = 'Database Connection Error',
  onRetry,
  retryLabel,
  empty,
  rowActions,
  sort,
  onSortChange,
  onRowClick,
  className,
}: DataTableProps<T>) {
  if (error && !loading) {
    return <ErrorPanel title={errorTitle} error={error} onRetry={onRetry} retryLabel={retryLabel} className="m-4" />;
  }
  const colCount = columns.length + (rowActions?.length ? 1 : 0);
  const hide = (c: Column<T>) =>
    c.hideBelow === '2xl'
      ? 'hidden 2xl:table-cell'
      : c.hideBelow === 'xl'
        ? 'hidden xl:table-cell'
        : c.hideOnMobile
          ? 'hidden md:table-cell'
          : '';
  /** A header or body cell of a column: its own classes, alignment, the widths it hides below, pinned or not. */
  const cellClass = (c: Column<T>, base: string, sticky: string) =>
    cn(base, alignClass[c.align ?? 'left'], hide(c), isSticky(c) && sticky, c.className);

  return (
    <div className={cn('overflow-x-auto', className)}>
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200 bg-slate-50">
            {columns.map((c) => {
              const active = sort?.key === c.key;
              const ariaSort = active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined;
              return (
                <th
                  key={c.key}
                  scope="col"
                  aria-sort={ariaSort}
                  className={cellClass(
                    c,
                    'px-3 py-2 text-xs font-semibold tracking-wide text-slate-600 uppercase',
                    stickyHead,
                  )}
                >
                  {c.sortable && onSortChange ? (
                    <button
                      type="button"
                      className="inline-flex items-center gap-1 uppercase hover:text-slate-900"
                      onClick={() => onSortChange({ key: c.key, dir: active && sort.dir === 'asc' ? 'desc' : 'asc' })}
                    >
                      {c.header}
                      {active ? (
                        sort.dir === 'asc' ? (
                          <ArrowUp className="size-3.5" aria-hidden="true" />
                        ) : (
                          <ArrowDown className="size-3.5" aria-hidden="true" />
                        )
                      ) : (
                        <ArrowUpDown className="size-3.5 opacity-50" aria-hidden="true" />
                      )}
                    </button>
                  ) : (
                    c.header
                  )}
                </th>
              );
            })}
            {rowActions?.length ? (
              <th
                scope="col"
                className={cn(
                  'px-3 py-2 text-right text-xs font-semibold tracking-wide text-slate-600 uppercase',
                  stickyHead,
                )}
              >
                Actions
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {loading ? (
            Array.from({ length: skeletonRows }, (_, i) => (
              <tr key={`skeleton-${i}`} className="border-b border-slate-100" aria-hidden="true">
                {Array.from({ length: colCount }, (_, j) => (
                  <td key={j} className="px-3 py-3">
                    <div className="skeleton h-4 w-full max-w-40" />
                  </td>
                ))}
              </tr>
            ))
          ) : !rows || rows.length === 0 ? (
            <tr>
              <td colSpan={colCount}>
                <EmptyState title={empty.title} hint={empty.hint} action={empty.action} />
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr
                key={getRowId(row)}
                className={cn('group border-b border-slate-100 hover:bg-slate-50', onRowClick && 'cursor-pointer')}
                onClick={onRowClick ? () => onRowClick(row) : undefined}
              >
                {columns.map((c) => (
                  <td key={c.key} className={cellClass(c, 'px-3 py-2 align-middle text-slate-800', stickyBody)}>
                    {c.cell(row)}
                  </td>
                ))}
                {rowActions?.length ? (
                  <td className={cn('px-2 py-1 text-right whitespace-nowrap', stickyBody)}>
                    {rowActions
                      .filter((a) => !a.hidden?.(row))
                      .map((a) => {
                        const label = typeof a.label === 'function' ? a.label(row) : a.label;
                        return (
                          <IconButton
                            key={label}
                            label={label}
                            icon={a.icon}
                            disabled={a.disabled?.(row)}
                            className={a.destructive ? 'text-red-700 hover:bg-red-50 hover:text-red-800' : undefined}
                            onClick={(e) => {
                              e.stopPropagation();
                              a.onClick(row);
                            }}
                          />
                        );
                      })}
                  </td>
                ) : null}
              </tr>
            ))
          )}
        </tbody>
      </table>
      {loading && (
        <p role="status" className="sr-only">
          Loading {caption.toLowerCase()}...
        </p>
      )}
    </div>
  );
}

/** A table's loading, error and Retry from its TanStack query: `<DataTable {...queryState(q)} rows={q.data} />`. */
export function queryState(q: { isPending: boolean; error: unknown; refetch: () => unknown }) {
  return { loading: q.isPending, error: q.error, onRetry: () => void q.refetch() };
}
