import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { client, makeLab, PASSWORD, type Client, type TestLab } from '../helpers.js';
import { exec, row, rows } from '../db.js';
import {
  auditRowsFor,
  badFields,
  createPatient,
  errorBody,
  insertOtherLab,
  loginAt,
  uniqueEmail,
  uniqueWord,
} from './support.js';
import { seedResult, seedSample } from './lab-records.js';
import { createUser } from '../../src/core/users/service.js';
import { systemActor } from '../../src/core/context.js';
import { invalidateOrganizationCache } from '../../src/server/org-cache.js';
import { storageByOrganization } from '../../src/core/db/storage.js';
import type { IssuedInvitation, Tenant, TenantPage, TenantSummary } from '../../src/shared/schemas/tenants.js';
import type { User } from '../../src/shared/schemas/users.js';

/**
 * Multi-Tenant Setup: the superadmin of the server's first lab creates labs, each with
 * an admin who sets a password through a one-time link; suspends and reactivates them; sees each
 * lab's figures counted from its rows. Sign-in picks the lab by the request's host name or its lab field.
 */
let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

const SUSPENDED = "This lab's account is suspended. Contact your administrator.";
const ADMIN_PASSWORD = 'tenant-admin-pass-7';

let domainSeq = 0;
function uniqueDomain(): string {
  domainSeq += 1;
  return `lab${domainSeq}-${process.pid}-${Date.now() % 100000}.example.test`;
}

interface Created {
  tenant: Tenant;
  invitation: IssuedInvitation;
  token: string;
}

async function createTenant(overrides: Record<string, unknown> = {}): Promise<Created> {
  const res = await lab.admin.post('/api/tenants', {
    name: `${uniqueWord('Lab')} Diagnostics`,
    domain: uniqueDomain(),
    plan: 'standard',
    admin_email: uniqueEmail('tenantadmin'),
    ...overrides,
  });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json<{ tenant: Tenant; invitation: IssuedInvitation }>();
  return { ...body, token: tokenOf(body.invitation) };
}

function tokenOf(invitation: IssuedInvitation): string {
  const m = /^\/invitation#([A-Za-z0-9_-]{43})$/.exec(invitation.path);
  if (!m) throw new Error(`not an invitation path: ${invitation.path}`);
  return m[1]!;
}

function preview(token: string) {
  return lab.app.inject({ method: 'GET', url: `/api/invitations/preview?token=${encodeURIComponent(token)}` });
}

function accept(token: string, password: string) {
  return lab.app.inject({ method: 'POST', url: '/api/invitations/accept', payload: { token, password } });
}

function sessionOf(res: LightMyRequestResponse): string {
  const c = res.cookies.find((x) => x.name === 'lims_session');
  if (!c) throw new Error(`no session cookie: ${res.statusCode} ${res.body}`);
  return `lims_session=${c.value}`;
}

/** Accepts the link and answers the signed-in admin of the new lab. */
async function acceptedAdmin(created: Created, password = ADMIN_PASSWORD): Promise<Client> {
  const res = await accept(created.token, password);
  expect(res.statusCode, res.body).toBe(200);
  const user = res.json<{ user: User }>().user;
  return client(lab.app, sessionOf(res), user.id, user.email);
}

function signIn(email: string, password: string, host?: string, labDomain?: string) {
  return lab.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password, ...(labDomain ? { lab: labDomain } : {}) },
    headers: host ? { host } : {},
  });
}

async function tenantCount(): Promise<number> {
  return Number((await row<{ n: number }>(lab.database, 'SELECT count(*) AS n FROM organizations'))!.n);
}

