import { useEffect, useRef, useState, type ReactNode } from 'react';
import { X } from 'lucide-react';
import { cn } from '@/lib/cn';
import { useDebounce } from '@/lib/useDebounce';
import { Button } from './Button';
import { SearchInput, Select, type SelectOption } from './Input';

export interface FilterSelect {
  /** Key in your URL state. */
  key: string;
  /** Accessible name, e.g. "Gender". */
  label: string;
  value: string;
  options: readonly SelectOption[];
}

export interface FilterBarProps {
  search?: string;
  onSearchChange?: (value: string) => void;
  searchPlaceholder?: string;
  /** Search label for screen readers; defaults to the placeholder. */
  searchLabel?: string;
  selects?: FilterSelect[];
  onSelectChange?: (key: string, value: string) => void;
  /** Shows Clear Filters when true. */
  active?: boolean;
  onClear?: () => void;
  /** Extra controls at the end (date range, export...). */
  children?: ReactNode;
  debounceMs?: number;
  className?: string;
  /**
   * Enter in the search box (a hand scanner ends its code with Enter): the screen may act on the
   * text at once (open the scanned record); returning true clears the box for the next scan.
   */
  onSearchEnter?: (text: string) => boolean;
}

/**
 * Search box (debounced: onSearchChange fires after the typing pauses, 300 ms per the spec) plus
 * the screen's filter selects, and Clear Filters when any is active.
 */
export function FilterBar({
  search,
  onSearchChange,
  searchPlaceholder = 'Search...',
  searchLabel,
  selects = [],
  onSelectChange,
  active = false,
  onClear,
  children,
  debounceMs = 300,
  className,
  onSearchEnter,
}: FilterBarProps) {
  const [text, setText] = useState(search ?? '');
  const debounced = useDebounce(text, debounceMs);
  const lastSent = useRef(search ?? '');

  // The URL can change underneath us (Back, Clear Filters): show what it says.
  useEffect(() => {
    if ((search ?? '') !== lastSent.current) {
      lastSent.current = search ?? '';
      setText(search ?? '');
    }
  }, [search]);

  // Screens pass onSearchChange inline (a new function each render). Depending on it would re-run
  // this effect on every render and could send a stale debounced text right after Clear Filters.
  const onSearchChangeRef = useRef(onSearchChange);
  useEffect(() => {
    onSearchChangeRef.current = onSearchChange;
  });

  useEffect(() => {
    if (debounced !== lastSent.current) {
      lastSent.current = debounced;
      onSearchChangeRef.current?.(debounced);
    }
  }, [debounced]);

  return (
    <div role="search" className={cn('flex flex-wrap items-center gap-2', className)}>
      {onSearchChange && (
        <SearchInput
          wrapperClassName="min-w-[14rem] flex-1"
          aria-label={searchLabel ?? searchPlaceholder}
          placeholder={searchPlaceholder}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter' || !onSearchEnter) return;
            e.preventDefault();
            if (onSearchEnter(text.trim())) setText('');
          }}
        />
      )}
      {selects.map((s) => (
        <Select
          key={s.key}
          aria-label={s.label}
          className="w-full sm:w-auto sm:min-w-44"
          value={s.value}
          options={s.options}
          onChange={(e) => onSelectChange?.(s.key, e.target.value)}
        />
      ))}
      {children}
      {active && onClear && (
        <Button
          variant="ghost"
          onClick={() => {
            lastSent.current = '';
            setText('');
            onClear();
          }}
        >
          <X />
          Clear Filters
        </Button>
      )}
    </div>
  );
}
