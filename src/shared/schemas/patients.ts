import { z } from 'zod';
import { BLOOD_GROUPS, EMERGENCY_RELATIONS, GENDERS, MEMBERSHIP_TYPES } from '../constants.js';
import {
  optionalEmail,
  optionalPhone,
  optionalText,
  pageQuery,
  pagedShape,
  pastOrTodayDate,
  requiredText,
} from './common.js';

/** Accepts Male/male/MALE (the OP Bill form sends lowercase) and stores the spec's capitalised value. */
const gender = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    const t = v.trim();
    if (t === '') return null;
    return t.charAt(0).toUpperCase() + t.slice(1).toLowerCase();
  },
  z.enum(GENDERS, { error: 'Gender must be Male, Female or Other' }).nullable().optional(),
);

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

export const patientFields = {
  first_name: requiredText('First name', 60),
  last_name: requiredText('Last name', 60),
  date_of_birth: pastOrTodayDate('Date of birth'),
  gender,
  phone: optionalPhone('Phone'),
  email: optionalEmail,
  address: optionalText(300),
  city: optionalText(80),
  state: optionalText(80),
  pincode: z.preprocess(
    emptyToNull,
    z
      .string()
      .trim()
      .regex(/^\d{6}$/, 'Pincode must be 6 digits')
      .nullable()
      .optional(),
  ),
  emergency_contact: optionalText(100),
  emergency_phone: optionalPhone('Emergency phone'),
  emergency_relation: z.preprocess(
    emptyToNull,
    z
      .enum(EMERGENCY_RELATIONS, { error: `Relationship must be one of ${EMERGENCY_RELATIONS.join(', ')}` })
      .nullable()
      .optional(),
  ),
  blood_group: z.preprocess(
    emptyToNull,
    z
      .enum(BLOOD_GROUPS, { error: `Blood group must be one of ${BLOOD_GROUPS.join(', ')}` })
      .nullable()
      .optional(),
  ),
  allergies: optionalText(1000),
  medical_history: optionalText(4000),
  insurance_provider: optionalText(100),
  insurance_number: optionalText(60),
  membership_type: z.preprocess(
    emptyToNull,
    z
      .enum(MEMBERSHIP_TYPES, { error: `Membership must be one of ${MEMBERSHIP_TYPES.join(', ')}` })
      .nullable()
      .optional(),
  ),
};

export const patientCreateSchema = z.object(patientFields);
export type PatientCreate = z.infer<typeof patientCreateSchema>;

/** PUT takes a record as GET returned it; absent fields keep their value. */
export const patientUpdateSchema = z.object(patientFields).partial();
export type PatientUpdate = z.infer<typeof patientUpdateSchema>;

export const patientListQuery = pageQuery.extend({
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
  gender: z.preprocess(
    (v) =>
      v === '' || v === 'all'
        ? undefined
        : typeof v === 'string'
          ? v.charAt(0).toUpperCase() + v.slice(1).toLowerCase()
          : v,
    z.enum(GENDERS, { error: 'gender must be Male, Female, Other or all' }).optional(),
  ),
  membership: z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(MEMBERSHIP_TYPES, { error: `membership must be one of ${MEMBERSHIP_TYPES.join(', ')} or all` }).optional(),
  ),
});
export type PatientListQuery = z.infer<typeof patientListQuery>;

/** A patient as the API returns it (spec section 3 plus the registration fields). */
export const patientSchema = z.object({
  id: z.number().int(),
  patient_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  date_of_birth: z.string(),
  age: z.number().int().nullable(),
  gender: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  pincode: z.string().nullable(),
  emergency_contact: z.string().nullable(),
  emergency_phone: z.string().nullable(),
  emergency_relation: z.string().nullable(),
  blood_group: z.string().nullable(),
  allergies: z.string().nullable(),
  medical_history: z.string().nullable(),
  insurance_provider: z.string().nullable(),
  insurance_number: z.string().nullable(),
  membership_type: z.string(),
  status: z.literal('active'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Patient = z.infer<typeof patientSchema>;

export const patientPageSchema = z.object({ patients: z.array(patientSchema), ...pagedShape });
export type PatientPage = z.infer<typeof patientPageSchema>;
