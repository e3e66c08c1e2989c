import { ChevronFirst, ChevronLast, ChevronLeft, ChevronRight } from 'lucide-react';
import { cn } from '@/lib/cn';
import { formatCount } from '@/lib/format';
import { Button } from './Button';
import { Select } from './Input';

export interface PaginationProps {
  page: number;
  totalPages: number;
  total: number;
  pageSize: number;
  pageSizes?: readonly number[];
  onPageChange: (page: number) => void;
  onPageSizeChange?: (size: number) => void;
  /** "patients", "bills": used in "Showing 1-10 of 52 patients". */
  itemLabel?: string;
  className?: string;
}

/** Server-side paging controls: First, Previous, Next, Last, page size, "Page x of y", total. */
export function Pagination({
  page,
  totalPages,
  total,
  pageSize,
  pageSizes = [10, 20, 50],
  onPageChange,
  onPageSizeChange,
  itemLabel = 'items',
  className,
}: PaginationProps) {
  const pages = Math.max(1, totalPages);
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return (
    <nav
      aria-label="Pagination"
      className={cn(
        'flex flex-wrap items-center justify-between gap-3 px-3 py-3 text-[13px] text-slate-700',
        className,
      )}
    >
      <p aria-live="polite">
        Showing {formatCount(from)}-{formatCount(to)} of {formatCount(total)} {itemLabel}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        {onPageSizeChange && (
          <label className="flex items-center gap-2">
            <span>Rows per page</span>
            <Select
              className="w-20"
              value={String(pageSize)}
              onChange={(e) => onPageSizeChange(Number(e.target.value))}
              options={pageSizes.map((s) => ({ value: String(s), label: String(s) }))}
            />
          </label>
        )}
        <span className="tabular-nums">
          Page {formatCount(Math.min(page, pages))} of {formatCount(pages)}
        </span>
        <div className="flex items-center gap-1">
          {[
            { label: 'First page', icon: <ChevronFirst />, to: 1, disabled: page <= 1 },
            { label: 'Previous page', icon: <ChevronLeft />, to: page - 1, disabled: page <= 1 },
            { label: 'Next page', icon: <ChevronRight />, to: page + 1, disabled: page >= pages },
            { label: 'Last page', icon: <ChevronLast />, to: pages, disabled: page >= pages },
          ].map((b) => (
            <Button
              key={b.label}
              variant="outline"
              size="icon-sm"
              aria-label={b.label}
              disabled={b.disabled}
              onClick={() => onPageChange(b.to)}
            >
              {b.icon}
            </Button>
          ))}
        </div>
      </div>
    </nav>
  );
}

/** Pagination under a table fed by a page query, shown only when there is more than one page. */
export function QueryPagination({
  data,
  ...props
}: Omit<PaginationProps, 'totalPages' | 'total'> & { data: { totalPages: number; total: number } | undefined }) {
  if (!data || data.totalPages <= 1) return null;
  return <Pagination {...props} totalPages={data.totalPages} total={data.total} />;
}
