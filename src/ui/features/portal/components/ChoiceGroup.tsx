import type { ReactNode } from 'react';

/**
 * A required group of choices (checkboxes, radio slots) under its legend, with the field's message
 * under it: FormField's look for a control that is many inputs rather than one.
 */
export function ChoiceGroup({
  legend,
  errorId,
  error,
  children,
}: {
  legend: string;
  /** The id the message takes, so the group is described by it. */
  errorId: string;
  error: string | undefined;
  children: ReactNode;
}) {
  return (
    <fieldset className="grid gap-2 sm:col-span-2" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1.5 text-[13px] font-medium text-slate-800">
        {legend}{' '}
        <span className="text-red-600" aria-hidden="true">
          *
        </span>
      </legend>
      {children}
      {error && (
        <p id={errorId} className="text-[13px] text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
