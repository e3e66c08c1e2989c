import { z } from 'zod';
import { CURRENCIES, DATE_FORMATS, TIMEZONES } from '../constants.js';
import { optionalEmail, optionalPhone, optionalText, requiredText } from './common.js';
import { passwordSchema } from './users.js';

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
    adminPassword: passwordSchema,
    confirmPassword: z.string().optional(),
    timezone: z.enum(TIMEZONES, { error: `Timezone must be one of ${TIMEZONES.join(', ')}` }).default('Asia/Kolkata'),
    currency: z.enum(CURRENCIES, { error: `Currency must be one of ${CURRENCIES.join(', ')}` }).default('INR'),
    dateFormat: z
      .enum(DATE_FORMATS, { error: `Date format must be one of ${DATE_FORMATS.join(', ')}` })
      .default('DD/MM/YYYY'),
    importSampleTests: z.boolean().default(false),
    importSampleProfiles: z.boolean().default(false),
    importSamplePackages: z.boolean().default(false),
  })
  .refine((s) => s.confirmPassword === undefined || s.confirmPassword === s.adminPassword, {
    path: ['confirmPassword'],
    message: 'Passwords do not match',
  });
export type SetupInput = z.infer<typeof setupSchema>;

/** Splits "Asha Rao Menon" into first "Asha" and last "Rao Menon"; one word leaves last name "Admin". */
export function splitName(full: string): { first_name: string; last_name: string } {
  const parts = full.trim().split(/\s+/);
  const first = parts.shift() ?? 'Admin';
  return { first_name: first, last_name: parts.length ? parts.join(' ') : 'Admin' };
}
