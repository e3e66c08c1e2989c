import type { ReactElement, ReactNode } from 'react';
import {
  Controller,
  get,
  type Control,
  type FieldErrors,
  type FieldValues,
  type Path,
  type UseFormRegister,
  type UseFormRegisterReturn,
} from 'react-hook-form';
import { FormField, Input, Select, Textarea, type SelectOption } from '@/components';
import { LabDateInput } from './LabDateInput';
import {
  AGE_UNIT_OPTIONS,
  BLOOD_GROUP_OPTIONS,
  GENDER_OPTIONS,
  MEMBERSHIP_OPTIONS,
  RELATION_OPTIONS,
  TITLE_OPTIONS,
} from '@/lib/patients/options';

/** The patient fields the forms show, by their API names. */
export type PatientFieldKey =
  | 'title'
  | 'age'
  | 'age_unit'
  | 'first_name'
  | 'last_name'
  | 'date_of_birth'
  | 'gender'
  | 'phone'
  | 'email'
  | 'address'
  | 'city'
  | 'state'
  | 'pincode'
  | 'emergency_contact'
  | 'emergency_phone'
  | 'emergency_relation'
  | 'blood_group'
  | 'allergies'
  | 'medical_history'
  | 'insurance_provider'
  | 'insurance_number'
  | 'membership_type';

export type SectionKey = 'personal' | 'contact' | 'emergency' | 'medical' | 'insurance';

/** How one field is drawn: its label, control and width. */
interface FieldSpec {
  label: string;
  wide?: boolean;
  control: (reg: UseFormRegisterReturn, required: boolean) => ReactElement<Record<string, unknown>>;
}

function todayLocal(): string {
  const n = new Date();
  return `${n.getFullYear()}-${String(n.getMonth() + 1).padStart(2, '0')}-${String(n.getDate()).padStart(2, '0')}`;
}

const text =
  (extra: Record<string, string | number> = {}) =>
  (reg: UseFormRegisterReturn) => <Input {...extra} {...reg} />;
const area = (rows: number, placeholder?: string) => (reg: UseFormRegisterReturn) => (
  <Textarea rows={rows} placeholder={placeholder} {...reg} />
);
const choice = (options: SelectOption[], requiredText: string, optionalText: string) =>
  function ChoiceControl(reg: UseFormRegisterReturn, required: boolean) {
    return <Select placeholder={required ? requiredText : optionalText} options={options} {...reg} />;
  };

const FIELDS: Record<PatientFieldKey, FieldSpec> = {
  title: { label: 'Title', control: choice(TITLE_OPTIONS, 'Select title', 'No title') },
  age: {
    label: 'Age',
    control: text({
      type: 'number',
      inputMode: 'numeric',
      min: 0,
      max: 120,
      placeholder: 'if the birth date is not known',
    }),
  },
  age_unit: { label: 'Age In', control: (reg) => <Select options={AGE_UNIT_OPTIONS} {...reg} /> },
  first_name: { label: 'First Name', control: text({ autoComplete: 'off' }) },
  last_name: { label: 'Last Name', control: text({ autoComplete: 'off' }) },
  // The max is read when drawn so a form left open past midnight still allows today.
  date_of_birth: { label: 'Date of Birth', control: (reg) => <Input type="date" max={todayLocal()} {...reg} /> },
  gender: { label: 'Gender', control: choice(GENDER_OPTIONS, 'Select gender', 'Not specified') },
  phone: {
    label: 'Phone',
    control: text({ type: 'tel', inputMode: 'tel', autoComplete: 'off', placeholder: 'e.g. 98765 43210' }),
  },
  email: {
    label: 'Email',
    control: text({ type: 'email', autoComplete: 'off', placeholder: 'e.g. name@example.com' }),
  },
  address: { label: 'Address', wide: true, control: area(2) },
  city: { label: 'City', control: text() },
  state: { label: 'State', control: text() },
  pincode: { label: 'Pincode', control: text({ inputMode: 'numeric', maxLength: 6, placeholder: 'e.g. 560001' }) },
  emergency_contact: { label: 'Contact Name', control: text({ autoComplete: 'off' }) },
  emergency_phone: { label: 'Contact Number', control: text({ type: 'tel', inputMode: 'tel', autoComplete: 'off' }) },
  emergency_relation: {
    label: 'Relationship',
    control: choice(RELATION_OPTIONS, 'Select relationship', 'Not specified'),
  },
  blood_group: { label: 'Blood Group', control: choice(BLOOD_GROUP_OPTIONS, 'Select blood group', 'Unknown') },
  allergies: { label: 'Allergies', wide: true, control: area(2, 'e.g. Penicillin, peanuts') },
  medical_history: {
    label: 'Medical History',
    wide: true,
    control: area(3, 'Past illnesses, surgeries, ongoing treatment'),
  },
  insurance_provider: { label: 'Insurance Provider', control: text() },
  insurance_number: { label: 'Insurance Number', control: text() },
  membership_type: { label: 'Membership', control: (reg) => <Select options={MEMBERSHIP_OPTIONS} {...reg} /> },
};

