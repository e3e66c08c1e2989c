import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import type { LightMyRequestResponse } from 'fastify';
import { ADMIN_EMAIL, client, makeLab, PASSWORD, type Client, type TestLab } from '../helpers.js';
import { rows } from '../db.js';

/**
 * One's own sessions (account menu): listed, ended one by one or all the others, never another
 * user's. A change to one's two-factor sign-in ends the other sessions and renews the current one;
 * a lab that makes two-factor mandatory signs out everyone without it.
 */

const STEP_MS = 30_000;

function code(secret: string, offset = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offset * STEP_MS,
  });
}

async function awayFromBoundary(): Promise<void> {
  const into = Date.now() % STEP_MS;
  if (into > STEP_MS - 3000) await new Promise((r) => setTimeout(r, STEP_MS - into + 50));
}

interface OwnSession {
  id: string;
  started_at: string;
  last_seen_at: string;
  expires_at: string;
  ip_address: string | null;
  user_agent: string | null;
  current: boolean;
}

const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36';

/** A second session of the same user, from another device. */
async function signInElsewhere(lab: TestLab, who: Client, ip = '10.20.0.7'): Promise<Client> {
  const res = await lab.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: who.email, password: PASSWORD },
    headers: { 'user-agent': PHONE_UA },
    remoteAddress: ip,
  });
  expect(res.statusCode, res.body).toBe(200);
  const c = res.cookies.find((k) => k.name === 'lims_session')!;
  return client(lab.app, `lims_session=${c.value}`, who.userId, who.email);
}

/** A second session of a user with two-factor on, signed in with a recovery code. */
async function signInWithRecoveryCode(lab: TestLab, who: Client, recoveryCode: string, ip: string): Promise<Client> {
  const first = await lab.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: who.email, password: PASSWORD },
    remoteAddress: ip,
  });
  const challenge = first.json<{ two_factor: { challenge: string } }>().two_factor.challenge;
  const res = await lab.app.inject({
    method: 'POST',
    url: '/api/auth/login/two-factor',
    payload: { challenge, recovery_code: recoveryCode },
    remoteAddress: ip,
  });
  expect(res.statusCode, res.body).toBe(200);
  const c = res.cookies.find((k) => k.name === 'lims_session')!;
  return client(lab.app, `lims_session=${c.value}`, who.userId, who.email);
}

/** The same cookie, not following any renewal: what a copy of it elsewhere would send. */
const frozen = (lab: TestLab, who: Client) => client(lab.app, who.cookie, who.userId, who.email);

async function sessionsOf(who: Client): Promise<OwnSession[]> {
  const res = await who.get('/api/account/sessions');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ sessions: OwnSession[] }>().sessions;
}

async function enableTwoFactor(who: Client): Promise<{ secret: string; res: LightMyRequestResponse }> {
  const started = await who.post('/api/account/two-factor/setup');
  expect(started.statusCode, started.body).toBe(200);
  const secret = started.json<{ setup: { secret: string } }>().setup.secret;
  await awayFromBoundary();
  const res = await who.post('/api/account/two-factor/enable', { code: code(secret, -1) });
  expect(res.statusCode, res.body).toBe(200);
  return { secret, res };
}

