import type { FormEvent } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { formError } from '@/lib/forms';
import { FormDialog, type FormDialogProps } from './FormDialog';
import { PatientFormSections, type PatientFieldKey, type SectionKey } from './PatientFormSections';

/** The patient dialogs send the API's names: each field's form name is its own. */
export function ownNames<K extends PatientFieldKey>(keys: readonly K[]): { [P in K]: P } {
  return Object.fromEntries(keys.map((k) => [k, k])) as { [P in K]: P };
}

/** Only the first name is required on its own; a birth date or an age is checked by the schema (walk-in rules, docs/decisions.md). */
const REQUIRED_BASIC: ReadonlySet<PatientFieldKey> = new Set(['first_name']);

/**
 * A patient's sections of fields in a FormDialog, the server's refusal under its field or above
 * the form: the lab's Add and Edit Patient, and a centre's Register Patient (fewer sections).
 */
export function PatientSectionsDialog<T extends FieldValues, O extends FieldValues>({
  form,
  names,
  id,
  onSubmit,
  sections,
  ...dialog
}: Omit<FormDialogProps, 'form' | 'error' | 'children'> & {
  form: UseFormReturn<T, unknown, O>;
  names: Partial<Record<PatientFieldKey, Path<T>>>;
  id: string;
  onSubmit: (e: FormEvent<HTMLFormElement>) => unknown;
  sections: readonly SectionKey[];
}) {
  return (
    <FormDialog {...dialog} form={{ id, onSubmit, columns: 1 }} error={formError(form)}>
      <PatientFormSections
        register={form.register}
        control={form.control}
        errors={form.formState.errors}
        names={names}
        required={REQUIRED_BASIC}
        sections={sections}
      />
    </FormDialog>
  );
}
