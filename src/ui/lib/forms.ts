import { useEffect, useState } from 'react';
import type { DefaultValues, FieldValues, Path, UseFormReset, UseFormSetError } from 'react-hook-form';
import { ApiError, errorMessage } from './api';

/** The server's refusal as a form shows it: messages under fields, and one for the whole form. */
export interface ServerErrors<N extends string = string> {
  /** By field: the first message the server gave for it. */
  fields: Partial<Record<N, string>>;
  /** What belongs to no field (a 409, a lost connection, a 400 about a field the form does not have). */
  form: string | undefined;
}

/**
 * The one reading of a failed save for a form. A 400's `details[].path` (snake_case API names) go
 * under the field `fieldFor` names (the API's own name unless told; undefined: the form has no such
 * field); `codeFields` puts an error the server names by its code under one field
 * (`{ EMAIL_TAKEN: 'email' }`, a 409). Whatever no field takes is the form's message: the details
 * no field took, or else the error's own message, so a refusal is never lost.
 */
export function serverErrors<N extends string = string>(
  err: unknown,
  fieldFor: (apiPath: string) => N | undefined = (p) => (p ? (p as N) : undefined),
  codeFields: Partial<Record<string, N>> = {},
): ServerErrors<N> {
  const fields: Partial<Record<N, string>> = {};
  if (!(err instanceof ApiError)) return { fields, form: errorMessage(err) };
  const byCode = err.code === undefined ? undefined : codeFields[err.code];
  if (byCode) return { fields: { [byCode]: err.message } as Partial<Record<N, string>>, form: undefined };
  const unplaced: string[] = [];
  if (err.status === 400)
    for (const d of err.details) {
      const field = fieldFor(d.path);
      if (field === undefined) unplaced.push(d.message);
      else fields[field] ??= d.message;
    }
  const placed = Object.keys(fields).length > 0;
  return { fields, form: unplaced.length ? [...new Set(unplaced)].join(' ') : placed ? undefined : err.message };
}

/**
 * serverErrors for a react-hook-form: each message under its field (the first placed takes the
 * focus), the form's message as `errors.root.server` (FormDialog's `error`: `formError(form)`).
 * Returns how many fields took a message.
 */
export function applyServerErrors<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  fieldFor: (apiPath: string) => Path<T> | undefined,
  codeFields: Partial<Record<string, Path<T>>> = {},
): number {
  const { fields, form } = serverErrors<Path<T>>(err, fieldFor, codeFields);
  const placed = Object.entries(fields) as [Path<T>, string][];
  placed.forEach(([field, message], i) => setError(field, { type: 'server', message }, { shouldFocus: i === 0 }));
  if (form) setError('root.server', { type: 'server', message: form });
  return placed.length;
}

/** The message of no field that applyServerErrors left on a react-hook-form (cleared at the next submit). */
export function formError(form: {
  formState: { errors: { root?: Record<string, { message?: string }> } };
}): string | undefined {
  return form.formState.errors.root?.server?.message;
}

/**
 * `fieldFor` for a form whose fields are the API's names but whose lists are one field: "test_ids.0"
 * goes under test_ids.
 */
export function topField<N extends string>(names: readonly N[]): (apiPath: string) => N | undefined {
  return (p) => names.find((n) => n === p.split('.')[0]);
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

/** Messages by field, and under `form` the message of no field. */
export type FieldErrors = Record<string, string | undefined>;

/**
 * serverErrors as one record (fields by the API's names, `form` for the rest), for useFieldForm;
 * `codeFields` as serverErrors takes it (`{ SUPPLIER_EXISTS: 'name' }`).
 */
export function fieldErrors(err: unknown, codeFields: Partial<Record<string, string>> = {}): Record<string, string> {
  const { fields, form } = serverErrors(err, undefined, codeFields);
  return { ...(fields as Record<string, string>), ...(form === undefined ? {} : { form }) };
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
 * `codeFields`: an error the server names by its code goes under that field (a 409 on a name).
 */
export function useFieldForm<F extends object>(
  initial: () => F,
  {
    resetFor = null,
    clearOnEdit = false,
    codeFields = {},
  }: { resetFor?: unknown; clearOnEdit?: boolean; codeFields?: Partial<Record<string, keyof F & string>> } = {},
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
    showErrors: (err) => setErrors(fieldErrors(err, codeFields)),
  };
}
