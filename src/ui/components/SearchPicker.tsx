import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import { Search } from 'lucide-react';
import { FormField, Input } from '@/components';
import { cn } from '@/lib/cn';

export interface SearchPickerProps<T> {
  label: string;
  placeholder?: string;
  query: string;
  onQueryChange: (query: string) => void;
  /** The matches for the current query (the caller filters, locally or through the server). */
  options: readonly T[] | undefined;
  getKey: (option: T) => string | number;
  renderOption: (option: T) => ReactNode;
  onSelect: (option: T) => void;
  loading?: boolean;
  loadingText?: string;
  /** A load failure: shown in the list instead of matches. */
  loadError?: string;
  /** A validation message under the field. */
  error?: string;
  hint?: ReactNode;
  /** Shown when the query matches nothing. */
  emptyText: string;
  /** Show the whole list on focus (small lists such as doctors); otherwise only once something is typed. */
  openOnFocus?: boolean;
  required?: boolean;
  inputRef?: Ref<HTMLInputElement>;
  disabled?: boolean;
}

/**
 * A searchable picker (WAI-ARIA combobox with a listbox): type to filter, Up/Down to move, Enter to
 * choose, Escape to close. Options are chosen with the mouse without the box losing focus, so a
 * cashier can add several items in a row from the keyboard.
 */
export function SearchPicker<T>({
  label,
  placeholder,
  query,
  onQueryChange,
  options,
  getKey,
  renderOption,
  onSelect,
  loading = false,
  loadingText = 'Loading...',
  loadError,
  error,
  hint,
  emptyText,
  openOnFocus = false,
  required,
  inputRef,
  disabled,
}: SearchPickerProps<T>) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [activeRaw, setActive] = useState(0);
  const list = options ?? [];
  // Typing starts again at the top; a shorter list of matches never leaves the highlight outside it.
  const active = Math.max(0, Math.min(activeRaw, list.length - 1));
  const wanted = openOnFocus || query.trim() !== '';
  const showPopup = open && wanted;
  const showList = showPopup && !loading && !loadError && list.length > 0;
  const optionId = (i: number) => `${listId}-opt-${i}`;
  const listRef = useRef<HTMLUListElement>(null);

  useEffect(() => {
    if (!showList) return;
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active, showList]);

  const choose = (o: T) => {
    onSelect(o);
    setActive(0);
    setOpen(false);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (!open) setOpen(true);
      else if (list.length) setActive((active + 1) % list.length);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      if (list.length) setActive((active - 1 + list.length) % list.length);
    } else if (e.key === 'Enter') {
      // Enter (a barcode scanner's too) picks the highlighted match and never submits a form.
      e.preventDefault();
      const o = showList ? list[active] : undefined;
      if (o !== undefined) choose(o);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      setOpen(false);
    }
  };

  let message: string | null = null;
  if (showPopup && !showList) message = loading ? loadingText : (loadError ?? emptyText);

  return (
    <FormField label={label} error={error} hint={hint} required={required}>
      {(control) => (
        <div className="relative">
          <Search
            className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-slate-500"
            aria-hidden="true"
          />
          <Input
            {...control}
            ref={inputRef}
            type="text"
            role="combobox"
            autoComplete="off"
            aria-autocomplete="list"
            aria-expanded={showList}
            aria-controls={listId}
            aria-activedescendant={showList ? optionId(active) : undefined}
            placeholder={placeholder}
            value={query}
            disabled={disabled}
            onChange={(e) => {
              onQueryChange(e.target.value);
              setActive(0);
              setOpen(true);
            }}
            onFocus={() => setOpen(true)}
            onClick={() => setOpen(true)}
            onBlur={() => setOpen(false)}
            onKeyDown={onKeyDown}
            className="pl-8"
          />
          {message !== null && (
            <p
              role="status"
              className={cn(
                'absolute z-30 mt-1 w-full rounded-md border border-slate-200 bg-white px-3 py-2 text-[13px] shadow-lg',
                loadError && !loading ? 'text-red-700' : 'text-slate-600',
              )}
            >
              {message}
            </p>
          )}
          <ul
            ref={listRef}
            id={listId}
            role="listbox"
            aria-label={label}
            hidden={!showList}
            className="absolute z-30 mt-1 max-h-64 w-full overflow-y-auto rounded-md border border-slate-200 bg-white py-1 shadow-lg"
          >
            {showList &&
              list.map((o, i) => (
                <li
                  key={getKey(o)}
                  id={optionId(i)}
                  data-index={i}
                  role="option"
                  aria-selected={i === active}
                  // Keep focus in the box: the click below picks the option.
                  onMouseDown={(e) => e.preventDefault()}
                  onMouseMove={() => setActive(i)}
                  onClick={() => choose(o)}
                  className={cn('cursor-pointer px-3 py-2 text-sm text-slate-900', i === active && 'bg-primary-50')}
                >
                  {renderOption(o)}
                </li>
              ))}
          </ul>
        </div>
      )}
    </FormField>
  );
}
