import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ADMIN_EMAIL, client, makeLab, type Client, type TestLab } from '../helpers.js';
import { badFields, errorBody, uniqueEmail, uniqueWord } from './support.js';
import type { IssuedInvitation, Tenant } from '../../src/shared/schemas/tenants.js';
import type { User } from '../../src/shared/schemas/users.js';

/**
 * Staff sign-in on a server holding several labs, reached at an address that names none (its IP):
 * the lab is named by the host or the sign-in's `lab` field, never guessed from where an email has
 * accounts. A tenant admin who makes an account with another lab's staff email learns nothing by
 * signing in with it, and the other lab's user still signs in; failures in one lab do not lock,
 * slow or show on the same email in another.
 */
let lab: TestLab;
let b: { tenant: Tenant; admin: Client; password: string };
let c: { tenant: Tenant; admin: Client; password: string };
let seq = 0;

async function tenant(password: string) {
  const res = await lab.admin.post('/api/tenants', {
    name: `${uniqueWord('Lab')} Diagnostics`,
    domain: `${uniqueWord('lab').toLowerCase()}-${process.pid}.signin.test`,
    plan: 'basic',
    admin_email: uniqueEmail('tenantadmin'),
  });
  expect(res.statusCode, res.body).toBe(201);
  const created = res.json<{ tenant: Tenant; invitation: IssuedInvitation }>();
  const accepted = await lab.app.inject({
    method: 'POST',
    url: '/api/invitations/accept',
    payload: { token: created.invitation.path.split('#')[1]!, password },
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
  const user = accepted.json<{ user: User }>().user;
  const cookie = accepted.cookies.find((x) => x.name === 'lims_session')!;
  return {
    tenant: created.tenant,
    admin: client(lab.app, `lims_session=${cookie.value}`, user.id, user.email),
    password,
  };
}

beforeAll(async () => {
  lab = await makeLab();
  b = await tenant('victim-lab-pass-1');
  c = await tenant('tenant-c-pass-22');
});
afterAll(() => lab.close());

/** Each test signs in from its own address, so the per-address limit of one does not reach another. */
function address(): string {
  seq += 1;
  return `10.9.0.${seq}`;
}

function signIn(body: Record<string, unknown>, opts: { host?: string; ip: string }) {
  return lab.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: body,
    remoteAddress: opts.ip,
    headers: { host: opts.host ?? '192.168.1.20:3001' },
  });
}

/** What a sign-in tells its caller: status and body, the session cookie aside. */
const answer = (res: LightMyRequestResponse) => ({ status: res.statusCode, body: res.json<unknown>() });
const orgOf = (res: LightMyRequestResponse) => res.json<{ user: User }>().user.organization_id;

