import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exec } from '../db.js';
import { client, login, PASSWORD, makeLab, type Client, type TestLab } from '../helpers.js';
import type { User } from '../../src/shared/schemas/users.js';
import type {
  ActiveSession,
  BulkResult,
  PermissionMatrix,
  RolePermissions,
  SignInPage,
} from '../../src/shared/schemas/user-admin.js';
import { PERMISSIONS, ROLE_PERMISSIONS, type Permission, type Role } from '../../src/shared/roles.js';
import {
  auditRowsFor,
  badFields,
  createUserVia,
  errorBody,
  lastAuditId,
  auditRowsAfter,
  otherLabAdmin,
} from './support.js';

/**
 * The Users screen's tools: the Permission Manager (and its refusals), account
 * statuses and suspension, Bulk Operations, the Activity Monitor, and the lab's login attempts.
 */
let lab: TestLab;
let admin: Client;
beforeAll(async () => {
  lab = await makeLab();
  admin = await lab.as('admin');
});
afterAll(() => lab.close());

const matrixOf = (body: string) => (JSON.parse(body) as { matrix: PermissionMatrix }).matrix;
const roleIn = (m: PermissionMatrix, role: Role): RolePermissions => m.roles.find((r) => r.role === role)!;
const userOf = (body: string) => (JSON.parse(body) as { user: User }).user;
const without = (role: Role, ...drop: Permission[]) => ROLE_PERMISSIONS[role].filter((p) => !drop.includes(p));
/** A role's default permissions in lims's order (how the API lists them). */
const defaults = (role: Role) => PERMISSIONS.filter((p) => ROLE_PERMISSIONS[role].includes(p));

async function matrix(as: Client = admin): Promise<PermissionMatrix> {
  const res = await as.get('/api/permissions');
  expect(res.statusCode, res.body).toBe(200);
  return matrixOf(res.body);
}

async function setRole(role: Role, permissions: readonly Permission[], as: Client = admin) {
  return as.put('/api/permissions', { roles: [{ role, permissions }] });
}

function signIn(email: string, password: string, userAgent = 'vitest') {
  return lab.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    headers: { 'user-agent': userAgent },
  });
}

/** A second signed-in session of the same user (another PC). */
async function anotherSession(who: Client): Promise<Client> {
  return client(lab.app, await login(lab.app, who.email, PASSWORD), who.userId, who.email);
}

describe('Permission Manager: reading', () => {
  it('answers every role with its permissions, the defaults and what it cannot lose', async () => {
    const m = await matrix();
    expect(m.customized).toBe(false);
    expect(m.roles.map((r) => r.role)).toContain('receptionist');
    expect(roleIn(m, 'receptionist').permissions).toEqual(defaults('receptionist'));
    expect(roleIn(m, 'admin').locked).toEqual(
      PERMISSIONS.filter((p) => ['full_access', 'manage_users', 'view_users'].includes(p)),
    );
    expect(roleIn(m, 'superadmin').locked).toEqual(PERMISSIONS.filter((p) => p !== 'centre_portal'));
    expect(roleIn(m, 'centre').locked).toEqual(['centre_portal']);
  });

  it('tells an admin which roles they may change: theirs and below, never the superadmin', async () => {
    const m = await matrix();
    expect(roleIn(m, 'superadmin').editable).toBe(false);
    expect(roleIn(m, 'admin').editable).toBe(true);
    expect(roleIn(m, 'collector').editable).toBe(true);
  });

  it('a receptionist (view_users) may read the table but change nothing', async () => {
    const rec = await lab.as('receptionist');
    const m = await matrix(rec);
    expect(m.roles.every((r) => !r.editable)).toBe(true);
    expect((await setRole('collector', ROLE_PERMISSIONS.collector, rec)).statusCode).toBe(403);
    expect((await rec.post('/api/permissions/reset')).statusCode).toBe(403);
  });
});

