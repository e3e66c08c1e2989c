import type { FormEvent } from 'react';
import type { DefaultValues, FieldValues, Path, UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { PATIENT_DETAIL_FIELDS, type Patient } from '@shared/schemas/patients';
import { FormDialog, type FormDialogProps } from '@/components';
import { useDialogForm } from '@/lib/dialogForm';
import { applyServerErrors, formError } from '@/lib/forms';
import { useCreatePatientMutation, useUpdatePatientMutation } from '@/lib/patients/queries';
import { ADD_PATIENT_DEFAULTS, ADD_PATIENT_FIELDS, addPatientSchema, editPatientSchema } from '@/lib/patients/schemas';
import { PatientFormSections, type PatientFieldKey } from '@/components/PatientFormSections';
import { useDuplicatePrompt } from '@/components/PossibleDuplicatesDialog';
import { useNavigate } from 'react-router';

/** API names are the form names in these dialogs: each field's form name is its own. */
function ownNames<K extends PatientFieldKey>(keys: readonly K[]): { [P in K]: P } {
  return Object.fromEntries(keys.map((k) => [k, k])) as { [P in K]: P };
}

const ADD_FIELDS = ADD_PATIENT_FIELDS;
const ADD_NAMES = ownNames(ADD_FIELDS);
/** Edit Patient: every registration field, the short form's and the rest. */
const NAMES = ownNames([...ADD_FIELDS, ...PATIENT_DETAIL_FIELDS, 'membership_type'] as const) satisfies Record<
  PatientFieldKey,
  PatientFieldKey
>;

const ALL_SECTIONS = ['personal', 'contact', 'emergency', 'medical', 'insurance'] as const;
/** Add Patient requires the first name and a birth date or an age (walk-in rules, docs/decisions.md). */
const REQUIRED_BASIC: ReadonlySet<PatientFieldKey> = new Set(['first_name']);

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

/**
 * Add and Edit share one dialog: the patient's sections of fields in a FormDialog, the server's
 * refusal under its field or above the form.
 */
function PatientDialog<T extends FieldValues, O extends FieldValues>({
  form,
  names,
  id,
  onSubmit,
  ...dialog
}: Omit<FormDialogProps, 'form' | 'error' | 'children'> & {
  form: UseFormReturn<T, unknown, O>;
  names: Partial<Record<PatientFieldKey, Path<T>>>;
  id: string;
  onSubmit: (e: FormEvent<HTMLFormElement>) => unknown;
}) {
  return (
    <FormDialog {...dialog} form={{ id, onSubmit, columns: 1 }} error={formError(form)}>
      <PatientFormSections
        register={form.register}
        control={form.control}
        errors={form.formState.errors}
        names={names}
        required={REQUIRED_BASIC}
        sections={ALL_SECTIONS}
      />
    </FormDialog>
  );
}

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
        if (!offered)
          applyServerErrors(err, form.setError, (p) => (p in ADD_NAMES ? (p as keyof typeof ADD_NAMES) : undefined));
      },
    );

  return (
    <>
      {duplicates.dialog}
      <PatientDialog
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
    <PatientDialog
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
      onSubmit={submit}
    />
  );
}
