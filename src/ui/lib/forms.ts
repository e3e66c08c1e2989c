import { useEffect, useState } from 'react';
import type { DefaultValues, FieldValues, Path, UseFormReset, UseFormSetError } from 'react-hook-form';
import { ApiError, errorMessage } from './api';

/**
 * Puts the server's field errors (400 details[].path, snake_case API names) under the form's fields.
 * `fieldFor` maps an API path to the form's field name when they differ (registration uses the
 * spec's camelCase names); paths with no field are left to the toast. `codeFields` puts an error
 * the server names by its code under one field (`{ EMAIL_TAKEN: 'email' }`, a 409). Returns how
 * many were placed; the first placed takes the focus.
 */
export function applyServerErrors<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  fieldFor: (apiPath: string) => Path<T> | undefined,
  codeFields: Partial<Record<string, Path<T>>> = {},
): number {
  if (!(err instanceof ApiError)) return 0;
  const byCode = err.code === undefined ? undefined : codeFields[err.code];
  if (byCode) {
    setError(byCode, { type: 'server', message: err.message }, { shouldFocus: true });
    return 1;
  }
  if (err.status !== 400) return 0;
  let placed = 0;
  for (const d of err.details) {
    const field = fieldFor(d.path);
    if (!field) continue;
    setError(field, { type: 'server', message: d.message }, { shouldFocus: placed === 0 });
    placed += 1;
  }
  return placed;
}

/** `fieldFor` for applyServerErrors when the form's fields are the API's names: those listed. */
export function fieldNamed<N extends string>(names: readonly N[]): (apiPath: string) => N | undefined {
  return (p) => names.find((n) => n === p);
}

/**
 * Each opening of a react-hook-form dialog starts from `defaults(subject)`: the row it edits, or an
 * empty form for null. Give it `form.reset` and a module-level `defaults` (both are dependencies).
 */
export function useResetOnOpen<T extends FieldValues, S>(
  reset: UseFormReset<T>,
  open: boolean,
  subject: S,
  defaults: (subject: S) => NoInfer<DefaultValues<T>>,
): void {
  useEffect(() => {
    if (open) reset(defaults(subject));
  }, [open, subject, reset, defaults]);
}

/**
 * The fields whose error message the form shows, for the "N fields need attention" toast: a count
 * of what the user sees, not of the validator's internal issues.
 */
export function shownErrors(errs: Record<string, unknown>): string[] {
  return Object.entries(errs)
    .filter(([, e]) => typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string')
    .map(([k]) => k);
}

/** Messages by field: the server's 400 details by their path; anything else under `form`. */
export type FieldErrors = Record<string, string | undefined>;

/**
 * The server's answer as messages by field (`details[].path`, the first message for a path), or,
 * when it names no field (a 409, a lost connection), the whole message under `form`.
 */
export function fieldErrors(err: unknown): FieldErrors {
  const next: FieldErrors = {};
  if (err instanceof ApiError) for (const d of err.details) next[d.path] ??= d.message;
  if (!Object.keys(next).length) next.form = errorMessage(err);
  return next;
}

export interface FieldForm<F> {
  values: F;
  /** One field; with `clearOnEdit`, its message goes too. */
  set: <K extends keyof F>(key: K, value: F[K]) => void;
  setValues: (update: (values: F) => F) => void;
  errors: FieldErrors;
  setErrors: (errors: FieldErrors | ((errors: FieldErrors) => FieldErrors)) => void;
  /** For a mutation's onError: the server's messages under their fields (fieldErrors). */
  showErrors: (err: unknown) => void;
}

/**
 * The state of a form written without react-hook-form (a dialog whose fields are not one schema's,
 * a settings card): its values, a setter per field, and the server's messages by field.
 * `resetFor`: when it changes to anything but null (the row a dialog opens for, or 'new'), the
 * values start again from `initial()` and the messages go, so each opening shows a fresh form
 * (reset while rendering, not in an effect). `clearOnEdit`: editing a field clears its message.
 */
export function useFieldForm<F extends object>(
  initial: () => F,
  { resetFor = null, clearOnEdit = false }: { resetFor?: unknown; clearOnEdit?: boolean } = {},
): FieldForm<F> {
  const [values, setValues] = useState<F>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [seen, setSeen] = useState<unknown>(resetFor);
  if (resetFor !== seen) {
    setSeen(resetFor);
    if (resetFor !== null) {
      setValues(initial());
      setErrors({});
    }
  }
  return {
    values,
    set: (key, value) => {
      setValues((v) => ({ ...v, [key]: value }));
      if (clearOnEdit) setErrors((e) => ({ ...e, [key]: undefined }));
    },
    setValues,
    errors,
    setErrors,
    showErrors: (err) => setErrors(fieldErrors(err)),
  };
}
