import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import type { Patient } from '@shared/schemas/patients';
import { Button, FormField, Input, Select, Textarea } from '@/components';
import { applyServerErrors } from '@/lib/forms';
import { useCreatePatientMutation } from '@/lib/patients/queries';
import { AGE_UNIT_OPTIONS } from '@/lib/patients/options';
import { addPatientSchema } from '@/lib/patients/schemas';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';
import { patientsApi } from '@shared/api/patients';
import { useDuplicatePrompt } from '@/components/PossibleDuplicatesDialog';

type AddInput = z.input<typeof addPatientSchema>;
type AddValues = z.output<typeof addPatientSchema>;
type Field = keyof AddInput;

/** Spec 3: the OP Bill add-patient form uses lowercase male, female, other, with Male the default. */
const GENDERS = [
  { value: 'male', label: 'Male' },
  { value: 'female', label: 'Female' },
  { value: 'other', label: 'Other' },
];

const DEFAULTS: AddInput = {
  first_name: '',
  last_name: '',
  date_of_birth: '',
  age: '',
  age_unit: 'years',
  gender: 'male',
  phone: '',
  email: '',
  address: '',
};

function todayLocal(): string {
  const n = new Date();
  return `${n.getFullYear()}-${String(n.getMonth() + 1).padStart(2, '0')}-${String(n.getDate()).padStart(2, '0')}`;
}

const isField = (p: string): p is Field => p in DEFAULTS;

/**
 * OP Bill > Add New Patient, inline in the Patient Information card: POST /api/patients with the
 * spec's toasts; the new patient is then selected for the bill.
 */
export function AddPatientForm({ onCreated, onCancel }: { onCreated: (p: Patient) => void; onCancel: () => void }) {
  const create = useCreatePatientMutation({
    successTitle: 'New patient created successfully',
    failureTitle: 'Failed to create patient',
  });
  const form = useForm<AddInput, unknown, AddValues>({
    resolver: zodResolver(addPatientSchema),
    defaultValues: DEFAULTS,
    mode: 'onBlur',
  });
  const { errors } = form.formState;
  const msg = (f: Field) => errors[f]?.message;

  const duplicates = useDuplicatePrompt({ useLabel: 'Bill this patient', busy: create.isPending });

  const picked = (p: Patient) => {
    form.reset(DEFAULTS);
    onCreated(p);
  };
  const save = (values: AddValues, confirmNew: boolean): Promise<void> =>
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
      if (!offered) applyServerErrors(err, form.setError, (p) => (isField(p) ? p : undefined));
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
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField label="First Name" required error={msg('first_name')}>
            <Input autoComplete="off" {...form.register('first_name')} />
          </FormField>
          <FormField label="Last Name" required error={msg('last_name')}>
            <Input autoComplete="off" {...form.register('last_name')} />
          </FormField>
          <FormField label="Date of Birth" hint="Or give the age" error={msg('date_of_birth')}>
            <Input type="date" max={todayLocal()} {...form.register('date_of_birth')} />
          </FormField>
          <div className="grid grid-cols-2 gap-3">
            <FormField label="Age" error={msg('age')}>
              <Input
                type="number"
                inputMode="numeric"
                min={0}
                placeholder="if no birth date"
                {...form.register('age')}
              />
            </FormField>
            <FormField label="Age In" error={msg('age_unit')}>
              <Select options={AGE_UNIT_OPTIONS} {...form.register('age_unit')} />
            </FormField>
          </div>
          <FormField label="Gender" error={msg('gender')}>
            <Select options={GENDERS} {...form.register('gender')} />
          </FormField>
          <FormField label="Phone" error={msg('phone')}>
            <Input
              type="tel"
              inputMode="tel"
              autoComplete="off"
              placeholder="e.g. 98765 43210"
              {...form.register('phone')}
            />
          </FormField>
          <FormField label="Email" error={msg('email')}>
            <Input type="email" autoComplete="off" placeholder="e.g. name@example.com" {...form.register('email')} />
          </FormField>
          <FormField label="Address" error={msg('address')} className="sm:col-span-2">
            <Textarea rows={2} {...form.register('address')} />
          </FormField>
        </div>
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
