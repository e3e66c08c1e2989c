import { rows } from '../db.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import type { User } from '../../src/shared/schemas/users.js';
import { ROLE_PERMISSIONS } from '../../src/shared/roles.js';
import { badFields, createUserVia, errorBody, uniqueEmail, uniqueWord, userBody } from './support.js';

let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

const usersOf = (body: string) => (JSON.parse(body) as { users: User[] }).users;

describe('listing users', () => {
  it('answers {users} with every active user of the lab', async () => {
    const a = await createUserVia(lab.admin, { role: 'validator' });
    const res = await lab.admin.get('/api/users');
    expect(res.statusCode).toBe(200);
    const users = usersOf(res.body);
    expect(users.map((u) => u.id)).toEqual(expect.arrayContaining([lab.admin.userId, a.id]));
  });

  it('filters by role', async () => {
    const collector = await createUserVia(lab.admin, { role: 'collector' });
    await createUserVia(lab.admin, { role: 'billing_staff' });
    const users = usersOf((await lab.admin.get('/api/users?role=collector')).body);
    expect(users.map((u) => u.id)).toContain(collector.id);
    expect(new Set(users.map((u) => u.role))).toEqual(new Set(['collector']));
    expect(usersOf((await lab.admin.get('/api/users?role=all')).body).length).toBeGreaterThan(users.length);
  });

  it('refuses an unknown role filter, naming the parameter', async () => {
    expect(badFields(await lab.admin.get('/api/users?role=wizard'))).toEqual(['role']);
  });

  it('searches by name and email, case-insensitively', async () => {
    const surname = uniqueWord('Sr');
    const u = await createUserVia(lab.admin, { last_name: surname });
    const byName = usersOf((await lab.admin.get(`/api/users?search=${surname.toUpperCase()}`)).body);
    expect(byName.map((x) => x.id)).toEqual([u.id]);
    const byEmail = usersOf((await lab.admin.get(`/api/users?search=${encodeURIComponent(u.email)}`)).body);
    expect(byEmail.map((x) => x.id)).toEqual([u.id]);
    expect(usersOf((await lab.admin.get(`/api/users?search=${uniqueWord('Nobody')}`)).body)).toEqual([]);
  });

  it('the OP Bill doctor options list only doctors and lab technicians', async () => {
    const doc = await createUserVia(lab.admin, { role: 'doctor', specialization: 'Cardiology', consultation_fee: 500 });
    const labTech = await createUserVia(lab.admin, { role: 'lab_technician' });
    const tech = await createUserVia(lab.admin, { role: 'technician' });
    const res = await lab.admin.get('/api/doctors/options');
    expect(res.statusCode).toBe(200);
    const doctors = res.json<{ doctors: User[] }>().doctors;
    const found = doctors.map((d) => d.id);
    expect(found).toEqual(expect.arrayContaining([doc.id, labTech.id]));
    expect(found).not.toContain(tech.id);
    expect(found).not.toContain(lab.admin.userId);
    expect(new Set(doctors.map((d) => d.role))).toEqual(new Set(['doctor', 'lab_technician']));
    expect(doctors.find((d) => d.id === doc.id)).toMatchObject({ specialization: 'Cardiology', consultation_fee: 500 });
  });
});

