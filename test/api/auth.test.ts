import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, PASSWORD, client, login, makeLab, type TestLab } from '../helpers.js';
import type { User } from '../../src/shared/schemas/users.js';
import type { DemoCredential } from '../../src/shared/schemas/auth.js';
import { ROLES } from '../../src/shared/roles.js';
import { createUserVia, errorBody, raw, uniqueEmail } from './support.js';

let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

function attemptLogin(app: TestLab['app'], email: string, password: string) {
  return raw(app, { method: 'POST', url: '/api/auth/login', payload: { email, password } });
}

describe('signing in', () => {
  it('answers the user and sets an httpOnly, SameSite=Lax session cookie', async () => {
    const user = await createUserVia(lab.admin, { role: 'doctor', password: 'doctor-pass-1' });
    const res = await attemptLogin(lab.app, user.email, 'doctor-pass-1');
    expect(res.statusCode).toBe(200);
    expect(res.json<{ user: User }>().user).toMatchObject({ id: user.id, email: user.email, role: 'doctor' });
    const cookie = res.cookies.find((c) => c.name === 'lims_session');
    expect(cookie).toBeDefined();
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(cookie?.path).toBe('/');
    expect(res.body).not.toContain('password');
  });

  it('accepts the email in any letter case', async () => {
    const user = await createUserVia(lab.admin, { password: 'case-pass-12' });
    const res = await attemptLogin(lab.app, user.email.toUpperCase(), 'case-pass-12');
    expect(res.statusCode).toBe(200);
  });

  it('records the sign-in time as last_login', async () => {
    const user = await createUserVia(lab.admin, { password: 'last-login-1' });
    expect(user.last_login).toBeNull();
    await attemptLogin(lab.app, user.email, 'last-login-1');
    const after = await lab.admin.get(`/api/users/${user.id}`);
    expect(after.json<{ user: User }>().user.last_login).not.toBeNull();
  });

  it('gives an unknown email and a wrong password the same 401 answer', async () => {
    const user = await createUserVia(lab.admin, { password: 'right-pass-1' });
    const wrong = await attemptLogin(lab.app, user.email, 'wrong-pass-1');
    const unknown = await attemptLogin(lab.app, uniqueEmail('nobody'), 'right-pass-1');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.cookies.find((c) => c.name === 'lims_session')).toBeUndefined();
  });

  it('refuses a deactivated user with the same 401 answer', async () => {
    const user = await createUserVia(lab.admin, { password: 'gone-pass-12' });
    expect((await lab.admin.delete(`/api/users/${user.id}`)).statusCode).toBe(200);
    const res = await attemptLogin(lab.app, user.email, 'gone-pass-12');
    const unknown = await attemptLogin(lab.app, uniqueEmail('nobody'), 'gone-pass-12');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(unknown.json());
  });

  it('names the missing field when the body is incomplete', async () => {
    const res = await raw(lab.app, { method: 'POST', url: '/api/auth/login', payload: { email: ADMIN_EMAIL } });
    expect(res.statusCode).toBe(400);
    expect(errorBody(res).details?.map((d) => d.path)).toEqual(['password']);
  });
});

