import { useFieldArray, type UseFormReturn } from 'react-hook-form';
import { Plus, Trash2 } from 'lucide-react';
import { RANGE_AGE_UNITS } from '@shared/flags';
import type { CatalogueTest } from '@shared/schemas/catalogue';
import { Button, Input, Select } from '@/components';
import type { TestFormIn } from '../forms';
import { fieldError } from './CommonFields';

/** A band as the form holds it: text boxes, '' for empty. */
export interface BandRow {
  sex: string;
  age_min: string;
  age_max: string;
  age_unit: string;
  range: string;
  critical_low: string;
  critical_high: string;
}

const text = (v: number | null | undefined) => (v == null ? '' : String(v));

/** The test's stored bands as rows of the table. */
export function bandRows(t: CatalogueTest | null): BandRow[] {
  return (t?.reference_ranges ?? []).map((b) => ({
    sex: b.sex ?? '',
    age_min: text(b.age_min),
    age_max: text(b.age_max),
    age_unit: b.age_unit ?? 'years',
    range: b.range,
    critical_low: text(b.critical_low),
    critical_high: text(b.critical_high),
  }));
}

const EMPTY: BandRow = {
  sex: '',
  age_min: '',
  age_max: '',
  age_unit: 'years',
  range: '',
  critical_low: '',
  critical_high: '',
};
const SEX_OPTIONS = [
  { value: '', label: 'Any' },
  { value: 'Male', label: 'Male' },
  { value: 'Female', label: 'Female' },
];
const UNIT_OPTIONS = RANGE_AGE_UNITS.map((u) => ({ value: u, label: u }));

type Form = UseFormReturn<TestFormIn, unknown, unknown>;

/** The message under one cell of the table, from the same schema the server uses. */
function cellError(form: Form, index: number, key: keyof BandRow): string | undefined {
  const rows = (form.formState.errors as { reference_ranges?: Record<number, object> }).reference_ranges;
  return rows?.[index] ? fieldError(rows[index], key) : undefined;
}

/**
 * Reference ranges by sex and age band: a small table of rows "who" (sex, age from, age to, unit)
 * and "what" (the range, and critical limits when this band's differ from the test's). The first
 * row that fits the patient is used; the Normal Range above applies when none does.
 */
export function ReferenceBandsField({ form }: { form: Form }) {
  const rows = useFieldArray({ control: form.control, name: 'reference_ranges' as never });
  const listError = fieldError(form.formState.errors, 'reference_ranges');
  const reg = (i: number, key: keyof BandRow) => form.register(`reference_ranges.${i}.${key}` as never);
  const cell = (i: number, key: keyof BandRow, label: string, input: React.ReactNode, wide = false) => {
    const error = cellError(form, i, key);
    return (
      <label className={wide ? 'col-span-2 sm:col-span-1' : undefined}>
        <span className="mb-0.5 block text-xs text-slate-600 sm:sr-only">{label}</span>
        {input}
        {error && <span className="mt-0.5 block text-xs text-red-700">{error}</span>}
      </label>
    );
  };
  return (
    <fieldset className="border-t border-slate-100 pt-4 sm:col-span-2" aria-describedby="bands-hint">
      <legend className="mb-1 text-sm font-semibold text-slate-900">Ranges by Sex and Age</legend>
      <p id="bands-hint" className="mb-3 text-xs text-slate-600">
        Age from is included, age to is not (0-7 days, then 7-14 days). The first row that fits the patient is used: put
        newborn and sex-specific rows first, and a later 0-1 months row covers the rest of the first month. The Normal
        Range applies when no row fits.
      </p>
      {rows.fields.length > 0 && (
        <div
          className="mb-1 hidden grid-cols-[6rem_7rem_4.5rem_4.5rem_minmax(8rem,1fr)_5rem_5rem_2rem] gap-2 text-xs font-medium text-slate-600 sm:grid"
          aria-hidden="true"
        >
          <span>Sex</span>
          <span>Age in</span>
          <span>From</span>
          <span>To (not incl.)</span>
          <span>Range or text</span>
          <span>Critical ≤</span>
          <span>Critical ≥</span>
          <span />
        </div>
      )}
      <ul className="space-y-3 sm:space-y-2">
        {rows.fields.map((f, i) => (
          <li
            key={f.id}
            aria-label={`Range ${i + 1}`}
            className="grid grid-cols-2 items-start gap-2 rounded-md border border-slate-200 p-2 sm:grid-cols-[6rem_7rem_4.5rem_4.5rem_minmax(8rem,1fr)_5rem_5rem_2rem] sm:border-0 sm:p-0"
          >
            {cell(
              i,
              'sex',
              'Sex',
              <Select aria-label={`Sex, range ${i + 1}`} options={SEX_OPTIONS} {...reg(i, 'sex')} />,
            )}
            {cell(
              i,
              'age_unit',
              'Age in',
              <Select aria-label={`Age unit, range ${i + 1}`} options={UNIT_OPTIONS} {...reg(i, 'age_unit')} />,
            )}
            {cell(
              i,
              'age_min',
              'Age from',
              <Input
                aria-label={`Age from, range ${i + 1}`}
                inputMode="numeric"
                placeholder="0"
                {...reg(i, 'age_min')}
              />,
            )}
            {cell(
              i,
              'age_max',
              'Age to (not incl.)',
              <Input
                aria-label={`Age to, range ${i + 1}`}
                inputMode="numeric"
                placeholder="any"
                {...reg(i, 'age_max')}
              />,
            )}
            {cell(
              i,
              'range',
              'Range or text',
              <Input
                aria-label={`Range, range ${i + 1}`}
                autoComplete="off"
                placeholder="e.g. 11.5-13.5"
                {...reg(i, 'range')}
              />,
              true,
            )}
            {cell(
              i,
              'critical_low',
              'Critical ≤',
              <Input aria-label={`Critical low, range ${i + 1}`} inputMode="decimal" {...reg(i, 'critical_low')} />,
            )}
            {cell(
              i,
              'critical_high',
              'Critical ≥',
              <Input aria-label={`Critical high, range ${i + 1}`} inputMode="decimal" {...reg(i, 'critical_high')} />,
            )}
            <Button
              variant="ghost"
              size="icon-sm"
              aria-label={`Remove range ${i + 1}`}
              title="Remove"
              className="justify-self-end sm:mt-1"
              onClick={() => rows.remove(i)}
            >
              <Trash2 className="size-4" aria-hidden="true" />
            </Button>
          </li>
        ))}
      </ul>
      {listError && <p className="mt-1 text-xs text-red-700">{listError}</p>}
      <Button variant="outline" size="sm" className="mt-3" onClick={() => rows.append({ ...EMPTY } as never)}>
        <Plus className="size-4" aria-hidden="true" /> Add range
      </Button>
    </fieldset>
  );
}
