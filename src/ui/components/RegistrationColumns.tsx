import type { ReactNode } from 'react';
import type { FieldErrors, UseFormReturn } from 'react-hook-form';
import { REGISTRATION_NAMES, REGISTRATION_REQUIRED } from '@/lib/patients/registrationFields';
import type { RegistrationInput, RegistrationValues } from '@/lib/patients/schemas';
import { Card, CardBody, CardHeader } from './Card';
import { PatientFormSections, type PatientFieldKey, type SectionKey } from './PatientFormSections';

/** The form's two columns from lg: their sections, and the labels the spec words differently there. */
const COLUMNS: { sections: readonly SectionKey[]; labels: Partial<Record<PatientFieldKey, string>> }[] = [
  { sections: ['personal', 'contact'], labels: { phone: 'Mobile Number' } },
  { sections: ['emergency', 'medical', 'insurance'], labels: { emergency_phone: 'Emergency Contact Number' } },
];

const section = (_key: string, title: string, body: ReactNode) => (
  <Card>
    <CardHeader title={title} />
    <CardBody>{body}</CardBody>
  </Card>
);

/**
 * The patient's details of the registration form (New Patient Registration, Register Patient with
 * Bill): its sections as cards in two columns from lg.
 */
export function RegistrationColumns({
  form,
  errors,
}: {
  form: UseFormReturn<RegistrationInput, unknown, RegistrationValues>;
  /** The form's errors, read by the page (its own render follows them). */
  errors: FieldErrors<RegistrationInput>;
}) {
  // Both columns are the one form's fields.
  const fields = {
    register: form.register,
    control: form.control,
    errors,
    names: REGISTRATION_NAMES,
    required: REGISTRATION_REQUIRED,
    renderSection: section,
  };
  return (
    <div className="grid gap-5 lg:grid-cols-2 lg:items-start">
      {COLUMNS.map(({ sections, labels }) => (
        <PatientFormSections key={sections[0]} {...fields} sections={sections} labels={labels} />
      ))}
    </div>
  );
}
