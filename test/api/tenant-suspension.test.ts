import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { client, makeLab, type Client, type TestLab } from '../helpers.js';
import { exec, rows } from '../db.js';
import { createPatient } from './support.js';
import { createConnectionAs, freePort, listenersFor, until } from './interface-support.js';
import { logIncomplete, receiveMessage } from '../../src/core/interfaces/receive.js';
import { findConnectionRow } from '../../src/core/interfaces/repository.js';
import { dueOutboxIds } from '../../src/core/messaging/repository.js';
import { PORTAL_LAB_CLOSED } from '../../src/shared/schemas/portal.js';
import type { Connection } from '../../src/shared/schemas/connections.js';
import type { PortalPinIssued } from '../../src/shared/schemas/portal.js';
import type { IssuedInvitation, Tenant } from '../../src/shared/schemas/tenants.js';
import type { User } from '../../src/shared/schemas/users.js';

/**
 * A suspended lab is closed as a whole: its patients' portal (sign-in refused, sessions ended),
 * its analyzer lines (listeners stopped, nothing stored) and what it sends out; reactivating it
 * brings them back. Two labs on one server: the first (the server's, with the superadmin) and B.
 */
let lab: TestLab;
let B: { org: number; domain: string; admin: Client };
let ipSeq = 0;
const PASSWORD_B = 'suspension-pass-1';

async function newTenant(name: string): Promise<{ org: number; domain: string; admin: Client }> {
  const email = `${name.toLowerCase()}-${process.pid}@suspend.test`;
  const res = await lab.admin.post('/api/tenants', {
    name,
    domain: `${name.toLowerCase()}-${process.pid}.suspend.test`,
    plan: 'basic',
    admin_email: email,
  });
  expect(res.statusCode, res.body).toBe(201);
  const created = res.json<{ tenant: Tenant; invitation: IssuedInvitation }>();
  const token = created.invitation.path.split('#')[1]!;
  const accepted = await lab.app.inject({
    method: 'POST',
    url: '/api/invitations/accept',
    payload: { token, password: PASSWORD_B },
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
  const user = accepted.json<{ user: User }>().user;
  const cookie = accepted.cookies.find((c) => c.name === 'lims_session')!;
  return {
    org: created.tenant.id,
    domain: created.tenant.domain!,
    admin: client(lab.app, `lims_session=${cookie.value}`, user.id, email),
  };
}

/** The superadmin changes B's status; suspension signs B's staff out, so B's admin signs in again after. */
async function setStatus(status: 'suspended' | 'active' | 'inactive'): Promise<void> {
  const res = await lab.admin.put(`/api/tenants/${B.org}`, { status });
  expect(res.statusCode, res.body).toBe(200);
  if (status === 'active') {
    const signIn = await lab.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: B.admin.email, password: PASSWORD_B, lab: B.domain },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    const cookie = signIn.cookies.find((c) => c.name === 'lims_session')!;
    B.admin = client(lab.app, `lims_session=${cookie.value}`, B.admin.userId, B.admin.email);
  }
}

function portalLogin(body: { patient_id: string; mobile: string; pin: string }): Promise<LightMyRequestResponse> {
  ipSeq += 1;
  return lab.app.inject({
    method: 'POST',
    url: '/api/portal/login',
    payload: body,
    remoteAddress: `10.8.0.${ipSeq}`,
  });
}

function portalCookie(res: LightMyRequestResponse): string {
  const c = res.cookies.find((x) => x.name === 'lims_portal');
  if (!c) throw new Error(`no portal cookie: ${res.statusCode} ${res.body}`);
  return `lims_portal=${c.value}`;
}

const portalMe = (cookie: string) => lab.app.inject({ method: 'GET', url: '/api/portal/me', headers: { cookie } });

/** Whether a TCP connect to the port is taken (true) or refused (false). */
function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

beforeAll(async () => {
  lab = await makeLab();
  B = await newTenant('Bravo');
});

afterAll(async () => {
  await lab?.close();
});

describe('the portal of a suspended lab', () => {
  it('refuses sign-in, ends the sessions it had, and opens again on reactivation', async () => {
    const patient = await createPatient(B.admin, { phone: '98450 33333' });
    const issued = await B.admin.post(`/api/patients/${patient.id}/portal-pin`);
    expect(issued.statusCode, issued.body).toBe(201);
    const login = { patient_id: patient.patient_id, mobile: '9845033333', pin: issued.json<PortalPinIssued>().pin };

    const before = await portalLogin(login);
    expect(before.statusCode, before.body).toBe(200);
    const cookie = portalCookie(before);
    expect((await portalMe(cookie)).statusCode).toBe(200);

    await setStatus('suspended');
    const ended = await portalMe(cookie);
    expect(ended.statusCode).toBe(401);
    expect(await rows(lab.database, 'SELECT id FROM portal_sessions WHERE organization_id = ?', B.org)).toEqual([]);

    const refused = await portalLogin(login);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'LAB_CLOSED',
      message: PORTAL_LAB_CLOSED,
    });
    expect(refused.cookies.find((c) => c.name === 'lims_portal')).toBeUndefined();
    expect(await rows(lab.database, 'SELECT id FROM portal_sessions WHERE organization_id = ?', B.org)).toEqual([]);
    // A wrong PIN still answers as any wrong PIN: the lab's state is told only to the patient.
    expect((await portalLogin({ ...login, pin: login.pin === '000000' ? '111111' : '000000' })).statusCode).toBe(401);

    await setStatus('active');
    const again = await portalLogin(login);
    expect(again.statusCode, again.body).toBe(200);
    const second = portalCookie(again);
    expect((await portalMe(second)).statusCode).toBe(200);

    // A status closed by any other way (another server, a restore): the session is refused and removed.
    await exec(lab.database, "UPDATE organizations SET status = 'inactive' WHERE id = ?", B.org);
    const closed = await portalMe(second);
    expect(closed.statusCode, closed.body).toBe(403);
    expect(closed.json()).toMatchObject({ code: 'LAB_CLOSED', message: PORTAL_LAB_CLOSED });
    expect(await rows(lab.database, 'SELECT id FROM portal_sessions WHERE organization_id = ?', B.org)).toEqual([]);
    await exec(lab.database, "UPDATE organizations SET status = 'active' WHERE id = ?", B.org);
    await setStatus('active');
  });
});

