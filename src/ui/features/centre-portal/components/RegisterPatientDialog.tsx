import type { z } from 'zod';
import { FormDialog } from '@/components';
import { PatientFormSections, type PatientFieldKey } from '@/components/PatientFormSections';
import { useDialogForm } from '@/lib/dialogForm';
import { applyServerErrors, formError } from '@/lib/forms';
import { ADD_PATIENT_DEFAULTS, ADD_PATIENT_FIELDS, addPatientSchema } from '@/lib/patients/schemas';
import { useRegisterPortalPatientMutation } from '../api';

const NAMES = Object.fromEntries(ADD_PATIENT_FIELDS.map((k) => [k, k])) as {
  [K in (typeof ADD_PATIENT_FIELDS)[number]]: K;
};
const REQUIRED: ReadonlySet<PatientFieldKey> = new Set(['first_name']);
const defaults = () => ADD_PATIENT_DEFAULTS;

/**
 * A patient registered by the centre: the lab's short form. The lab's duplicate check is not
 * offered here (it would show the centre other patients of the lab); the lab merges duplicates.
 */
export function RegisterPatientDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const register = useRegisterPortalPatientMutation();
  const form = useDialogForm(addPatientSchema, open, null, defaults);
  const save = (values: z.output<typeof addPatientSchema>) =>
    register.mutate(values, {
      onSuccess: () => onOpenChange(false),
      onError: (err) =>
        applyServerErrors(err, form.setError, (p) => (p in NAMES ? (p as keyof typeof NAMES) : undefined)),
    });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title="Register Patient"
      description="The patient becomes your centre's: you can order tests for them and read their reports."
      busy={register.isPending}
      submitLabel="Register Patient"
      busyLabel="Registering..."
      form={{ id: 'portal-register-form', onSubmit: form.handleSubmit(save), columns: 1 }}
      error={formError(form)}
    >
      <PatientFormSections
        register={form.register}
        control={form.control}
        errors={form.formState.errors}
        names={NAMES}
        required={REQUIRED}
        sections={['personal', 'contact']}
      />
    </FormDialog>
  );
}
