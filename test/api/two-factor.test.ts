import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { ADMIN_EMAIL, client, makeLab, PASSWORD, type Client, type TestLab } from '../helpers.js';
import { row, rows } from '../db.js';
import { otherLabAdmin } from './support.js';
import { buildApp } from '../../src/server/app.js';
import { TWO_FACTOR_KEY_FILE } from '../../src/core/two-factor/secret-box.js';

/**
 * Two-factor sign-in: set up from one's account, the code step of sign-in (wrong codes
 * throttled, replays refused, recovery codes spent once), the lab setting that requires it, an
 * administrator's reset, and secrets that never leave the server after the set-up answer.
 * Codes are made here with otpauth from the secret of the set-up answer, as an authenticator app would.
 */

const STEP_MS = 30_000;

/** Waits when the clock is within 3 s of a 30-s step boundary, so codes made now are checked in the same step. */
async function awayFromBoundary(): Promise<void> {
  const into = Date.now() % STEP_MS;
  if (into > STEP_MS - 3000) await new Promise((r) => setTimeout(r, STEP_MS - into + 50));
}

/** The code of the step `offset` steps from now (-1 the previous, 1 the next): all three are accepted. */
function code(secret: string, offset = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offset * STEP_MS,
  });
}

/** A code that is none of the three accepted ones. */
function wrongCode(secret: string): string {
  const near = new Set([code(secret, -1), code(secret, 0), code(secret, 1)]);
  for (let n = 0; ; n++) {
    const c = String((123456 + n * 7919) % 1_000_000).padStart(6, '0');
    if (!near.has(c)) return c;
  }
}

