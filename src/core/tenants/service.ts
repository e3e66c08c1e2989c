import type { Db } from '../db/connection.js';
import { nowIso, type Actor } from '../context.js';
import { diff, writeAudit } from '../audit/audit.js';
import { announce } from '../events.js';
import { NO_PASSWORD } from '../auth/service.js';
import { storageByOrganization } from '../db/storage.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { issueInvitation } from '../invitations/service.js';
import { DEFAULT_SETTINGS } from '../settings/service.js';
import { insertUserRow } from '../users/repository.js';
import {
  activeUserCounts,
  deleteSessionRowsOfOrganization,
  domainTaken,
  findTenantRow,
  firstAdminsOf,
  hasSignInAccount,
  insertTenantRow,
  lastActivityOf,
  patientCounts,
  primaryOrganizationId,
  resultCounts,
  selectTenantPage,
  tenantNames,
  tenantStatusCounts,
  updateTenantRow,
  type TenantRow,
} from './repository.js';
import { statusTally } from '../../shared/status-tally.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import {
  LAB_CLOSED_MESSAGES,
  type IssuedInvitation,
  type Tenant,
  type TenantCreate,
  type TenantListQuery,
  type TenantPage,
  type TenantPlan,
  type TenantStatus,
  type TenantSummary,
  type TenantUpdate,
} from '../../shared/schemas/tenants.js';

/**
 * Multi-Tenant Setup. The server's superadmin (the first lab's setup administrator, who
 * belongs to the primary organisation) manages the labs on the server; nobody else, and no
 * superadmin of another lab. Every change is audited twice: in the superadmin's trail (entity
 * tenant) and in the lab's own (entity organization), so the lab sees who changed it.
 */

/** The route's permission (manage_tenants: superadmins only) plus: the actor works in the primary lab. */
async function assertServerAdmin(db: Db, actor: Actor): Promise<number> {
  const primary = await primaryOrganizationId(db);
  if (primary === null) throw new ForbiddenError('No lab is set up on this server');
  if (actor.role !== 'system' && (actor.role !== 'superadmin' || actor.organizationId !== primary)) {
    throw new ForbiddenError("Only the superadmin of the server's first lab manages tenants");
  }
  return primary;
}

function toTenant(
  row: TenantRow,
  primaryId: number,
  f: {
    users: Map<number, number>;
    patients: Map<number, number>;
    tests: Map<number, number>;
    storage: Map<number, number>;
    storageMeasuredAt: string;
    admins: Map<number, { email: string; pending: boolean }>;
    lastActivity: Map<number, string | null>;
  },
): Tenant {
  const admin = f.admins.get(row.id);
  return {
    id: row.id,
    name: row.name,
    domain: row.domain,
    plan: row.plan as TenantPlan | null,
    status: row.status as TenantStatus,
    is_primary: row.id === primaryId,
    admin_email: admin?.email ?? null,
    admin_pending: admin?.pending ?? false,
    users: f.users.get(row.id) ?? 0,
    patients: f.patients.get(row.id) ?? 0,
    tests: f.tests.get(row.id) ?? 0,
    storage_bytes: f.storage.get(row.id) ?? 0,
    storage_measured_at: f.storageMeasuredAt,
    created_at: row.created_at,
    last_activity: f.lastActivity.get(row.id) ?? null,
  };
}

async function withFigures(db: Db, rows: TenantRow[], primaryId: number): Promise<Tenant[]> {
  const ids = rows.map((r) => r.id);
  const lastActivity = new Map<number, string | null>();
  for (const id of ids) lastActivity.set(id, await lastActivityOf(db, id));
  const storage = await storageByOrganization(db);
  const f = {
    users: await activeUserCounts(db, ids),
    patients: await patientCounts(db, ids),
    tests: await resultCounts(db, ids),
    storage: storage.bytes,
    storageMeasuredAt: storage.measuredAt,
    admins: await firstAdminsOf(db, ids),
    lastActivity,
  };
  return rows.map((r) => toTenant(r, primaryId, f));
}

export async function listTenants(db: Db, actor: Actor, q: TenantListQuery): Promise<TenantPage> {
  const primary = await assertServerAdmin(db, actor);
  const { rows, total } = await selectTenantPage(db, q);
  return { tenants: await withFigures(db, rows, primary), ...pageEnvelope(total, q.page, q.limit) };
}

