import type { PatientFieldKey } from '@/components/PatientFormSections';
import type { RegistrationInput } from '@/lib/patients/schemas';

/** API field -> this form's field (the spec's camelCase names, spec 3 "Registration form"). */
export const REGISTRATION_NAMES = {
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

/** Spec 5: required on New Patient Registration and on Register Patient with Bill. */
export const REGISTRATION_REQUIRED: ReadonlySet<PatientFieldKey> = new Set([
  'first_name',
  'last_name',
  'date_of_birth',
  'gender',
  'phone',
  'address',
  'city',
  'state',
  'pincode',
  'emergency_phone',
  'emergency_relation',
]);