async function userIn(admin: Client, email: string, password: string): Promise<User> {
  const res = await admin.post('/api/users', {
    first_name: 'Planted',
    last_name: 'Account',
    email,
    role: 'receptionist',
    password,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ user: User }>().user;
}

describe('one email in several labs, sign-in at an address that names no lab', () => {
  it('answers the same whatever lab the email is in, and the other lab’s user still signs in by naming the lab', async () => {
    const victim = b.admin.email;
    const onlyInC = uniqueEmail('fresh');
    const planted = 'planted-pass-333';
    // Tenant C's admin makes accounts with: B's admin's email, the primary lab's admin's, an unused one.
    for (const email of [victim, ADMIN_EMAIL, onlyInC]) await userIn(c.admin, email, planted);

    const ip = address();
    const probes = [];
    for (const email of [victim, ADMIN_EMAIL, onlyInC]) {
      probes.push(answer(await signIn({ email, password: planted }, { ip })));
    }
    expect(probes[0]).toEqual({ status: 401, body: expect.objectContaining({ message: 'Invalid email or password' }) });
    expect(probes[1]).toEqual(probes[0]);
    expect(probes[2]).toEqual(probes[0]);

    // The victim signs in at the same address by naming the lab (any spelling of its address), or at its host.
    for (const named of [b.tenant.domain!, `https://${b.tenant.domain!.toUpperCase()}:3001/login`]) {
      const res = await signIn({ email: victim, password: b.password, lab: named }, { ip: address() });
      expect(res.statusCode, res.body).toBe(200);
      expect(orgOf(res)).toBe(b.tenant.id);
    }
    const atHost = await signIn({ email: victim, password: b.password }, { ip: address(), host: b.tenant.domain! });
    expect(orgOf(atHost)).toBe(b.tenant.id);
    // C's planted account is C's only: named, it signs in there.
    const inC = await signIn({ email: victim, password: planted, lab: c.tenant.domain! }, { ip: address() });
    expect(orgOf(inC)).toBe(c.tenant.id);
    // Naming no lab means the server's first lab, whatever the email's other accounts.
    const primary = await signIn({ email: victim, password: b.password }, { ip: address() });
    expect(answer(primary)).toEqual(probes[0]);
  });

  it('answers a lab no one has, or one other than the host’s, as a wrong password; a malformed one is a 400 naming lab', async () => {
    const ip = address();
    const wrong = answer(await signIn({ email: b.admin.email, password: 'nope-nope-1' }, { ip }));
    const unknown = await signIn({ email: b.admin.email, password: b.password, lab: 'nowhere.example.test' }, { ip });
    expect(answer(unknown)).toEqual(wrong);
    const crossed = await signIn(
      { email: b.admin.email, password: b.password, lab: c.tenant.domain! },
      { ip, host: b.tenant.domain! },
    );
    expect(answer(crossed)).toEqual(wrong);
    expect(badFields(await signIn({ email: b.admin.email, password: 'x', lab: 'City Lab!' }, { ip }))).toEqual(['lab']);
  });

  it('failed sign-ins of an email in one lab neither lock nor show on the same email in another', async () => {
    const victim = uniqueEmail('nurse');
    await userIn(b.admin, victim, 'nurse-pass-4444');
    const plantedUser = await userIn(c.admin, victim, 'c-copy-pass-55');
    const ip = address();
    const inC = { email: victim, password: 'guess-guess-1', lab: c.tenant.domain! };
    for (let i = 0; i < 5; i += 1) expect((await signIn(inC, { ip })).statusCode).toBe(401);
    const locked = await signIn(inC, { ip });
    expect(locked.statusCode).toBe(429);
    expect(errorBody(locked).message).toMatch(/Too many failed sign-in attempts/);

    // Same address, same email, lab B: not locked.
    const res = await signIn({ email: victim, password: 'nurse-pass-4444', lab: b.tenant.domain! }, { ip });
    expect(res.statusCode, res.body).toBe(200);

    // B's failure is not on C's admin's screen, and C's unlock does not clear it.
    const bUser = (await b.admin.get('/api/users')).json<{ users: User[] }>().users.find((u) => u.email === victim)!;
    await signIn({ email: victim, password: 'wrong-in-b-1', lab: b.tenant.domain! }, { ip: address() });
    const failures = async (who: Client, id: number) =>
      (await who.get(`/api/users/${id}/sign-in`)).json<{ sign_in: { failures: number } }>().sign_in.failures;
    expect(await failures(c.admin, plantedUser.id)).toBe(5);
    expect(await failures(b.admin, bUser.id)).toBe(1);
    expect((await c.admin.post(`/api/users/${plantedUser.id}/unlock`)).statusCode).toBe(200);
    expect(await failures(c.admin, plantedUser.id)).toBe(0);
    expect(await failures(b.admin, bUser.id)).toBe(1);
  });

  it('one email, one account per lab: a second account of the same email in a lab is refused, in any case', async () => {
    const email = uniqueEmail('twice');
    await userIn(c.admin, email, 'twice-pass-666');
    const again = await c.admin.post('/api/users', {
      first_name: 'Again',
      last_name: 'Account',
      email: email.toUpperCase(),
      role: 'receptionist',
      password: 'twice-pass-666',
    });
    expect(again.statusCode).toBe(409);
    expect(errorBody(again).code).toBe('EMAIL_TAKEN');
  });
});

describe('the sign-in page', () => {
  it('asks for the lab at an address that names none when the server holds several, not at a lab’s own', async () => {
    const page = (host: string) => lab.app.inject({ url: '/api/auth/lab', headers: { host } });
    expect((await page('192.168.1.20:3001')).json()).toEqual({ name: 'Test Lab', ask_lab: true });
    expect((await page(b.tenant.domain!)).json()).toEqual({ name: b.tenant.name, ask_lab: false });
  });

  it('on a one-lab server asks nothing more and signs in as before', async () => {
    const single = await makeLab();
    try {
      const page = await single.app.inject({ url: '/api/auth/lab', headers: { host: '192.168.1.20:3001' } });
      expect(page.json()).toEqual({ name: 'Test Lab', ask_lab: false });
      const res = await single.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: ADMIN_EMAIL, password: 'correct-horse-9' },
        headers: { host: '192.168.1.20:3001' },
      });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      await single.close();
    }
  });
});
