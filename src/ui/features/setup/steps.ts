import { z } from 'zod';
import type { FieldErrors } from 'react-hook-form';
import type { CURRENCIES, DATE_FORMATS, TIMEZONES } from '@shared/constants';
import { postgresConnectionSchema, setupSchema, type PostgresConnection } from '@shared/schemas/setup';

/** The wizard's form values: the spec's "Setup settings" the server takes (POST /api/setup). */
export interface WizardValues {
  labName: string;
  labAddress: string;
  labPhone: string;
  labEmail: string;
  adminName: string;
  adminEmail: string;
  adminPassword: string;
  confirmPassword: string;
  timezone: (typeof TIMEZONES)[number];
  currency: (typeof CURRENCIES)[number];
  dateFormat: (typeof DATE_FORMATS)[number];
  importSampleTests: boolean;
  importSampleProfiles: boolean;
  importSamplePackages: boolean;
  /** Database step: the data dir's SQLite file, or a PostgreSQL database. */
  databaseType: 'sqlite' | 'postgresql';
  dbHost: string;
  /** As typed; a number from 1 to 65535. */
  dbPort: string;
  dbName: string;
  dbUser: string;
  dbPassword: string;
  dbSslmode: 'disable' | 'prefer' | 'require' | 'verify-full';
}

/** Spec defaults (document 001, section 9): Asia/Kolkata, INR, DD/MM/YYYY. */
export const WIZARD_DEFAULTS: WizardValues = {
  labName: '',
  labAddress: '',
  labPhone: '',
  labEmail: '',
  adminName: '',
  adminEmail: '',
  adminPassword: '',
  confirmPassword: '',
  timezone: 'Asia/Kolkata',
  currency: 'INR',
  dateFormat: 'DD/MM/YYYY',
  // Spec 001 section 9: all three sample-data imports default to on.
  importSampleTests: true,
  importSampleProfiles: true,
  importSamplePackages: true,
  databaseType: 'sqlite',
  dbHost: '',
  dbPort: '5432',
  dbName: 'lims',
  dbUser: 'lims',
  dbPassword: '',
  dbSslmode: 'prefer',
};

/** The PostgreSQL connection of the form, in the server's shape (POST /api/setup, database-check). */
export function postgresOf(v: WizardValues): PostgresConnection {
  return {
    type: 'postgresql',
    host: v.dbHost,
    port: /^\d+$/.test(v.dbPort.trim()) ? Number(v.dbPort.trim()) : Number.NaN,
    database: v.dbName,
    user: v.dbUser,
    password: v.dbPassword === '' ? undefined : v.dbPassword,
    sslmode: v.dbSslmode,
  };
}

const P = postgresConnectionSchema.shape;

/** The Database step checks the PostgreSQL fields only when PostgreSQL is chosen. */
const databaseStep = z
  .object({ databaseType: z.enum(['sqlite', 'postgresql']) })
  .passthrough()
  .superRefine((v, ctx) => {
    if (v.databaseType !== 'postgresql') return;
    const values = v as unknown as WizardValues;
    const c = postgresOf(values);
    const fields = [
      ['dbHost', P.host, c.host],
      ['dbPort', P.port, c.port],
      ['dbName', P.database, c.database],
      ['dbUser', P.user, c.user],
    ] as const;
    for (const [path, schema, value] of fields) {
      const r = (schema as z.ZodType).safeParse(value);
      if (!r.success)
        ctx.addIssue({ code: 'custom', path: [path], message: r.error.issues[0]?.message ?? 'Invalid value' });
    }
  });

const S = setupSchema.shape;

/**
 * Each step checks its own fields with the server's rules (setupSchema pieces) before Next, so a
 * mistake is shown on the step where it was made, not at the end.
 */
export const STEPS: { title: string; description: string; schema: z.ZodType; fields: (keyof WizardValues)[] }[] = [
  {
    title: 'Lab Information',
    description: 'Your laboratory as it appears on bills and reports.',
    schema: z.object({ labName: S.labName, labAddress: S.labAddress, labPhone: S.labPhone, labEmail: S.labEmail }),
    fields: ['labName', 'labAddress', 'labPhone', 'labEmail'],
  },
  {
    title: 'Administrator',
    description: 'The first account: it can add every other user.',
    schema: z
      .object({
        adminName: S.adminName,
        adminEmail: S.adminEmail,
        adminPassword: S.adminPassword,
        confirmPassword: z.string().min(1, 'Confirm the password'),
      })
      .refine((v) => v.confirmPassword === v.adminPassword, {
        path: ['confirmPassword'],
        message: 'Passwords do not match',
        // Also while other fields of the step are wrong, so every problem shows at once.
        when: (payload) => {
          const v = payload.value as { adminPassword?: unknown; confirmPassword?: unknown };
          return typeof v.adminPassword === 'string' && typeof v.confirmPassword === 'string';
        },
      }),
    fields: ['adminName', 'adminEmail', 'adminPassword', 'confirmPassword'],
  },
  {
    title: 'Database',
    description: 'Where the lab’s data is stored.',
    schema: databaseStep,
    fields: ['databaseType', 'dbHost', 'dbPort', 'dbName', 'dbUser', 'dbPassword', 'dbSslmode'],
  },
  {
    title: 'Sample Data',
    description: 'Optional starter catalogue of tests, profiles and packages.',
    schema: z.object({}),
    fields: [],
  },
  {
    title: 'Regional Settings & Review',
    description: 'Time zone, currency and date format; then check everything and finish.',
    schema: z.object({ timezone: S.timezone, currency: S.currency, dateFormat: S.dateFormat }),
    fields: ['timezone', 'currency', 'dateFormat'],
  },
];

/** Field errors of one step, in react-hook-form's shape (first message per field). */
export function stepErrors(step: number, values: WizardValues): FieldErrors<WizardValues> {
  const result = STEPS[step]?.schema.safeParse(values);
  if (!result || result.success) return {};
  const errors: FieldErrors<WizardValues> = {};
  for (const issue of result.error.issues) {
    const key = issue.path[0];
    if (typeof key === 'string' && key in WIZARD_DEFAULTS && !errors[key as keyof WizardValues]) {
      errors[key as keyof WizardValues] = { type: issue.code, message: issue.message };
    }
  }
  return errors;
}

/** The step holding a field, to jump back to it when the server refuses a value. */
export function stepOf(field: string): number {
  const i = STEPS.findIndex((s) => (s.fields as string[]).includes(field));
  return i === -1 ? 0 : i;
}