describe('Permission Manager: refusals (nothing saved)', () => {
  it('refuses to take full_access from the admin role (400 naming the field)', async () => {
    const res = await setRole('admin', without('admin', 'full_access'));
    expect(badFields(res)).toEqual(['roles.0.permissions']);
    expect(errorBody(res).message).toMatch(/admin role must keep full_access/);
    expect(roleIn(await matrix(), 'admin').permissions).toContain('full_access');
  });

  it('refuses to give manage_tenants to any role: managing the labs on the server is the superadmin’s alone', async () => {
    for (const role of ['admin', 'lab_manager'] as const) {
      const res = await setRole(role, [...ROLE_PERMISSIONS[role], 'manage_tenants']);
      expect(badFields(res)).toEqual(['roles.0.permissions']);
      expect(errorBody(res).message).toContain('manage_tenants');
      expect(roleIn(await matrix(), role).permissions).not.toContain('manage_tenants');
    }
  });

  it('refuses to take the admin’s own user management away: manage_users, view_users', async () => {
    for (const p of ['manage_users', 'view_users'] as const) {
      const res = await setRole('admin', without('admin', p));
      expect(badFields(res)).toEqual(['roles.0.permissions']);
      expect(errorBody(res).message).toContain(p);
    }
    expect(roleIn(await matrix(), 'admin').permissions).toEqual([...ROLE_PERMISSIONS.admin]);
  });

  it('refuses any change to the superadmin, but accepts it exactly as GET answered', async () => {
    const res = await setRole('superadmin', without('superadmin', 'export_data'));
    expect(badFields(res)).toEqual(['roles.0.permissions']);
    expect(errorBody(res).message).toMatch(/superadmin/);
    const m = await matrix();
    expect((await admin.put('/api/permissions', m)).statusCode).toBe(200);
    expect((await matrix()).customized).toBe(false);
  });

  it('refuses an unknown role, an unknown permission and a role given twice, naming each', async () => {
    expect(badFields(await admin.put('/api/permissions', { roles: [{ role: 'janitor', permissions: [] }] }))).toEqual([
      'roles.0.role',
    ]);
    expect(badFields(await setRole('collector', ['view_patients', 'fly_drones' as Permission]))).toEqual([
      'roles.0.permissions.1',
    ]);
    expect(
      badFields(
        await admin.put('/api/permissions', {
          roles: [
            { role: 'collector', permissions: [] },
            { role: 'collector', permissions: ['view_tests'] },
          ],
        }),
      ),
    ).toEqual(['roles.1.role']);
    expect(badFields(await admin.put('/api/permissions', { roles: [] }))).toEqual(['roles']);
    expect(badFields(await admin.put('/api/permissions', {}))).toEqual(['roles']);
    expect((await matrix()).customized).toBe(false);
  });

  it('is all-or-nothing: one refused role leaves the other roles of the request unchanged', async () => {
    const res = await admin.put('/api/permissions', {
      roles: [
        { role: 'collector', permissions: without('collector', 'manage_samples') },
        { role: 'admin', permissions: without('admin', 'full_access') },
      ],
    });
    expect(badFields(res)).toEqual(['roles.1.permissions']);
    expect(roleIn(await matrix(), 'collector').permissions).toContain('manage_samples');
  });

  it('a role ranked above the editor’s own is refused (403), even with full_access and manage_users', async () => {
    // A lab manager the admin trusted with the Permission Manager still cannot touch the admin role.
    expect(
      (await setRole('lab_manager', [...ROLE_PERMISSIONS.lab_manager, 'manage_users', 'full_access'])).statusCode,
    ).toBe(200);
    const manager = await lab.as('lab_manager');
    const res = await setRole('admin', without('admin', 'export_data'), manager);
    expect(res.statusCode).toBe(403);
    expect(errorBody(res).message).toMatch(/lab_manager cannot change what the admin role may do/);
    // Their own rank and below is theirs to change.
    expect((await setRole('collector', ROLE_PERMISSIONS.collector, manager)).statusCode).toBe(200);
    expect((await admin.post('/api/permissions/reset')).statusCode).toBe(200);
  });

  it('without full_access the editor is refused by the server, even with manage_users', async () => {
    expect((await setRole('lab_manager', [...ROLE_PERMISSIONS.lab_manager, 'manage_users'])).statusCode).toBe(200);
    const manager = await lab.as('lab_manager');
    const res = await setRole('collector', without('collector', 'view_users'), manager);
    expect(res.statusCode).toBe(403);
    expect(errorBody(res).message).toMatch(/full_access/);
    expect((await admin.post('/api/permissions/reset')).statusCode).toBe(200);
  });
});

