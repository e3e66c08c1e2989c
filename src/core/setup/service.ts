import type { Db } from '../db/connection.js';
import { insertOrganizationRow, DEFAULT_SETTINGS, primaryOrganization } from '../settings/service.js';
import { insertUserRow } from '../users/repository.js';
import { announce } from '../events.js';
import { nowIso, systemActor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { hashPassword } from '../auth/service.js';
import { ConflictError } from '../errors.js';
import { splitName, type SetupInput } from '../../shared/schemas/setup.js';
import type { Role } from '../../shared/roles.js';
import { loadStarterCatalogue, readStarterCatalogue, type StarterSummary } from '../catalogue/service.js';

export interface SetupResult {
  organizationId: number;
  adminId: number;
  /** What the starter catalogue added, when any of the three import switches was on. */
  catalogue: StarterSummary | null;
}

export async function isSetUp(db: Db): Promise<boolean> {
  return (await primaryOrganization(db)) !== null;
}

/**
 * Creates the lab and its superadmin in one transaction. Refuses when a lab already exists:
 * setting up never overwrites or removes anything.
 */
export async function setupLab(db: Db, input: SetupInput, opts: { demo?: boolean } = {}): Promise<SetupResult> {
  // Answer a lab that is set up before the (deliberately slow) password hash: no CPU for nothing.
  if (await primaryOrganization(db)) {
    throw new ConflictError('This lab is already set up; nothing was changed', 'ALREADY_SET_UP');
  }
  const password_hash = await hashPassword(input.adminPassword);
  const starter = {
    tests: input.importSampleTests,
    profiles: input.importSampleProfiles,
    packages: input.importSamplePackages,
  };
  // Read (and check) the shipped file before the transaction; the catalogue is created with the lab or not at all.
  const catalogue = starter.tests || starter.profiles || starter.packages ? readStarterCatalogue() : null;
  return db.transaction().execute(async (trx) => {
    if (await primaryOrganization(trx)) {
      throw new ConflictError('This lab is already set up; nothing was changed', 'ALREADY_SET_UP');
    }
    const now = nowIso();
    const org = await insertOrganizationRow(trx, {
      name: input.labName,
      address: input.labAddress ?? null,
      phone: input.labPhone ?? null,
      email: input.labEmail ?? null,
      timezone: input.timezone,
      currency: input.currency,
      date_format: input.dateFormat,
      settings: JSON.stringify(DEFAULT_SETTINGS),
      is_demo: opts.demo ? 1 : 0,
      created_at: now,
      updated_at: now,
    });
    const role: Role = 'superadmin';
    const admin = await insertUserRow(trx, {
      organization_id: org.id,
      email: input.adminEmail,
      password_hash,
      ...splitName(input.adminName),
      role,
      department: 'Administration',
      phone: null,
      specialization: null,
      consultation_fee_paise: 0,
      is_active: 1,
      created_at: now,
      updated_at: now,
    });
    const actor = systemActor(org.id, 'setup');
    await announce(trx, actor, 'lab.created', { organizationId: org.id, at: now });
    await writeAudit(trx, actor, {
      action: 'create',
      entity: 'organization',
      entityId: org.id,
      newValues: {
        name: input.labName,
        timezone: input.timezone,
        currency: input.currency,
        date_format: input.dateFormat,
      },
    });
    await writeAudit(trx, actor, {
      action: 'create',
      entity: 'user',
      entityId: admin.id,
      newValues: { email: input.adminEmail, role },
    });
    const loaded = catalogue ? await loadStarterCatalogue(trx, actor, starter, catalogue) : null;
    return { organizationId: org.id, adminId: admin.id, catalogue: loaded };
  });
}
