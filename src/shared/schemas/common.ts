import { z } from 'zod';
import { isRealDate } from '../age.js';

/** Optional text: trims, turns "" into null, caps the length. */
export const optionalText = (max = 500) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
    z.string().max(max, `Must be at most ${max} characters`).nullable().optional(),
  );

/** Required text: trimmed, non-empty. */
export const requiredText = (label: string, max = 100) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ error: `${label} is required` })
      .min(1, `${label} is required`)
      .max(max, `${label} must be at most ${max} characters`),
  );

export const isoDate = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date as YYYY-MM-DD`)
    .refine(isRealDate, `${label} is not a real calendar date`);

/**
 * A date that is not after today (dates of birth, collection dates). "Today" is the lab's, which this
 * schema (shared with the browser) does not know: it accepts any date that is today somewhere on
 * Earth (up to UTC+14), so a baby born just after midnight in the lab is never refused, whatever
 * the server's own clock zone; a date past that is refused.
 */
export const pastOrTodayDate = (label: string) =>
  isoDate(label).refine((d) => d <= latestToday(), {
    message: `${label} cannot be in the future`,
  });

/** The latest calendar date anywhere right now: the date at UTC+14. */
function latestToday(): string {
  return new Date(Date.now() + 14 * 3600_000).toISOString().slice(0, 10);
}

export const optionalEmail = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim().toLowerCase()) : v),
  z.email('Enter a valid email address').max(254).nullable().optional(),
);

/** Phone numbers as staff type them: digits with optional +, spaces and dashes; 7 to 15 digits. */
export const phoneSchema = (label: string) =>
  z
    .string()
    .trim()
    .regex(/^\+?[\d\s-]+$/, `${label} may contain only digits, spaces, dashes and a leading +`)
    .refine((v) => {
      const digits = v.replace(/\D/g, '').length;
      return digits >= 7 && digits <= 15;
    }, `${label} must have 7 to 15 digits`);

/**
 * An Indian mobile number as staff type it (+91 98450 12345, 098450-12345, 9845012345): stored as
 * its 10 digits, which start with 6, 7, 8 or 9.
 */
export const indianMobile = (label: string) =>
  z
    .string()
    .trim()
    .regex(/^\+?[\d\s-]+$/, `${label} may contain only digits, spaces, dashes and a leading +`)
    .transform((v) => {
      const digits = v.replace(/\D/g, '');
      return digits.length === 12 && digits.startsWith('91')
        ? digits.slice(2)
        : digits.length === 11 && digits.startsWith('0')
          ? digits.slice(1)
          : digits;
    })
    .refine(
      (d) => /^[6-9]\d{9}$/.test(d),
      `${label} must be a 10-digit Indian mobile number starting with 6, 7, 8 or 9`,
    );

export const optionalMobile = (label: string) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), indianMobile(label).nullable().optional());

/** A person's name in any script: letters and their marks, spaces, dots, apostrophes, hyphens. */
export const personName = (label: string, max = 60) =>
  requiredText(label, max).pipe(
    z
      .string()
      .regex(
        /^[\p{L}\p{M}][\p{L}\p{M} .'\u2019-]*$/u,
        `${label} may contain only letters (any script), spaces, dots, apostrophes and hyphens`,
      ),
  );

export const optionalPhone = (label: string) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), phoneSchema(label).nullable().optional());

export const pageQuery = z.object({
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must be 1 or more')
    .default(1),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be 1 or more')
    .max(200, 'limit must be at most 200')
    .default(10),
});

/** `?download=1` asks for a file as an attachment instead of inline (PDF routes). */
export const downloadQuery = z.object({
  download: z.enum(['0', '1'], { error: 'download must be 0 or 1' }).optional(),
});

export const idParam = z.object({
  id: z.coerce
    .number({ error: 'id must be a number' })
    .int('id must be a whole number')
    .positive('id must be positive'),
});

/** The page envelope's fields, spread into each list's response schema beside its rows. */
export const pagedShape = {
  total: z.number().int(),
  totalPages: z.number().int(),
  currentPage: z.number().int(),
  hasNextPage: z.boolean(),
  hasPrevPage: z.boolean(),
};
export const pagedSchema = z.object(pagedShape);
export type Paged = z.infer<typeof pagedSchema>;

export function pageEnvelope(total: number, page: number, limit: number): Paged {
  const totalPages = Math.max(1, Math.ceil(total / limit));
  return { total, totalPages, currentPage: page, hasNextPage: page < totalPages, hasPrevPage: page > 1 };
}

export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
  code?: string;
  details?: { path: string; message: string }[];
}

/** A rupee amount as the API carries it: non-negative, at most 2 decimals. */
export const rupeeAmount = (label: string, max = 100_000_000) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .refine(Number.isFinite, `${label} must be a number`)
    .refine((n) => n >= 0, `${label} cannot be negative`)
    .refine((n) => n <= max, `${label} is too large`)
    .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, `${label} may have at most 2 decimals`);
