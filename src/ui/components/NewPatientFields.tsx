import { useForm, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { AGE_UNIT_OPTIONS } from '@/lib/patients/options';
import { addPatientSchema } from '@/lib/patients/schemas';
import { FormField } from './FormField';
import { Input, Select, Textarea } from './Input';

export type NewPatientInput = z.input<typeof addPatientSchema>;
export type NewPatientValues = z.output<typeof addPatientSchema>;
export type NewPatientForm = UseFormReturn<NewPatientInput, unknown, NewPatientValues>;
type Field = keyof NewPatientInput;

/** Spec 3: the OP Bill add-patient form uses lowercase male, female, other, with Male the default. */
const GENDERS = [
  { value: 'male', label: 'Male' },
  { value: 'female', label: 'Female' },
  { value: 'other', label: 'Other' },
];

export const NEW_PATIENT_DEFAULTS: NewPatientInput = {
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

/** The form's field for an API name ("first_name"), or undefined when the form has no such field. */
export const newPatientField = (apiPath: string): Field | undefined =>
  apiPath in NEW_PATIENT_DEFAULTS ? (apiPath as Field) : undefined;

function todayLocal(): string {
  const n = new Date();
  return `${n.getFullYear()}-${String(n.getMonth() + 1).padStart(2, '0')}-${String(n.getDate()).padStart(2, '0')}`;
}

/** The react-hook-form of a quick new patient: the shared schema, checked on blur and on submit. */
export function useNewPatientForm(): NewPatientForm {
  return useForm<NewPatientInput, unknown, NewPatientValues>({
    resolver: zodResolver(addPatientSchema),
    defaultValues: NEW_PATIENT_DEFAULTS,
    mode: 'onBlur',
  });
}

/**
 * A new patient in a few fields, where the desk registers one in passing (OP Bill, Book Home Visit):
 * names, a birth date or an age, gender, phone, email and address. The caller owns the form and
 * what saving it means.
 */
export function NewPatientFields({ form }: { form: NewPatientForm }) {
  const { errors } = form.formState;
  const msg = (f: Field) => errors[f]?.message;
  return (
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
          <Input type="number" inputMode="numeric" min={0} placeholder="if no birth date" {...form.register('age')} />
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
  );
}