describe('one own sessions', () => {
  let lab: TestLab;
  beforeAll(async () => {
    lab = await makeLab();
  });
  afterAll(() => lab.close());

  it('lists only the caller own open sessions, the current one marked', async () => {
    const me = await lab.as('receptionist');
    const other = await lab.as('receptionist');
    await signInElsewhere(lab, me);
    const mine = await sessionsOf(me);
    expect(mine).toHaveLength(2);
    expect(mine.filter((s) => s.current)).toHaveLength(1);
    const phone = mine.find((s) => !s.current)!;
    expect(phone).toMatchObject({ ip_address: '10.20.0.7', user_agent: PHONE_UA });
    expect(phone.id).toMatch(/^[0-9a-f]{32}$/);
    // Nothing of the other user's (nor the administrator's) sessions.
    const theirs = await sessionsOf(other);
    expect(theirs).toHaveLength(1);
    expect(theirs.map((s) => s.id)).not.toContain(phone.id);
    // The id is neither the cookie's token nor the stored key.
    expect(me.cookie).not.toContain(phone.id);
    const stored = await rows<{ id: string }>(lab.database, 'SELECT id FROM sessions WHERE user_id = ?', me.userId);
    expect(stored.map((r) => r.id)).not.toContain(phone.id);
  });

  it('ends one of them: that cookie answers 401 after, the current one goes on; audited', async () => {
    const me = await lab.as('lab_technician');
    const phone = await signInElsewhere(lab, me);
    const target = (await sessionsOf(me)).find((s) => !s.current)!;
    const res = await me.delete(`/api/account/sessions/${target.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, current: false });
    expect((await phone.get('/api/auth/me')).statusCode).toBe(401);
    expect((await me.get('/api/auth/me')).statusCode).toBe(200);
    expect((await sessionsOf(me)).map((s) => s.current)).toEqual([true]);
    // Gone: a second try finds nothing.
    expect((await me.delete(`/api/account/sessions/${target.id}`)).statusCode).toBe(404);
    const audit = await rows<{ action: string; new_values: string }>(
      lab.database,
      "SELECT action, new_values FROM audit_log WHERE entity = 'session' AND action = 'logout' AND entity_id = ?",
      String(me.userId),
    );
    expect(audit.map((a) => JSON.parse(a.new_values) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ ended_by_user: true, current: false, session_ip_address: '10.20.0.7' }),
    ]);
  });

  it('ends all the others at once, keeping the current one', async () => {
    const me = await lab.as('doctor');
    const a = await signInElsewhere(lab, me, '10.20.0.8');
    const b = await signInElsewhere(lab, me, '10.20.0.9');
    const bystander = await lab.as('doctor');
    const res = await me.post('/api/account/sessions/end-others');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ended: 2 });
    expect((await a.get('/api/auth/me')).statusCode).toBe(401);
    expect((await b.get('/api/auth/me')).statusCode).toBe(401);
    expect((await me.get('/api/auth/me')).statusCode).toBe(200);
    expect((await bystander.get('/api/auth/me')).statusCode).toBe(200);
    expect(await sessionsOf(me)).toHaveLength(1);
  });

  it('ending the current session signs the caller out', async () => {
    const me = await lab.as('receptionist');
    const current = (await sessionsOf(me)).find((s) => s.current)!;
    const res = await me.delete(`/api/account/sessions/${current.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, current: true });
    expect((await me.get('/api/auth/me')).statusCode).toBe(401);
  });

  it("another user's session id answers 404, and that session goes on", async () => {
    const me = await lab.as('lab_manager');
    const other = await lab.as('receptionist');
    const theirs = (await sessionsOf(other))[0]!;
    const res = await me.delete(`/api/account/sessions/${theirs.id}`);
    expect(res.statusCode).toBe(404);
    expect((await other.get('/api/auth/me')).statusCode).toBe(200);
    // The administrator's too, as the Activity Monitor names it.
    const listed = await lab.admin.get('/api/sessions');
    const adminsOwn = listed.json<{ sessions: { id: string; current: boolean }[] }>().sessions.find((s) => s.current)!;
    expect((await me.delete(`/api/account/sessions/${adminsOwn.id}`)).statusCode).toBe(404);
    expect((await lab.admin.get('/api/auth/me')).statusCode).toBe(200);
    expect((await me.delete('/api/account/sessions/not-a-session')).statusCode).toBe(400);
  });

  it('needs a session', async () => {
    expect((await lab.app.inject({ method: 'GET', url: '/api/account/sessions' })).statusCode).toBe(401);
    expect((await lab.app.inject({ method: 'POST', url: '/api/account/sessions/end-others' })).statusCode).toBe(401);
  });
});

