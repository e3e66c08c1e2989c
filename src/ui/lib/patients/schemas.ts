import { z } from 'zod';
import { GENDERS } from '@shared/constants';
import { indianMobile } from '@shared/schemas/common';
import { patientFields, type PatientCreate } from '@shared/schemas/patients';

/**
 * Form schemas of the patient screens. They reuse the server's field schemas (src/shared) and only
 * add what a screen requires on top (spec 5), so a form never accepts what the server refuses.
 */

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** An empty date box says "Date of birth is required", not that '' is not a YYYY-MM-DD date. */
// The field (LabDateInput) hands over YYYY-MM-DD once the typed text is a whole date; other text is named here.
const notWholeDate = (v: unknown) => typeof v === 'string' && !/^\d{4}-\d{2}-\d{2}$/.test(v);
const dateOfBirth = z.preprocess(
  blankToUndefined,
  z
    .unknown()
    .refine((v) => !notWholeDate(v), "Date of birth must be a whole date: day, month and year in the lab's format")
    .pipe(patientFields.date_of_birth),
);

/** A birth date or an age; checked even while other fields are wrong, so every missing field shows at once. */
const hasBirthDateOrAge = (v: { date_of_birth?: unknown; age?: unknown }) =>
  Boolean(v.date_of_birth) || (v.age !== undefined && v.age !== null && v.age !== '');
const birthDateOrAgeIssue = () => ({
  path: ['date_of_birth'],
  message: 'Date of birth or age is required',
  when: () => true,
});

/** All Patients > Add Patient: first name and a birth date or an age required; the rest optional. */
export const addPatientSchema = z
  .object(patientFields)
  .pick({
    title: true,
    first_name: true,
    last_name: true,
    date_of_birth: true,
    age: true,
    age_unit: true,
    gender: true,
    phone: true,
    email: true,
    address: true,
  })
  .extend({ date_of_birth: dateOfBirth })
  .refine(hasBirthDateOrAge, birthDateOrAgeIssue());

/** Add Patient's short form: its fields (form names are the API's) and their empty values. */
export const ADD_PATIENT_FIELDS = [
  'title',
  'age',
  'age_unit',
  'first_name',
  'last_name',
  'date_of_birth',
  'gender',
  'phone',
  'email',
  'address',
] as const;
export const ADD_PATIENT_DEFAULTS: z.input<typeof addPatientSchema> = {
  title: '',
  age: '',
  age_unit: 'years',
  first_name: '',
  last_name: '',
  date_of_birth: '',
  gender: '',
  phone: '',
  email: '',
  address: '',
};

/** All Patients > Edit: every registration field, with the server's own rules. */
export const editPatientSchema = z
  .object(patientFields)
  .extend({ date_of_birth: dateOfBirth })
  .refine(hasBirthDateOrAge, birthDateOrAgeIssue());

/**
 * New Patient Registration (spec 2.10, 3 "Registration form", 5): the spec's field names, stricter
 * than the API: gender, mobile, address, city, state, pincode, emergency number and relationship
 * are required here, and the terms box must be ticked.
 */
export const registrationSchema = z
  .object({
    title: patientFields.title,
    firstName: patientFields.first_name,
    lastName: patientFields.last_name,
    dateOfBirth: dateOfBirth,
    age: patientFields.age,
    ageUnit: patientFields.age_unit,
    gender: z.preprocess(blankToUndefined, z.enum(GENDERS, { error: 'Gender is required' })),
    mobile: z
      .preprocess(blankToUndefined, indianMobile('Mobile number').optional())
      .refine((v) => v !== undefined, 'Mobile number is required'),
    email: patientFields.email,
    address: patientFields.address,
    city: patientFields.city,
    state: patientFields.state,
    pincode: patientFields.pincode,
    emergencyContactName: patientFields.emergency_contact,
    emergencyContact: patientFields.emergency_phone,
    emergencyRelation: patientFields.emergency_relation,
    bloodGroup: patientFields.blood_group,
    allergies: patientFields.allergies,
    medicalHistory: patientFields.medical_history,
    insuranceProvider: patientFields.insurance_provider,
    insuranceNumber: patientFields.insurance_number,
    membershipType: patientFields.membership_type,
    agreeToTerms: z.boolean().refine((v) => v, 'Please agree to the terms and conditions'),
  })
  // Checked even while other fields are wrong (when), so the form shows every missing field at once.
  .refine((v) => Boolean(v.dateOfBirth) || (v.age !== undefined && v.age !== null), {
    path: ['dateOfBirth'],
    message: 'Date of birth or age is required',
    when: () => true,
  });