describe('one user', () => {
  it('GET answers {user}, 404 for an unknown id', async () => {
    const u = await createUserVia(lab.admin);
    const res = await lab.admin.get(`/api/users/${u.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ user: User }>().user).toEqual(u);
    expect((await lab.admin.get('/api/users/987654')).statusCode).toBe(404);
    expect(badFields(await lab.admin.get('/api/users/abc'))).toEqual(['id']);
  });
});

describe('creating a user', () => {
  it('answers 201 with the user, its role permissions, and the fee in rupees', async () => {
    const body = userBody({
      role: 'doctor',
      department: 'Pathology',
      phone: '+91 98450 12345',
      specialization: 'Neurology',
      consultation_fee: 450.5,
    });
    const res = await lab.admin.post('/api/users', body);
    expect(res.statusCode).toBe(201);
    const user = res.json<{ user: User }>().user;
    expect(user).toMatchObject({
      first_name: body.first_name,
      email: body.email,
      role: 'doctor',
      department: 'Pathology',
      consultation_fee: 450.5,
      is_active: true,
      permissions: [...ROLE_PERMISSIONS.doctor],
    });
  });

  it('requires a password of at least 8 characters', async () => {
    const { password: _omit, ...noPassword } = userBody();
    expect(badFields(await lab.admin.post('/api/users', noPassword))).toEqual(['password']);
    const short = await lab.admin.post('/api/users', userBody({ password: 'short7!' }));
    expect(badFields(short)).toEqual(['password']);
    expect(errorBody(short).details?.[0]?.message).toMatch(/at least 8/);
  });

  it('refuses an email that is already taken (409), in any letter case', async () => {
    const u = await createUserVia(lab.admin);
    const res = await lab.admin.post('/api/users', userBody({ email: u.email.toUpperCase() }));
    expect(res.statusCode).toBe(409);
    expect(errorBody(res).message).toContain(u.email);
  });

  it('names each bad field', async () => {
    const res = await lab.admin.post('/api/users', {
      first_name: '  ',
      last_name: 'Ok',
      email: 'not-an-email',
      role: 'overlord',
      password: 'long-enough-1',
      phone: 'call me',
      consultation_fee: -5,
    });
    expect(badFields(res).sort()).toEqual(['consultation_fee', 'email', 'first_name', 'phone', 'role']);
  });

  it('an admin cannot create a superadmin (403)', async () => {
    const admin = await lab.as('admin');
    const body = userBody({ role: 'superadmin' });
    const res = await admin.post('/api/users', body);
    expect(res.statusCode).toBe(403);
    expect(usersOf((await lab.admin.get(`/api/users?search=${encodeURIComponent(body.email)}`)).body)).toEqual([]);
    // The superadmin may create another superadmin: nobody creates a role above their own, equal is fine.
    expect((await lab.admin.post('/api/users', userBody({ role: 'superadmin' }))).statusCode).toBe(201);
  });

  it('a lab manager cannot create users at all, and a receptionist neither (403)', async () => {
    for (const role of ['lab_manager', 'receptionist'] as const) {
      const who = await lab.as(role);
      const body = userBody({ role: 'user' });
      expect((await who.post('/api/users', body)).statusCode).toBe(403);
      expect(usersOf((await lab.admin.get(`/api/users?search=${encodeURIComponent(body.email)}`)).body)).toEqual([]);
    }
  });
});

describe('updating a user', () => {
  it('PUT changes the given fields and keeps the rest', async () => {
    const u = await createUserVia(lab.admin, { role: 'technician', department: 'Haematology' });
    const res = await lab.admin.put(`/api/users/${u.id}`, { first_name: 'Renamed', phone: '080 4000 1234' });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ user: User }>().user).toMatchObject({
      first_name: 'Renamed',
      phone: '080 4000 1234',
      department: 'Haematology',
      role: 'technician',
    });
  });

  it('PUT accepts the user exactly as GET returned it', async () => {
    const u = await createUserVia(lab.admin);
    const got = (await lab.admin.get(`/api/users/${u.id}`)).json<{ user: User }>().user;
    const res = await lab.admin.put(`/api/users/${u.id}`, { ...got, last_name: 'Edited' });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ user: User }>().user).toMatchObject({
      id: u.id,
      last_name: 'Edited',
      email: u.email,
      role: u.role,
    });
  });

  it('refuses to move a user onto an email another user has (409)', async () => {
    const a = await createUserVia(lab.admin);
    const b = await createUserVia(lab.admin);
    expect((await lab.admin.put(`/api/users/${b.id}`, { email: a.email })).statusCode).toBe(409);
  });

  it('answers 404 for an unknown user', async () => {
    expect((await lab.admin.put('/api/users/987654', { first_name: 'X' })).statusCode).toBe(404);
  });

  it('a user cannot change their own role', async () => {
    const admin = await lab.as('admin');
    const res = await admin.put(`/api/users/${admin.userId}`, { role: 'lab_manager' });
    expect(res.statusCode).toBe(403);
    expect(errorBody(res).message).toMatch(/own role/);
    const superadmin = await lab.admin.put(`/api/users/${lab.admin.userId}`, { role: 'admin' });
    expect(superadmin.statusCode).toBe(403);
  });

  it('an admin cannot promote anyone to superadmin (403)', async () => {
    const admin = await lab.as('admin');
    const u = await createUserVia(lab.admin, { role: 'lab_manager' });
    expect((await admin.put(`/api/users/${u.id}`, { role: 'superadmin' })).statusCode).toBe(403);
    expect((await lab.admin.get(`/api/users/${u.id}`)).json<{ user: User }>().user.role).toBe('lab_manager');
  });

  it('an admin can promote a lab manager to admin', async () => {
    const admin = await lab.as('admin');
    const u = await createUserVia(lab.admin, { role: 'lab_manager' });
    const res = await admin.put(`/api/users/${u.id}`, { role: 'admin' });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ user: User }>().user.permissions).toEqual([...ROLE_PERMISSIONS.admin]);
  });
});

describe('deleting a user', () => {
  it('deactivates instead of removing: the user drops out of the list but can still be read', async () => {
    const u = await createUserVia(lab.admin);
    const res = await lab.admin.delete(`/api/users/${u.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ user: User }>().user.is_active).toBe(false);
    expect(usersOf((await lab.admin.get('/api/users')).body).map((x) => x.id)).not.toContain(u.id);
    expect(usersOf((await lab.admin.get('/api/users?include_inactive=true')).body).map((x) => x.id)).toContain(u.id);
    expect((await lab.admin.get(`/api/users/${u.id}`)).json<{ user: User }>().user.is_active).toBe(false);
  });

  it('the superadmin cannot be deleted or deactivated, by an admin or by themselves', async () => {
    const admin = await lab.as('admin');
    const id = lab.admin.userId;
    expect((await admin.delete(`/api/users/${id}`)).statusCode).toBe(403);
    expect((await lab.admin.delete(`/api/users/${id}`)).statusCode).toBe(403);
    expect((await lab.admin.put(`/api/users/${id}`, { is_active: false })).statusCode).toBe(403);
    expect((await admin.put(`/api/users/${id}`, { is_active: false })).statusCode).toBe(403);
    expect((await lab.admin.get('/api/auth/me')).statusCode).toBe(200);
  });

  it('nobody can deactivate themselves', async () => {
    const admin = await lab.as('admin');
    expect((await admin.delete(`/api/users/${admin.userId}`)).statusCode).toBe(403);
    expect((await admin.get('/api/auth/me')).statusCode).toBe(200);
  });

  it('answers 404 for an unknown user', async () => {
    expect((await lab.admin.delete('/api/users/987654')).statusCode).toBe(404);
  });
});

