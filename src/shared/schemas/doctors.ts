import { z } from 'zod';
import { PERSON_TITLES } from '../person-name.js';
import { personTitleField } from './person-title.js';
import {
  isoDate,
  optionalEmail,
  optionalPhone,
  optionalText,
  pageQuery,
  pagedShape,
  requiredText,
  rupeeAmount,
  strictNumber,
} from './common.js';
import { passwordSchema } from './users.js';

/**
 * Doctor Management. A doctor is a user record with the role doctor (the spec's OP Bill
 * and bills name doctors by user id); most are referring doctors who never sign in. See
 * docs/decisions.md, "Doctor Management".
 */
export const DOCTOR_STATUSES = ['active', 'inactive', 'suspended', 'pending'] as const;
export type DoctorStatus = (typeof DOCTOR_STATUSES)[number];

export const DOCTOR_STATUS_LABELS: Record<DoctorStatus, string> = {
  active: 'Active',
  inactive: 'Inactive',
  suspended: 'Suspended',
  pending: 'Pending',
};

/**
 * users.email is NOT NULL and unique (sign-in is by email alone). A doctor without an email keeps
 * an address in this reserved domain (RFC 6761: `.invalid` never resolves, so no mail can ever go
 * there and no real address can collide with it); the doctors API answers `email: null` for it.
 */
export const NO_EMAIL_DOMAIN = 'no-email.invalid';

export function isNoEmailPlaceholder(email: string): boolean {
  return email.toLowerCase().endsWith(`@${NO_EMAIL_DOMAIN}`);
}

export const DOCTOR_PAGE_SIZES = [10, 20, 50] as const;
export const DEFAULT_DOCTOR_PAGE_SIZE = 10;

const status = z.enum(DOCTOR_STATUSES, { error: `Status must be one of ${DOCTOR_STATUSES.join(', ')}` });

const email = optionalEmail.refine((e) => e == null || !isNoEmailPlaceholder(e), {
  message: 'Enter a real email address, or leave it empty',
});

const doctorFields = {
  /** Dr (the default when none is given), Prof, ...; a title typed into first_name moves here (core). */
  title: personTitleField,
  first_name: requiredText('First name', 60),
  last_name: requiredText('Last name', 60),
  email,
  phone: optionalPhone('Phone'),
  specialization: optionalText(100, 'Specialization'),
  qualification: optionalText(200, 'Qualification'),
  experience_years: z.preprocess(
    (v) => (v === '' ? null : v),
    strictNumber(
      z
        .number({ error: 'Experience must be a number of years' })
        .int('Experience must be a whole number of years')
        .min(0, 'Experience cannot be negative')
        .max(80, 'Experience must be at most 80 years'),
    )
      .nullable()
      .optional(),
  ),
  consultation_fee: rupeeAmount('Consultation fee').optional(),
  /** The state medical council's registration number, as printed on the doctor's certificate. */
  registration_number: optionalText(50, 'Registration number').refine(
    (v) => v == null || /^[A-Za-z0-9][A-Za-z0-9 ./-]*$/.test(v),
    'Registration number may contain only letters, digits, spaces, dots, slashes and hyphens',
  ),
  status,
  /** Whether the doctor has a password and may sign in (most referring doctors never do). */
  can_sign_in: z.boolean({ error: 'can_sign_in must be true or false' }),
  /** Sets the sign-in password (only with can_sign_in true). */
  password: passwordSchema.optional(),
};

/** The create body's fields without the cross-field rules (forms extend it with their own fields). */
export const doctorCreateFields = z.object({
  ...doctorFields,
  status: status.default('active'),
  can_sign_in: doctorFields.can_sign_in.default(false),
});

export const doctorCreateSchema = doctorCreateFields.superRefine((v, ctx) => {
  if (v.can_sign_in && !v.email) {
    ctx.addIssue({ code: 'custom', path: ['email'], message: 'An email is required for a doctor who signs in' });
  }
  if (v.can_sign_in && !v.password) {
    ctx.addIssue({ code: 'custom', path: ['password'], message: 'Set a password for a doctor who signs in' });
  }
  if (!v.can_sign_in && v.password) {
    ctx.addIssue({
      code: 'custom',
      path: ['password'],
      message: 'A password is only set for a doctor who signs in (tick "May sign in")',
    });
  }
});
export type DoctorCreate = z.infer<typeof doctorCreateSchema>;
export type DoctorCreateInput = z.input<typeof doctorCreateSchema>;

