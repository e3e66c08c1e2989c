import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

/** What FormField hands to its control so label, error and hint are wired for screen readers. */
export interface ControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  'aria-required': true | undefined;
}

export interface FormFieldProps {
  label: ReactNode;
  /**
   * The control: an Input/Select/Textarea element (FormField gives it id and aria props), or a
   * function receiving those props when the control is wrapped (e.g. a password with a toggle).
   */
  children: ReactElement<Record<string, unknown>> | ((control: ControlProps) => ReactNode);
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  className?: string;
  id?: string;
}

/** Label + control + error (or hint). Every form field in lims goes through this, so every field is labelled. */
export function FormField({ label, children, error, hint, required, className, id }: FormFieldProps) {
  const auto = useId();
  const childId =
    typeof children !== 'function' && typeof children.props.id === 'string' ? children.props.id : undefined;
  const controlId = id ?? childId ?? auto;
  const hintId = hint && !error ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const props: ControlProps = {
    id: controlId,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [errorId, hintId].filter(Boolean).join(' ') || undefined,
    'aria-required': required || undefined,
  };
  const control =
    typeof children === 'function'
      ? children(props)
      : isValidElement(children)
        ? cloneElement(children, { ...props })
        : children;
  return (
    <div className={cn('grid content-start gap-1.5', className)}>
      {/* The required mark sits outside the label so the field's accessible name is just the label. */}
      <div className="flex items-baseline gap-0.5">
        <label htmlFor={controlId} className="text-[13px] font-medium text-slate-800">
          {label}
        </label>
        {required && (
          <span className="text-[13px] text-red-600" aria-hidden="true">
            *
          </span>
        )}
      </div>
      {control}
      {error ? (
        <p id={errorId} className="text-[13px] text-red-700">
          {error}
        </p>
      ) : hint ? (
        <p id={hintId} className="text-[13px] text-slate-600">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
