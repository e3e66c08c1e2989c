import type { z } from 'zod';
import { ownNames, PatientSectionsDialog } from '@/components/PatientSectionsDialog';
import { useDialogForm } from '@/lib/dialogForm';
import { applyServerErrors, fieldNamed } from '@/lib/forms';
import { ADD_PATIENT_DEFAULTS, ADD_PATIENT_FIELDS, addPatientSchema } from '@/lib/patients/schemas';
import { useRegisterPortalPatientMutation } from '../api';

const NAMES = ownNames(ADD_PATIENT_FIELDS);
const SECTIONS = ['personal', 'contact'] as const;
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
      onError: (err) => applyServerErrors(err, form.setError, fieldNamed(ADD_PATIENT_FIELDS)),
    });
  return (
    <PatientSectionsDialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title="Register Patient"
      description="The patient becomes your centre's: you can order tests for them and read their reports."
      busy={register.isPending}
      submitLabel="Register Patient"
      busyLabel="Registering..."
      form={form}
      names={NAMES}
      id="portal-register-form"
      onSubmit={form.handleSubmit(save)}
      sections={SECTIONS}
    />
  );
}
