import { forwardRef, useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode;
  hint?: ReactNode;
}

/** A native checkbox with its label (clicking the label toggles it). */
export const Checkbox = forwardRef<HTMLInputElement, CheckboxProps>(function Checkbox(
  { label, hint, className, id, ...rest },
  ref,
) {
  const auto = useId();
  const inputId = id ?? auto;
  return (
    <div className={cn('flex items-start gap-2', className)}>
      <input
        ref={ref}
        id={inputId}
        type="checkbox"
        className="mt-0.5 size-4 rounded border-slate-400 accent-primary-600"
        aria-describedby={hint ? `${inputId}-hint` : undefined}
        {...rest}
      />
      <div className="grid gap-0.5">
        <label htmlFor={inputId} className="text-sm leading-5 text-slate-800">
          {label}
        </label>
        {hint && (
          <p id={`${inputId}-hint`} className="text-[13px] text-slate-600">
            {hint}
          </p>
        )}
      </div>
    </div>
  );
});

export interface SwitchProps {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  label: ReactNode;
  disabled?: boolean;
  id?: string;
  className?: string;
}

/** An on/off switch (role="switch") with a visible label. */
export function Switch({ checked, onCheckedChange, label, disabled, id, className }: SwitchProps) {
  const auto = useId();
  const switchId = id ?? auto;
  return (
    <div className={cn('flex items-center gap-2', className)}>
      <button
        id={switchId}
        type="button"
        role="switch"
        aria-checked={checked}
        disabled={disabled}
        onClick={() => onCheckedChange(!checked)}
        className={cn(
          'relative inline-flex h-5 w-9 shrink-0 items-center rounded-full transition-colors disabled:opacity-60',
          checked ? 'bg-primary-600' : 'bg-slate-300',
        )}
      >
        <span
          aria-hidden="true"
          className={cn(
            'inline-block size-4 rounded-full bg-white shadow transition-transform',
            checked ? 'translate-x-4.5' : 'translate-x-0.5',
          )}
        />
      </button>
      <label htmlFor={switchId} className="text-sm text-slate-800">
        {label}
      </label>
    </div>
  );
}
