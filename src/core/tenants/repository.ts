import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { OrganizationsTable } from '../db/schema.js';
import type { TenantListQuery } from '../../shared/schemas/tenants.js';
import { labTable, labDelete } from '../db/lab-tables.js';
import { onPage, type RowsPage } from '../db/paging.js';

/** SQL of Multi-Tenant Setup: organisations as tenants, and the figures counted across each lab's rows. */

export type TenantRow = Selectable<OrganizationsTable>;

export function findTenantRow(db: Db, id: number): Promise<TenantRow | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The server's first lab (lowest id): the superadmin's, never suspended. */
export async function primaryOrganizationId(db: Db): Promise<number | null> {
  const r = await db.selectFrom('organizations').select('id').orderBy('id').limit(1).executeTakeFirst();
  return r ? r.id : null;
}

/** How many labs the server holds (the sign-in page asks for the lab when several). */
export async function organizationCount(db: Db): Promise<number> {
  const r = await db
    .selectFrom('organizations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The lab whose domain is this host name (domains are stored in lower case). */
export function tenantIdByDomain(db: Db, host: string): Promise<{ id: number } | undefined> {
  return db.selectFrom('organizations').select('id').where('domain', '=', host.toLowerCase()).executeTakeFirst();
}

/** Every lab's domain (the host names the server answers for its labs). */
export async function tenantDomains(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('organizations').select('domain').where('domain', 'is not', null).execute();
  return rows.map((r) => r.domain!.toLowerCase());
}

export async function domainTaken(db: Db, domain: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('organizations').select('id').where('domain', '=', domain);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function selectTenantPage(db: Db, q: TenantListQuery): Promise<RowsPage<TenantRow>> {
  let base = db.selectFrom('organizations');
  if (q.search) {
    const s = `%${q.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) =>
      eb.or([
        eb(sql`lower(name)`, 'like', sql`${s} ESCAPE '\\'`),
        eb(sql`lower(coalesce(domain, ''))`, 'like', sql`${s} ESCAPE '\\'`),
      ]),
    );
  }
  if (q.status) base = base.where('status', '=', q.status);
  if (q.plan) base = base.where('plan', '=', q.plan);
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await base.selectAll().orderBy('id').$call(onPage(q)).execute();
  return { rows, total };
}

export function tenantNames(db: Db): Promise<{ id: number; name: string }[]> {
  return db.selectFrom('organizations').select(['id', 'name']).orderBy('id').execute();
}

export async function tenantStatusCounts(db: Db): Promise<{ status: string; n: number }[]> {
  const rows = await db
    .selectFrom('organizations')
    .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  return rows.map((r) => ({ status: r.status, n: Number(r.n) }));
}

export function insertTenantRow(trx: Db, values: Insertable<OrganizationsTable>) {
  return trx.insertInto('organizations').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateTenantRow(trx: Db, id: number, patch: Updateable<OrganizationsTable>) {
  return trx.updateTable('organizations').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Ends every session of a lab's staff and patients (suspension): they are signed out on every server at once. */
export async function deleteSessionRowsOfOrganization(trx: Db, organizationId: number): Promise<void> {
  await labDelete(trx, 'sessions', organizationId).execute();
  // Its patients' portal sessions end too: the portal of a closed lab is closed.
  await labDelete(trx, 'portal_sessions', organizationId).execute();
}

// Figures, counted from each lab's own rows (the dashboard counts the same way for one lab).

type Counted = Map<number, number>;

const toMap = (rows: { org: number | string; n: number | string | bigint | null }[]): Counted =>
  new Map(rows.map((r) => [Number(r.org), Number(r.n ?? 0)]));

/** Active staff accounts per lab. */
export async function activeUserCounts(db: Db, orgIds?: number[]): Promise<Counted> {
  let q = db
    .selectFrom('users')
    .select((eb) => ['organization_id as org', eb.fn.countAll<number>().as('n')])
    .where('is_active', '=', 1);
  if (orgIds) q = q.where('organization_id', 'in', orgIds.length ? orgIds : [-1]);
  return toMap(await q.groupBy('organization_id').execute());
}

/** Registered patients per lab (the counter the patients' triggers keep exact). */
export async function patientCounts(db: Db, orgIds?: number[]): Promise<Counted> {
  let q = db.selectFrom('entity_counts').select(['organization_id as org', 'n']).where('entity', '=', 'patients');
  if (orgIds) q = q.where('organization_id', 'in', orgIds.length ? orgIds : [-1]);
  return toMap(await q.execute());
}

/** Tests performed per lab: result rows entered. */
export async function resultCounts(db: Db, orgIds?: number[]): Promise<Counted> {
  let q = db.selectFrom('test_results').select((eb) => ['organization_id as org', eb.fn.countAll<number>().as('n')]);
  if (orgIds) q = q.where('organization_id', 'in', orgIds.length ? orgIds : [-1]);
  return toMap(await q.groupBy('organization_id').execute());
}

/** The time of the lab's latest audit-trail entry (one index step: audit_org_id). */
export async function lastActivityOf(db: Db, organizationId: number): Promise<string | null> {
  const r = await labTable(db, 'audit_log', organizationId)
    .select('created_at')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r?.created_at ?? null;
}

/** Each lab's first administrator (lowest id among admins and superadmins) and whether they have a password yet. */
export async function firstAdminsOf(
  db: Db,
  orgIds: number[],
): Promise<Map<number, { id: number; email: string; pending: boolean }>> {
  if (orgIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'organization_id', 'email', 'password_hash'])
    .where('organization_id', 'in', orgIds)
    .where('role', 'in', ['superadmin', 'admin'])
    .orderBy('id')
    .execute();
  const out = new Map<number, { id: number; email: string; pending: boolean }>();
  for (const r of rows) {
    if (!out.has(r.organization_id))
      out.set(r.organization_id, { id: r.id, email: r.email, pending: r.password_hash === '' });
  }
  return out;
}

/** Whether anyone in the lab can sign in (has a password): a reactivated lab is active, else pending. */
export async function hasSignInAccount(db: Db, organizationId: number): Promise<boolean> {
  const r = await labTable(db, 'users', organizationId)
    .select('id')
    .where('password_hash', '!=', '')
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}
