import { z } from 'zod';
import {
  BACKUP_FREQUENCIES,
  BACKUP_RETENTIONS,
  CURRENCIES,
  DATE_FORMATS,
  LOGIN_ATTEMPTS_MAX,
  LOGIN_ATTEMPTS_MIN,
  PASSWORD_POLICIES,
  SESSION_TIMEOUTS,
} from '../constants.js';
import { optionalEmail, optionalPhone, optionalText, requiredText, strictNumber } from './common.js';

/** A time zone the server's Intl knows (IANA names such as Asia/Kolkata); the spec's four are offered first. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: tz });
    return tz.includes('/') || tz === 'UTC';
  } catch {
    return false;
  }
}

const oneOfNumbers = <T extends readonly number[]>(values: T, label: string) =>
  strictNumber(
    z
      .number({ error: `${label} must be one of ${values.join(', ')}` })
      .refine((n) => (values as readonly number[]).includes(n), {
        message: `${label} must be one of ${values.join(', ')}`,
      }),
  );

const flag = (label: string) => z.boolean({ error: `${label} must be true or false` });

/**
 * System Settings (spec 001 "Settings"), each with the spec's options. auditLogging is always on
 * and autoUpdate always off: a lab's audit trail cannot be switched off, and the server has no
 * internet to update itself from (docs/decisions.md).
 */
export const settingsFields = {
  labName: requiredText('Lab name', 120),
  labAddress: optionalText(300, 'Lab address'),
  labPhone: optionalPhone('Lab phone'),
  labEmail: optionalEmail,
  timezone: z
    .string({ error: 'Time zone is required' })
    .refine(isTimeZone, { message: 'Time zone must be a known time zone such as Asia/Kolkata' }),
  dateFormat: z.enum(DATE_FORMATS, { error: `Date format must be one of ${DATE_FORMATS.join(', ')}` }),
  currency: z.enum(CURRENCIES, { error: `Currency must be one of ${CURRENCIES.join(', ')}` }),
  emailNotifications: flag('Email notifications'),
  smsNotifications: flag('SMS notifications'),
  pushNotifications: flag('Push notifications'),
  reportNotifications: flag('Report notifications'),
  sessionTimeout: oneOfNumbers(SESSION_TIMEOUTS, 'Session timeout (minutes)'),
  /** Failed sign-ins for one account from one address before that pair is locked for 15 minutes. */
  maxLoginAttempts: strictNumber(
    z
      .number({ error: `Login attempts must be a whole number from ${LOGIN_ATTEMPTS_MIN} to ${LOGIN_ATTEMPTS_MAX}` })
      .int(`Login attempts must be a whole number from ${LOGIN_ATTEMPTS_MIN} to ${LOGIN_ATTEMPTS_MAX}`)
      .min(
        LOGIN_ATTEMPTS_MIN,
        `Login attempts must be a whole number from ${LOGIN_ATTEMPTS_MIN} to ${LOGIN_ATTEMPTS_MAX}`,
      )
      .max(
        LOGIN_ATTEMPTS_MAX,
        `Login attempts must be a whole number from ${LOGIN_ATTEMPTS_MIN} to ${LOGIN_ATTEMPTS_MAX}`,
      ),
  ),
  passwordPolicy: z.enum(PASSWORD_POLICIES, {
    error: `Password policy must be one of ${PASSWORD_POLICIES.join(', ')}`,
  }),
  // On: staff sign in with a code from an authenticator app too; those without one set it up at their
  // next sign-in. The server refuses to turn it on for an administrator who has not set up their own.
  twoFactorAuth: flag('Two-factor authentication'),
  auditLogging: z.literal(true, {
    error: 'Audit logging cannot be switched off: the audit trail is the lab’s record of who did what',
  }),
  backupFrequency: z.enum(BACKUP_FREQUENCIES, {
    error: `Backup frequency must be one of ${BACKUP_FREQUENCIES.join(', ')}`,
  }),
  backupRetention: oneOfNumbers(BACKUP_RETENTIONS, 'Backup retention (days)'),
  autoBackup: flag('Automatic backup'),
  maintenanceMode: flag('Maintenance mode'),
  debugMode: flag('Debug mode'),
  autoUpdate: z.literal(false, {
    error:
      'Automatic updates are not available: the lims server does not reach the internet; update it with npm (see the System section)',
  }),
};

export const settingsSchema = z.object({
  ...settingsFields,
  labAddress: z.string().nullable(),
  labPhone: z.string().nullable(),
  labEmail: z.string().nullable(),
  timezone: z.string(),
  sessionTimeout: z.number(),
  maxLoginAttempts: z.number(),
  backupRetention: z.number(),
});
export type Settings = z.infer<typeof settingsSchema>;

/** PUT /api/settings: any of the fields (the spec's client sends all of them); unknown ones are dropped. */
export const settingsUpdateSchema = z.object(settingsFields).partial();
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

/** What every signed-in screen needs of the lab: its name, regional settings and whether it is in maintenance. */
export const labInfoSchema = z.object({
  name: z.string(),
  timezone: z.string(),
  dateFormat: z.enum(DATE_FORMATS),
  currency: z.enum(CURRENCIES),
  maintenanceMode: z.boolean(),
  /** Stated and checked as a new password is typed (user forms, reset password). */
  passwordPolicy: z.enum(PASSWORD_POLICIES),
});
export type LabInfo = z.infer<typeof labInfoSchema>;

/** One backup taken by `lims serve`'s schedule or by Back Up Now. */
export const backupRunSchema = z.object({
  id: z.number(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  status: z.enum(['running', 'completed', 'failed']),
  reason: z.enum(['schedule', 'manual']),
  host: z.string(),
  file: z.string().nullable(),
  bytes: z.number().nullable(),
  error: z.string().nullable(),
});
export type BackupRunInfo = z.infer<typeof backupRunSchema>;
