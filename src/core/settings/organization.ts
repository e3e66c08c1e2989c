import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { OrganizationsTable } from '../db/schema.js';
import { NotFoundError } from '../errors.js';
import { localDate } from '../../shared/time.js';
import { DEFAULT_DISCOUNT_CEILINGS } from '../../shared/billing.js';
import { LOGIN_MAX_FAILURES, type BackupFrequency, type PasswordPolicy } from '../../shared/constants.js';
import { DEFAULT_PASSWORD_POLICY } from '../../shared/password-policy.js';
import { firstOrganizationRow, organizationRow, updateOrganizationRow } from './repository.js';

export type OrganizationRow = Selectable<OrganizationsTable>;

/** Lab settings kept as JSON beside the organisation's own columns (spec "Settings"). */
export interface LabSettings {
  sessionTimeout: number;
  allowSelfVerification: boolean;
  /** Reports of a bill with money due are held (portal and print) until paid or released with a reason. */
  holdReportsUntilPaid: boolean;
  /** Doctors see every patient's results; off: only patients of visits and bills that name them. */
  doctorsSeeAllPatients: boolean;
  /** The largest effective bill discount (percent) each role may give without an approver; others 0. */
  discountCeilings: Record<string, number>;
  // Billing settings (/api/billing-settings): GST registration and bill terms.
  /** The lab's GSTIN, printed on tax invoices; null: not registered (no GST invoice can be issued). */
  gstin: string | null;
  /** The lab's GST state code (place of supply inside the state: CGST + SGST). */
  gstStateCode: string | null;
  /** Days after the bill date before a patient's unpaid bill is overdue (a payer's bill: its terms). */
  billDueDays: number;
  // Notification switches (System Settings): which notifications are created and sent.
  /** In-app notifications (the bell and /notifications). */
  pushNotifications: boolean;
  /** The same notifications also by email, to staff with an address, when SMTP is set. */
  emailNotifications: boolean;
  /** High-priority notifications also by SMS, when an SMS gateway is set. */
  smsNotifications: boolean;
  /** Patients and referring doctors told when a report is ready. */
  reportNotifications: boolean;
  /** Failed sign-ins per (account, address) before that pair is locked (the sign-in limits). */
  maxLoginAttempts: number;
  /** Checked whenever a password is set or reset (src/shared/password-policy.ts). */
  passwordPolicy: PasswordPolicy;
  /** Staff sign in with a TOTP code as well as their password. */
  twoFactorAuth: boolean;
  /** `lims serve` takes online backups into the data dir on this schedule and prunes old ones. */
  autoBackup: boolean;
  backupFrequency: BackupFrequency;
  /** Days a scheduled backup is kept. */
  backupRetention: number;
  /** The API refuses changes (503) for everyone but admins; every screen shows a banner. */
  maintenanceMode: boolean;
  /** A log line per request (method, path, status, time; never the query string or body). */
  debugMode: boolean;
  /**
   * Money taken after the cashier closed the day: counted on their next open day (the default: the
   * patient's money is never turned away), or refused where a lab wants its closings final.
   */
  closedDayPayments: 'refuse' | 'next_day';
  /** The receive scan of a tube drawn at home asks for its temperature (Home Collection Settings edits it). */
  recordReceiveTemperature: boolean;
}

export const DEFAULT_SETTINGS: LabSettings = {
  sessionTimeout: 30,
  allowSelfVerification: false,
  holdReportsUntilPaid: false,
  doctorsSeeAllPatients: false,
  discountCeilings: { ...DEFAULT_DISCOUNT_CEILINGS },
  gstin: null,
  gstStateCode: null,
  billDueDays: 7,
  pushNotifications: true,
  emailNotifications: true,
  smsNotifications: false,
  reportNotifications: true,
  maxLoginAttempts: LOGIN_MAX_FAILURES,
  passwordPolicy: DEFAULT_PASSWORD_POLICY,
  twoFactorAuth: false,
  autoBackup: true,
  backupFrequency: 'daily',
  backupRetention: 30,
  maintenanceMode: false,
  debugMode: false,
  closedDayPayments: 'next_day',
  recordReceiveTemperature: false,
};

