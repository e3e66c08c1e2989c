import type { PatientFieldKey } from '@/components/PatientFormSections';
import type { RegistrationInput } from '@/lib/patients/schemas';

/** API field -> this form's field (the spec's camelCase names, spec 3 "Registration form"). */
export const REGISTRATION_NAMES = {
  title: 'title',
  age: 'age',
  age_unit: 'ageUnit',
  first_name: 'firstName',
  last_name: 'lastName',
  date_of_birth: 'dateOfBirth',
  gender: 'gender',
  phone: 'mobile',
  email: 'email',
  address: 'address',
  city: 'city',
  state: 'state',
  pincode: 'pincode',
  emergency_contact: 'emergencyContactName',
  emergency_phone: 'emergencyContact',
  emergency_relation: 'emergencyRelation',
  blood_group: 'bloodGroup',
  allergies: 'allergies',
  medical_history: 'medicalHistory',
  insurance_provider: 'insuranceProvider',
  insurance_number: 'insuranceNumber',
  membership_type: 'membershipType',
} as const satisfies Record<PatientFieldKey, keyof RegistrationInput>;

/**
 * Required on New Patient Registration and on Register Patient with Bill: what a walk-in can give at
 * once (name, sex, mobile, and a birth date or an age); the rest can wait (docs/decisions.md).
 */
export const REGISTRATION_REQUIRED: ReadonlySet<PatientFieldKey> = new Set(['first_name', 'gender', 'phone']);