describe('resetting a password', () => {
  it('lets the user sign in with the new password only, and ends their sessions', async () => {
    const who = await lab.as('billing_staff');
    const res = await lab.admin.post(`/api/users/${who.userId}/reset-password`, { password: 'brand-new-pass-1' });
    expect(res.statusCode).toBe(200);
    expect((await who.get('/api/auth/me')).statusCode).toBe(401);
    const login = (password: string) =>
      lab.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: who.email, password } });
    expect((await login('brand-new-pass-1')).statusCode).toBe(200);
    expect((await login('correct-horse-9')).statusCode).toBe(401);
  });

  it('requires 8 characters', async () => {
    const u = await createUserVia(lab.admin);
    expect(badFields(await lab.admin.post(`/api/users/${u.id}/reset-password`, { password: 'short' }))).toEqual([
      'password',
    ]);
  });
});

describe('secrets', () => {
  it('no response and no audit row ever carries a password hash', async () => {
    const email = uniqueEmail('secret');
    const created = await lab.admin.post('/api/users', userBody({ email, password: 'hidden-pass-1' }));
    const id = created.json<{ user: User }>().user.id;
    const responses = [
      created,
      await lab.admin.get('/api/users'),
      await lab.admin.get(`/api/users/${id}`),
      await lab.admin.put(`/api/users/${id}`, { department: 'Lab' }),
      await lab.admin.post(`/api/users/${id}/reset-password`, { password: 'hidden-pass-2' }),
      await lab.admin.delete(`/api/users/${id}`),
      await lab.admin.get('/api/doctors/options'),
      await lab.admin.get('/api/auth/me'),
      await lab.admin.get('/api/audit?entity=user'),
      await lab.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'admin@lab.test', password: 'correct-horse-9' },
      }),
    ];
    for (const r of responses) {
      expect(r.statusCode).toBeLessThan(300);
      expect(r.body).not.toMatch(/password_hash|scrypt\$|hidden-pass/);
    }
    const audit = await rows<{ old_values: string | null; new_values: string | null }>(
      lab.database,
      'SELECT old_values, new_values FROM audit_log',
    );
    for (const r of audit) expect(`${r.old_values} ${r.new_values}`).not.toMatch(/password_hash|scrypt\$|hidden-pass/);
    expect(audit.length).toBeGreaterThan(5);
  });
});