describe('two-factor changes end the other sessions', () => {
  let lab: TestLab;
  beforeAll(async () => {
    lab = await makeLab();
  });
  afterAll(() => lab.close());

  it('turning it on ends the other sessions and renews the current one', async () => {
    const me = await lab.as('receptionist');
    const phone = await signInElsewhere(lab, me);
    const before = frozen(lab, me);
    const startedAt = (await sessionsOf(me)).find((s) => s.current)!.started_at;
    const { res } = await enableTwoFactor(me);
    // A new cookie for the current session; the old token, wherever a copy of it is, is over.
    expect(res.cookies.find((c) => c.name === 'lims_session')?.value).toBeTruthy();
    expect(me.cookie).not.toBe(before.cookie);
    expect((await phone.get('/api/auth/me')).statusCode).toBe(401);
    expect((await before.get('/api/auth/me')).statusCode).toBe(401);
    expect((await me.get('/api/auth/me')).statusCode).toBe(200);
    const left = await sessionsOf(me);
    expect(left).toHaveLength(1);
    // The same session, renewed: it keeps its start (and its 24-hour end).
    expect(left[0]).toMatchObject({ current: true, started_at: startedAt });
    const audit = await rows<{ new_values: string }>(
      lab.database,
      "SELECT new_values FROM audit_log WHERE entity = 'two_factor' AND action = 'create' AND entity_id = ?",
      String(me.userId),
    );
    expect(JSON.parse(audit[0]!.new_values)).toEqual({ enabled: true, recovery_codes: 10, other_sessions_ended: 1 });
  });

  it('turning it off and new recovery codes do the same', async () => {
    const me = await lab.as('lab_technician');
    const { res } = await enableTwoFactor(me);
    const [first, second] = res.json<{ recovery_codes: string[] }>().recovery_codes;
    const tablet = await signInWithRecoveryCode(lab, me, first!, '10.20.0.11');
    const codes = await me.post('/api/account/two-factor/recovery-codes', { password: PASSWORD });
    expect(codes.statusCode, codes.body).toBe(200);
    expect((await tablet.get('/api/auth/me')).statusCode).toBe(401);
    expect((await me.get('/api/auth/me')).statusCode).toBe(200);
    // The codes of before are spent with the change; one of the new ones signs the laptop in.
    expect(second).toBeTruthy();
    const fresh = codes.json<{ recovery_codes: string[] }>().recovery_codes[0]!;
    const laptop = await signInWithRecoveryCode(lab, me, fresh, '10.20.0.12');
    const off = await me.post('/api/account/two-factor/disable', { password: PASSWORD });
    expect(off.statusCode, off.body).toBe(200);
    expect((await laptop.get('/api/auth/me')).statusCode).toBe(401);
    expect((await me.get('/api/auth/me')).statusCode).toBe(200);
    expect(await sessionsOf(me)).toHaveLength(1);
  });

  it('a lab making it mandatory signs out everyone without it, and audits each', async () => {
    const withIt = await lab.as('doctor');
    await enableTwoFactor(withIt);
    const without = await lab.as('receptionist');
    const withoutPhone = await signInElsewhere(lab, without);
    await enableTwoFactor(lab.admin);
    const res = await lab.admin.put('/api/settings', { twoFactorAuth: true });
    expect(res.statusCode, res.body).toBe(200);
    expect((await without.get('/api/auth/me')).statusCode).toBe(401);
    expect((await withoutPhone.get('/api/auth/me')).statusCode).toBe(401);
    expect((await withIt.get('/api/auth/me')).statusCode).toBe(200);
    expect((await lab.admin.get('/api/auth/me')).statusCode).toBe(200);
    const audit = await rows<{ entity_id: string; new_values: string; user_email: string | null }>(
      lab.database,
      "SELECT entity_id, new_values, user_email FROM audit_log WHERE entity = 'session' AND action = 'logout' AND new_values LIKE '%required by the lab%'",
    );
    const byUser = new Map(audit.map((a) => [a.entity_id, JSON.parse(a.new_values) as Record<string, unknown>]));
    expect(byUser.get(String(without.userId))).toEqual({
      reason: 'two-factor sign-in required by the lab',
      sessions_ended: 2,
    });
    expect(byUser.has(String(withIt.userId))).toBe(false);
    expect(audit.every((a) => a.user_email === ADMIN_EMAIL)).toBe(true);
    // Signing in again asks for the set-up first: no session on a password alone.
    const again = await lab.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: without.email, password: PASSWORD },
    });
    expect(again.json().two_factor.step).toBe('enrol');
    expect(again.cookies.find((c) => c.name === 'lims_session')).toBeUndefined();
  });
});