let ipSeq = 0;
/** Each test signs in from its own address, so the per-address limit of one test does not reach another. */
const freshIp = () => `10.9.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

interface Setup {
  secret: string;
  otpauth_uri: string;
  qr_svg: string;
  issuer: string;
  account: string;
}

function postLogin(lab: TestLab, email: string, password: string, ip: string) {
  return lab.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip });
}

function postCode(lab: TestLab, body: Record<string, unknown>, ip: string, url = '/api/auth/login/two-factor') {
  return lab.app.inject({ method: 'POST', url, payload: body, remoteAddress: ip });
}

/** The challenge a right password answers for a user with two-factor. */
async function challengeFor(lab: TestLab, email: string, ip: string, step: 'verify' | 'enrol' = 'verify') {
  const res = await postLogin(lab, email, PASSWORD, ip);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.cookies.find((c) => c.name === 'lims_session')).toBeUndefined();
  const body = res.json<{ user?: unknown; two_factor: { challenge: string; step: string; expires_at: string } }>();
  expect(body.user).toBeUndefined();
  expect(body.two_factor.step).toBe(step);
  return body.two_factor.challenge;
}

function sessionCookie(res: LightMyRequestResponse): string {
  const c = res.cookies.find((k) => k.name === 'lims_session');
  if (!c?.value) throw new Error(`no session cookie: ${res.statusCode} ${res.body}`);
  return `lims_session=${c.value}`;
}

/** Sets up two-factor on the client's account: the set-up answer and the recovery codes. */
async function enrol(as: Client): Promise<{ setup: Setup; recoveryCodes: string[] }> {
  const started = await as.post('/api/account/two-factor/setup');
  expect(started.statusCode, started.body).toBe(200);
  const setup = started.json<{ setup: Setup }>().setup;
  await awayFromBoundary();
  // The previous step's code: the current and the next stay free for the sign-ins of the test.
  const on = await as.post('/api/account/two-factor/enable', { code: code(setup.secret, -1) });
  expect(on.statusCode, on.body).toBe(200);
  return { setup, recoveryCodes: on.json<{ recovery_codes: string[] }>().recovery_codes };
}

describe('two-factor sign-in', () => {
  let lab: TestLab;
  /** Every answer of the file, to look for secrets in. */
  const answers: { url: string; body: string }[] = [];

  beforeAll(async () => {
    lab = await makeLab();
    // Every answer of this lab's server passes here (the clients of makeLab use app.inject too).
    const inject = lab.app.inject.bind(lab.app) as (o: InjectOptions) => Promise<LightMyRequestResponse>;
    (lab.app as unknown as { inject: typeof inject }).inject = async (o: InjectOptions) => {
      const res = await inject(o);
      answers.push({ url: String(o.url), body: res.body });
      return res;
    };
  });
  afterAll(() => lab.close());

  it('sets up an authenticator: a wrong code is refused, a right one switches it on and answers 10 recovery codes once', async () => {
    const staff = await lab.as('lab_technician');
    const before = await staff.get('/api/account/two-factor');
    expect(before.json()).toEqual({
      two_factor: { enabled: false, enabled_at: null, recovery_codes_left: 0, required: false },
    });

    const started = await staff.post('/api/account/two-factor/setup');
    expect(started.statusCode).toBe(200);
    const setup = started.json<{ setup: Setup }>().setup;
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.issuer).toBe('Test Lab');
    expect(setup.account).toBe(staff.email);
    const uri = new URL(setup.otpauth_uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({
      secret: setup.secret,
      issuer: 'Test Lab',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    expect(setup.qr_svg.startsWith('<svg')).toBe(true);
    expect(setup.qr_svg).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);

    for (const bad of [wrongCode(setup.secret), '12345', 'abcdef', '']) {
      const res = await staff.post('/api/account/two-factor/enable', { code: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().details[0].path).toBe('code');
    }
    expect((await staff.get('/api/account/two-factor')).json().two_factor.enabled).toBe(false);

    await awayFromBoundary();
    const on = await staff.post('/api/account/two-factor/enable', { code: code(setup.secret) });
    expect(on.statusCode, on.body).toBe(200);
    const { recovery_codes, two_factor } = on.json<{
      recovery_codes: string[];
      two_factor: { enabled: boolean; recovery_codes_left: number };
    }>();
    expect(recovery_codes).toHaveLength(10);
    for (const c of recovery_codes) expect(c).toMatch(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/);
    expect(new Set(recovery_codes).size).toBe(10);
    expect(two_factor).toMatchObject({ enabled: true, recovery_codes_left: 10 });

    // Once: no answer shows them again, and a second set-up is refused while it is on.
    const status = await staff.get('/api/account/two-factor');
    expect(status.body).not.toContain(recovery_codes[0]);
    expect(status.json().two_factor).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    expect((await staff.post('/api/account/two-factor/setup')).statusCode).toBe(409);
    expect((await staff.post('/api/account/two-factor/enable', { code: code(setup.secret, 1) })).statusCode).toBe(409);

    const audit = await rows(
      lab.database,
      "SELECT action, new_values FROM audit_log WHERE entity = 'two_factor' AND entity_id = ?",
      String(staff.userId),
    );
    expect(audit).toEqual([
      {
        action: 'create',
        new_values: JSON.stringify({ enabled: true, recovery_codes: 10, other_sessions_ended: 0 }),
      },
    ]);
  });

  it('sign-in asks for the code after the password and starts the session only with it', async () => {
    const staff = await lab.as('receptionist');
    const { setup } = await enrol(staff);
    const ip = freshIp();
    const challenge = await challengeFor(lab, staff.email, ip);

    await awayFromBoundary();
    const res = await postCode(lab, { challenge, code: code(setup.secret) }, ip);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.email).toBe(staff.email);
    expect(res.json().recovery_codes).toBeUndefined();
    const me = await lab.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: sessionCookie(res) } });
    expect(me.statusCode).toBe(200);

    // The challenge was for one sign-in.
    const again = await postCode(lab, { challenge, code: code(setup.secret, 1) }, ip);
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('TWO_FACTOR_EXPIRED');

    const logins = await rows<{ status: string; new_values: string | null }>(
      lab.database,
      "SELECT status, new_values FROM audit_log WHERE action = 'login' AND entity_id = ? ORDER BY id",
      String(staff.userId),
    );
    expect(logins.at(-1)).toEqual({ status: 'success', new_values: JSON.stringify({ two_factor: 'code' }) });
  });

  it('refuses a wrong code with 401, counts it with wrong passwords, and the right password does not clear the count', async () => {
    const staff = await lab.as('billing_staff');
    const { setup } = await enrol(staff);
    const ip = freshIp();
    const bad = wrongCode(setup.secret);

    const first = await challengeFor(lab, staff.email, ip);
    for (let i = 0; i < 3; i++) {
      const res = await postCode(lab, { challenge: first, code: bad }, ip);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toMatch(/code is wrong/);
      expect(res.cookies.find((c) => c.name === 'lims_session')).toBeUndefined();
    }
    // The password again: a new challenge, but the three failures stay.
    const second = await challengeFor(lab, staff.email, ip);
    for (let i = 0; i < 2; i++)
      expect((await postCode(lab, { challenge: second, code: bad }, ip)).statusCode).toBe(401);
    // Five failures for this account from this address: locked, even with the right code or password.
    await awayFromBoundary();
    const locked = await postCode(lab, { challenge: second, code: code(setup.secret) }, ip);
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    expect((await postLogin(lab, staff.email, PASSWORD, ip)).statusCode).toBe(429);

    const failed = await rows<{ new_values: string }>(
      lab.database,
      "SELECT new_values FROM audit_log WHERE action = 'login' AND status = 'failed' AND entity_id = ?",
      String(staff.userId),
    );
    expect(failed.map((f) => JSON.parse(f.new_values).reason)).toEqual(Array(5).fill('bad two-factor code'));

    // The administrator's unlock clears the count, and the right code then signs in.
    expect((await lab.admin.post(`/api/users/${staff.userId}/unlock`)).statusCode).toBe(200);
    const third = await challengeFor(lab, staff.email, ip);
    await awayFromBoundary();
    expect((await postCode(lab, { challenge: third, code: code(setup.secret) }, ip)).statusCode).toBe(200);
  });

  it('a challenge dies after five wrong codes', async () => {
    const staff = await lab.as('collector');
    const { setup } = await enrol(staff);
    const challenge = await challengeFor(lab, staff.email, freshIp());
    const bad = wrongCode(setup.secret);
    // From five addresses, so the per-address lock does not answer first.
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) codes.push((await postCode(lab, { challenge, code: bad }, freshIp())).json().code);
    expect(codes).toEqual(['UNAUTHORIZED', 'UNAUTHORIZED', 'UNAUTHORIZED', 'UNAUTHORIZED', 'TWO_FACTOR_EXPIRED']);
    await awayFromBoundary();
    const late = await postCode(lab, { challenge, code: code(setup.secret) }, freshIp());
    expect(late.statusCode).toBe(401);
    expect(late.json().code).toBe('TWO_FACTOR_EXPIRED');
  });

  it('refuses a code already used (replay), and accepts the next one', async () => {
    const staff = await lab.as('lab_manager');
    const { setup } = await enrol(staff);
    const ip = freshIp();
    await awayFromBoundary();
    const used = code(setup.secret);
    expect(
      (await postCode(lab, { challenge: await challengeFor(lab, staff.email, ip), code: used }, ip)).statusCode,
    ).toBe(200);
    const replay = await postCode(lab, { challenge: await challengeFor(lab, staff.email, ip), code: used }, ip);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toMatch(/used already/);
    // The previous step's code is older than the one used: refused too.
    const older = await postCode(
      lab,
      { challenge: await challengeFor(lab, staff.email, ip), code: code(setup.secret, -1) },
      ip,
    );
    expect(older.statusCode).toBe(401);
    const next = await postCode(
      lab,
      { challenge: await challengeFor(lab, staff.email, ip), code: code(setup.secret, 1) },
      ip,
    );
    expect(next.statusCode, next.body).toBe(200);
    const reasons = await rows<{ new_values: string }>(
      lab.database,
      "SELECT new_values FROM audit_log WHERE action = 'login' AND status = 'failed' AND entity_id = ?",
      String(staff.userId),
    );
    expect(reasons.map((r) => JSON.parse(r.new_values).reason)).toEqual([
      'reused two-factor code',
      'reused two-factor code',
    ]);
  });

  it('a recovery code signs in once, in any case and with or without dashes', async () => {
    const staff = await lab.as('technician');
    const { recoveryCodes } = await enrol(staff);
    const ip = freshIp();
    const typed = recoveryCodes[3]!.toUpperCase().replace(/-/g, ' ');
    const res = await postCode(lab, { challenge: await challengeFor(lab, staff.email, ip), recovery_code: typed }, ip);
    expect(res.statusCode, res.body).toBe(200);
    sessionCookie(res);
    expect((await staff.get('/api/account/two-factor')).json().two_factor.recovery_codes_left).toBe(9);

    const again = await postCode(
      lab,
      { challenge: await challengeFor(lab, staff.email, ip), recovery_code: recoveryCodes[3] },
      ip,
    );
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toMatch(/recovery code is wrong or has been used/);

    const bad = await postCode(lab, { challenge: 'x'.repeat(43), recovery_code: 'not a code' }, ip);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('recovery_code');
    const neither = await postCode(lab, { challenge: 'x'.repeat(43) }, ip);
    expect(neither.statusCode).toBe(400);
    expect(neither.json().details[0].path).toBe('code');

    const logins = await rows<{ new_values: string }>(
      lab.database,
      "SELECT new_values FROM audit_log WHERE action = 'login' AND status = 'success' AND entity_id = ? ORDER BY id",
      String(staff.userId),
    );
    expect(JSON.parse(logins.at(-1)!.new_values)).toEqual({ two_factor: 'recovery code', recovery_codes_left: 9 });
  });

  it('an expired or unknown challenge is refused, and a challenge is only had with the right password', async () => {
    const staff = await lab.as('validator');
    const { setup } = await enrol(staff);
    const ip = freshIp();
    const wrongPassword = await postLogin(lab, staff.email, 'not-the-password-1', ip);
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.json().two_factor).toBeUndefined();

    const challenge = await challengeFor(lab, staff.email, ip);
    await lab.database.db
      .updateTable('two_factor_challenges')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', staff.userId)
      .execute();
    await awayFromBoundary();
    const expired = await postCode(lab, { challenge, code: code(setup.secret) }, ip);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe('TWO_FACTOR_EXPIRED');
    const unknown = await postCode(lab, { challenge: 'A'.repeat(43), code: code(setup.secret) }, ip);
    expect(unknown.json().code).toBe('TWO_FACTOR_EXPIRED');
    // A verify challenge has no set-up to show.
    const noSetup = await postCode(
      lab,
      { challenge: await challengeFor(lab, staff.email, ip) },
      ip,
      '/api/auth/login/two-factor/setup',
    );
    expect(noSetup.statusCode).toBe(400);
    expect(noSetup.body).not.toContain(setup.secret);
  });

  it('turns off with the password or a code, and makes new recovery codes (the old ones stop working)', async () => {
    const staff = await lab.as('inventory_manager');
    const { setup, recoveryCodes } = await enrol(staff);

    const wrong = await staff.post('/api/account/two-factor/recovery-codes', { password: 'wrong-password-1' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details[0].path).toBe('password');
    expect((await staff.post('/api/account/two-factor/recovery-codes', {})).json().details[0].path).toBe('code');

    await awayFromBoundary();
    const fresh = await staff.post('/api/account/two-factor/recovery-codes', { code: code(setup.secret) });
    expect(fresh.statusCode, fresh.body).toBe(200);
    const newCodes = fresh.json<{ recovery_codes: string[] }>().recovery_codes;
    expect(newCodes).toHaveLength(10);
    expect(newCodes).not.toContain(recoveryCodes[0]);
    const ip = freshIp();
    const old = await postCode(
      lab,
      { challenge: await challengeFor(lab, staff.email, ip), recovery_code: recoveryCodes[0] },
      ip,
    );
    expect(old.statusCode).toBe(401);

    const off = await staff.post('/api/account/two-factor/disable', { password: PASSWORD });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().two_factor).toMatchObject({ enabled: false, recovery_codes_left: 0 });
    // Signing in is the password alone again.
    const plain = await postLogin(lab, staff.email, PASSWORD, ip);
    expect(plain.statusCode).toBe(200);
    expect(plain.json().user.email).toBe(staff.email);
    sessionCookie(plain);
    expect(await rows(lab.database, 'SELECT 1 FROM two_factor_recovery_codes WHERE user_id = ?', staff.userId)).toEqual(
      [],
    );
    const audit = await rows<{ action: string; status: string }>(
      lab.database,
      "SELECT action, status FROM audit_log WHERE entity = 'two_factor' AND entity_id = ? ORDER BY id",
      String(staff.userId),
    );
    expect(audit).toEqual([
      { action: 'create', status: 'success' },
      { action: 'update', status: 'failed' },
      { action: 'update', status: 'success' },
      { action: 'delete', status: 'success' },
    ]);
  });

  it('an administrator resets a lost phone (audited, sessions ended); others cannot', async () => {
    const staff = await lab.as('receptionist');
    await enrol(staff);
    const receptionist = await lab.as('receptionist');
    expect((await receptionist.post(`/api/users/${staff.userId}/two-factor/reset`)).statusCode).toBe(403);
    expect((await lab.admin.post(`/api/users/${lab.admin.userId}/two-factor/reset`)).statusCode).toBe(403);
    expect((await lab.admin.post(`/api/users/${receptionist.userId}/two-factor/reset`)).statusCode).toBe(409);
    const { admin: otherAdmin } = await otherLabAdmin(lab);
    expect((await otherAdmin.post(`/api/users/${staff.userId}/two-factor/reset`)).statusCode).toBe(404);
    expect((await otherAdmin.get(`/api/users/${staff.userId}/two-factor`)).statusCode).toBe(404);

    const seen = await lab.admin.get(`/api/users/${staff.userId}/two-factor`);
    expect(seen.json().two_factor).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    const reset = await lab.admin.post(`/api/users/${staff.userId}/two-factor/reset`);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().two_factor.enabled).toBe(false);
    expect((await staff.get('/api/auth/me')).statusCode).toBe(401);
    const plain = await postLogin(lab, staff.email, PASSWORD, freshIp());
    expect(plain.json().user.email).toBe(staff.email);

    const audit = await row<{ user_email: string; new_values: string }>(
      lab.database,
      "SELECT user_email, new_values FROM audit_log WHERE entity = 'two_factor' AND action = 'delete' AND entity_id = ?",
      String(staff.userId),
    );
    expect(audit?.user_email).toBe(ADMIN_EMAIL);
    expect(JSON.parse(audit!.new_values)).toEqual({ enabled: false, reset_by_administrator: true });
  });

  it('keeps secrets out of every answer but the set-up, and out of the database in plain text', async () => {
    const staff = await lab.as('doctor');
    const { setup, recoveryCodes } = await enrol(staff);
    const ip = freshIp();
    await awayFromBoundary();
    const signedIn = await postCode(
      lab,
      { challenge: await challengeFor(lab, staff.email, ip), code: code(setup.secret) },
      ip,
    );
    const cookie = sessionCookie(signedIn);
    const again = client(lab.app, cookie, staff.userId, staff.email);
    for (const url of [
      '/api/auth/me',
      '/api/account/two-factor',
      `/api/users/${staff.userId}`,
      `/api/users/${staff.userId}/two-factor`,
      '/api/users',
      '/api/audit?limit=100',
    ]) {
      const res =
        url.startsWith('/api/users') || url.startsWith('/api/audit') ? await lab.admin.get(url) : await again.get(url);
      expect(res.statusCode, url).toBe(200);
    }
    const setupAnswers = answers.filter((a) => a.url.endsWith('/two-factor/setup'));
    const others = answers.filter((a) => !a.url.endsWith('/two-factor/setup'));
    expect(setupAnswers.some((a) => a.body.includes(setup.secret))).toBe(true);
    expect(others.length).toBeGreaterThan(20);
    for (const a of others) expect(a.body, a.url).not.toContain(setup.secret);
    const enableAnswers = others.filter((a) => a.body.includes(recoveryCodes[0]!));
    expect(enableAnswers.map((a) => a.url)).toEqual(['/api/account/two-factor/enable']);

    const stored = await row<{ secret: string }>(
      lab.database,
      'SELECT secret FROM user_two_factor WHERE user_id = ?',
      staff.userId,
    );
    expect(stored!.secret).toMatch(/^v1:[0-9a-f]{16}:/);
    expect(stored!.secret).not.toContain(setup.secret);
    const hashes = await rows<{ code_hash: string }>(
      lab.database,
      'SELECT code_hash FROM two_factor_recovery_codes WHERE user_id = ?',
      staff.userId,
    );
    expect(hashes).toHaveLength(10);
    for (const h of hashes) expect(recoveryCodes.map((c) => c.replace(/-/g, ''))).not.toContain(h.code_hash);
    const dump = JSON.stringify(await rows(lab.database, 'SELECT * FROM audit_log'));
    expect(dump).not.toContain(setup.secret);
    expect(dump).not.toContain(recoveryCodes[1]);
  });
});

describe('the lab requires two-factor sign-in (System Settings twoFactorAuth)', () => {
  let lab: TestLab;
  let staff: Client;
  let adminSecret = '';
  beforeAll(async () => {
    lab = await makeLab();
    staff = await lab.as('receptionist');
  });
  afterAll(() => lab.close());

  it('is refused while the administrator turning it on has not set up their own', async () => {
    const res = await lab.admin.put('/api/settings', { twoFactorAuth: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      { path: 'twoFactorAuth', message: expect.stringMatching(/Set up two-factor sign-in for your own account first/) },
    ]);
    expect((await lab.admin.get('/api/settings')).json().settings.twoFactorAuth).toBe(false);
    expect((await lab.admin.put('/api/settings', { twoFactorAuth: 'yes' })).statusCode).toBe(400);
  });

  it('is accepted once they have, and audited', async () => {
    adminSecret = (await enrol(lab.admin)).setup.secret;
    const res = await lab.admin.put('/api/settings', { twoFactorAuth: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().settings.twoFactorAuth).toBe(true);
    expect((await lab.admin.get('/api/account/two-factor')).json().two_factor.required).toBe(true);
    // Staff without an authenticator are signed out: their next sign-in sets one up.
    expect((await staff.get('/api/account/two-factor')).statusCode).toBe(401);
    const audit = await row<{ old_values: string; new_values: string }>(
      lab.database,
      "SELECT old_values, new_values FROM audit_log WHERE entity = 'settings' ORDER BY id DESC",
    );
    expect(JSON.parse(audit!.new_values)).toEqual({ twoFactorAuth: true });
  });

  it('makes staff without an authenticator set one up at sign-in before they get in', async () => {
    const ip = freshIp();
    // Sessions already open ended when the lab required it: nobody goes on on a password alone.
    expect((await staff.get('/api/auth/me')).statusCode).toBe(401);
    const challenge = await challengeFor(lab, staff.email, ip, 'enrol');
    // No code can sign in before the set-up, and a recovery code is no way round it.
    const early = await postCode(lab, { challenge, code: '123456' }, ip);
    expect(early.statusCode).toBe(400);
    expect((await postCode(lab, { challenge, recovery_code: 'abcd-efgh-jkmn-pqrs' }, ip)).statusCode).toBe(400);

    const shown = await postCode(lab, { challenge }, ip, '/api/auth/login/two-factor/setup');
    expect(shown.statusCode, shown.body).toBe(200);
    const setup = shown.json<{ setup: Setup }>().setup;
    expect(setup.issuer).toBe('Test Lab');
    expect(setup.qr_svg.startsWith('<svg')).toBe(true);
    // Asked again (a reload of the step): the same secret.
    const shownAgain = await postCode(lab, { challenge }, ip, '/api/auth/login/two-factor/setup');
    expect(shownAgain.json().setup.secret).toBe(setup.secret);

    const wrong = await postCode(lab, { challenge, code: wrongCode(setup.secret) }, ip);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details[0].path).toBe('code');
    expect(wrong.cookies.find((c) => c.name === 'lims_session')).toBeUndefined();

    await awayFromBoundary();
    const done = await postCode(lab, { challenge, code: code(setup.secret, -1) }, ip);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().recovery_codes).toHaveLength(10);
    const cookie = sessionCookie(done);
    const me = client(lab.app, cookie, staff.userId, staff.email);
    expect((await me.get('/api/account/two-factor')).json().two_factor).toMatchObject({
      enabled: true,
      recovery_codes_left: 10,
      required: true,
    });

    // From now on: a code, not a set-up.
    const next = await challengeFor(lab, staff.email, ip, 'verify');
    expect((await postCode(lab, { challenge: next, code: code(setup.secret) }, ip)).statusCode).toBe(200);
    const audit = await row<{ new_values: string }>(
      lab.database,
      "SELECT new_values FROM audit_log WHERE entity = 'two_factor' AND action = 'create' AND entity_id = ?",
      String(staff.userId),
    );
    expect(JSON.parse(audit!.new_values)).toEqual({
      enabled: true,
      recovery_codes: 10,
      at_sign_in: true,
      other_sessions_ended: 0,
    });
  });

  it('an invitation link sets the password but does not sign in: the sign-in form sets up the authenticator', async () => {
    const res = await lab.admin.post('/api/users/invite', {
      first_name: 'Invited',
      last_name: 'Staff',
      email: 'invited.staff@lab.test',
      role: 'receptionist',
    });
    expect(res.statusCode, res.body).toBe(201);
    const token = res.json<{ invitation: { path: string } }>().invitation.path.split('#')[1]!;
    const accepted = await lab.app.inject({
      method: 'POST',
      url: '/api/invitations/accept',
      payload: { token, password: PASSWORD },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().signed_in).toBe(false);
    expect(accepted.cookies.find((c) => c.name === 'lims_session')).toBeUndefined();
    // The new password works, and leads to the set-up step, not to a session.
    await challengeFor(lab, 'invited.staff@lab.test', freshIp(), 'enrol');
  });

  it('the administrator who turned it on signs in with a code', async () => {
    const ip = freshIp();
    const challenge = await challengeFor(lab, ADMIN_EMAIL, ip, 'verify');
    await awayFromBoundary();
    const res = await postCode(lab, { challenge, code: code(adminSecret) }, ip);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a reset user sets up a new authenticator at their next sign-in', async () => {
    expect((await lab.admin.post(`/api/users/${staff.userId}/two-factor/reset`)).statusCode).toBe(200);
    await challengeFor(lab, staff.email, freshIp(), 'enrol');
  });
});

describe('the two-factor key', () => {
  let lab: TestLab;
  beforeAll(async () => {
    lab = await makeLab();
  });
  afterAll(() => lab.close());

  it('lives in the data dir (mode 600); a server with another key sends users to their recovery codes', async () => {
    const dirA = mkdtempSync(join(tmpdir(), 'lims-2fa-a-'));
    const dirB = mkdtempSync(join(tmpdir(), 'lims-2fa-b-'));
    const appA = await buildApp({ database: lab.database, dataDir: dirA, logger: false });
    const appB = await buildApp({ database: lab.database, dataDir: dirB, logger: false });
    try {
      const signIn = await appA.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: ADMIN_EMAIL, password: PASSWORD },
      });
      const admin = client(appA, sessionCookie(signIn), lab.admin.userId, ADMIN_EMAIL);
      const { setup, recoveryCodes } = await enrol(admin);
      expect(statSync(join(dirA, TWO_FACTOR_KEY_FILE)).mode & 0o777).toBe(0o600);

      const challengeB = async () =>
        (
          await appB.inject({
            method: 'POST',
            url: '/api/auth/login',
            payload: { email: ADMIN_EMAIL, password: PASSWORD },
          })
        ).json().two_factor.challenge as string;
      await awayFromBoundary();
      const refused = await appB.inject({
        method: 'POST',
        url: '/api/auth/login/two-factor',
        payload: { challenge: await challengeB(), code: code(setup.secret) },
      });
      expect(refused.statusCode).toBe(503);
      expect(refused.json().code).toBe('TWO_FACTOR_KEY');
      expect(refused.json().message).toMatch(/recovery code/);
      const recovered = await appB.inject({
        method: 'POST',
        url: '/api/auth/login/two-factor',
        payload: { challenge: await challengeB(), recovery_code: recoveryCodes[0] },
      });
      expect(recovered.statusCode, recovered.body).toBe(200);
    } finally {
      await appA.close();
      await appB.close();
    }
  });
});