export async function getTenant(db: Db, actor: Actor, id: number): Promise<Tenant> {
  const primary = await assertServerAdmin(db, actor);
  const row = await findTenantRow(db, id);
  if (!row) throw new NotFoundError('Tenant', id);
  const [tenant] = await withFigures(db, [row], primary);
  return tenant!;
}

/** The cards: labs by status, and the figures of all labs together. */
export async function tenantSummary(db: Db, actor: Actor): Promise<TenantSummary> {
  await assertServerAdmin(db, actor);
  const statuses = await tenantStatusCounts(db);
  const sum = (m: Map<number, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const users = await activeUserCounts(db);
  const patients = await patientCounts(db);
  const tests = await resultCounts(db);
  const measured = await storageByOrganization(db);
  const storage = measured.bytes;
  const labs = (await tenantNames(db)).map((l) => ({
    id: l.id,
    name: l.name,
    users: users.get(l.id) ?? 0,
    patients: patients.get(l.id) ?? 0,
    tests: tests.get(l.id) ?? 0,
    storage_bytes: storage.get(l.id) ?? 0,
  }));
  const top = (key: 'storage_bytes' | 'tests') =>
    [...labs]
      .filter((l) => l[key] > 0)
      .sort((a, b) => b[key] - a[key] || a.id - b.id)
      .slice(0, 5);
  return {
    ...statusTally(statuses, ['active', 'suspended', 'pending', 'inactive']),
    users: sum(users),
    patients: sum(patients),
    tests: sum(tests),
    storage_bytes: sum(storage),
    storage_measured_at: measured.measuredAt,
    top_storage: top('storage_bytes'),
    top_tests: top('tests'),
  };
}

function auditValues(row: TenantRow) {
  return { name: row.name, domain: row.domain, plan: row.plan, status: row.status };
}

/**
 * Creates the lab (pending) and its administrator, who has no password: the answer carries the
 * one-time link (shown once) with which they set one and sign in; the lab then becomes active.
 */
export async function createTenant(
  db: Db,
  actor: Actor,
  input: TenantCreate,
): Promise<{ tenant: Tenant; invitation: IssuedInvitation }> {
  await assertServerAdmin(db, actor);
  const created = await db.transaction().execute(async (trx) => {
    if (await domainTaken(trx, input.domain))
      throw new ConflictError(`Another lab already uses the domain ${input.domain}`, 'DOMAIN_TAKEN');
    const now = nowIso();
    const org = await insertTenantRow(trx, {
      name: input.name,
      domain: input.domain,
      plan: input.plan,
      status: 'pending',
      address: input.address ?? null,
      phone: input.phone ?? null,
      email: null,
      timezone: input.timezone ?? 'Asia/Kolkata',
      currency: 'INR',
      date_format: 'DD/MM/YYYY',
      settings: JSON.stringify(DEFAULT_SETTINGS),
      is_demo: 0,
      created_at: now,
      updated_at: now,
    });
    const admin = await insertUserRow(trx, {
      organization_id: org.id,
      email: input.admin_email,
      password_hash: NO_PASSWORD,
      first_name: input.admin_first_name ?? 'Lab',
      last_name: input.admin_last_name ?? 'Administrator',
      role: 'admin',
      department: 'Administration',
      phone: null,
      specialization: null,
      consultation_fee_paise: 0,
      is_active: 1,
      last_login: null,
      created_at: now,
      updated_at: now,
    });
    await announce(trx, actor, 'lab.created', { organizationId: org.id, at: now });
    const values = { ...auditValues(org), admin_email: admin.email };
    await writeAudit(trx, actor, { action: 'create', entity: 'tenant', entityId: org.id, newValues: values });
    const inLab = { ...actor, organizationId: org.id };
    await writeAudit(trx, inLab, { action: 'create', entity: 'organization', entityId: org.id, newValues: values });
    await writeAudit(trx, inLab, {
      action: 'create',
      entity: 'user',
      entityId: admin.id,
      newValues: { email: admin.email, role: admin.role, password: 'none: set through the invitation' },
    });
    const invitation = await issueInvitation(trx, actor, {
      organizationId: org.id,
      userId: admin.id,
      email: admin.email,
    });
    return { id: org.id, invitation };
  });
  return { tenant: await getTenant(db, actor, created.id), invitation: created.invitation };
}

/**
 * Name, domain, plan and status. Suspending (or making inactive) ends the lab's sessions in the
 * same transaction, so its staff are signed out on every server at once; sign-in then answers the
 * lab's closed message. Reactivating makes the lab active, or pending again if nobody in it has
 * set a password yet. The primary lab cannot be suspended, nor lose its status.
 */
export async function updateTenant(db: Db, actor: Actor, id: number, input: TenantUpdate): Promise<Tenant> {
  const primary = await assertServerAdmin(db, actor);
  await db.transaction().execute(async (trx) => {
    const before = await findTenantRow(trx, id);
    if (!before) throw new NotFoundError('Tenant', id);
    const isPrimary = before.id === primary;
    if (input.domain === null && !isPrimary)
      throw ValidationError.field('domain', 'A tenant needs a domain: its staff sign in at that address');
    if (input.domain && (await domainTaken(trx, input.domain, id)))
      throw new ConflictError(`Another lab already uses the domain ${input.domain}`, 'DOMAIN_TAKEN');
    let status = before.status;
    if (input.status !== undefined && input.status !== before.status) {
      if (isPrimary)
        throw new ForbiddenError(
          "The server's first lab cannot be suspended or made inactive: the superadmin manages the server from it",
        );
      if (input.status === 'active') {
        if (before.status === 'pending')
          throw new ConflictError(
            'This lab becomes active when its administrator sets a password through the invitation link; send a new link if theirs has expired',
            'TENANT_PENDING',
          );
        status = (await hasSignInAccount(trx, id)) ? 'active' : 'pending';
      } else status = input.status;
    }
    const after = await updateTenantRow(trx, id, {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.domain !== undefined && { domain: input.domain }),
      ...(input.plan !== undefined && { plan: input.plan }),
      status,
      updated_at: nowIso(),
    });
    if (LAB_CLOSED_MESSAGES[after.status as TenantStatus] && !LAB_CLOSED_MESSAGES[before.status as TenantStatus]) {
      await deleteSessionRowsOfOrganization(trx, id);
    }
    const { oldValues, newValues } = diff(auditValues(before), auditValues(after));
    if (Object.keys(newValues).length === 0) return;
    await writeAudit(trx, actor, { action: 'update', entity: 'tenant', entityId: id, oldValues, newValues });
    await writeAudit(
      trx,
      { ...actor, organizationId: id },
      {
        action: 'update',
        entity: 'organization',
        entityId: id,
        oldValues,
        newValues,
      },
    );
  });
  return getTenant(db, actor, id);
}

