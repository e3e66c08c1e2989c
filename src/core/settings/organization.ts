import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { OrganizationsTable } from '../db/schema.js';
import { NotFoundError } from '../errors.js';

export type OrganizationRow = Selectable<OrganizationsTable>;

/** Lab settings kept as JSON beside the organisation's own columns (spec "Settings"). */
export interface LabSettings {
  sessionTimeout: number;
  allowSelfVerification: boolean;
}

export const DEFAULT_SETTINGS: LabSettings = { sessionTimeout: 30, allowSelfVerification: false };

export function settingsOf(org: Pick<OrganizationRow, 'settings'>): LabSettings {
  let parsed: Partial<LabSettings> = {};
  try {
    parsed = JSON.parse(org.settings) as Partial<LabSettings>;
  } catch {
    parsed = {};
  }
  return { ...DEFAULT_SETTINGS, ...parsed };
}

export async function getOrganization(db: Db, id: number): Promise<OrganizationRow> {
  const org = await db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
  if (!org) throw new NotFoundError('Organization', id);
  return org;
}

export async function organizationTimezone(db: Db, id: number): Promise<string> {
  const org = await db.selectFrom('organizations').select('timezone').where('id', '=', id).executeTakeFirst();
  return org?.timezone ?? 'Asia/Kolkata';
}

/** The first organisation: a single-lab install has exactly one; null before setup. */
export async function primaryOrganization(db: Db): Promise<OrganizationRow | null> {
  return (await db.selectFrom('organizations').selectAll().orderBy('id').limit(1).executeTakeFirst()) ?? null;
}
