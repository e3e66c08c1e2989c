import { Fragment } from 'react';
import { FormField } from './FormField';
import { Input } from './Input';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The month before the lab's current one ('YYYY-MM' of a lab day): the one a report or the accountant closes. */
export function previousMonth(today: string): string {
  const [y, m] = today.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/** Whether `month` is a month as YYYY-MM no later than the lab's current one. */
export const isPastMonth = (month: string, today: string) => MONTH.test(month) && month <= today.slice(0, 7);

/**
 * A month screen's picker (up to the lab's current month) and the command line that does the same
 * for cron, its parts given separately so that it wraps only between them, never inside "--month".
 */
export function MonthPicker({
  month,
  today,
  onChange,
  command,
  commandLabel,
}: {
  month: string;
  today: string;
  onChange: (month: string) => void;
  command: string[];
  commandLabel: string;
}) {
  return (
    <div className="mb-4 flex flex-wrap items-end gap-3">
      <FormField
        label="Month"
        className="w-48"
        error={isPastMonth(month, today) ? undefined : 'Choose a month up to this one'}
      >
        <Input type="month" value={month} max={today.slice(0, 7)} onChange={(e) => onChange(e.target.value)} />
      </FormField>
      <p className="pb-2 text-[13px] text-slate-600">
        {commandLabel}:{' '}
        <code className="rounded bg-slate-100 px-1">
          {command.map((part, i) => (
            <Fragment key={part}>
              {i > 0 && ' '}
              <span className="whitespace-nowrap">{part}</span>
            </Fragment>
          ))}
        </code>
      </p>
    </div>
  );
}
