import { FormField } from './FormField';
import { Input } from './Input';

export interface DateRangeFieldsProps {
  /** yyyy-mm-dd, or '' for open. */
  from: string;
  to: string;
  /** Both ends, with the one that changed. */
  onChange: (range: { from: string; to: string }) => void;
  /** Each field's class (the default suits a filter row: full cell on a phone, 11 rem from sm). */
  fieldClassName?: string;
}

/** Whether a From/To pair is backwards (both given, From after To): the list should not be asked. */
export function rangeIsBackwards(from: string, to: string): boolean {
  return from !== '' && to !== '' && from > to;
}

/**
 * The From and To date fields of a filter or a report period, as two cells of the caller's grid:
 * each limits the other's calendar, and From says so when it is after To.
 */
export function DateRangeFields({ from, to, onChange, fieldClassName = 'sm:w-44' }: DateRangeFieldsProps) {
  return (
    <>
      <FormField
        label="From"
        className={fieldClassName}
        error={rangeIsBackwards(from, to) ? 'From is after To' : undefined}
      >
        <Input
          type="date"
          value={from}
          max={to || undefined}
          onChange={(e) => onChange({ from: e.target.value, to })}
        />
      </FormField>
      <FormField label="To" className={fieldClassName}>
        <Input
          type="date"
          value={to}
          min={from || undefined}
          onChange={(e) => onChange({ from, to: e.target.value })}
        />
      </FormField>
    </>
  );
}