/** A new link for a lab's administrator who has not set a password yet (theirs expired or was lost). */
export async function reissueAdminInvitation(db: Db, actor: Actor, id: number): Promise<IssuedInvitation> {
  await assertServerAdmin(db, actor);
  return db.transaction().execute(async (trx) => {
    const lab = await findTenantRow(trx, id);
    if (!lab) throw new NotFoundError('Tenant', id);
    const admin = (await firstAdminsOf(trx, [id])).get(id);
    if (!admin) throw new ConflictError('This lab has no administrator account', 'NO_ADMIN');
    if (!admin.pending)
      throw new ConflictError(
        `${admin.email} has already set a password; the lab's administrators reset passwords on its Users screen`,
        'ADMIN_NOT_PENDING',
      );
    const closed = LAB_CLOSED_MESSAGES[lab.status as TenantStatus];
    if (closed)
      throw new ConflictError(`${lab.name} is ${lab.status}: reactivate it before sending a link`, 'TENANT_CLOSED');
    return issueInvitation(trx, actor, { organizationId: id, userId: admin.id, email: admin.email });
  });
}

/** A pending lab (its administrator had not set a password) becomes active; any other lab is left as it is. */
export async function activatePendingLab(trx: Db, actor: Actor, organizationId: number): Promise<void> {
  const lab = await findTenantRow(trx, organizationId);
  if (lab?.status !== 'pending') return;
  await updateTenantRow(trx, lab.id, { status: 'active', updated_at: nowIso() });
  await writeAudit(trx, actor, {
    action: 'update',
    entity: 'organization',
    entityId: lab.id,
    oldValues: { status: 'pending' },
    newValues: { status: 'active', reason: 'the administrator accepted the invitation' },
  });
}

export { CLOSED_LAB_STATUSES, LabClosedError, dueIdsOfOpenLabs, labIsOpen, openLabIds } from './open-labs.js';
export { labClosedMessage, signInAccount, signInLabId, signInPageLab } from './sign-in.js';