describe('the analyzer lines of a suspended lab', () => {
  it('stop listening and store nothing, and listen again on reactivation', async () => {
    const port = await freePort();
    const conn = await createConnectionAs({ ...lab, admin: B.admin }, {
      name: 'Bravo HL7',
      protocol: 'hl7',
      transport: 'tcp-server',
      port,
      enabled: true,
    } as Record<string, unknown>);
    // Every lab's connections, as lims serve runs them.
    const listeners = await listenersFor(() => lab.database.db, B.org, { only: undefined });
    try {
      await until('the listener', async () => (await connects(port)) || undefined);
      const status = async () =>
        (await B.admin.get(`/api/connections/${conn.id}`)).json<{ connection: Connection }>().connection.listen_status;

      await setStatus('suspended');
      await until('the listener to stop', async () => !(await connects(port)));
      expect(await connects(port)).toBe(false);

      // A message that reaches the lab after suspension (a line still open) is refused, not stored.
      const row_ = (await findConnectionRow(lab.database.db, B.org, conn.id))!;
      const oru = ['MSH|^~\\&|AN|LAB|LIMS|LAB|20261126120000||ORU^R01|S1|P|2.5.1', 'PID|1||X'].join('\r');
      await expect(receiveMessage(lab.database.db, row_, 'hl7', Buffer.from(oru))).rejects.toMatchObject({
        code: 'LAB_CLOSED',
      });
      await expect(logIncomplete(lab.database.db, row_, 'hl7', Buffer.from(oru), 'cut')).rejects.toMatchObject({
        code: 'LAB_CLOSED',
      });
      const stored = await rows(lab.database, 'SELECT id FROM interface_messages WHERE connection_id = ?', conn.id);
      expect(stored).toEqual([]);

      await setStatus('active');
      await until('the listener to start again', async () => (await connects(port)) || undefined);
      await until('the listener status', async () => (await status()) === 'listening');
      const taken = await receiveMessage(lab.database.db, row_, 'hl7', Buffer.from(oru));
      expect(taken.messageId).toBeGreaterThan(0);
    } finally {
      await listeners.stop();
    }
  });
});

describe('what a suspended lab sends', () => {
  it('waits in the outbox until the lab is reactivated', async () => {
    const now = new Date().toISOString();
    await exec(
      lab.database,
      `INSERT INTO outbox (organization_id, channel, kind, recipient, subject, body, next_attempt_at, created_at)
       VALUES (?, 'sms', 'report_ready', '+919845044444', NULL, 'Your report is ready', ?, ?)`,
      B.org,
      now,
      now,
    );
    const mine = () => dueOutboxIds(lab.database.db, new Date(Date.now() + 1000).toISOString(), 100);
    const outboxOfB = (
      await rows<{ id: number }>(lab.database, 'SELECT id FROM outbox WHERE organization_id = ?', B.org)
    ).map((r) => Number(r.id));
    expect(outboxOfB).toHaveLength(1);
    expect(await mine()).toContain(outboxOfB[0]);
    await setStatus('suspended');
    expect(await mine()).not.toContain(outboxOfB[0]);
    await setStatus('active');
    expect(await mine()).toContain(outboxOfB[0]);
  });
});

describe("the server's own tools", () => {
  it("are the server superadmin's: a lab's admin gets 403 on backups, diagnostics and the all-labs audit check", async () => {
    const serverWide: [string, string][] = [
      ['GET', '/api/settings/backups'],
      ['POST', '/api/settings/backups'],
      ['GET', '/api/system/diagnostics'],
      ['POST', '/api/system/checks/audit-chain'],
    ];
    for (const [method, url] of serverWide) {
      const res = await (method === 'GET' ? B.admin.get(url) : B.admin.post(url));
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
      expect(res.body).not.toMatch(/[/\\]backups|\.db\b/);
    }
    expect(await rows(lab.database, 'SELECT id FROM backup_runs')).toEqual([]);

    // The lab's own checks stay the lab admin's.
    const own = await B.admin.post('/api/system/checks/patient-write');
    expect(own.statusCode, own.body).toBe(200);
    expect((await B.admin.get('/api/settings')).statusCode).toBe(200);

    // The server's superadmin still has them.
    const backups = await lab.admin.get('/api/settings/backups');
    expect(backups.statusCode, backups.body).toBe(200);
    const diagnostics = await lab.admin.get('/api/system/diagnostics');
    expect(diagnostics.statusCode, diagnostics.body).toBe(200);
    expect(diagnostics.json<{ database: { size_bytes: number } }>().database.size_bytes).toBeGreaterThan(0);
    const chain = await lab.admin.post('/api/system/checks/audit-chain');
    expect(chain.statusCode, chain.body).toBe(200);
    expect(chain.json<{ audit: { ok: boolean } }>().audit.ok).toBe(true);
  });
});
