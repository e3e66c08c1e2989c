import { z } from 'zod';
import { PERSON_TITLES, splitTitle, type PersonTitle } from '../person-name.js';
import { CURRENCIES, DATE_FORMATS, TIMEZONES } from '../constants.js';
import { optionalEmail, optionalPhone, optionalText, requiredText } from './common.js';
import { DEFAULT_PASSWORD_POLICY } from '../password-policy.js';
import { passwordSchemaFor } from '../password-schema.js';

/** PostgreSQL connection details as the web wizard's Database step takes them. */
export const postgresConnectionSchema = z.object({
  type: z.literal('postgresql'),
  host: requiredText('Host', 255),
  port: z
    .number({ error: 'Port must be a number from 1 to 65535' })
    .int('Port must be a whole number')
    .min(1, 'Port must be from 1 to 65535')
    .max(65535, 'Port must be from 1 to 65535')
    .default(5432),
  database: requiredText('Database name', 63),
  user: requiredText('User', 63),
  password: z.string().max(500, 'Password is too long').optional(),
  sslmode: z
    .enum(['disable', 'prefer', 'require', 'verify-full'], {
      error: 'TLS must be one of disable, prefer, require, verify-full',
    })
    .default('prefer'),
});
export type PostgresConnection = z.infer<typeof postgresConnectionSchema>;

/** Where the lab's data lives: the data dir's SQLite file (default) or a PostgreSQL database. */
export const setupDatabaseSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('sqlite') }),
  postgresConnectionSchema,
]);

/** The answer of the wizard's Test Connection: a sentence either way, never the password. */
export const databaseCheckSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  server_version: z.string().nullable(),
});

/** The lab as set up by `lims setup` or the web wizard (spec "Setup settings"). */
export const setupSchema = z
  .object({
    labName: requiredText('Lab name', 120),
    labAddress: optionalText(300),
    labPhone: optionalPhone('Lab phone'),
    labEmail: optionalEmail,
    adminName: requiredText('Administrator name', 120),
    adminEmail: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
      z.email('Enter a valid administrator email address'),
    ),
    // A new lab's password policy (strong) applies to its first administrator too.
    adminPassword: passwordSchemaFor(DEFAULT_PASSWORD_POLICY),
    confirmPassword: z.string().optional(),
    timezone: z.enum(TIMEZONES, { error: `Timezone must be one of ${TIMEZONES.join(', ')}` }).default('Asia/Kolkata'),
    currency: z.enum(CURRENCIES, { error: `Currency must be one of ${CURRENCIES.join(', ')}` }).default('INR'),
    dateFormat: z
      .enum(DATE_FORMATS, { error: `Date format must be one of ${DATE_FORMATS.join(', ')}` })
      .default('DD/MM/YYYY'),
    importSampleTests: z.boolean().default(false),
    importSampleProfiles: z.boolean().default(false),
    importSamplePackages: z.boolean().default(false),
    /** Web wizard only: where the data lives (absent: the database the server was started on). */
    database: setupDatabaseSchema.optional(),
  })
  .refine((s) => s.confirmPassword === undefined || s.confirmPassword === s.adminPassword, {
    path: ['confirmPassword'],
    message: 'Passwords do not match',
  });
export type SetupInput = z.infer<typeof setupSchema>;

/**
 * Splits "Asha Rao Menon" into first "Asha" and last "Rao Menon"; one word leaves last name "Admin".
 * A title in front goes to the title: "Dr. Meena Kulkarni" is Dr, Meena, Kulkarni (not first name "Dr.").
 */
export function splitName(full: string): { title: PersonTitle | null; first_name: string; last_name: string } {
  const split = splitTitle(full);
  const title = split.title && (PERSON_TITLES as readonly string[]).includes(split.title) ? split.title : null;
  const parts = (title ? split.rest : full.trim()).split(/\s+/);
  const first = parts.shift() ?? 'Admin';
  return {
    title: title as PersonTitle | null,
    first_name: first,
    last_name: parts.length ? parts.join(' ') : 'Admin',
  };
}