describe('Permission Manager: the server enforces the lab’s table', () => {
  it('a permission removed from a role is refused (403) on a real route, and given back it is allowed', async () => {
    const rec = await lab.as('receptionist');
    expect((await rec.get('/api/bills')).statusCode).toBe(200);
    expect((await setRole('receptionist', without('receptionist', 'view_bills'))).statusCode).toBe(200);
    const refused = await rec.get('/api/bills');
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused).message).toMatch(/view_bills/);
    // What the UI uses to show or hide screens says the same.
    expect(userOf((await rec.get('/api/auth/me')).body).permissions).not.toContain('view_bills');
    expect((await setRole('receptionist', ROLE_PERMISSIONS.receptionist)).statusCode).toBe(200);
    expect((await rec.get('/api/bills')).statusCode).toBe(200);
  });

  it('a permission granted beyond the defaults is allowed at once, and shows in the users list', async () => {
    const rec = await lab.as('receptionist');
    expect((await rec.get('/api/audit')).statusCode).toBe(403);
    const res = await setRole('receptionist', [...ROLE_PERMISSIONS.receptionist, 'view_audit']);
    expect(res.statusCode).toBe(200);
    expect(roleIn(matrixOf(res.body), 'receptionist').permissions).toContain('view_audit');
    expect(matrixOf(res.body).customized).toBe(true);
    expect((await rec.get('/api/audit')).statusCode).toBe(200);
    expect(userOf((await rec.get('/api/auth/me')).body).permissions).toContain('view_audit');
    const listed = (await admin.get('/api/users?role=receptionist')).json<{ users: User[] }>().users;
    expect(listed.every((u) => u.permissions.includes('view_audit'))).toBe(true);
    expect((await admin.post('/api/permissions/reset')).statusCode).toBe(200);
    expect((await rec.get('/api/audit')).statusCode).toBe(403);
  });

  it('another lab keeps the defaults', async () => {
    const other = await otherLabAdmin(lab);
    expect((await setRole('receptionist', without('receptionist', 'view_patients'))).statusCode).toBe(200);
    expect(roleIn(await matrix(other.admin), 'receptionist').permissions).toContain('view_patients');
    expect((await matrix(other.admin)).customized).toBe(false);
    expect((await admin.post('/api/permissions/reset')).statusCode).toBe(200);
  });
});

describe('Permission Manager: reset and audit', () => {
  it('audits each changed role with its old and new permissions', async () => {
    const before = await lastAuditId(lab);
    const next = [...without('collector', 'manage_samples'), 'view_results'] as Permission[];
    expect((await setRole('collector', next)).statusCode).toBe(200);
    const rows = (await auditRowsAfter(lab, before)).filter((r) => r.entity === 'role_permissions');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.entity_id).toBe('collector');
    expect(rows[0]!.user_id).toBe(admin.userId);
    expect(JSON.parse(rows[0]!.old_values!)).toEqual({ permissions: defaults('collector') });
    const newValues = JSON.parse(rows[0]!.new_values!) as Record<string, unknown>;
    expect(newValues.granted).toEqual(['view_results']);
    expect(newValues.removed).toEqual(['manage_samples']);
  });

  it('Reset puts every role back to the defaults, audited per role', async () => {
    expect((await setRole('validator', without('validator', 'view_users'))).statusCode).toBe(200);
    const before = await lastAuditId(lab);
    const res = await admin.post('/api/permissions/reset');
    expect(res.statusCode).toBe(200);
    const m = matrixOf(res.body);
    expect(m.customized).toBe(false);
    expect(roleIn(m, 'validator').permissions).toEqual(defaults('validator'));
    const rows = (await auditRowsAfter(lab, before)).filter((r) => r.entity === 'role_permissions');
    expect(rows.map((r) => r.entity_id).sort()).toEqual(['collector', 'validator']);
    expect(rows.every((r) => (JSON.parse(r.new_values!) as { reset?: boolean }).reset === true)).toBe(true);
  });
});

