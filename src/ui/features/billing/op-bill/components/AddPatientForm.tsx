import type { Patient } from '@shared/schemas/patients';
import { Button } from '@/components';
import { applyServerErrors } from '@/lib/forms';
import { useCreatePatientMutation } from '@/lib/patients/queries';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';
import { patientsApi } from '@shared/api/patients';
import { useDuplicatePrompt } from '@/components/PossibleDuplicatesDialog';
import {
  NEW_PATIENT_DEFAULTS,
  NewPatientFields,
  newPatientField,
  useNewPatientForm,
  type NewPatientValues,
} from '@/components/NewPatientFields';

/**
 * OP Bill > Add New Patient, inline in the Patient Information card: POST /api/patients with the
 * spec's toasts; the new patient is then selected for the bill.
 */
export function AddPatientForm({ onCreated, onCancel }: { onCreated: (p: Patient) => void; onCancel: () => void }) {
  const create = useCreatePatientMutation({
    successTitle: 'New patient created successfully',
    failureTitle: 'Failed to create patient',
  });
  const form = useNewPatientForm();

  const duplicates = useDuplicatePrompt({ useLabel: 'Bill this patient', busy: create.isPending });

  const picked = (p: Patient) => {
    form.reset(NEW_PATIENT_DEFAULTS);
    onCreated(p);
  };
  const save = (values: NewPatientValues, confirmNew: boolean): Promise<void> =>
    create.mutateAsync({ ...values, ...(confirmNew ? { confirm_new: true } : {}) }).then(picked, (err: unknown) => {
      // Someone like this is registered already: bill them, or confirm a new patient.
      const offered = duplicates.intercept(err, {
        onUse: (c) =>
          void call(patientsApi.get, { params: { id: c.id } }).then(
            (r) => picked(r.patient),
            (e: unknown) => notify.error('Could not open the existing patient', e),
          ),
        onConfirmNew: () => void save(values, true),
      });
      if (!offered) applyServerErrors(err, form.setError, newPatientField);
    });
  const submit = form.handleSubmit((values) => save(values, false));

  return (
    <>
      {duplicates.dialog}
      <form
        noValidate
        aria-label="Add new patient"
        className="grid gap-3 rounded-md border border-primary-200 bg-primary-50/40 p-3"
        onSubmit={(e) => {
          // This form sits inside the bill screen: its submit must stay its own.
          e.stopPropagation();
          void submit(e);
        }}
      >
        <h3 className="text-sm font-semibold text-slate-900">Add New Patient</h3>
        <NewPatientFields form={form} />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={onCancel} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending} loadingText="Saving...">
            Create Patient
          </Button>
        </div>
      </form>
    </>
  );
}
