import { catalogueMatches, searchAlternatives } from '@shared/catalogueSearch';
import { useId, useMemo, useState } from 'react';
import { X } from 'lucide-react';
import { SearchInput } from '@/components';
import { cn } from '@/lib/cn';
import { formatMoney } from '@/lib/format';

export interface PickerOption {
  id: number;
  name: string;
  code: string;
  status: string;
  hint?: string | null;
}

/** Rupees as the picker's hint shows a price. */
export const priced = (price: number) => formatMoney(Math.round(price * 100));

/** A catalogue item as a picker option; the hint is its price unless told. */
export function pickerOption(
  item: { id: number; name: string; code: string; status: string; price: number },
  hint = priced(item.price),
): PickerOption {
  return { id: item.id, name: item.name, code: item.code, status: item.status, hint };
}

export interface ItemPickerProps {
  /** "Tests", "Profiles": the group's accessible name. */
  label: string;
  options: readonly PickerOption[] | undefined;
  value: readonly number[];
  onChange: (ids: number[]) => void;
  loading?: boolean;
  error?: string;
  /** Shown when the catalogue has nothing of this kind yet. */
  emptyText: string;
}

/**
 * A searchable multi-select over the live catalogue: chips for what is chosen, a filter box, and a
 * checklist (native checkboxes, so keyboards, screen readers and browser tests all work). Inactive
 * items can stay in a set that already has them but are not offered for new choices.
 */
export function ItemPicker({ label, options, value, onChange, loading = false, error, emptyText }: ItemPickerProps) {
  const id = useId();
  const [filter, setFilter] = useState('');
  const chosen = useMemo(() => new Set(value), [value]);
  const byId = useMemo(() => new Map((options ?? []).map((o) => [o.id, o])), [options]);

  const visible = useMemo(() => {
    const alternatives = searchAlternatives(filter);
    return (options ?? []).filter(
      (o) => (o.status === 'active' || chosen.has(o.id)) && catalogueMatches(o, filter, alternatives),
    );
  }, [options, filter, chosen]);

  const toggle = (optId: number, on: boolean) => onChange(on ? [...value, optId] : value.filter((v) => v !== optId));

  return (
    <fieldset className="grid gap-1.5" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-1.5 text-[13px] font-medium text-slate-800">
        {label} <span className="font-normal text-slate-600">({value.length} selected)</span>
      </legend>
      {value.length > 0 && (
        <ul className="flex flex-wrap gap-1.5" aria-label={`Selected ${label.toLowerCase()}`}>
          {value.map((v) => {
            const o = byId.get(v);
            const name = o?.name ?? `#${v}`;
            return (
              <li
                key={v}
                className="inline-flex items-center gap-1 rounded-full bg-primary-50 py-0.5 pr-1 pl-2.5 text-xs text-primary-900 ring-1 ring-primary-600/20"
              >
                {name}
                {o && o.status !== 'active' && <span className="text-slate-600">(inactive)</span>}
                <button
                  type="button"
                  className="rounded-full p-0.5 hover:bg-primary-100 focus-visible:outline-2 focus-visible:outline-primary-500"
                  aria-label={`Remove ${name}`}
                  onClick={() => toggle(v, false)}
                >
                  <X className="size-3" aria-hidden="true" />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <SearchInput
        aria-label={`Search ${label.toLowerCase()}`}
        placeholder={`Search ${label.toLowerCase()} by name or code...`}
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        // Enter in the filter box must not submit the whole dialog.
        onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
      />
      <div
        className={cn('max-h-44 overflow-y-auto rounded-md border border-slate-200', error && 'border-red-500')}
        role="group"
        aria-label={`Available ${label.toLowerCase()}`}
      >
        {loading ? (
          <p className="px-3 py-2 text-[13px] text-slate-600">Loading {label.toLowerCase()}...</p>
        ) : !options?.length ? (
          <p className="px-3 py-2 text-[13px] text-slate-600">{emptyText}</p>
        ) : visible.length === 0 ? (
          <p className="px-3 py-2 text-[13px] text-slate-600">
            No {label.toLowerCase()} match "{filter.trim()}".
          </p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {visible.map((o) => (
              <li key={o.id}>
                <label className="flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm hover:bg-slate-50">
                  <input
                    type="checkbox"
                    className="size-4 shrink-0 rounded border-slate-400 accent-primary-600"
                    checked={chosen.has(o.id)}
                    onChange={(e) => toggle(o.id, e.target.checked)}
                  />
                  <span className="min-w-0 flex-1 truncate text-slate-900">{o.name}</span>
                  <span className="shrink-0 font-mono text-xs text-slate-500">{o.code}</span>
                  {o.hint && <span className="hidden shrink-0 text-xs text-slate-500 sm:inline">{o.hint}</span>}
                </label>
              </li>
            ))}
          </ul>
        )}
      </div>
      {error && (
        <p id={`${id}-error`} className="text-[13px] text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
