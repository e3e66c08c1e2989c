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
          <Button
            variant="outline"
            size="icon-sm"
            aria-label="First page"
            disabled={page <= 1}
            onClick={() => onPageChange(1)}
          >
            <ChevronFirst />
          </Button>
          <Button
            variant="outline"
            size="icon-sm"
            aria-label="Previous page"
            disabled={page <= 1}
            onClick={() => onPageChange(page - 1)}
          >
            <ChevronLeft />
          </Button>
          <Button
            variant="outline"
            size="icon-sm"
            aria-label="Next page"
            disabled={page >= pages}
            onClick={() => onPageChange(page + 1)}
          >
            <ChevronRight />
          </Button>
          <Button
            variant="outline"
            size="icon-sm"
            aria-label="Last page"
            disabled={page >= pages}
            onClick={() => onPageChange(pages)}
          >
            <ChevronLast />
          </Button>
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
