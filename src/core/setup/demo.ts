import { insertUserRow } from '../users/repository.js';
import type { Db } from '../db/connection.js';
import { nowIso, systemActor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { hashPassword } from '../auth/service.js';
import { ConflictError } from '../errors.js';
import { ROLES, ROLE_LABELS, type Role } from '../../shared/roles.js';
import type { DemoCredential } from '../../shared/schemas/auth.js';
import { primaryOrganization } from '../settings/service.js';
import { setupLab } from './service.js';

/** The demo lab's shared password: shown on the login page in --demo mode only. */
export const DEMO_PASSWORD = 'demo1234';
const DEMO_DOMAIN = 'demo.lims.local';

/** Staff roles only: a centre's login is bound to a centre, and the demo lab has none. */
export function demoCredentials(): DemoCredential[] {
  return ROLES.filter((role) => role !== 'centre').map((role) => ({
    role,
    email: `${role.replace(/_/g, '.')}@${DEMO_DOMAIN}`,
    password: DEMO_PASSWORD,
  }));
}

/**
 * `lims serve --demo`: on an empty data dir, creates a demo lab with one user per role.
 * On a dir that already holds a demo lab it changes nothing; on a real lab it refuses, so demo
 * accounts with a published password never appear in a lab's real data.
 */
export async function ensureDemoLab(db: Db): Promise<void> {
  const org = await primaryOrganization(db);
  if (org) {
    if (org.is_demo === 1) return;
    throw new ConflictError(
      'This data dir holds a real lab; --demo runs only on an empty or demo data dir',
      'NOT_DEMO',
    );
  }
  const creds = demoCredentials();
  const superadmin = creds[0]!;
  const { organizationId } = await setupLab(
    db,
    {
      labName: 'Demo Diagnostics Lab',
      labAddress: '12 MG Road, Bengaluru, Karnataka 560001',
      labPhone: '+91 80 4000 1234',
      labEmail: 'lab@demo.lims.local',
      adminName: 'Super Admin',
      adminEmail: superadmin.email,
      adminPassword: DEMO_PASSWORD,
      timezone: 'Asia/Kolkata',
      currency: 'INR',
      dateFormat: 'DD/MM/YYYY',
      // A demo lab is more useful with something to bill: the starter catalogue.
      importSampleTests: true,
      importSampleProfiles: true,
      importSamplePackages: true,
    },
    { demo: true },
  );
  const password_hash = await hashPassword(DEMO_PASSWORD);
  const people: Record<Exclude<Role, 'superadmin' | 'centre'>, [string, string, string | null, number]> = {
    admin: ['Anita', 'Sharma', null, 0],
    lab_manager: ['Vikram', 'Iyer', null, 0],
    doctor: ['Priya', 'Menon', 'Internal Medicine', 500],
    lab_technician: ['Rahul', 'Verma', 'Pathology', 300],
    technician: ['Sunita', 'Das', null, 0],
    receptionist: ['Kavya', 'Nair', null, 0],
    billing_staff: ['Arjun', 'Reddy', null, 0],
    collector: ['Manoj', 'Yadav', null, 0],
    validator: ['Deepa', 'Kulkarni', null, 0],
    inventory_manager: ['Farhan', 'Khan', null, 0],
    user: ['Neha', 'Gupta', null, 0],
  };
  await db.transaction().execute(async (trx) => {
    const now = nowIso();
    for (const c of creds.slice(1)) {
      const role = c.role as Exclude<Role, 'superadmin' | 'centre'>;
      const [first_name, last_name, specialization, fee] = people[role];
      const row = await insertUserRow(trx, {
        organization_id: organizationId,
        email: c.email,
        password_hash,
        first_name,
        last_name,
        role,
        department: ROLE_LABELS[role],
        phone: null,
        specialization,
        consultation_fee_paise: fee * 100,
        is_active: 1,
        created_at: now,
        updated_at: now,
      });
      await writeAudit(trx, systemActor(organizationId, 'demo'), {
        action: 'create',
        entity: 'user',
        entityId: row.id,
        newValues: { email: c.email, role },
      });
    }
  });
}