describe('throttling failed sign-ins', () => {
  it('refuses the 6th failed attempt for one email with 429 and retry-after, even with the right password', async () => {
    // A lab of its own: the per-address counter must not be shared with the other tests.
    const own = await makeLab();
    try {
      const user = await createUserVia(own.admin, { password: 'throttle-pass-1' });
      for (let i = 1; i <= 5; i += 1) {
        expect((await attemptLogin(own.app, user.email, `wrong-${i}-pass`)).statusCode).toBe(401);
      }
      const sixth = await attemptLogin(own.app, user.email, 'throttle-pass-1');
      expect(sixth.statusCode).toBe(429);
      const retryAfter = Number(sixth.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect(errorBody(sixth).message).toMatch(/Too many failed sign-in attempts/);
      // Another account is not locked by someone hammering this one.
      expect((await attemptLogin(own.app, ADMIN_EMAIL, PASSWORD)).statusCode).toBe(200);
    } finally {
      await own.close();
    }
  });

  it('a successful sign-in clears the count for that email', async () => {
    const own = await makeLab();
    try {
      const user = await createUserVia(own.admin, { password: 'reset-count-1' });
      for (let i = 0; i < 4; i += 1) await attemptLogin(own.app, user.email, 'nope-nope-1');
      expect((await attemptLogin(own.app, user.email, 'reset-count-1')).statusCode).toBe(200);
      for (let i = 0; i < 4; i += 1) await attemptLogin(own.app, user.email, 'nope-nope-1');
      expect((await attemptLogin(own.app, user.email, 'reset-count-1')).statusCode).toBe(200);
    } finally {
      await own.close();
    }
  });
});

describe('the session', () => {
  it('GET /api/auth/me answers the signed-in user, and 401 without a session', async () => {
    const doctor = await lab.as('doctor');
    const me = await doctor.get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    const user = me.json<{ user: User }>().user;
    expect(user).toMatchObject({ id: doctor.userId, email: doctor.email, role: 'doctor', is_active: true });
    expect(user.permissions).toContain('view_patients');
    expect(user.permissions).not.toContain('manage_users');
    expect((await raw(lab.app, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    expect(
      (await raw(lab.app, { method: 'GET', url: '/api/auth/me', headers: { cookie: 'lims_session=forged' } }))
        .statusCode,
    ).toBe(401);
  });

  it('logout ends the session: the same cookie no longer works', async () => {
    const rec = await lab.as('receptionist');
    expect((await rec.get('/api/auth/me')).statusCode).toBe(200);
    const out = await rec.post('/api/auth/logout');
    expect(out.statusCode).toBe(200);
    const cleared = out.cookies.find((c) => c.name === 'lims_session');
    expect(cleared?.value).toBe('');
    expect((await rec.get('/api/auth/me')).statusCode).toBe(401);
    expect((await rec.get('/api/patients')).statusCode).toBe(401);
  });

  it('logging out one session leaves the user’s other sessions alone', async () => {
    const user = await createUserVia(lab.admin, { password: 'two-devices-1' });
    const a = client(lab.app, await login(lab.app, user.email, 'two-devices-1'), user.id, user.email);
    const b = client(lab.app, await login(lab.app, user.email, 'two-devices-1'), user.id, user.email);
    await a.post('/api/auth/logout');
    expect((await a.get('/api/auth/me')).statusCode).toBe(401);
    expect((await b.get('/api/auth/me')).statusCode).toBe(200);
  });

  it('deactivating a user ends their sessions', async () => {
    const tech = await lab.as('technician');
    expect((await tech.get('/api/auth/me')).statusCode).toBe(200);
    expect((await lab.admin.delete(`/api/users/${tech.userId}`)).statusCode).toBe(200);
    expect((await tech.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('changing a user’s role ends their sessions, so the new rights apply from the next sign-in', async () => {
    const rec = await lab.as('receptionist');
    expect((await rec.get('/api/patients')).statusCode).toBe(200);
    const res = await lab.admin.put(`/api/users/${rec.userId}`, { role: 'inventory_manager' });
    expect(res.statusCode).toBe(200);
    expect((await rec.get('/api/auth/me')).statusCode).toBe(401);
    const again = client(lab.app, await login(lab.app, rec.email, PASSWORD), rec.userId, rec.email);
    expect((await again.get('/api/patients')).statusCode).toBe(403);
  });

  it('editing other fields of a user keeps their session', async () => {
    const rec = await lab.as('receptionist');
    expect((await lab.admin.put(`/api/users/${rec.userId}`, { department: 'Front desk' })).statusCode).toBe(200);
    expect((await rec.get('/api/auth/me')).statusCode).toBe(200);
  });
});

describe('protection against cross-site requests', () => {
  const host = 'lims.clinic.lan:3001';
  const patient = { first_name: 'Csrf', last_name: 'Probe', date_of_birth: '1990-01-01' };

  it('refuses a POST with the cookie and a text/plain body (403)', async () => {
    const res = await raw(lab.app, {
      method: 'POST',
      url: '/api/patients',
      headers: { cookie: lab.admin.cookie, host, 'content-type': 'text/plain' },
      payload: JSON.stringify(patient),
    });
    expect(res.statusCode).toBe(403);
    expect(errorBody(res).message).toMatch(/Cross-site request refused/);
  });

  it('refuses a POST with the cookie and a form body (403)', async () => {
    const res = await raw(lab.app, {
      method: 'POST',
      url: '/api/patients',
      headers: { cookie: lab.admin.cookie, host, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'first_name=Csrf&last_name=Probe&date_of_birth=1990-01-01',
    });
    expect(res.statusCode).toBe(403);
  });

  it('refuses a JSON POST whose Origin is another site (403)', async () => {
    const res = await raw(lab.app, {
      method: 'POST',
      url: '/api/patients',
      headers: { cookie: lab.admin.cookie, host, origin: 'http://evil.example', 'content-type': 'application/json' },
      payload: JSON.stringify(patient),
    });
    expect(res.statusCode).toBe(403);
    expect(errorBody(res).message).toMatch(/origin does not match/);
  });

  it('accepts a JSON POST from the server’s own origin', async () => {
    const res = await raw(lab.app, {
      method: 'POST',
      url: '/api/patients',
      headers: { cookie: lab.admin.cookie, host, origin: `http://${host}`, 'content-type': 'application/json' },
      payload: JSON.stringify(patient),
    });
    expect(res.statusCode).toBe(201);
  });

  it('refuses a logout from another site, so a session cannot be ended cross-site either', async () => {
    const rec = await lab.as('receptionist');
    const res = await raw(lab.app, {
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: rec.cookie, host, origin: 'http://evil.example' },
    });
    expect(res.statusCode).toBe(403);
    expect((await rec.get('/api/auth/me')).statusCode).toBe(200);
  });
});

describe('demo credentials on the login page', () => {
  it('are empty when the server does not run in demo mode', async () => {
    const res = await raw(lab.app, { method: 'GET', url: '/api/auth/demo-credentials' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ demo: false, credentials: [] });
  });

  it('list one account per staff role in demo mode (a centre login needs a centre, which the demo lab has none of)', async () => {
    const demo = await makeLab({ demo: true });
    try {
      const res = await raw(demo.app, { method: 'GET', url: '/api/auth/demo-credentials' });
      const body = res.json<{ demo: boolean; credentials: DemoCredential[] }>();
      expect(body.demo).toBe(true);
      expect(body.credentials.map((c) => c.role)).toEqual(ROLES.filter((r) => r !== 'centre'));
      for (const c of body.credentials) {
        expect(c.email).toMatch(/@/);
        expect(c.password.length).toBeGreaterThanOrEqual(8);
      }
    } finally {
      await demo.close();
    }
  });
});
