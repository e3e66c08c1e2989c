import type { FormEvent, ReactNode } from 'react';
import type { DefaultValues, FieldValues, Path } from 'react-hook-form';
import type { z } from 'zod';
import { FormDialog } from '@/components';
import { useDialogForm } from '@/lib/dialogForm';
import { applyServerErrors, formError } from '@/lib/forms';
import { useSaveItemMutation, type BodyOf } from '../api';
import type { ItemKind } from '../kinds';

export interface ItemFormOptions<K extends ItemKind, In extends FieldValues, Out, R extends { id: number }> {
  schema: z.ZodType<Out, In>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** null: a new one. */
  row: R | null;
  /** Module-level: the form each opening starts from. */
  defaults: (row: R | null) => DefaultValues<NoInfer<In>>;
  /** Which field a 400's detail goes under. */
  fieldFor: (apiPath: string) => Path<In> | undefined;
  /** The body sent from the validated form. */
  body: (values: Out) => BodyOf[K];
}

/**
 * The form of a test, profile or package dialog and the props of its ItemFormDialog: the shared
 * schema on blur and submit, the save (POST or PUT), the dialog closed on success, and the
 * server's refusal under the fields (a taken code under Code) or above them.
 */
export function useItemForm<K extends ItemKind, In extends FieldValues, Out, R extends { id: number }>(
  kind: K,
  { schema, open, onOpenChange, row, defaults, fieldFor, body }: ItemFormOptions<K, In, Out, R>,
) {
  const save = useSaveItemMutation(kind);
  const form = useDialogForm(schema, open, row, defaults);
  const onSubmit = form.handleSubmit((values) =>
    save.mutate(
      { id: row?.id ?? null, body: body(values) },
      {
        onSuccess: () => onOpenChange(false),
        onError: (err) => applyServerErrors(err, form.setError, fieldFor, { CODE_TAKEN: 'code' as Path<In> }),
      },
    ),
  );
  return {
    form,
    dialog: { open, onOpenChange, busy: save.isPending, editing: row !== null, onSubmit, error: formError(form) },
  };
}

export interface ItemFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Saving: the dialog stays open and its buttons wait. */
  busy: boolean;
  /** Editing an item (Save Changes) rather than adding one (Save). */
  editing: boolean;
  /** The form's id, for the footer's submit button. */
  formId: string;
  title: string;
  description: ReactNode;
  size: 'lg' | 'xl';
  onSubmit: (e: FormEvent<HTMLFormElement>) => unknown;
  /** What no field took (formError). */
  error: string | undefined;
  children: ReactNode;
}

/** The Add / Edit dialog of tests, profiles and packages: a FormDialog saying Save or Save Changes. */
export function ItemFormDialog({ formId, editing, onSubmit, children, ...dialog }: ItemFormDialogProps) {
  return (
    <FormDialog {...dialog} form={{ id: formId, onSubmit }} submitLabel={editing ? 'Save Changes' : 'Save'}>
      {children}
    </FormDialog>
  );
}
