import { z } from 'zod';
import { isRealDate } from '../age.js';

/**
 * Invisible format and control characters: bidirectional overrides and isolates (U+202A-E,
 * U+2066-9) that make "Ram\u202Eesh" show spoofed, zero-width spaces, BOMs, soft hyphens, and C0/C1
 * controls. Not the zero-width joiner and non-joiner (U+200C, U+200D), which Indian scripts need
 * to spell words, nor tab and line breaks in free text.
 */
const INVISIBLE = /(?!\u200C|\u200D|[\t\n\r])[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** The first invisible character of the text, as "U+202E", or null. */
export function invisibleCharacter(text: string): string | null {
  const m = INVISIBLE.exec(text);
  return m ? `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` : null;
}

const visibleOnly = (label: string) => (t: string | null | undefined, ctx: z.RefinementCtx) => {
  const found = typeof t === 'string' ? invisibleCharacter(t) : null;
  if (found) {
    ctx.addIssue({
      code: 'custom',
      message: `${label} contains an invisible control character (${found}); type it again without it`,
    });
  }
};

/** Optional text: trims, turns "" into null, caps the length, refuses invisible characters. */
export const optionalText = (max = 500, label = 'Text') =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
    z.string().max(max, `Must be at most ${max} characters`).nullable().optional().superRefine(visibleOnly(label)),
  );

/** Required text: trimmed, non-empty, no invisible characters. */
export const requiredText = (label: string, max = 100) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ error: `${label} is required` })
      .min(1, `${label} is required`)
      .max(max, `${label} must be at most ${max} characters`)
      .superRefine(visibleOnly(label)),
  );

/** A decimal number as JSON or a query string writes it: 12, "12", "-3.5" (no hex, exponents, or blanks). */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * The one number schema of the API: a JSON number, or a decimal string (query strings, form
 * fields), else refused by the inner schema. Unlike z.coerce.number it never turns "0x10" into 16,
 * [3] into 3, true into 1 or null and "" into 0.
 */
export const strictNumber = <S extends z.ZodType>(inner: S) =>
  z.preprocess((v) => (typeof v === 'string' && DECIMAL.test(v.trim()) ? Number(v.trim()) : v), inner);

/** The years any date the lab writes down can have: outside them it is a typo (0001, 20266). */
const YEARS = { min: 1000, max: 2999 };

/** The one date schema of the API: YYYY-MM-DD, a real calendar date (no 2026-02-30, no 0000-00-00). */
export const isoDate = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: `${label} must be a date as YYYY-MM-DD`, abort: true })
    .refine(isRealDate, { error: `${label} is not a real calendar date`, abort: true })
    .refine(
      (d) => {
        const y = Number(d.slice(0, 4));
        return y >= YEARS.min && y <= YEARS.max;
      },
      { error: `${label} must be a year from ${YEARS.min} to ${YEARS.max}`, abort: true },
    );

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

const DAY_MS = 86_400_000;
const UTC_PLUS_14_MS = 14 * 3600_000;
let latest = { from: 0, to: 0, day: '' };

/**
 * The latest calendar date anywhere right now: the date at UTC+14. Kept until that day ends (an
 * import checks a million dates of birth; the answer is the same as working it out each time).
 */
export function latestToday(): string {
  const t = Date.now() + UTC_PLUS_14_MS;
  if (t < latest.from || t >= latest.to) {
    const from = Math.floor(t / DAY_MS) * DAY_MS;
    latest = { from, to: from + DAY_MS, day: new Date(from).toISOString().slice(0, 10) };
  }
  return latest.day;
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
        /^[\p{L}\p{M}](?:[\p{L}\p{M} .'\u2019-]|\u200C|\u200D)*$/u,
        `${label} may contain only letters (any script), spaces, dots, apostrophes and hyphens`,
      ),
  );

export const optionalPhone = (label: string) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), phoneSchema(label).nullable().optional());

export const pageQuery = z.object({
  page: strictNumber(
    z
      .number({ error: 'page must be a number' })
      .int('page must be a whole number')
      .min(1, 'page must be 1 or more')
      .default(1),
  ),
  limit: strictNumber(
    z
      .number({ error: 'limit must be a number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be 1 or more')
      .max(200, 'limit must be at most 200')
      .default(10),
  ),
});

/** `?download=1` asks for a file as an attachment instead of inline (PDF routes). */
export const downloadQuery = z.object({
  download: z.enum(['0', '1'], { error: 'download must be 0 or 1' }).optional(),
});

/** A field holding a row's id ("test_id must be an id" when it is not). */
export const idField = (label: string) =>
  strictNumber(
    z
      .number({ error: `${label} must be an id` })
      .int(`${label} must be an id`)
      .positive(`${label} must be an id`),
  );

export const idParam = z.object({
  id: strictNumber(
    z.number({ error: 'id must be a number' }).int('id must be a whole number').positive('id must be positive'),
  ),
});

/** The answer of an action that returns nothing but that it was done: `{ ok: true }`. */
export const okResponse = z.object({ ok: z.literal(true) });

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
  /** POSSIBLE_DUPLICATE: the patients already registered who may be this one (patientCandidateSchema). */
  candidates?: unknown[];
}

/** A rupee amount as the API carries it: non-negative, at most 2 decimals. */
/** The largest amount a price or payment may be. */
export const RUPEE_AMOUNT_MAX = 100_000_000;

export const rupeeAmount = (label: string, max = RUPEE_AMOUNT_MAX) =>
  strictNumber(
    z
      .number({ error: `${label} must be a number` })
      .refine(Number.isFinite, `${label} must be a number`)
      .refine((n) => n >= 0, `${label} cannot be negative`)
      .refine((n) => n <= max, `${label} is too large`)
      .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, `${label} may have at most 2 decimals`),
  );