describe('who manages tenants', () => {
  it('answers 401 without a session and 403 to a lab admin and to other roles', async () => {
    expect((await lab.app.inject({ url: '/api/tenants' })).statusCode).toBe(401);
    const { admin: otherAdmin } = await (async () => {
      const created = await createTenant();
      return { admin: await acceptedAdmin(created) };
    })();
    const localAdmin = await lab.as('admin');
    const receptionist = await lab.as('receptionist');
    for (const who of [otherAdmin, localAdmin, receptionist]) {
      expect((await who.get('/api/tenants')).statusCode).toBe(403);
      expect((await who.get('/api/tenants/summary')).statusCode).toBe(403);
      expect((await who.get(`/api/tenants/${lab.organizationId}`)).statusCode).toBe(403);
      const create = await who.post('/api/tenants', {
        name: 'X',
        domain: 'x.example.test',
        plan: 'basic',
        admin_email: 'x@x.test',
      });
      expect(create.statusCode).toBe(403);
      expect((await who.put(`/api/tenants/${lab.organizationId}`, { plan: 'basic' })).statusCode).toBe(403);
      expect((await who.post(`/api/tenants/${lab.organizationId}/invitation`)).statusCode).toBe(403);
    }
  });

  it("refuses a superadmin of another lab: only the first lab's superadmin manages the server", async () => {
    const orgId = await insertOtherLab(lab.database.db, 'Rogue Lab');
    const email = uniqueEmail('roguesuper');
    const user = await createUser(lab.database.db, systemActor(orgId), {
      first_name: 'Rogue',
      last_name: 'Super',
      email,
      role: 'superadmin',
      password: PASSWORD,
    });
    const rogue = client(lab.app, await loginAt(lab, orgId, email, PASSWORD), user.id, email);
    const res = await rogue.get('/api/tenants');
    expect(res.statusCode).toBe(403);
    expect(errorBody(res).message).toMatch(/first lab/);
  });

  it('lists every lab, the first one marked primary, for the superadmin', async () => {
    const created = await createTenant();
    const res = await lab.admin.get('/api/tenants?limit=200');
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<TenantPage>();
    const primary = page.tenants.find((t) => t.id === lab.organizationId)!;
    expect(primary).toMatchObject({
      name: 'Test Lab',
      is_primary: true,
      status: 'active',
      admin_email: 'admin@lab.test',
    });
    const mine = page.tenants.find((t) => t.id === created.tenant.id)!;
    expect(mine).toMatchObject({ is_primary: false, status: 'pending', plan: 'standard', admin_pending: true });
    expect(page.total).toBe(await tenantCount());
  });
});

