import { useForm, type DefaultValues, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { useResetOnOpen } from './forms';

/**
 * The react-hook-form of an add / edit dialog: validated by `schema` on blur and on submit, and
 * started again from `defaults(row)` each time the dialog opens (row null: a new one). `defaults`
 * is a module-level function. Kept apart from forms.ts so that only forms that validate load zod.
 */
export function useDialogForm<In extends FieldValues, Out, R>(
  schema: z.ZodType<Out, In>,
  open: boolean,
  row: R,
  defaults: (row: R) => DefaultValues<NoInfer<In>>,
): UseFormReturn<In, unknown, Out> {
  const form = useForm<In, unknown, Out>({
    resolver: zodResolver(schema),
    defaultValues: defaults(row),
    mode: 'onBlur',
  });
  useResetOnOpen(form.reset, open, row, defaults);
  return form;
}
