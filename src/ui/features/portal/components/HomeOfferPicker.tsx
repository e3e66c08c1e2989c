import { useState } from 'react';
import { Clock } from 'lucide-react';
import type { HomeOfferItem } from '@shared/schemas/home-collection';
import { Checkbox, Money, SearchInput } from '@/components';
import { ChoiceGroup } from './ChoiceGroup';

export type OfferKey = `${HomeOfferItem['item_type']}-${number}`;
export const offerKey = (i: Pick<HomeOfferItem, 'item_type' | 'item_id'>): OfferKey => `${i.item_type}-${i.item_id}`;

const KIND = { test: 'Test', profile: 'Profile', package: 'Package' } as const;

/** The longest fasting among the chosen items: the one the patient must keep. */
export function fastingOf(items: readonly HomeOfferItem[]): number | null {
  const hours = items.flatMap((i) => (i.fasting_hours === null ? [] : [i.fasting_hours]));
  return hours.length ? Math.max(...hours) : null;
}

/** The fasting notice for the chosen tests, in the words the SMS uses. */
export function FastingNotice({ hours }: { hours: number }) {
  return (
    <p
      className="flex items-start gap-2 rounded-md bg-amber-50 px-3 py-2 text-[13px] text-amber-900 ring-1 ring-amber-200 ring-inset"
      data-testid="fasting-notice"
    >
      <Clock className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>
        Fasting needed: please do not eat for <strong>{hours} hours</strong> before your visit (water is fine).
      </span>
    </p>
  );
}

/**
 * The lab's tests, profiles and packages as a list of checkboxes a thumb can tap, filtered by a
 * search as the patient types; the fasting of each is shown beside it, the total of the chosen under it.
 */
export function HomeOfferPicker({
  items,
  chosen,
  onChange,
  error,
}: {
  items: readonly HomeOfferItem[];
  chosen: ReadonlySet<OfferKey>;
  onChange: (next: Set<OfferKey>) => void;
  error?: string | undefined;
}) {
  const [search, setSearch] = useState('');
  const q = search.trim().toLowerCase();
  const shown = items.filter(
    (i) => chosen.has(offerKey(i)) || !q || i.name.toLowerCase().includes(q) || i.code.toLowerCase().includes(q),
  );
  const picked = items.filter((i) => chosen.has(offerKey(i)));
  const toggle = (k: OfferKey) => {
    const next = new Set(chosen);
    if (!next.delete(k)) next.add(k);
    onChange(next);
  };
  return (
    <ChoiceGroup legend="Tests" errorId="home-items-error" error={error}>
      <SearchInput
        aria-label="Search tests"
        placeholder="Search tests, profiles, packages..."
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      <div className="max-h-56 overflow-y-auto rounded-md border border-slate-200" data-testid="home-offer">
        {shown.length === 0 ? (
          <p className="px-3 py-3 text-[13px] text-slate-600">No test matches “{search.trim()}”.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {shown.map((i) => (
              <li key={offerKey(i)} className="flex items-start gap-2 px-3 py-2">
                <Checkbox
                  className="min-w-0 flex-1"
                  checked={chosen.has(offerKey(i))}
                  onChange={() => toggle(offerKey(i))}
                  label={<span className="[overflow-wrap:anywhere]">{i.name}</span>}
                  hint={[KIND[i.item_type], i.fasting_hours ? `fasting ${i.fasting_hours} h` : null]
                    .filter(Boolean)
                    .join(' · ')}
                />
                <Money rupees={i.price} className="shrink-0 text-[13px] text-slate-700" />
              </li>
            ))}
          </ul>
        )}
      </div>
      {!error && (
        <p className="text-[13px] text-slate-600" aria-live="polite">
          {picked.length === 0 ? (
            'Choose at least one test.'
          ) : (
            <>
              {picked.length} chosen, list price <Money rupees={picked.reduce((s, i) => s + i.price, 0)} />
            </>
          )}
        </p>
      )}
    </ChoiceGroup>
  );
}
