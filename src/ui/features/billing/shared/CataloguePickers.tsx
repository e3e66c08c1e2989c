import { catalogueMatches, searchAlternatives } from '@shared/catalogueSearch';
import { useMemo, useState } from 'react';
import { Money } from '@/components';
import { errorMessage } from '@/lib/api';
import { useCatalogueList } from '@/lib/catalogue';
import type { ItemType, PickedItem } from './lines';
import { SearchPicker } from '@/components/SearchPicker';

export type { PickedItem } from './lines';

const PICKERS: { type: ItemType; label: string; noun: string }[] = [
  { type: 'test', label: 'Individual Tests', noun: 'tests' },
  { type: 'profile', label: 'Test Profiles', noun: 'profiles' },
  { type: 'package', label: 'Test Packages', noun: 'packages' },
];

function CataloguePicker({
  type,
  label,
  noun,
  onAdd,
}: {
  type: ItemType;
  label: string;
  noun: string;
  onAdd: (item: PickedItem) => void;
}) {
  const [query, setQuery] = useState('');
  // Only active items can be billed; the server refuses inactive ones too.
  const list = useCatalogueList(type, { status: 'active' });
  // The server's catalogue search (name, code, aliases, synonyms such as sugar / glucose / FBS), on the loaded list.
  const options = useMemo(() => {
    const alternatives = searchAlternatives(query);
    return (list.data ?? []).filter((i) => catalogueMatches(i, query, alternatives));
  }, [list.data, query]);

  return (
    <SearchPicker
      label={label}
      placeholder={`Search ${noun} by name or code...`}
      query={query}
      onQueryChange={setQuery}
      options={options}
      getKey={(o) => o.id}
      loading={list.isPending}
      loadingText={`Loading ${noun}...`}
      loadError={list.isError ? `Could not load ${noun}: ${errorMessage(list.error)}` : undefined}
      emptyText={
        list.data?.length ? `No active ${noun} match "${query.trim()}"` : `No active ${noun} in the catalogue yet`
      }
      openOnFocus
      onSelect={(o) => {
        onAdd({
          item_type: type,
          id: o.id,
          name: o.name,
          code: o.code,
          price: o.price,
          ...('tax_category' in o ? { tax_category: String(o.tax_category) } : {}),
        });
        setQuery('');
      }}
      renderOption={(o) => (
        <span className="flex items-baseline gap-2">
          <span className="min-w-0 flex-1 truncate">{o.name}</span>
          <span className="shrink-0 font-mono text-xs text-slate-500">{o.code}</span>
          <Money rupees={o.price} className="shrink-0 text-[13px] text-slate-700" />
        </span>
      )}
    />
  );
}

/** The three pickers of spec 2.8 / 2.11: individual tests, test profiles, test packages. */
export function CataloguePickers({ onAdd }: { onAdd: (item: PickedItem) => void }) {
  return (
    <div className="grid gap-3 md:grid-cols-3">
      {PICKERS.map((p) => (
        <CataloguePicker key={p.type} {...p} onAdd={onAdd} />
      ))}
    </div>
  );
}
