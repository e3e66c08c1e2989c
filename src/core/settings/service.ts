import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import type { Settings, SettingsUpdate } from '../../shared/schemas/settings.js';
import {
  DEFAULT_SETTINGS,
  getOrganization,
  settingsOf,
  type LabSettings,
  type OrganizationRow,
} from './organization.js';
import { updateOrganizationRow } from './repository.js';
import { announce } from '../events.js';

/**
 * System Settings: the lab's name, contact and regional settings live in the
 * organisation's columns, the rest in its settings JSON (LabSettings). Every change is audited
 * with the old and the new value of each field that changed.
 */

/** The settings kept in the settings JSON, with what System Settings calls them. */
const JSON_FIELDS = [
  'emailNotifications',
  'smsNotifications',
  'pushNotifications',
  'reportNotifications',
  'sessionTimeout',
  'maxLoginAttempts',
  'passwordPolicy',
  'twoFactorAuth',
  'backupFrequency',
  'backupRetention',
  'autoBackup',
  'maintenanceMode',
  'debugMode',
] as const satisfies readonly (keyof Settings & keyof LabSettings)[];

/** System Settings field -> organisation column. */
const COLUMNS = {
  labName: 'name',
  labAddress: 'address',
  labPhone: 'phone',
  labEmail: 'email',
  timezone: 'timezone',
  dateFormat: 'date_format',
  currency: 'currency',
} as const satisfies Partial<Record<keyof Settings, keyof OrganizationRow>>;

export function toSettings(org: OrganizationRow): Settings {
  const s = settingsOf(org);
  return {
    labName: org.name,
    labAddress: org.address,
    labPhone: org.phone,
    labEmail: org.email,
    timezone: org.timezone,
    dateFormat: org.date_format as Settings['dateFormat'],
    currency: org.currency as Settings['currency'],
    ...Object.fromEntries(JSON_FIELDS.map((k) => [k, s[k]])),
    auditLogging: true,
    autoUpdate: false,
  } as Settings;
}

export async function getSettings(db: Db, organizationId: number): Promise<Settings> {
  return toSettings(await getOrganization(db, organizationId));
}

/** Saves the fields given (validated by settingsUpdateSchema); answers the settings as saved. */
export async function updateSettings(db: Db, actor: Actor, patch: SettingsUpdate): Promise<Settings> {
  return db.transaction().execute(async (trx) => {
    const org = await getOrganization(trx, actor.organizationId);
    const before = toSettings(org);
    const after = await allowedChange(trx, actor, before, { ...before, ...definedOnly(patch) } as Settings, 'update');
    const saved = await save(trx, actor, org, before, after, 'update');
    // Nobody stays signed in on a password alone once the lab requires a code.
    if (after.twoFactorAuth && !before.twoFactorAuth)
      await announce(trx, actor, 'lab.two_factor_required', { organizationId: org.id });
    return saved;
  });
}

/**
 * Every option back to the spec's default. The lab's name and contact details have no default and
 * are kept, as are the email and SMS delivery settings (they are not options but the lab's accounts).
 */
export async function resetSettings(db: Db, actor: Actor): Promise<Settings> {
  return db.transaction().execute(async (trx) => {
    const org = await getOrganization(trx, actor.organizationId);
    const before = toSettings(org);
    const after: Settings = {
      ...before,
      timezone: 'Asia/Kolkata',
      dateFormat: 'DD/MM/YYYY',
      currency: 'INR',
      ...Object.fromEntries(JSON_FIELDS.map((k) => [k, DEFAULT_SETTINGS[k]])),
    } as Settings;
    return save(trx, actor, org, before, await allowedChange(trx, actor, before, after, 'reset'), 'reset');
  });
}

async function save(
  trx: Db,
  actor: Actor,
  org: OrganizationRow,
  before: Settings,
  after: Settings,
  how: 'update' | 'reset',
): Promise<Settings> {
  const changed = (Object.keys(after) as (keyof Settings)[]).filter((k) => before[k] !== after[k]);
  if (changed.length === 0) return before;
  const json = { ...(JSON.parse(org.settings || '{}') as Record<string, unknown>) };
  for (const k of JSON_FIELDS) json[k] = after[k];
  await updateOrganizationRow(trx, org.id, {
    ...Object.fromEntries(Object.entries(COLUMNS).map(([field, column]) => [column, after[field as keyof Settings]])),
    settings: JSON.stringify(json),
    updated_at: new Date().toISOString(),
  });
  if (before.timezone !== after.timezone)
    await announce(trx, actor, 'lab.timezone_changed', {
      organizationId: org.id,
      from: before.timezone,
      to: after.timezone,
    });
  await writeAudit(trx, actor, {
    action: 'update',
    entity: 'settings',
    entityId: org.id,
    oldValues: {
      ...Object.fromEntries(changed.map((k) => [k, before[k]])),
      ...(how === 'reset' ? { reset: false } : {}),
    },
    newValues: {
      ...Object.fromEntries(changed.map((k) => [k, after[k]])),
      ...(how === 'reset' ? { reset: true } : {}),
    },
  });
  return after;
}

/**
 * The switches a change turns on are announced first: the features they depend on refuse an update
 * (the error propagates) or keep a switch as it was on a reset. Answers what may be saved.
 */
async function allowedChange(
  trx: Db,
  actor: Actor,
  before: Settings,
  after: Settings,
  how: 'update' | 'reset',
): Promise<Settings> {
  const turnedOn = (Object.keys(after) as (keyof Settings)[]).filter((k) => after[k] === true && before[k] !== true);
  if (turnedOn.length === 0) return after;
  const kept: Partial<Record<keyof Settings, unknown>> = {};
  await announce(trx, actor, 'settings.changing', {
    organizationId: actor.organizationId,
    turnedOn,
    how,
    keepAsWas: (setting) => {
      if (setting in before) kept[setting as keyof Settings] = before[setting as keyof Settings];
    },
  });
  return { ...after, ...kept } as Settings;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export {
  DEFAULT_SETTINGS,
  type LabSettings,
  type OrganizationRow,
  getOrganization,
  insertOrganizationRow,
  labSettings,
  labToday,
  organizationTimezone,
  primaryOrganization,
  saveLabSwitch,
  settingsOf,
} from './organization.js';
export { assertPasswordPolicy } from './password-policy.js';