/** PUT takes any subset; what GET returned (with read-only fields such as referrals) is accepted as it is. */
export const doctorUpdateSchema = z.object(doctorFields).partial();
export type DoctorUpdate = z.infer<typeof doctorUpdateSchema>;

const blankIsAll = (v: unknown) => (v === '' || v === 'all' ? undefined : v);

export const doctorListQuery = pageQuery.extend({
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
  specialization: z.preprocess(blankIsAll, z.string().trim().max(100).optional()),
  status: z.preprocess(blankIsAll, status.optional()),
});
export type DoctorListQuery = z.infer<typeof doctorListQuery>;

export const doctorSchema = z.object({
  id: z.number().int(),
  title: z.enum(PERSON_TITLES).nullable(),
  first_name: z.string(),
  last_name: z.string(),
  /** null: the lab has no email for this doctor. */
  email: z.string().nullable(),
  phone: z.string().nullable(),
  specialization: z.string().nullable(),
  qualification: z.string().nullable(),
  experience_years: z.number().int().nullable(),
  consultation_fee: z.number(),
  registration_number: z.string().nullable(),
  status,
  can_sign_in: z.boolean(),
  last_login: z.string().nullable(),
  /** Bills naming the doctor, cancelled ones left out (all time). */
  referrals: z.number().int(),
  last_referral_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Doctor = z.infer<typeof doctorSchema>;

export const doctorPageSchema = z.object({ doctors: z.array(doctorSchema), ...pagedShape });
export type DoctorPage = z.infer<typeof doctorPageSchema>;

/** The screen's cards and filter options: counts of the doctors, referrals of this month (lab calendar). */
export const doctorSummarySchema = z.object({
  total: z.number().int(),
  active: z.number().int(),
  inactive: z.number().int(),
  suspended: z.number().int(),
  pending: z.number().int(),
  can_sign_in: z.number().int(),
  /** Each specialization recorded on a doctor, with how many doctors have it (most first). */
  specializations: z.array(z.object({ specialization: z.string(), doctors: z.number().int() })),
  /** Non-cancelled bills naming a doctor, created this calendar month. */
  referrals_this_month: z.number().int(),
  month_start: z.string(),
});
export type DoctorSummary = z.infer<typeof doctorSummarySchema>;

export const doctorAnalyticsQuery = z
  .object({
    from: isoDate('from').optional(),
    to: isoDate('to').optional(),
    limit: strictNumber(
      z
        .number({ error: 'limit must be a number' })
        .int('limit must be a whole number')
        .min(1, 'limit must be 1 or more')
        .max(50, 'limit must be at most 50')
        .default(5),
    ),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['from'], message: 'from must not be after to' });
export type DoctorAnalyticsQuery = z.infer<typeof doctorAnalyticsQuery>;

const figures = {
  /** Bills naming the doctor (cancelled left out). */
  referrals: z.number().int(),
  /** Distinct patients of those bills. */
  patients: z.number().int(),
  /** Tests, profiles and packages billed: the sum of the bill lines' quantities. */
  tests: z.number().int(),
  /** Final amounts of those bills, in rupees (consultation fee, discounts and tax included). */
  revenue: z.number(),
};

export const doctorAnalyticsSchema = z.object({
  from: z.string(),
  to: z.string(),
  totals: z.object({ ...figures, doctors: z.number().int() }),
  top_doctors: z.array(
    z.object({
      id: z.number().int(),
      first_name: z.string(),
      last_name: z.string(),
      specialization: z.string().nullable(),
      ...figures,
    }),
  ),
  specializations: z.array(
    z.object({
      /** null: doctors with no specialization recorded. */
      specialization: z.string().nullable(),
      doctors: z.number().int(),
      ...figures,
    }),
  ),
});
export type DoctorAnalytics = z.infer<typeof doctorAnalyticsSchema>;