describe('statuses', () => {
  it('answers active, inactive, suspended and pending from one rule', async () => {
    const active = await createUserVia(admin, { role: 'technician' });
    expect(active.status).toBe('active');
    const inactive = await createUserVia(admin, { role: 'technician' });
    expect(userOf((await admin.delete(`/api/users/${inactive.id}`)).body).status).toBe('inactive');
    const suspended = await createUserVia(admin, { role: 'technician' });
    const s = userOf((await admin.post(`/api/users/${suspended.id}/suspend`, { reason: 'Left without notice' })).body);
    expect(s).toMatchObject({ status: 'suspended', is_active: false, suspended_reason: 'Left without notice' });
    expect(s.suspended_at).not.toBeNull();

    // An invited user (set up by invitations): no password yet, never signed in.
    const invited = await createUserVia(admin, { role: 'technician' });
    await exec(lab.database, "UPDATE users SET password_hash = '' WHERE id = ?", invited.id);
    expect(userOf((await admin.get(`/api/users/${invited.id}`)).body).status).toBe('pending');

    // A referring doctor has no password because they never sign in: not pending.
    const doctor = await admin.post('/api/doctors', { first_name: 'Ravi', last_name: 'Menon', can_sign_in: false });
    expect(doctor.statusCode, doctor.body).toBe(201);
    const doctorId = doctor.json<{ doctor: { id: number } }>().doctor.id;
    expect(userOf((await admin.get(`/api/users/${doctorId}`)).body).status).toBe('active');

    const listed = async (status: string) =>
      (await admin.get(`/api/users?status=${status}`)).json<{ users: User[] }>().users.map((u) => u.id);
    expect(await listed('suspended')).toEqual(expect.arrayContaining([suspended.id]));
    expect(await listed('suspended')).not.toContain(inactive.id);
    expect(await listed('inactive')).toEqual(expect.arrayContaining([inactive.id]));
    expect(await listed('inactive')).not.toContain(suspended.id);
    expect(await listed('pending')).toEqual([invited.id]);
    expect(await listed('active')).toEqual(expect.arrayContaining([active.id, doctorId]));
    expect(await listed('active')).not.toContain(invited.id);
    // Without a status filter suspended accounts are left out like inactive ones.
    expect(await listed('')).not.toContain(suspended.id);
    expect(badFields(await admin.get('/api/users?status=asleep'))).toEqual(['status']);
  });
});

describe('statuses: Doctor Management and the Users screen agree', () => {
  it('a doctor suspended on either screen reads suspended on both; activated on either, active on both', async () => {
    const created = await admin.post('/api/doctors', { first_name: 'Sita', last_name: 'Pillai', can_sign_in: false });
    const id = created.json<{ doctor: { id: number } }>().doctor.id;
    const doctorStatus = async () =>
      (await admin.get(`/api/doctors/${id}`)).json<{ doctor: { status: string } }>().doctor.status;
    const userStatus = async () => userOf((await admin.get(`/api/users/${id}`)).body).status;

    expect((await admin.post(`/api/users/${id}/suspend`, { reason: 'Registration lapsed' })).statusCode).toBe(200);
    expect([await doctorStatus(), await userStatus()]).toEqual(['suspended', 'suspended']);
    expect((await admin.put(`/api/doctors/${id}`, { status: 'active' })).statusCode).toBe(200);
    expect([await doctorStatus(), await userStatus()]).toEqual(['active', 'active']);

    expect((await admin.put(`/api/doctors/${id}`, { status: 'suspended' })).statusCode).toBe(200);
    expect([await doctorStatus(), await userStatus()]).toEqual(['suspended', 'suspended']);
    expect((await admin.post(`/api/users/${id}/unsuspend`)).statusCode).toBe(200);
    expect([await doctorStatus(), await userStatus()]).toEqual(['active', 'active']);

    // Deactivated in Doctor Management after a suspension: inactive on both.
    expect((await admin.post(`/api/users/${id}/suspend`, {})).statusCode).toBe(200);
    expect((await admin.put(`/api/doctors/${id}`, { status: 'inactive' })).statusCode).toBe(200);
    expect([await doctorStatus(), await userStatus()]).toEqual(['inactive', 'inactive']);
  });
});