describe('creating a tenant', () => {
  it('refuses bad fields with 400 naming each, and saves nothing', async () => {
    const before = await tenantCount();
    const res = await lab.admin.post('/api/tenants', {
      name: '  ',
      domain: 'https://lab.example.com/',
      plan: 'gold',
      admin_email: 'not-an-email',
    });
    expect(badFields(res).sort()).toEqual(['admin_email', 'domain', 'name', 'plan']);
    for (const domain of [
      'lab_2.example.com',
      '-lab.example.com',
      'lab..example.com',
      'localhost',
      'lab.example.com:8080',
    ])
      expect(
        badFields(await lab.admin.post('/api/tenants', { name: 'L', domain, plan: 'basic', admin_email: 'a@b.test' })),
      ).toEqual(['domain']);
    expect(
      badFields(await lab.admin.post('/api/tenants', { name: 'L', plan: 'basic', admin_email: 'a@b.test' })),
    ).toEqual(['domain']);
    expect(
      badFields(
        await lab.admin.post('/api/tenants', {
          name: 'L',
          domain: uniqueDomain(),
          plan: 'basic',
          admin_email: 'a@b.test',
          timezone: 'Mars/Olympus',
        }),
      ),
    ).toEqual(['timezone']);
    expect(await tenantCount()).toBe(before);
  });

  it('refuses a domain another lab uses (any case) with 409, on create and on update', async () => {
    const domain = uniqueDomain();
    const first = await createTenant({ domain });
    const before = await tenantCount();
    const dup = await lab.admin.post('/api/tenants', {
      name: 'Dup',
      domain: domain.toUpperCase(),
      plan: 'basic',
      admin_email: uniqueEmail(),
    });
    expect(dup.statusCode).toBe(409);
    expect(errorBody(dup).code).toBe('DOMAIN_TAKEN');
    expect(await tenantCount()).toBe(before);
    const second = await createTenant();
    const upd = await lab.admin.put(`/api/tenants/${second.tenant.id}`, { domain });
    expect(upd.statusCode).toBe(409);
    expect((await lab.admin.get(`/api/tenants/${first.tenant.id}`)).json<{ tenant: Tenant }>().tenant.domain).toBe(
      domain,
    );
  });

  it('creates the lab pending, its admin without a password, and audits it in both trails', async () => {
    const email = uniqueEmail('newadmin');
    const created = await createTenant({
      admin_email: email,
      admin_first_name: 'Meera',
      admin_last_name: 'Iyer',
      plan: 'enterprise',
    });
    expect(created.tenant).toMatchObject({
      status: 'pending',
      plan: 'enterprise',
      admin_email: email,
      admin_pending: true,
      users: 1,
    });
    expect(created.invitation.email).toBe(email);
    const hoursLeft = (Date.parse(created.invitation.expires_at) - Date.now()) / 3600_000;
    expect(hoursLeft).toBeGreaterThan(71.9);
    expect(hoursLeft).toBeLessThanOrEqual(72);
    const admin = await row<{ password_hash: string; last_login: string | null; role: string; first_name: string }>(
      lab.database,
      'SELECT password_hash, last_login, role, first_name FROM users WHERE organization_id = ?',
      created.tenant.id,
    );
    expect(admin).toEqual({ password_hash: '', last_login: null, role: 'admin', first_name: 'Meera' });
    // The token is only in the link: the database keeps its SHA-256, the audit trail neither.
    const stored = await rows<{ token_hash: string }>(
      lab.database,
      'SELECT token_hash FROM invitations WHERE organization_id = ?',
      created.tenant.id,
    );
    expect(stored).toEqual([{ token_hash: createHash('sha256').update(created.token).digest('hex') }]);
    const audit = await rows<{ organization_id: number; entity: string; new_values: string }>(
      lab.database,
      "SELECT organization_id, entity, new_values FROM audit_log WHERE (entity = 'tenant' AND entity_id = ?) OR organization_id = ? ORDER BY id",
      String(created.tenant.id),
      created.tenant.id,
    );
    expect(audit.map((a) => [a.organization_id, a.entity])).toEqual([
      [lab.organizationId, 'tenant'],
      [created.tenant.id, 'organization'],
      [created.tenant.id, 'user'],
      [created.tenant.id, 'invitation'],
    ]);
    expect(JSON.stringify(audit)).not.toContain(created.token);
    // The new lab's own data starts empty, with the usual collection locations.
    const locations = await row<{ n: number }>(
      lab.database,
      'SELECT count(*) AS n FROM collection_locations WHERE organization_id = ?',
      created.tenant.id,
    );
    expect(Number(locations!.n)).toBeGreaterThan(0);
  });
});

