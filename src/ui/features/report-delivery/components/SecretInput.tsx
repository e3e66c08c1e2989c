import type { UseFormRegisterReturn } from 'react-hook-form';
import { Checkbox, FormField, Input } from '@/components';

/**
 * A write-only secret: the server answers only whether one is saved. Typing replaces it, an empty
 * field keeps it, and "Remove" clears it; what was saved is never put back in the page.
 */
export function SecretInput({
  label,
  saved,
  field,
  remove,
  onRemove,
  error,
}: {
  label: string;
  saved: boolean;
  field: UseFormRegisterReturn;
  remove: boolean;
  onRemove: (remove: boolean) => void;
  error?: string | undefined;
}) {
  const hint = remove
    ? 'Will be removed when you save.'
    : saved
      ? 'Saved. Leave empty to keep it; type a new one to replace it.'
      : 'None saved.';
  return (
    <FormField label={label} error={error} hint={hint}>
      {(control) => (
        <div className="grid gap-1.5">
          <Input
            {...control}
            {...field}
            type="password"
            autoComplete="new-password"
            disabled={remove}
            placeholder={saved && !remove ? '•••••••• (saved)' : ''}
          />
          {saved && (
            <Checkbox
              label={`Remove the saved ${label.toLowerCase()}`}
              checked={remove}
              onChange={(e) => onRemove(e.target.checked)}
            />
          )}
        </div>
      )}
    </FormField>
  );
}
