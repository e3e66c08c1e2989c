import { forwardRef, type InputHTMLAttributes, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

export interface RadioCardProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode;
  /** One line under the label: what choosing it means. */
  note: ReactNode;
  /** The chosen option, drawn highlighted (the caller watches the field's value). */
  selected: boolean;
}

/**
 * One option of a short either-or choice, as a bordered card with its label and a note; the whole
 * card picks it. Group the cards in a <fieldset> with a <legend>.
 */
export const RadioCard = forwardRef<HTMLInputElement, RadioCardProps>(function RadioCard(
  { label, note, selected, className, ...rest },
  ref,
) {
  return (
    <label
      className={cn(
        'flex cursor-pointer items-start gap-3 rounded-md border px-3 py-2.5',
        selected ? 'border-primary-300 bg-primary-50' : 'border-slate-200 bg-white hover:bg-slate-50',
        className,
      )}
    >
      <input ref={ref} type="radio" className="mt-0.5 size-4 accent-primary-600" {...rest} />
      <span className="min-w-0">
        <span className="block text-sm font-medium text-slate-900">{label}</span>
        <span className="block text-[13px] text-slate-600">{note}</span>
      </span>
    </label>
  );
});
