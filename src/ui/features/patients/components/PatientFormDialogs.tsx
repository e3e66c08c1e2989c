import type { DefaultValues } from 'react-hook-form';
import type { z } from 'zod';
import { PATIENT_DETAIL_FIELDS, type Patient } from '@shared/schemas/patients';
import { useDialogForm } from '@/lib/dialogForm';
import { applyServerErrors, fieldNamed } from '@/lib/forms';
import { useCreatePatientMutation, useUpdatePatientMutation } from '@/lib/patients/queries';
import { ADD_PATIENT_DEFAULTS, ADD_PATIENT_FIELDS, addPatientSchema, editPatientSchema } from '@/lib/patients/schemas';
import { type PatientFieldKey } from '@/components/PatientFormSections';
import { ownNames, PatientSectionsDialog } from '@/components/PatientSectionsDialog';
import { useDuplicatePrompt } from '@/components/PossibleDuplicatesDialog';
import { useNavigate } from 'react-router';

const ADD_FIELDS = ADD_PATIENT_FIELDS;
const ADD_NAMES = ownNames(ADD_FIELDS);
/** Edit Patient: every registration field, the short form's and the rest. */
const NAMES = ownNames([...ADD_FIELDS, ...PATIENT_DETAIL_FIELDS, 'membership_type'] as const) satisfies Record<
  PatientFieldKey,
  PatientFieldKey
>;

const ALL_SECTIONS = ['personal', 'contact', 'emergency', 'medical', 'insurance'] as const;
const isField = (path: string): path is PatientFieldKey => path in NAMES;

type EditInput = z.input<typeof editPatientSchema>;
type AddInput = z.input<typeof addPatientSchema>;

/** The record as form values: text inputs want '' rather than null. */
function toFormValues(p: Patient): EditInput {
  const out: Record<string, string> = {};
  for (const k of Object.keys(NAMES) as PatientFieldKey[]) if (k in p) out[k] = String(p[k as keyof Patient] ?? '');
  return {
    ...out,
    // The age is asked only to replace the birth date; the record keeps its date.
    age: '',
    age_unit: 'years',
    first_name: p.first_name,
    last_name: p.last_name,
    date_of_birth: p.date_of_birth,
    membership_type: p.membership_type || 'none',
  };
}

const addDefaults = (): DefaultValues<AddInput> => ADD_DEFAULTS;
const editDefaults = (p: Patient | null): DefaultValues<EditInput> => (p ? toFormValues(p) : {});

const ADD_DEFAULTS: AddInput = ADD_PATIENT_DEFAULTS;

export interface AddPatientDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** All Patients > Add Patient: the short form of spec 5, POST /api/patients. */
export function AddPatientDialog({ open, onOpenChange }: AddPatientDialogProps) {
  const create = useCreatePatientMutation({ successTitle: 'New patient created successfully' });
  const form = useDialogForm(addPatientSchema, open, null, addDefaults);
  const duplicates = useDuplicatePrompt({ busy: create.isPending });
  const navigate = useNavigate();

  const save = (values: z.output<typeof addPatientSchema>, confirmNew: boolean): Promise<void> =>
    create.mutateAsync({ ...values, ...(confirmNew ? { confirm_new: true } : {}) }).then(
      () => onOpenChange(false),
      (err: unknown) => {
        // Someone like this is registered already: open them instead, or confirm a new patient.
        const offered = duplicates.intercept(err, {
          onUse: (c) => {
            onOpenChange(false);
            void navigate(`/patients?search=${encodeURIComponent(c.patient_id)}`);
          },
          onConfirmNew: () => void save(values, true),
        });
        if (!offered) applyServerErrors(err, form.setError, fieldNamed(ADD_FIELDS));
      },
    );

  return (
    <>
      {duplicates.dialog}
      <PatientSectionsDialog
        open={open}
        onOpenChange={onOpenChange}
        title="Add New Patient"
        description="First name and a date of birth or an age are required. Use New Patient Registration for the full form."
        size="lg"
        busy={create.isPending}
        submitLabel="Add Patient"
        form={form}
        names={ADD_NAMES}
        id="add-patient-form"
        sections={ALL_SECTIONS}
        onSubmit={form.handleSubmit((values) => save(values, false))}
      />
    </>
  );
}

export interface EditPatientDialogProps {
  /** The patient to edit; null closes the dialog. */
  patient: Patient | null;
  onOpenChange: (open: boolean) => void;
}

/** All Patients > Edit: every registration field, saved with PUT /api/patients/{id}. */
export function EditPatientDialog({ patient, onOpenChange }: EditPatientDialogProps) {
  const update = useUpdatePatientMutation();
  const form = useDialogForm(editPatientSchema, patient !== null, patient, editDefaults);

  const submit = form.handleSubmit((values) => {
    if (!patient) return;
    return update.mutateAsync({ id: patient.id, body: values }).then(
      () => onOpenChange(false),
      (err: unknown) => applyServerErrors(err, form.setError, (p) => (isField(p) ? p : undefined)),
    );
  });

  return (
    <PatientSectionsDialog
      open={patient !== null}
      onOpenChange={onOpenChange}
      title="Edit Patient"
      description={patient ? `${patient.first_name} ${patient.last_name} · ${patient.patient_id}` : undefined}
      size="xl"
      busy={update.isPending}
      submitLabel="Save Changes"
      form={form}
      names={NAMES}
      id="edit-patient-form"
      sections={ALL_SECTIONS}
      onSubmit={submit}
    />
  );
}
