import { useMemo, useState } from 'react';
import { X } from 'lucide-react';
import { IconButton, Money } from '@/components';
import { SearchPicker } from '@/components/SearchPicker';
import { errorMessage } from '@/lib/api';
import { useCatalogueList } from '@/lib/catalogue';

export interface PickedLine {
  item_type: 'test' | 'profile' | 'package';
  item_id: number;
  name: string;
  price: number;
}

const KIND = { test: 'Test', profile: 'Profile', package: 'Package' } as const;

/** Tests, profiles and packages of the catalogue in one search; the chosen lines listed under it. */
export function ItemPicker({
  lines,
  onChange,
  error,
}: {
  lines: PickedLine[];
  onChange: (lines: PickedLine[]) => void;
  error?: string | undefined;
}) {
  const [query, setQuery] = useState('');
  const tests = useCatalogueList('test', { status: 'active' });
  const profiles = useCatalogueList('profile', { status: 'active' });
  const packages = useCatalogueList('package', { status: 'active' });
  const all = useMemo<PickedLine[]>(
    () => [
      ...(tests.data ?? []).map((t) => ({ item_type: 'test' as const, item_id: t.id, name: t.name, price: t.price })),
      ...(profiles.data ?? []).map((t) => ({
        item_type: 'profile' as const,
        item_id: t.id,
        name: t.name,
        price: t.price,
      })),
      ...(packages.data ?? []).map((t) => ({
        item_type: 'package' as const,
        item_id: t.id,
        name: t.name,
        price: t.price,
      })),
    ],
    [tests.data, profiles.data, packages.data],
  );
  const q = query.trim().toLowerCase();
  const options = all.filter(
    (o) =>
      o.name.toLowerCase().includes(q) && !lines.some((l) => l.item_type === o.item_type && l.item_id === o.item_id),
  );
  const failed = tests.error ?? profiles.error ?? packages.error;
  return (
    <div className="sm:col-span-2">
      <SearchPicker
        label="Tests, profiles, packages"
        required
        placeholder="Search the catalogue by name..."
        query={query}
        onQueryChange={setQuery}
        options={options}
        getKey={(o) => `${o.item_type}-${o.item_id}`}
        loading={tests.isPending || profiles.isPending || packages.isPending}
        loadingText="Loading the catalogue..."
        loadError={failed ? `Could not load the catalogue: ${errorMessage(failed)}` : undefined}
        emptyText={`Nothing active matches "${query.trim()}"`}
        error={error}
        onSelect={(o) => {
          onChange([...lines, o]);
          setQuery('');
        }}
        renderOption={(o) => (
          <span className="flex items-baseline gap-2">
            <span className="min-w-0 flex-1 truncate">{o.name}</span>
            <span className="shrink-0 text-xs text-slate-500">{KIND[o.item_type]}</span>
            <Money rupees={o.price} className="shrink-0 text-[13px] text-slate-700" />
          </span>
        )}
      />
      {lines.length > 0 && (
        <ul className="mt-2 divide-y divide-slate-100 rounded-md border border-slate-200" aria-label="Chosen tests">
          {lines.map((l) => (
            <li key={`${l.item_type}-${l.item_id}`} className="flex items-center gap-2 px-3 py-1.5 text-sm">
              <span className="min-w-0 flex-1 truncate">{l.name}</span>
              <span className="text-xs text-slate-500">{KIND[l.item_type]}</span>
              <Money rupees={l.price} className="text-[13px]" />
              <IconButton
                label={`Remove ${l.name}`}
                onClick={() => onChange(lines.filter((x) => x !== l))}
                icon={<X />}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