describe('suspending a user', () => {
  it('ends their sessions at once and refuses their sign-in like a wrong password; audited', async () => {
    const tech = await lab.as('lab_technician');
    expect((await tech.get('/api/auth/me')).statusCode).toBe(200);
    const res = await admin.post(`/api/users/${tech.userId}/suspend`, { reason: 'Under review' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await tech.get('/api/auth/me')).statusCode).toBe(401);
    const attempt = await signIn(tech.email, PASSWORD);
    expect(attempt.statusCode).toBe(401);
    expect(errorBody(attempt).message).toBe('Invalid email or password');

    const rows = await auditRowsFor(lab, 'user', tech.userId);
    const change = rows.at(-1)!;
    expect(JSON.parse(change.old_values!)).toMatchObject({ is_active: 1, suspended_at: null });
    expect(JSON.parse(change.new_values!)).toMatchObject({ is_active: 0, suspended_reason: 'Under review' });
    const failed = (await auditRowsFor(lab, 'session', tech.userId)).filter((r) => r.status === 'failed');
    expect(JSON.parse(failed.at(-1)!.new_values!)).toEqual({ reason: 'suspended' });
  });

  it('lifting the suspension lets them sign in again; a second suspend or lift is a 409', async () => {
    const u = await createUserVia(admin, { role: 'billing_staff', password: 'billing-pass-12' });
    expect((await admin.post(`/api/users/${u.id}/suspend`, {})).statusCode).toBe(200);
    const again = await admin.post(`/api/users/${u.id}/suspend`, {});
    expect(again.statusCode).toBe(409);
    expect(errorBody(again).message).toMatch(/already suspended/);
    const lifted = await admin.post(`/api/users/${u.id}/unsuspend`);
    expect(userOf(lifted.body)).toMatchObject({ status: 'active', is_active: true, suspended_at: null });
    expect((await signIn(u.email, 'billing-pass-12')).statusCode).toBe(200);
    expect((await admin.post(`/api/users/${u.id}/unsuspend`)).statusCode).toBe(409);
  });

  it('reactivating a suspended user lifts the suspension; saving them as GET answered keeps it', async () => {
    const u = await createUserVia(admin, { role: 'collector' });
    const suspended = userOf((await admin.post(`/api/users/${u.id}/suspend`, { reason: 'x' })).body);
    const saved = userOf((await admin.put(`/api/users/${u.id}`, { ...suspended, department: 'Field' })).body);
    expect(saved.status).toBe('suspended');
    expect(userOf((await admin.put(`/api/users/${u.id}`, { is_active: true })).body).status).toBe('active');
  });

  it('refuses yourself, the superadmin, and anyone without manage_users; 404 for another lab’s user', async () => {
    const self = await admin.post(`/api/users/${admin.userId}/suspend`, {});
    expect(self.statusCode).toBe(403);
    expect(errorBody(self).message).toMatch(/yourself/);
    const su = await admin.post(`/api/users/${lab.admin.userId}/suspend`, {});
    expect(su.statusCode).toBe(403);
    const manager = await lab.as('lab_manager');
    const target = await createUserVia(admin, { role: 'collector' });
    expect((await manager.post(`/api/users/${target.id}/suspend`, {})).statusCode).toBe(403);
    const other = await otherLabAdmin(lab);
    expect((await other.admin.post(`/api/users/${target.id}/suspend`, {})).statusCode).toBe(404);
    expect((await admin.post('/api/users/999999/suspend', {})).statusCode).toBe(404);
    expect(badFields(await admin.post(`/api/users/${target.id}/suspend`, { reason: 'x'.repeat(201) }))).toEqual([
      'reason',
    ]);
  });

  it('an admin cannot suspend a user ranked above them', async () => {
    const manager = await lab.as('lab_manager');
    // A lab manager given manage_users still cannot suspend an admin.
    expect((await setRole('lab_manager', [...ROLE_PERMISSIONS.lab_manager, 'manage_users'])).statusCode).toBe(200);
    const res = await manager.post(`/api/users/${admin.userId}/suspend`, {});
    expect(res.statusCode).toBe(403);
    expect(errorBody(res).message).toMatch(/lab_manager cannot change a admin/);
    expect((await admin.post('/api/permissions/reset')).statusCode).toBe(200);
  });
});

