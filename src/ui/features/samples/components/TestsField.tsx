import { catalogueMatches, searchAlternatives } from '@shared/catalogueSearch';
import { useId, useMemo, useState } from 'react';
import { X } from 'lucide-react';
import type { CatalogueTest } from '@shared/schemas/catalogue';
import { Checkbox, SearchInput } from '@/components';
import { errorMessage } from '@/lib/api';
import { useOrderableTests } from '../api';

export interface TestsFieldProps {
  /** The sample type chosen so far: its tests are listed first. */
  sampleType: string;
  value: number[];
  onChange: (ids: number[]) => void;
  error?: string;
}

/**
 * Tests ordered on the sample: a multi-select over the active catalogue. Only tests taken from this
 * sample type are listed at first (a Blood tube: blood tests); "Show tests of every sample type"
 * lists the rest, because a catalogue entry may name another type or none.
 */
export function TestsField({ sampleType, value, onChange, error }: TestsFieldProps) {
  const labelId = useId();
  const tests = useOrderableTests(true);
  const [filter, setFilter] = useState('');
  const [everyType, setEveryType] = useState(false);
  const byId = useMemo(() => new Map((tests.data ?? []).map((t) => [t.id, t])), [tests.data]);

  const shown = useMemo(() => {
    const alternatives = searchAlternatives(filter);
    const matches = (t: CatalogueTest) => catalogueMatches(t, filter, alternatives);
    const ofType = (t: CatalogueTest) => !sampleType || everyType || t.sample_type === sampleType;
    return (tests.data ?? []).filter((t) => ofType(t) && matches(t));
  }, [tests.data, filter, sampleType, everyType]);

  const toggle = (id: number, on: boolean) => onChange(on ? [...value, id] : value.filter((v) => v !== id));

  return (
    <div className="grid gap-1.5" role="group" aria-labelledby={labelId}>
      <p id={labelId} className="text-[13px] font-medium text-slate-800">
        Tests Ordered
      </p>
      {value.length > 0 && (
        <ul aria-label="Selected tests" className="flex flex-wrap gap-1.5">
          {value.map((id) => {
            const t = byId.get(id);
            const name = t ? t.name : `Test ${id}`;
            return (
              <li
                key={id}
                className="inline-flex items-center gap-1 rounded-full bg-primary-50 py-0.5 pr-1 pl-2.5 text-xs text-primary-900"
              >
                {name}
                <button
                  type="button"
                  aria-label={`Remove ${name}`}
                  onClick={() => toggle(id, false)}
                  className="rounded-full p-0.5 hover:bg-primary-100"
                >
                  <X className="size-3" aria-hidden="true" />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <SearchInput
        aria-label="Filter tests"
        placeholder="Filter tests by name, code or category"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      <div
        className="max-h-44 overflow-y-auto rounded-md border border-slate-200 p-2"
        aria-invalid={error ? true : undefined}
      >
        {tests.isPending ? (
          <p className="text-[13px] text-slate-600">Loading tests...</p>
        ) : tests.isError ? (
          <p className="text-[13px] text-red-700">Could not load the test catalogue: {errorMessage(tests.error)}</p>
        ) : shown.length === 0 ? (
          <p className="text-[13px] text-slate-600">
            {filter.trim()
              ? `No test matches "${filter.trim()}"`
              : `No active ${sampleType || ''} tests in the catalogue`}
          </p>
        ) : (
          <div className="grid gap-1.5 sm:grid-cols-2">
            {shown.map((t) => (
              <Checkbox
                key={t.id}
                label={
                  <>
                    {t.name} <span className="font-mono text-xs text-slate-500">{t.code}</span>
                  </>
                }
                checked={value.includes(t.id)}
                onChange={(e) => toggle(t.id, e.target.checked)}
              />
            ))}
          </div>
        )}
      </div>
      {sampleType && (
        <Checkbox
          label="Show tests of every sample type"
          checked={everyType}
          onChange={(e) => setEveryType(e.target.checked)}
        />
      )}
      {error && <p className="text-[13px] text-red-700">{error}</p>}
    </div>
  );
}