describe('the invitation link', () => {
  it('shows the lab name and email only; sets a password under the lab policy; signs in as the lab admin', async () => {
    const created = await createTenant({ name: 'Sunrise Pathology' });
    const p = await preview(created.token);
    expect(p.statusCode, p.body).toBe(200);
    expect(p.json()).toEqual({ invitation: { lab_name: 'Sunrise Pathology', email: created.invitation.email } });

    const weak = await accept(created.token, 'short1');
    expect(badFields(weak)).toEqual(['password']);
    const noDigit = await accept(created.token, 'no-digits-in-here');
    expect(badFields(noDigit)).toEqual(['password']);
    expect((await preview(created.token)).statusCode).toBe(200);

    const ok = await accept(created.token, ADMIN_PASSWORD);
    expect(ok.statusCode, ok.body).toBe(200);
    const user = ok.json<{ user: User }>().user;
    expect(user).toMatchObject({ email: created.invitation.email, role: 'admin', organization_id: created.tenant.id });
    expect(user.last_login).not.toBeNull();
    const me = await lab.app.inject({ url: '/api/auth/me', headers: { cookie: sessionOf(ok) } });
    expect(me.json<{ user: User }>().user.organization_id).toBe(created.tenant.id);

    const tenant = (await lab.admin.get(`/api/tenants/${created.tenant.id}`)).json<{ tenant: Tenant }>().tenant;
    expect(tenant).toMatchObject({ status: 'active', admin_pending: false });
    // The password works at the sign-in page afterwards.
    expect((await signIn(created.invitation.email, ADMIN_PASSWORD, created.tenant.domain!)).statusCode).toBe(200);
    const lines = await auditRowsFor(lab, 'organization', created.tenant.id);
    expect(lines.at(-1)).toMatchObject({
      action: 'update',
      organization_id: created.tenant.id,
      user_email: created.invitation.email,
    });
  });

  it('works once: a used link is refused (410), as is a second submit', async () => {
    const created = await createTenant();
    await acceptedAdmin(created);
    for (const res of [await preview(created.token), await accept(created.token, 'another-pass-99')]) {
      expect(res.statusCode).toBe(410);
      expect(errorBody(res).code).toBe('INVITATION_USED');
    }
    // The second submit changed nothing: the first password still signs in.
    expect((await signIn(created.invitation.email, ADMIN_PASSWORD, created.tenant.domain!)).statusCode).toBe(200);
    expect((await signIn(created.invitation.email, 'another-pass-99', created.tenant.domain!)).statusCode).toBe(401);
  });

  it('expires after 72 hours; a new link withdraws the old one; unknown and malformed tokens are refused', async () => {
    const created = await createTenant();
    await exec(
      lab.database,
      "UPDATE invitations SET expires_at = '2020-01-01T00:00:00.000Z' WHERE organization_id = ?",
      created.tenant.id,
    );
    for (const res of [await preview(created.token), await accept(created.token, ADMIN_PASSWORD)]) {
      expect(res.statusCode).toBe(410);
      expect(errorBody(res).code).toBe('INVITATION_EXPIRED');
    }
    const again = await lab.admin.post(`/api/tenants/${created.tenant.id}/invitation`);
    expect(again.statusCode, again.body).toBe(201);
    const fresh = tokenOf(again.json<{ invitation: IssuedInvitation }>().invitation);
    expect(fresh).not.toBe(created.token);
    expect(errorBody(await preview(created.token)).code).toBe('INVITATION_REVOKED');
    const third = tokenOf(
      (await lab.admin.post(`/api/tenants/${created.tenant.id}/invitation`)).json<{ invitation: IssuedInvitation }>()
        .invitation,
    );
    expect(errorBody(await accept(fresh, ADMIN_PASSWORD)).code).toBe('INVITATION_REVOKED');
    expect((await accept(third, ADMIN_PASSWORD)).statusCode).toBe(200);
    // Once the admin has a password, the superadmin sends no more links (the lab's admins reset passwords).
    expect((await lab.admin.post(`/api/tenants/${created.tenant.id}/invitation`)).statusCode).toBe(409);

    const unknown = await preview('A'.repeat(43));
    expect(unknown.statusCode).toBe(404);
    expect(badFields(await preview('too-short'))).toEqual(['token']);
    expect(badFields(await accept('too-short', ADMIN_PASSWORD))).toEqual(['token']);
  });
});

