/**
 * The probe's requests, each with the answer it must now get. Each lab here is its own
 * (the limits are per app), so counters never leak between tests.
 */
import { row } from '../db.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_EMAIL, PASSWORD, makeLab, tempDir, type TestLab } from '../helpers.js';
import { auditRowsFor, createPatient, createUserVia, errorBody } from './support.js';

const labs: TestLab[] = [];
async function lab(opts: Parameters<typeof makeLab>[0] = {}): Promise<TestLab> {
  const l = await makeLab(opts);
  labs.push(l);
  return l;
}
afterEach(async () => {
  while (labs.length) await labs.pop()!.close();
});

function signIn(l: TestLab, email: string, password: string, ip = '10.9.0.1', headers: Record<string, string> = {}) {
  return l.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    remoteAddress: ip,
    headers,
  });
}
const statuses = (rs: LightMyRequestResponse[]) => rs.map((r) => r.statusCode);

describe('1. limits that hold under parallel requests', () => {
  it('19 wrong passwords and the right one sent at once: at most 5 are checked, the rest get 429', async () => {
    const l = await lab();
    const user = await createUserVia(l.admin, { password: 'parallel-pass-1' });
    const attempts = [
      ...Array.from({ length: 19 }, (_, i) => signIn(l, user.email, `wrong-pass-${i}`)),
      signIn(l, user.email, 'parallel-pass-1'),
    ];
    const codes = statuses(await Promise.all(attempts));
    const checked = codes.filter((c) => c === 401 || c === 200).length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === 429).length).toBe(20 - checked);
  });

  it('11 wrong portal PINs and the right one at once from one address: at most 5 are checked', async () => {
    const l = await lab();
    const p = await createPatient(l.admin, { phone: '9000011111' });
    const issued = await l.admin.post(`/api/patients/${p.id}/portal-pin`);
    const pin = (issued.json() as { pin: string }).pin;
    const wrong = pin === '111111' ? '222222' : '111111';
    const tries = [...Array.from({ length: 11 }, () => wrong), pin].map((x) =>
      l.app.inject({
        method: 'POST',
        url: '/api/portal/login',
        payload: { patient_id: p.patient_id, mobile: '9000011111', pin: x },
        remoteAddress: '10.9.0.2',
      }),
    );
    const codes = statuses(await Promise.all(tries));
    expect(codes.filter((c) => c === 401 || c === 200).length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(7);
  });
});

