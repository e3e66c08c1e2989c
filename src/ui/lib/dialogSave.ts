import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { applyServerErrors } from './forms';

/**
 * The mutation callbacks of a dialog's save on the form recipe: the dialog closes once the server
 * has saved, and a refusal goes under the fields it names (applyServerErrors), so an add / edit
 * dialog says `create.mutate(body, dialogSave(form, onOpenChange, fieldNamed(FIELDS)))`.
 */
export function dialogSave<T extends FieldValues>(
  form: { setError: UseFormSetError<T> },
  onOpenChange: (open: boolean) => void,
  fieldFor: (apiPath: string) => Path<T> | undefined,
  codeFields: Partial<Record<string, Path<T>>> = {},
) {
  return {
    onSuccess: () => onOpenChange(false),
    onError: (err: unknown) => applyServerErrors(err, form.setError, fieldFor, codeFields),
  };
}