describe('suspending a tenant', () => {
  it("ends its staff's sessions at once and refuses their sign-in with the lab's message; reactivating lets them in", async () => {
    const created = await createTenant();
    const admin = await acceptedAdmin(created);
    expect((await admin.get('/api/auth/me')).statusCode).toBe(200);

    const res = await lab.admin.put(`/api/tenants/${created.tenant.id}`, { status: 'suspended' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ tenant: Tenant }>().tenant.status).toBe('suspended');
    expect((await admin.get('/api/patients')).statusCode).toBe(401);

    const refused = await signIn(created.invitation.email, ADMIN_PASSWORD, created.tenant.domain!);
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused).message).toBe(SUSPENDED);
    // A wrong password learns nothing about the lab.
    const wrong = await signIn(created.invitation.email, 'wrong-password-1', created.tenant.domain!);
    expect(wrong.statusCode).toBe(401);
    expect(errorBody(wrong).message).toBe('Invalid email or password');

    const back = await lab.admin.put(`/api/tenants/${created.tenant.id}`, { status: 'active' });
    expect(back.json<{ tenant: Tenant }>().tenant.status).toBe('active');
    expect((await signIn(created.invitation.email, ADMIN_PASSWORD, created.tenant.domain!)).statusCode).toBe(200);

    const audit = await auditRowsFor(lab, 'tenant', created.tenant.id);
    expect(
      audit.filter((a) => a.action === 'update').map((a) => JSON.parse(a.new_values!) as { status: string }),
    ).toEqual([{ status: 'suspended' }, { status: 'active' }]);
  });

  it('stops a live session whose lab was suspended elsewhere (another server, the database), at its next request', async () => {
    const created = await createTenant();
    const admin = await acceptedAdmin(created);
    expect((await admin.get('/api/patients')).statusCode).toBe(200);
    // Another server suspended the lab: the session row is still here, this server's lab cache is old.
    await exec(lab.database, "UPDATE organizations SET status = 'suspended' WHERE id = ?", created.tenant.id);
    invalidateOrganizationCache(lab.app);
    const res = await admin.get('/api/patients');
    expect(res.statusCode).toBe(401);
    expect(errorBody(res).message).toBe(SUSPENDED);
  });

  it('refuses to suspend the primary lab, and a pending lab becomes active only through its invitation', async () => {
    const primary = await lab.admin.put(`/api/tenants/${lab.organizationId}`, { status: 'suspended' });
    expect(primary.statusCode).toBe(403);
    expect((await lab.admin.get('/api/auth/me')).statusCode).toBe(200);

    const created = await createTenant();
    const pending = await lab.admin.put(`/api/tenants/${created.tenant.id}`, { status: 'active' });
    expect(pending.statusCode).toBe(409);
    expect(errorBody(pending).code).toBe('TENANT_PENDING');
    // Suspended while pending: its link is refused with the lab's message; reactivated, it is pending again.
    await lab.admin.put(`/api/tenants/${created.tenant.id}`, { status: 'suspended' });
    const refused = await preview(created.token);
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused).message).toBe(SUSPENDED);
    const back = await lab.admin.put(`/api/tenants/${created.tenant.id}`, { status: 'active' });
    expect(back.json<{ tenant: Tenant }>().tenant.status).toBe('pending');
    expect(badFields(await lab.admin.put(`/api/tenants/${created.tenant.id}`, { status: 'pending' }))).toEqual([
      'status',
    ]);
    expect(badFields(await lab.admin.put(`/api/tenants/${created.tenant.id}`, { domain: null }))).toEqual(['domain']);
  });

  it('updates name, domain and plan, audited with old and new values', async () => {
    const created = await createTenant();
    const domain = uniqueDomain();
    const res = await lab.admin.put(`/api/tenants/${created.tenant.id}`, {
      name: 'Renamed Lab',
      domain: domain.toUpperCase(),
      plan: 'professional',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ tenant: Tenant }>().tenant).toMatchObject({ name: 'Renamed Lab', domain, plan: 'professional' });
    const [audit] = (await auditRowsFor(lab, 'tenant', created.tenant.id)).filter((a) => a.action === 'update');
    expect(JSON.parse(audit!.new_values!)).toEqual({ name: 'Renamed Lab', domain, plan: 'professional' });
    expect(JSON.parse(audit!.old_values!)).toMatchObject({ plan: 'standard', domain: created.tenant.domain });
    expect((await lab.admin.get('/api/tenants/999999')).statusCode).toBe(404);
  });
});

