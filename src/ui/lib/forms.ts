import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api';

/**
 * Puts the server's field errors (400 details[].path, snake_case API names) under the form's fields.
 * `fieldFor` maps an API path to the form's field name when they differ (registration uses the
 * spec's camelCase names); paths with no field are left to the toast. Returns how many were placed.
 */
export function applyServerErrors<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  fieldFor: (apiPath: string) => Path<T> | undefined,
): number {
  if (!(err instanceof ApiError) || err.status !== 400) return 0;
  let placed = 0;
  for (const d of err.details) {
    const field = fieldFor(d.path);
    if (!field) continue;
    setError(field, { type: 'server', message: d.message }, { shouldFocus: placed === 0 });
    placed += 1;
  }
  return placed;
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
