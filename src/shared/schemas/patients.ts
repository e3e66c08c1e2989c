import { z } from 'zod';
import { BLOOD_GROUPS, EMERGENCY_RELATIONS, GENDERS, MEMBERSHIP_TYPES, PATIENT_TITLES } from '../constants.js';
import { AGE_UNITS, earliestBirthDate } from '../age.js';
import {
  latestToday,
  optionalEmail,
  optionalMobile,
  optionalPhone,
  personName,
  optionalText,
  pageQuery,
  pagedShape,
  pastOrTodayDate,
  strictNumber,
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

/** 120 years before the latest calendar date anywhere now (UTC+14), worked out once a day. */
let oldest = { today: '', earliest: '' };
function earliestToday(): string {
  const today = latestToday();
  if (oldest.today !== today) oldest = { today, earliest: earliestBirthDate(today) };
  return oldest.earliest;
}

const birthDate = z.preprocess(
  emptyToNull,
  pastOrTodayDate('Date of birth')
    .refine((d) => d >= earliestToday(), 'Date of birth cannot be more than 120 years ago')
    .nullable()
    .optional(),
);

export const patientFields = {
  title: z.preprocess(
    emptyToNull,
    z
      .enum(PATIENT_TITLES, { error: `Title must be one of ${PATIENT_TITLES.join(', ')}` })
      .nullable()
      .optional(),
  ),
  first_name: personName('First name', 60),
  /** Optional: many walk-ins give one name. Stored as empty text when left out. */
  last_name: z.preprocess(
    (v) => (v === null || v === undefined ? '' : typeof v === 'string' ? v.trim() : v),
    z
      .string({ error: 'Last name must be text' })
      .max(60, 'Last name must be at most 60 characters')
      .regex(
        /^([\p{L}\p{M}](?:[\p{L}\p{M} .'\u2019-]|\u200C|\u200D)*)?$/u,
        'Last name may contain only letters (any script), spaces, dots, apostrophes and hyphens',
      ),
  ),
  /** A known birth date; or leave it out and give the age (below), which records an approximate one. */
  date_of_birth: birthDate,
  /** The age told at the desk, in age_unit (years unless said), when the birth date is not known. */
  age: z.preprocess(
    emptyToNull,
    strictNumber(
      z
        .number({ error: 'Age must be a number' })
        .int('Age must be a whole number')
        .min(0, 'Age cannot be negative')
        .max(120, 'Age must be at most 120 years')
        .nullable()
        .optional(),
    ),
  ),
  age_unit: z.preprocess(
    emptyToNull,
    z.enum(AGE_UNITS, { error: 'Age unit must be years, months or days' }).nullable().optional(),
  ),
  gender,
  /** The patient's number in the lab's earlier system, kept by an import; found by the search. */
  legacy_id: optionalText(60),
  /** The patient's mobile: stored as its 10 digits. */
  phone: optionalMobile('Mobile number'),
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

/**
 * The registration fields between the address and the membership, in the order the edit form,
 * the patients CSV and an import's insert list them.
 */
export const PATIENT_DETAIL_FIELDS = [
  'city',
  'state',
  'pincode',
  'emergency_contact',
  'emergency_phone',
  'emergency_relation',
  'blood_group',
  'allergies',
  'medical_history',
  'insurance_provider',
  'insurance_number',
] as const;

/** A birth date or an age (years, months or days), in a range a person can have. */
function ageOrBirthDate(
  p: { date_of_birth?: string | null; age?: number | null; age_unit?: string | null },
  ctx: z.RefinementCtx,
) {
  const unit = p.age_unit ?? 'years';
  if (p.age != null && unit !== 'years' && p.age > (unit === 'months' ? 1440 : 43800))
    ctx.addIssue({ code: 'custom', path: ['age'], message: 'Age is more than 120 years' });
}

/** The checks across fields of a new patient (also run by the import's schema, which adds its own fields). */
export function patientCreateChecks(
  p: { date_of_birth?: string | null; age?: number | null; age_unit?: string | null },
  ctx: z.RefinementCtx,
) {
  if (!p.date_of_birth && p.age == null)
    ctx.addIssue({ code: 'custom', path: ['date_of_birth'], message: 'Date of birth or age is required' });
  ageOrBirthDate(p, ctx);
}

/** The checks across fields of a change (partial). */
export const patientUpdateChecks = ageOrBirthDate;

/**
 * A new patient. Registration first looks for the same person already registered (same mobile, a
 * similar name in any script, a close age; or the same birth date and a similar name) and answers
 * 409 POSSIBLE_DUPLICATE with them; `confirm_new: true` says the desk looked and this is someone else.
 */
export const patientCreateSchema = z
  .object({
    ...patientFields,
    confirm_new: z.boolean({ error: 'confirm_new must be true or false' }).optional(),
  })
  .superRefine(patientCreateChecks);
export type PatientCreate = z.infer<typeof patientCreateSchema>;

/** PUT takes a record as GET returned it; absent fields keep their value. */
export const patientUpdateSchema = z.object(patientFields).partial().superRefine(patientUpdateChecks);
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
  title: z.string().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  date_of_birth: z.string(),
  /** The birth date was worked out from an age told at registration (approximate). */
  dob_estimated: z.boolean(),
  /** Whole years, for filters and sorting; print age_text. */
  age: z.number().int().nullable(),
  /** The age as every screen prints it (formatAge): "12 days", "8 months", "35 years". */
  age_text: z.string().nullable(),
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
  legacy_id: z.string().nullable(),
  status: z.literal('active'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Patient = z.infer<typeof patientSchema>;

export const patientPageSchema = z.object({ patients: z.array(patientSchema), ...pagedShape });
export type PatientPage = z.infer<typeof patientPageSchema>;

/** A patient already registered who may be the one being registered again (the 409's `candidates`). */
export const patientCandidateSchema = patientSchema
  .pick({
    id: true,
    patient_id: true,
    title: true,
    first_name: true,
    last_name: true,
    date_of_birth: true,
    dob_estimated: true,
    age: true,
    gender: true,
    phone: true,
  })
  .extend({
    /** When the patient was last billed (a visit), or null. */
    last_visit: z.string().nullable(),
    /** Why it was offered: the same mobile, the same birth date. */
    matched_on: z.array(z.enum(['mobile', 'date_of_birth'])),
  });
export type PatientCandidate = z.infer<typeof patientCandidateSchema>;

/** POST /api/patients/:id/merge: the patient in the path becomes an alias of `into`, which keeps everything. */
export const patientMergeSchema = z.object({
  into: strictNumber(
    z
      .number({ error: 'into must be a patient id' })
      .int('into must be a whole number')
      .positive('into must be positive'),
  ),
});
export type PatientMerge = z.infer<typeof patientMergeSchema>;

export const patientMergeResultSchema = z.object({
  patient: patientSchema,
  /** The merged patient's code, now an alias of the kept patient. */
  merged: z.string(),
  /** How many rows of each kind moved to the kept patient. */
  moved: z.record(z.string(), z.number().int()),
});
export type PatientMergeResult = z.infer<typeof patientMergeResultSchema>;