describe('figures per tenant', () => {
  it("count the lab's users, patients, tests and storage from its rows; last activity is its latest audit entry", async () => {
    const created = await createTenant();
    const admin = await acceptedAdmin(created);
    const other = await createTenant();
    const otherAdmin = await acceptedAdmin(other);
    await createPatient(otherAdmin);
    const figures = async (id: number) => (await lab.admin.get(`/api/tenants/${id}`)).json<{ tenant: Tenant }>().tenant;
    const otherBefore = await figures(other.tenant.id);
    const start = await figures(created.tenant.id);
    expect(start).toMatchObject({ users: 1, patients: 0, tests: 0 });

    const address = 'Flat 12, Lakeview Residency, Old Airport Road, '.repeat(6);
    const patients = [await createPatient(admin, { address }), await createPatient(admin), await createPatient(admin)];
    for (const role of ['receptionist', 'lab_technician'] as const) {
      const res = await admin.post('/api/users', {
        first_name: 'Staff',
        last_name: role,
        email: uniqueEmail(role),
        role,
        password: 'staff-password-1',
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const test = (await admin.post('/api/tests', { name: 'Glucose Fasting', code: 'FBS', price: 120 })).json<{
      test: { id: number };
    }>().test;
    for (const [i, value] of ['92', '95'].entries()) {
      const patientId = patients[i]!.id;
      const sample = await seedSample(lab.database.db, created.tenant.id, { patientId, testIds: [test.id] });
      await seedResult(lab.database.db, created.tenant.id, {
        sampleId: sample.id,
        patientId,
        testId: test.id,
        value,
        flag: 'normal',
        status: 'completed',
      });
    }

    const now = await figures(created.tenant.id);
    expect(now).toMatchObject({ users: 3, patients: 3, tests: 2 });
    const latest = await row<{ created_at: string }>(
      lab.database,
      'SELECT created_at FROM audit_log WHERE organization_id = ? ORDER BY id DESC LIMIT 1',
      created.tenant.id,
    );
    expect(now.last_activity).toBe(latest!.created_at);
    // Storage grew by at least the bytes typed (the long address alone is 288), and not absurdly more.
    expect(now.storage_bytes - start.storage_bytes).toBeGreaterThan(Buffer.byteLength(address));
    expect(now.storage_bytes - start.storage_bytes).toBeLessThan(200_000);
    // The other lab's figures did not move.
    expect(await figures(other.tenant.id)).toMatchObject({
      users: otherBefore.users,
      patients: 1,
      tests: 0,
      storage_bytes: otherBefore.storage_bytes,
    });

    const summary = (await lab.admin.get('/api/tenants/summary')).json<{ summary: TenantSummary }>().summary;
    const all = (await lab.admin.get('/api/tenants?limit=200')).json<TenantPage>().tenants;
    expect(summary.total).toBe(all.length);
    expect(summary.users).toBe(all.reduce((n, t) => n + t.users, 0));
    expect(summary.patients).toBe(all.reduce((n, t) => n + t.patients, 0));
    expect(summary.storage_bytes).toBe(all.reduce((n, t) => n + t.storage_bytes, 0));
    expect(summary.active + summary.pending + summary.suspended + summary.inactive).toBe(summary.total);
  });

  it("measures storage again after a change, but reuses a large database's measurement for a while and says when it was taken", async () => {
    const db = lab.database.db;
    const first = await storageByOrganization(db);
    await createPatient(lab.admin, { address: 'x'.repeat(290) });
    const fresh = await storageByOrganization(db);
    expect(fresh.bytes.get(lab.organizationId)! - first.bytes.get(lab.organizationId)!).toBeGreaterThan(290);
    // Taken as large (any size counts here): reused after a change, with its time.
    const slow = await storageByOrganization(db, { largeBytes: 0 });
    await createPatient(lab.admin, { address: 'y'.repeat(290) });
    const reused = await storageByOrganization(db, { largeBytes: 0 });
    expect(reused).toBe(slow);
    const expired = await storageByOrganization(db, { largeBytes: 0, reuseLargeForMs: 0 });
    expect(expired.bytes.get(lab.organizationId)! - slow.bytes.get(lab.organizationId)!).toBeGreaterThan(290);
    expect(Date.parse(expired.measuredAt)).toBeGreaterThanOrEqual(Date.parse(slow.measuredAt));
  });

  it('filters the list by search, status and plan, and pages it', async () => {
    const word = uniqueWord('Zq');
    const a = await createTenant({ name: `${word} North`, plan: 'basic' });
    const b = await createTenant({ name: `${word} South`, plan: 'enterprise' });
    await acceptedAdmin(b);
    const names = async (q: string) =>
      (await lab.admin.get(`/api/tenants?search=${word}&${q}`)).json<TenantPage>().tenants.map((t) => t.id);
    expect(await names('')).toEqual([a.tenant.id, b.tenant.id]);
    expect(await names('plan=enterprise')).toEqual([b.tenant.id]);
    expect(await names('status=pending')).toEqual([a.tenant.id]);
    expect(await names('status=active&plan=basic')).toEqual([]);
    const byDomain = await lab.admin.get(`/api/tenants?search=${encodeURIComponent(a.tenant.domain!)}`);
    expect(byDomain.json<TenantPage>().tenants.map((t) => t.id)).toEqual([a.tenant.id]);
    const paged = (await lab.admin.get(`/api/tenants?search=${word}&limit=1&page=2`)).json<TenantPage>();
    expect(paged).toMatchObject({ total: 2, totalPages: 2, currentPage: 2, hasPrevPage: true, hasNextPage: false });
    expect(badFields(await lab.admin.get('/api/tenants?status=closed&plan=gold'))).toEqual(['status', 'plan']);
  });
});

describe('one email in two labs', () => {
  it('signs in to the lab the host name or the lab field names; naming none, to the first lab only', async () => {
    const email = uniqueEmail('shared');
    const a = await createTenant({ admin_email: email });
    const b = await createTenant({ admin_email: email });
    await acceptedAdmin(a, 'password-for-a-1');
    await acceptedAdmin(b, 'password-for-b-2');
    const orgOf = (res: LightMyRequestResponse) => res.json<{ user: User }>().user.organization_id;

    const atA = await signIn(email, 'password-for-a-1', a.tenant.domain!);
    expect(atA.statusCode, atA.body).toBe(200);
    expect(orgOf(atA)).toBe(a.tenant.id);
    const atB = await signIn(email.toUpperCase(), 'password-for-b-2', `${b.tenant.domain!.toUpperCase()}:3103`);
    expect(atB.statusCode, atB.body).toBe(200);
    expect(orgOf(atB)).toBe(b.tenant.id);
    // B's password at A's address is a wrong password.
    expect((await signIn(email, 'password-for-b-2', a.tenant.domain!)).statusCode).toBe(401);

    for (const host of [undefined, '127.0.0.1', 'lims.clinic.lan']) {
      // Naming no lab: the first lab, where this email has no account; a right password of another lab is wrong there.
      const res = await signIn(email, 'password-for-a-1', host);
      expect(res.statusCode).toBe(401);
      expect(errorBody(res).message).toBe('Invalid email or password');
      const named = await signIn(email, 'password-for-b-2', host, b.tenant.domain!);
      expect(named.statusCode, named.body).toBe(200);
      expect(orgOf(named)).toBe(b.tenant.id);
    }
  });

  it("a host of one lab does not sign in another lab's account; where no host matches, the first lab's", async () => {
    const only = await createTenant();
    await acceptedAdmin(only);
    const elsewhere = await createTenant();
    expect((await signIn(only.invitation.email, ADMIN_PASSWORD, elsewhere.tenant.domain!)).statusCode).toBe(401);
    expect((await signIn(only.invitation.email, ADMIN_PASSWORD, '127.0.0.1')).statusCode).toBe(401);
    expect((await signIn(only.invitation.email, ADMIN_PASSWORD, '127.0.0.1', only.tenant.domain!)).statusCode).toBe(
      200,
    );

    // The primary lab's superadmin's email also has an account in a tenant.
    const twin = await createTenant({ admin_email: 'admin@lab.test' });
    await acceptedAdmin(twin, 'twin-password-33');
    const res = await signIn('admin@lab.test', PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ user: User }>().user.organization_id).toBe(lab.organizationId);
    const atTwin = await signIn('admin@lab.test', 'twin-password-33', twin.tenant.domain!);
    expect(atTwin.json<{ user: User }>().user.organization_id).toBe(twin.tenant.id);
  });
});

describe('the host allowlist (--allowed-hosts)', () => {
  it("answers every lab's domain, including one created while the server runs; other names get 421", async () => {
    const guarded = await makeLab({ allowedHosts: ['lims.clinic.lan'] });
    try {
      const health = (host: string) => guarded.app.inject({ url: '/api/health', headers: { host } });
      const domain = uniqueDomain();
      expect((await health(domain)).statusCode).toBe(421);
      const res = await guarded.admin.post('/api/tenants', {
        name: 'Guarded Lab',
        domain,
        plan: 'basic',
        admin_email: uniqueEmail('guarded'),
      });
      expect(res.statusCode, res.body).toBe(201);
      expect((await health(domain)).statusCode).toBe(200);
      expect((await health(`${domain}:3103`)).statusCode).toBe(200);
      expect((await health('lims.clinic.lan')).statusCode).toBe(200);
      expect((await health('elsewhere.example.com')).statusCode).toBe(421);
    } finally {
      await guarded.close();
    }
  });
});