const SECTION_FIELDS: Record<SectionKey, readonly PatientFieldKey[]> = {
  personal: ['title', 'first_name', 'last_name', 'gender', 'date_of_birth', 'age', 'age_unit'],
  contact: ['phone', 'email', 'address', 'city', 'state', 'pincode'],
  emergency: ['emergency_contact', 'emergency_phone', 'emergency_relation'],
  medical: ['blood_group', 'allergies', 'medical_history'],
  insurance: ['insurance_provider', 'insurance_number', 'membership_type'],
};

export const SECTION_TITLES: Record<SectionKey, string> = {
  personal: 'Personal Information',
  contact: 'Contact Information',
  emergency: 'Emergency Contact',
  medical: 'Medical Information',
  insurance: 'Insurance & Membership',
};

export interface PatientFormSectionsProps<T extends FieldValues, O extends FieldValues = T> {
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
  /**
   * The form's name for each field it has (the registration form uses the spec's camelCase names).
   * Fields without a name are not shown, so Add Patient passes only its short list.
   */
  names: Partial<Record<PatientFieldKey, Path<T>>>;
  required: ReadonlySet<PatientFieldKey>;
  sections: readonly SectionKey[];
  /** Wraps each section (a Card on the registration page); a fieldset with a legend otherwise. */
  renderSection?: (key: SectionKey, title: string, body: ReactNode) => ReactNode;
  /** Label overrides, e.g. "Mobile Number" for phone on the registration page. */
  labels?: Partial<Record<PatientFieldKey, string>>;
  /** The form's control: dates are then typed in the lab's format (LabDateInput). */
  control?: Control<T, unknown, O>;
}

/**
 * The patient form's fields in the spec's sections (2.10: Personal, Contact, Emergency Contact,
 * Medical, Insurance), shared by New Patient Registration and the Add/Edit dialogs of All Patients.
 */
export function PatientFormSections<T extends FieldValues, O extends FieldValues = T>({
  register,
  errors,
  names,
  required,
  sections,
  renderSection,
  labels = {},
  control,
}: PatientFormSectionsProps<T, O>) {
  const errorOf = (name: Path<T>): string | undefined => {
    const e: unknown = get(errors, name);
    return typeof e === 'object' && e !== null && 'message' in e && typeof e.message === 'string'
      ? e.message
      : undefined;
  };

  const body = (section: SectionKey) => (
    <div className="grid gap-3 sm:grid-cols-2">
      {SECTION_FIELDS[section].map((k) => {
        const name = names[k];
        if (!name) return null;
        const spec = FIELDS[k];
        const isRequired = required.has(k);
        return (
          <FormField
            key={k}
            label={labels[k] ?? spec.label}
            required={isRequired}
            error={errorOf(name)}
            className={spec.wide ? 'sm:col-span-2' : undefined}
          >
            {k === 'date_of_birth' && control
              ? (ctrl) => (
                  <Controller
                    control={control}
                    name={name}
                    render={({ field }) => (
                      <LabDateInput
                        {...ctrl}
                        name={field.name}
                        value={field.value as string | null | undefined}
                        onChange={field.onChange}
                        onBlur={field.onBlur}
                      />
                    )}
                  />
                )
              : spec.control(register(name), isRequired)}
          </FormField>
        );
      })}
    </div>
  );

  return (
    <div className="grid gap-5">
      {sections
        .filter((s) => SECTION_FIELDS[s].some((k) => names[k]))
        .map((s) =>
          renderSection ? (
            <div key={s}>{renderSection(s, SECTION_TITLES[s], body(s))}</div>
          ) : (
            <fieldset key={s} className="grid gap-3">
              <legend className="mb-2 text-[13px] font-semibold tracking-wide text-slate-500 uppercase">
                {SECTION_TITLES[s]}
              </legend>
              {body(s)}
            </fieldset>
          ),
        )}
    </div>
  );
}