describe('Bulk Operations', () => {
  const bulk = (body: unknown, as: Client = admin) => as.post('/api/users/bulk', body);
  const statusOf = async (id: number) => userOf((await admin.get(`/api/users/${id}`)).body).status;

  it('deactivates several users in one call: each audited, their sessions ended', async () => {
    const a = await lab.as('receptionist');
    const b = await lab.as('collector');
    const before = await lastAuditId(lab);
    const res = await bulk({ ids: [a.userId, b.userId], action: 'deactivate' });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json<BulkResult>();
    expect(result.changed).toBe(2);
    expect(result.users.map((u) => u.status)).toEqual(['inactive', 'inactive']);
    expect((await a.get('/api/auth/me')).statusCode).toBe(401);
    expect((await b.get('/api/auth/me')).statusCode).toBe(401);
    const rows = (await auditRowsAfter(lab, before)).filter((r) => r.entity === 'user');
    expect(rows.map((r) => Number(r.entity_id)).sort()).toEqual([a.userId, b.userId].sort());

    const again = await bulk({ ids: [a.userId, b.userId], action: 'activate' });
    expect(again.json<BulkResult>().users.map((u) => u.status)).toEqual(['active', 'active']);
  });

  it('is all-or-nothing: yourself in the list refuses the whole call (403 naming you)', async () => {
    const a = await createUserVia(admin, { role: 'collector' });
    const res = await bulk({ ids: [a.id, admin.userId], action: 'deactivate' });
    expect(res.statusCode).toBe(403);
    const body = errorBody(res);
    expect(body.message).toMatch(/cannot deactivate yourself/);
    expect(body.message).toContain(admin.email);
    expect(body.details).toEqual([{ path: 'ids.1', message: expect.stringContaining(admin.email) as string }]);
    expect(await statusOf(a.id)).toBe('active');
  });

  it('refuses a user ranked above you, naming them, and changes nobody', async () => {
    const a = await createUserVia(admin, { role: 'collector' });
    const res = await bulk({ ids: [a.id, lab.admin.userId], action: 'suspend', reason: 'Audit' });
    expect(res.statusCode).toBe(403);
    expect(errorBody(res).message).toContain('admin@lab.test');
    expect(await statusOf(a.id)).toBe('active');
  });

  it('refuses an unknown id, and another lab’s user, with 400 naming the entry', async () => {
    const a = await createUserVia(admin, { role: 'collector' });
    const other = await otherLabAdmin(lab);
    const res = await bulk({ ids: [a.id, 987654, other.admin.userId], action: 'deactivate' });
    expect(badFields(res)).toEqual(['ids.1', 'ids.2']);
    expect(await statusOf(a.id)).toBe('active');
  });

  it('changes roles, refusing a role you may not give; role-changed users sign in again', async () => {
    const a = await lab.as('collector');
    const b = await createUserVia(admin, { role: 'technician' });
    const refused = await bulk({ ids: [a.userId, b.id], action: 'change_role', role: 'superadmin' });
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused).message).toMatch(/cannot give anyone the role superadmin/);
    const res = await bulk({ ids: [a.userId, b.id], action: 'change_role', role: 'technician' });
    expect(res.statusCode).toBe(200);
    // b already was a technician: left alone.
    expect(res.json<BulkResult>().changed).toBe(1);
    expect(res.json<BulkResult>().users.map((u) => u.role)).toEqual(['technician', 'technician']);
    expect((await a.get('/api/auth/me')).statusCode).toBe(401);
    expect((await auditRowsFor(lab, 'user', b.id)).filter((r) => r.action === 'update')).toHaveLength(0);
  });

  it('suspends with a reason', async () => {
    const a = await lab.as('validator');
    const res = await bulk({ ids: [a.userId], action: 'suspend', reason: 'Licence expired' });
    expect(res.json<BulkResult>().users[0]).toMatchObject({ status: 'suspended', suspended_reason: 'Licence expired' });
    expect((await a.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('names each bad field; only managers of users may call it', async () => {
    expect(badFields(await bulk({ ids: [], action: 'activate' }))).toEqual(['ids']);
    expect(badFields(await bulk({ ids: [1, 1], action: 'activate' }))).toEqual(['ids.1']);
    expect(badFields(await bulk({ ids: [1], action: 'promote' }))).toEqual(['action']);
    expect(badFields(await bulk({ ids: [1], action: 'change_role' }))).toEqual(['role']);
    expect(badFields(await bulk({ ids: [1], action: 'activate', role: 'admin' }))).toEqual(['role']);
    const manager = await lab.as('lab_manager');
    expect((await bulk({ ids: [manager.userId], action: 'activate' }, manager)).statusCode).toBe(403);
  });
});

describe('Activity Monitor', () => {
  it('lists sign-ins and failed sign-ins with user, time, address and browser; filters and pages', async () => {
    const u = await createUserVia(admin, { role: 'receptionist', password: 'front-desk-pass-1' });
    expect((await signIn(u.email, 'wrong-password-1', 'Firefox/128')).statusCode).toBe(401);
    expect((await signIn(u.email, 'front-desk-pass-1', 'Chrome/131')).statusCode).toBe(200);
    const res = await admin.get(`/api/sign-ins?user_id=${u.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<SignInPage>();
    expect(page.events.map((e) => [e.status, e.reason, e.user_agent])).toEqual([
      ['success', null, 'Chrome/131'],
      ['failed', 'bad password', 'Firefox/128'],
    ]);
    expect(page.events[0]).toMatchObject({ user_id: u.id, user_email: u.email, ip_address: '127.0.0.1' });
    expect(page.events[0]!.user_name).toBe(`${u.first_name} ${u.last_name}`);

    const failed = (await admin.get(`/api/sign-ins?status=failed&user_id=${u.id}`)).json<SignInPage>();
    expect(failed.events.map((e) => e.status)).toEqual(['failed']);
    const paged = (await admin.get(`/api/sign-ins?limit=1&user_id=${u.id}`)).json<SignInPage>();
    expect(paged).toMatchObject({ total: 2, totalPages: 2, hasNextPage: true });
    expect(badFields(await admin.get('/api/sign-ins?status=maybe'))).toEqual(['status']);
  });

  it('the sign-in history needs view_audit (a lab manager may read it; a receptionist may not)', async () => {
    expect((await (await lab.as('lab_manager')).get('/api/sign-ins')).statusCode).toBe(200);
    expect((await (await lab.as('receptionist')).get('/api/sign-ins')).statusCode).toBe(403);
  });

  it('lists open sessions; End Session signs that session out at its next request, audited', async () => {
    const tech = await lab.as('technician');
    const second = await anotherSession(tech);
    const list = (await admin.get('/api/sessions')).json<{ sessions: ActiveSession[] }>().sessions;
    const theirs = list.filter((s) => s.user_id === tech.userId);
    expect(theirs).toHaveLength(2);
    expect(theirs[0]).toMatchObject({
      user_email: tech.email,
      role: 'technician',
      current: false,
      ip_address: '127.0.0.1',
    });
    expect(list.find((s) => s.current)?.user_id).toBe(admin.userId);
    // Neither the cookie nor the stored key leaves the server.
    expect(JSON.stringify(list)).not.toContain(tech.cookie.split('=')[1]);

    // End one of the two: the other PC stays signed in.
    const before = await lastAuditId(lab);
    const fresh = (await admin.get('/api/sessions')).json<{ sessions: ActiveSession[] }>().sessions;
    const target = fresh.find((s) => s.user_id === tech.userId)!;
    const ended = await admin.delete(`/api/sessions/${target.id}`);
    expect(ended.statusCode, ended.body).toBe(200);
    const codes = [(await tech.get('/api/auth/me')).statusCode, (await second.get('/api/auth/me')).statusCode];
    expect(codes.sort()).toEqual([200, 401]);
    const left = (await admin.get('/api/sessions')).json<{ sessions: ActiveSession[] }>().sessions;
    expect(left.filter((s) => s.user_id === tech.userId)).toHaveLength(1);

    const rows = (await auditRowsAfter(lab, before)).filter((r) => r.entity === 'session' && r.action === 'logout');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: admin.userId, entity_id: String(tech.userId) });
    expect(JSON.parse(rows[0]!.new_values!)).toMatchObject({ ended_by_administrator: true, user_email: tech.email });

    expect((await admin.delete(`/api/sessions/${target.id}`)).statusCode).toBe(404);
    expect(badFields(await admin.delete('/api/sessions/not-a-session'))).toEqual(['id']);
  });

  it('refuses ending the session of a user ranked above you, or of another lab', async () => {
    const list = (await admin.get('/api/sessions')).json<{ sessions: ActiveSession[] }>().sessions;
    const superadmin = list.find((s) => s.user_id === lab.admin.userId)!;
    expect((await admin.delete(`/api/sessions/${superadmin.id}`)).statusCode).toBe(403);
    const other = await otherLabAdmin(lab);
    const mine = list.find((s) => s.user_id === admin.userId)!;
    expect((await other.admin.delete(`/api/sessions/${mine.id}`)).statusCode).toBe(404);
    const otherList = (await other.admin.get('/api/sessions')).json<{ sessions: ActiveSession[] }>().sessions;
    expect(otherList.every((s) => s.user_id === other.admin.userId)).toBe(true);
    expect((await (await lab.as('lab_manager')).get('/api/sessions')).statusCode).toBe(403);
  });
});

describe('the lab’s login attempts setting', () => {
  it('defaults to 5, refuses values outside 3-10 (400 naming it), and is audited', async () => {
    const get = async () => (await lab.admin.get('/api/settings')).json<{ settings: { maxLoginAttempts: number } }>();
    expect((await get()).settings.maxLoginAttempts).toBe(5);
    for (const bad of [2, 11, 4.5, 'many', null, true]) {
      expect(badFields(await lab.admin.put('/api/settings', { maxLoginAttempts: bad }))).toEqual(['maxLoginAttempts']);
    }
    expect((await get()).settings.maxLoginAttempts).toBe(5);
    const before = await lastAuditId(lab);
    expect((await lab.admin.put('/api/settings', { maxLoginAttempts: 7 })).statusCode).toBe(200);
    const row = (await auditRowsAfter(lab, before)).find((r) => r.entity === 'settings')!;
    expect(JSON.parse(row.old_values!)).toEqual({ maxLoginAttempts: 5 });
    expect(JSON.parse(row.new_values!)).toEqual({ maxLoginAttempts: 7 });
    expect((await lab.admin.put('/api/settings', { maxLoginAttempts: 5 })).statusCode).toBe(200);
  });

  it('the sign-in throttle locks after the lab’s number of failures', async () => {
    expect((await lab.admin.put('/api/settings', { maxLoginAttempts: 3 })).statusCode).toBe(200);
    try {
      const u = await createUserVia(admin, { role: 'collector', password: 'field-pass-123' });
      for (let i = 0; i < 3; i++) expect((await signIn(u.email, `wrong-pass-${i}0`)).statusCode).toBe(401);
      const fourth = await signIn(u.email, 'field-pass-123');
      expect(fourth.statusCode).toBe(429);

      // At 6 the same account gets two more tries before the lock.
      expect((await lab.admin.put('/api/settings', { maxLoginAttempts: 6 })).statusCode).toBe(200);
      const v = await createUserVia(admin, { role: 'collector', password: 'field-pass-456' });
      for (let i = 0; i < 5; i++) expect((await signIn(v.email, `wrong-pass-${i}0`)).statusCode).toBe(401);
      expect((await signIn(v.email, 'field-pass-456')).statusCode).toBe(200);
    } finally {
      expect((await lab.admin.put('/api/settings', { maxLoginAttempts: 5 })).statusCode).toBe(200);
    }
  });
});