describe('2. no unauthenticated CPU burn', () => {
  it('a JSON body nested 900,000 deep is refused with 400 before parsing', async () => {
    const l = await lab();
    const deep = '['.repeat(900_000) + ']'.repeat(900_000);
    const res = await l.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: deep,
      headers: { 'content-type': 'application/json' },
    });
    // The public body limit (16 KiB) answers first: 413, no parse at all.
    expect(res.statusCode).toBe(413);
    const nested = `{"email":${'['.repeat(40)}${']'.repeat(40)},"password":"x"}`;
    const res2 = await l.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: nested,
      headers: { 'content-type': 'application/json' },
    });
    expect(res2.statusCode).toBe(400);
    expect(errorBody(res2).code).toBe('BODY_TOO_DEEP');
  });

  it('a signed-in route refuses a deep body too (the parser, not the route, decides)', async () => {
    const l = await lab();
    const deep = await l.app.inject({
      method: 'POST',
      url: '/api/patients',
      payload: `{"first_name":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      headers: { 'content-type': 'application/json', cookie: l.admin.cookie },
    });
    expect(deep.statusCode).toBe(400);
    expect(errorBody(deep).code).toBe('BODY_TOO_DEEP');
  });

  // POST /api/setup on a set-up lab: test/api/setup-cost.test.ts (409 without hashing).

  it('public routes are rate-limited per address (429 with Retry-After)', async () => {
    const l = await lab({ publicRequestsPerMinute: 5 });
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await l.app.inject({ method: 'GET', url: '/api/setup/status', remoteAddress: '10.9.0.3' });
      codes.push(r.statusCode);
      if (r.statusCode === 429) expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(codes).toEqual([200, 200, 200, 200, 200, 429, 429]);
    // Another address is not affected; signed-in routes are not counted.
    expect(
      (await l.app.inject({ method: 'GET', url: '/api/setup/status', remoteAddress: '10.9.0.4' })).statusCode,
    ).toBe(200);
    expect((await l.admin.get('/api/patients')).statusCode).toBe(200);
  });
});

describe('3. lockouts that cannot be weaponised', () => {
  it('five bad sign-ins from one address lock that address for the account, not the real user elsewhere', async () => {
    const l = await lab();
    for (let i = 0; i < 5; i++)
      expect((await signIn(l, ADMIN_EMAIL, `bad-${i}-pass`, '10.9.1.1')).statusCode).toBe(401);
    expect((await signIn(l, ADMIN_EMAIL, PASSWORD, '10.9.1.1')).statusCode).toBe(429);
    expect((await signIn(l, ADMIN_EMAIL, PASSWORD, '10.9.1.2')).statusCode).toBe(200);
  });

  it('an administrator unlocks an account (audited), and it signs in again from the locked address', async () => {
    const l = await lab();
    const user = await createUserVia(l.admin, { password: 'unlock-me-pass-1' });
    for (let i = 0; i < 5; i++) await signIn(l, user.email, `bad-${i}-pass`, '10.9.2.1');
    expect((await signIn(l, user.email, 'unlock-me-pass-1', '10.9.2.1')).statusCode).toBe(429);
    const status = await l.admin.get(`/api/users/${user.id}/sign-in`);
    expect(status.json()).toMatchObject({ sign_in: { failures: 5 } });
    const clerk = await l.as('receptionist');
    expect((await clerk.post(`/api/users/${user.id}/unlock`, {})).statusCode).toBe(403);
    const unlocked = await l.admin.post(`/api/users/${user.id}/unlock`, {});
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.json()).toEqual({ sign_in: { failures: 0, backoff_seconds: 0 } });
    expect((await signIn(l, user.email, 'unlock-me-pass-1', '10.9.2.1')).statusCode).toBe(200);
    const audit = (await auditRowsFor(l, 'user', user.id)).at(-1)!;
    expect(JSON.parse(audit.new_values!)).toEqual({ sign_in_unlocked: true });
    expect(JSON.parse(audit.old_values!)).toEqual({ failed_sign_ins: 5 });
  });

  it('behind --trust-proxy the forwarded client address is the one limited', async () => {
    const l = await lab({ trustProxy: true });
    const via = (client: string) => ({ 'x-forwarded-for': client });
    for (let i = 0; i < 5; i++) await signIn(l, ADMIN_EMAIL, `bad-${i}-pass`, '127.0.0.1', via('192.168.5.10'));
    expect((await signIn(l, ADMIN_EMAIL, PASSWORD, '127.0.0.1', via('192.168.5.10'))).statusCode).toBe(429);
    // The same proxy, another client behind it.
    expect((await signIn(l, ADMIN_EMAIL, PASSWORD, '127.0.0.1', via('192.168.5.11'))).statusCode).toBe(200);
  });

  it('without --trust-proxy a forged X-Forwarded-For changes nothing', async () => {
    const l = await lab();
    for (let i = 0; i < 5; i++)
      await signIn(l, ADMIN_EMAIL, `bad-${i}-pass`, '10.9.3.1', { 'x-forwarded-for': `1.2.3.${i}` });
    expect((await signIn(l, ADMIN_EMAIL, PASSWORD, '10.9.3.1', { 'x-forwarded-for': '1.2.3.99' })).statusCode).toBe(
      429,
    );
  });
});

describe('4. Secure cookies', () => {
  const secure = (r: LightMyRequestResponse) => r.cookies.find((c) => c.name === 'lims_session')?.secure === true;

  it('--secure-cookies marks the session cookie Secure; the default does not', async () => {
    expect(secure(await signIn(await lab({ secureCookies: true }), ADMIN_EMAIL, PASSWORD))).toBe(true);
    expect(secure(await signIn(await lab(), ADMIN_EMAIL, PASSWORD))).toBe(false);
  });

  it('--trust-proxy makes it Secure when the proxy says https', async () => {
    const l = await lab({ trustProxy: true });
    expect(secure(await signIn(l, ADMIN_EMAIL, PASSWORD, '127.0.0.1', { 'x-forwarded-proto': 'https' }))).toBe(true);
    expect(secure(await signIn(l, ADMIN_EMAIL, PASSWORD, '127.0.0.1', { 'x-forwarded-proto': 'http' }))).toBe(false);
  });
});

describe('9. small leaks', () => {
  it('GET /api/setup/status on a set-up lab says only that', async () => {
    const l = await lab();
    expect((await l.app.inject({ method: 'GET', url: '/api/setup/status' })).json()).toEqual({ needs_setup: false });
  });

  it('--allowed-hosts: a request naming another host gets 421', async () => {
    const l = await lab({ allowedHosts: ['lims.clinic.lan', '192.168.1.20:3001'] });
    const at = (host: string) => l.app.inject({ method: 'GET', url: '/api/health', headers: { host } });
    expect((await at('lims.clinic.lan')).statusCode).toBe(200);
    expect((await at('lims.clinic.lan:3001')).statusCode).toBe(200);
    expect((await at('192.168.1.20:3001')).statusCode).toBe(200);
    const evil = await at('rebind.attacker.example');
    expect(evil.statusCode).toBe(421);
    expect(errorBody(evil).code).toBe('HOST_NOT_ALLOWED');
  });
});

describe('6. invisible format characters', () => {
  it('refuses a bidi override in a patient, a user and a test name; keeps ZWJ/ZWNJ of Indian scripts', async () => {
    const l = await lab();
    const spoofed = 'Ram\u202Eesh';
    const patient = await l.admin.post('/api/patients', { first_name: spoofed, last_name: 'K', age: 30 });
    expect(patient.statusCode).toBe(400);
    expect(errorBody(patient).details?.map((d) => d.path)).toContain('first_name');
    const user = await l.admin.post('/api/users', {
      first_name: spoofed,
      last_name: 'K',
      email: 'spoof@lab.test',
      role: 'receptionist',
      password: 'long-enough-pass',
    });
    expect(user.statusCode).toBe(400);
    expect(errorBody(user).details).toContainEqual({
      path: 'first_name',
      message: 'First name contains an invisible control character (U+202E); type it again without it',
    });
    const test = await l.admin.post('/api/tests', { name: 'Glucose\u2066', code: 'GLU', price: 100 });
    expect(test.statusCode).toBe(400);
    const address = await l.admin.post('/api/patients', { first_name: 'Asha', age: 30, address: 'MG Road\u200B 5' });
    expect(errorBody(address).details?.map((d) => d.path)).toEqual(['address']);
    // Devanagari with a zero-width joiner, Malayalam with a non-joiner: real spellings, accepted.
    const hindi = await l.admin.post('/api/patients', { first_name: 'क्\u200Dष', last_name: 'സ്\u200Cര', age: 30 });
    expect(hindi.statusCode, hindi.body).toBe(201);
  });
});

describe('7. exports need export_data', () => {
  it('a collector gets 403 naming export_data; an admin export is audited with its row count', async () => {
    const l = await lab();
    await createPatient(l.admin);
    await createPatient(l.admin);
    const collector = await l.as('collector');
    for (const url of ['/api/patients/export', '/api/bills/export', '/api/test-results/export']) {
      const res = await collector.get(url);
      expect(res.statusCode, url).toBe(403);
      expect(errorBody(res).message).toMatch(/export_data/);
    }
    const res = await l.admin.get('/api/patients/export');
    expect(res.statusCode).toBe(200);
    const exported = (await row<{ new_values: string }>(
      l.database,
      `SELECT new_values FROM audit_log WHERE action = 'export' AND entity = 'patient' ORDER BY id DESC LIMIT 1`,
    ))!;
    expect(JSON.parse(exported.new_values)).toMatchObject({ format: 'csv', rows: 2, complete: true });
  });
});

describe('8. patient documents are not cached', () => {
  it('JSON, CSV exports and bill PDFs answer Cache-Control: no-store', async () => {
    const l = await lab();
    const p = await createPatient(l.admin);
    const t = (await l.admin.post('/api/tests', { name: 'Urea', code: 'UREA', price: 150 })).json().test.id;
    const bill = (
      await l.admin.post('/api/bills', { patient_id: p.id, items: [{ item_type: 'test', item_id: t }] })
    ).json().bill;
    for (const url of [`/api/patients/${p.id}`, '/api/patients/export', `/api/bills/${bill.id}/pdf`, '/api/auth/me']) {
      const res = await l.admin.get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toMatch(/no-store/);
    }
  });
});

describe('9. discounts above a role ceiling need an approver', () => {
  it('a receptionist billing at price 0 (100% off) is refused; an admin approves with a password; all audited', async () => {
    const l = await lab();
    const p = await createPatient(l.admin);
    const t = (await l.admin.post('/api/tests', { name: 'Lipid Panel', code: 'LIPID', price: 800 })).json().test.id;
    const desk = await l.as('receptionist');
    const free = { patient_id: p.id, items: [{ item_type: 'test', item_id: t, price: 0 }] };
    const refused = await desk.post('/api/bills', free);
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused).code).toBe('DISCOUNT_APPROVAL_REQUIRED');
    expect(errorBody(refused).message).toMatch(/100% below the catalogue prices; your role may give up to 10%/);
    // Within the ceiling: no approver needed.
    expect(
      (await desk.post('/api/bills', { ...free, items: [{ item_type: 'test', item_id: t, price: 720 }] })).statusCode,
    ).toBe(201);
    const wrong = await desk.post('/api/bills', {
      ...free,
      discount_approval: { approver_email: ADMIN_EMAIL, approver_password: 'not-the-password' },
    });
    expect(wrong.statusCode).toBe(403);
    expect(errorBody(wrong).code).toBe('APPROVAL_REFUSED');
    const other = await l.as('receptionist');
    const peer = await desk.post('/api/bills', {
      ...free,
      discount_approval: { approver_email: other.email, approver_password: PASSWORD },
    });
    expect(errorBody(peer).message).toMatch(/may approve discounts up to 10%; this bill needs 100%/);
    const approved = await desk.post('/api/bills', {
      ...free,
      discount_approval: { approver_email: ADMIN_EMAIL, approver_password: PASSWORD },
    });
    expect(approved.statusCode, approved.body).toBe(201);
    const bill = approved.json().bill;
    expect(bill.final_amount).toBe(0);
    const audit = JSON.parse((await auditRowsFor(l, 'bill', bill.id)).at(-1)!.new_values!);
    expect(audit.discount).toMatchObject({
      effective_percent: 100,
      ceiling_percent: 10,
      approved_by_email: ADMIN_EMAIL,
    });
    expect(JSON.stringify(audit)).not.toMatch(new RegExp(PASSWORD));
  });
});

describe('the public rate limit counts API calls only', () => {
  it('the UI files are not counted (a page load fetches dozens of scripts)', async () => {
    const ui = tempDir('lims-ui-');
    mkdirSync(join(ui, 'assets'));
    writeFileSync(join(ui, 'index.html'), '<!doctype html><title>lims</title>');
    writeFileSync(join(ui, 'assets', 'page.js'), 'export {};');
    const l = await lab({ publicRequestsPerMinute: 3, uiDir: ui });
    for (let i = 0; i < 10; i++) {
      const r = await l.app.inject({ method: 'GET', url: '/assets/page.js', remoteAddress: '10.9.9.9' });
      expect(r.statusCode).toBe(200);
    }
    expect((await l.app.inject({ method: 'GET', url: '/api/health', remoteAddress: '10.9.9.9' })).statusCode).toBe(200);
  });
});