export function settingsOf(org: Pick<OrganizationRow, 'settings'>): LabSettings {
  let parsed: Partial<LabSettings> = {};
  try {
    parsed = JSON.parse(org.settings) as Partial<LabSettings>;
  } catch {
    parsed = {};
  }
  return {
    ...DEFAULT_SETTINGS,
    ...parsed,
    discountCeilings: { ...DEFAULT_SETTINGS.discountCeilings, ...(parsed.discountCeilings ?? {}) },
  };
}

/**
 * Sets one of the lab's on/off settings that another feature's screen owns the editing of (report
 * delivery edits holdReportsUntilPaid, home collection recordReceiveTemperature); the caller audits it with its own change.
 */
export async function saveLabSwitch(
  trx: Db,
  organizationId: number,
  key: 'holdReportsUntilPaid' | 'recordReceiveTemperature',
  on: boolean,
): Promise<void> {
  const org = await getOrganization(trx, organizationId);
  const json = { ...(JSON.parse(org.settings || '{}') as Record<string, unknown>), [key]: on };
  await updateOrganizationRow(trx, organizationId, {
    settings: JSON.stringify(json),
    updated_at: new Date().toISOString(),
  });
}

/** The lab's settings (session timeout, self-verification); the defaults when the lab is not found. */
export async function labSettings(db: Db, organizationId: number): Promise<LabSettings> {
  const org = await organizationRow(db, organizationId);
  return org ? settingsOf(org) : DEFAULT_SETTINGS;
}

/** The lab's settings and its tenant status (active, suspended, pending, inactive), read together for the request gate. */
export async function labState(db: Db, organizationId: number): Promise<{ settings: LabSettings; status: string }> {
  const org = await organizationRow(db, organizationId);
  return org ? { settings: settingsOf(org), status: org.status } : { settings: DEFAULT_SETTINGS, status: 'active' };
}

export async function getOrganization(db: Db, id: number): Promise<OrganizationRow> {
  const org = await organizationRow(db, id);
  if (!org) throw new NotFoundError('Organization', id);
  return org;
}

export async function organizationTimezone(db: Db, id: number): Promise<string> {
  const org = await organizationRow(db, id);
  return org?.timezone ?? 'Asia/Kolkata';
}

const LAB_TODAY_TTL_MS = 5000;
const labDays = new WeakMap<Db, Map<number, { from: number; until: number; day: string }>>();

/**
 * Today's date (YYYY-MM-DD) in the lab's time zone, for what is shown (a patient's age). Every
 * patient answer needs it, so it is worked out at most every few seconds per lab: a change of the
 * lab's time zone, or midnight, shows within that. Dates that are stored (bill and patient numbers)
 * read the time zone afresh with organizationTimezone.
 */
export async function labToday(db: Db, organizationId: number, nowMs = Date.now()): Promise<string> {
  let days = labDays.get(db);
  if (!days) labDays.set(db, (days = new Map()));
  const hit = days.get(organizationId);
  // Only for a moment in the few seconds it was worked out for: a caller asking about another time
  // (a test's clock, a job's) gets that time's day.
  if (hit && nowMs >= hit.from && nowMs < hit.until) return hit.day;
  const day = localDate(await organizationTimezone(db, organizationId), new Date(nowMs));
  days.set(organizationId, { from: nowMs, until: nowMs + LAB_TODAY_TTL_MS, day });
  return day;
}

/** The first organisation: a single-lab install has exactly one; null before setup. */
export async function primaryOrganization(db: Db): Promise<OrganizationRow | null> {
  return (await firstOrganizationRow(db)) ?? null;
}

export { insertOrganizationRow } from './repository.js';