export type RegistrationInput = z.input<typeof registrationSchema>;
export type RegistrationValues = z.output<typeof registrationSchema>;

export const REGISTRATION_DEFAULTS: RegistrationInput = {
  title: '',
  firstName: '',
  lastName: '',
  dateOfBirth: '',
  age: '',
  ageUnit: 'years',
  gender: '',
  mobile: '',
  email: '',
  address: '',
  city: '',
  state: '',
  pincode: '',
  emergencyContactName: '',
  emergencyContact: '',
  emergencyRelation: '',
  bloodGroup: '',
  allergies: '',
  medicalHistory: '',
  insuranceProvider: '',
  insuranceNumber: '',
  membershipType: 'none',
  agreeToTerms: false,
};

/** Registration form field -> API field (spec 7 plus the mapping mobile -> phone, number -> emergency_phone). */
export const REGISTRATION_TO_API = {
  title: 'title',
  age: 'age',
  ageUnit: 'age_unit',
  firstName: 'first_name',
  lastName: 'last_name',
  dateOfBirth: 'date_of_birth',
  gender: 'gender',
  mobile: 'phone',
  email: 'email',
  address: 'address',
  city: 'city',
  state: 'state',
  pincode: 'pincode',
  emergencyContactName: 'emergency_contact',
  emergencyContact: 'emergency_phone',
  emergencyRelation: 'emergency_relation',
  bloodGroup: 'blood_group',
  allergies: 'allergies',
  medicalHistory: 'medical_history',
  insuranceProvider: 'insurance_provider',
  insuranceNumber: 'insurance_number',
  membershipType: 'membership_type',
} as const satisfies Record<Exclude<keyof RegistrationValues, 'agreeToTerms'>, keyof PatientCreate>;

type RegistrationField = keyof typeof REGISTRATION_TO_API;

/** The API body for a valid registration form. */
export function registrationToApi(v: RegistrationValues): PatientCreate {
  return {
    title: v.title ?? null,
    first_name: v.firstName,
    last_name: v.lastName,
    date_of_birth: v.dateOfBirth ?? null,
    age: v.dateOfBirth ? null : (v.age ?? null),
    age_unit: v.dateOfBirth ? null : (v.ageUnit ?? 'years'),
    gender: v.gender,
    phone: v.mobile ?? null,
    email: v.email ?? null,
    address: v.address ?? null,
    city: v.city ?? null,
    state: v.state ?? null,
    pincode: v.pincode ?? null,
    emergency_contact: v.emergencyContactName ?? null,
    emergency_phone: v.emergencyContact ?? null,
    emergency_relation: v.emergencyRelation ?? null,
    blood_group: v.bloodGroup ?? null,
    allergies: v.allergies ?? null,
    medical_history: v.medicalHistory ?? null,
    insurance_provider: v.insuranceProvider ?? null,
    insurance_number: v.insuranceNumber ?? null,
    membership_type: v.membershipType ?? 'none',
  };
}

/** The form field for an API error path (server details use API names). */
export function registrationFieldFor(apiPath: string): RegistrationField | undefined {
  const entry = (Object.entries(REGISTRATION_TO_API) as [RegistrationField, string][]).find(
    ([, api]) => api === apiPath,
  );
  return entry?.[0];
}
