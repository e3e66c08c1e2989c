import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, tempDir, type TestLab } from '../helpers.js';
import type { Database_ } from '../../src/core/db/connection.js';
import { describeTarget } from '../../src/core/db/url.js';
import { openTestDatabase, row, rows } from '../db.js';
import { buildApp } from '../../src/server/app.js';
import type { User } from '../../src/shared/schemas/users.js';
import { badFields, errorBody, raw } from './support.js';

const wizard = {
  labName: 'Sunrise Diagnostics',
  labAddress: '22 Park Street, Kolkata',
  labPhone: '+91 33 2222 1111',
  labEmail: 'front@sunrise.test',
  adminName: 'Nandini Rao Menon',
  adminEmail: 'Nandini@Sunrise.test',
  adminPassword: 'sunrise-admin-1',
  confirmPassword: 'sunrise-admin-1',
  timezone: 'Asia/Kolkata',
  currency: 'INR',
  dateFormat: 'DD/MM/YYYY',
};

describe('on a fresh, empty database', () => {
  let database: Database_;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await openTestDatabase(tempDir());
    app = await buildApp({ database, logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('the status says the lab needs setting up, and names the database', async () => {
    const res = await raw(app, { method: 'GET', url: '/api/setup/status' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      needs_setup: true,
      database:
        database.engine === 'sqlite'
          ? { type: 'SQLite', file: database.file }
          : { type: 'PostgreSQL', server: describeTarget(database.target).replace('PostgreSQL ', '') },
    });
    expect(res.body).not.toContain('pg-secret');
    expect((await raw(app, { method: 'GET', url: '/api/health' })).json()).toMatchObject({
      status: 'ok',
      setup_complete: false,
    });
  });

  it('answers the wizard only on loopback and LAN addresses: a rebinding host name gets 403 and no file name', async () => {
    const host = { host: 'rebind.attacker.example' };
    const status = await raw(app, { method: 'GET', url: '/api/setup/status', headers: host });
    expect(status.json()).toEqual({ needs_setup: true });
    const res = await raw(app, { method: 'POST', url: '/api/setup', payload: wizard, headers: host });
    expect(res.statusCode).toBe(403);
    for (const ok of ['192.168.1.20:3001', '10.0.0.5', '127.0.0.1:3001', '[::1]:3001', 'localhost:3001']) {
      const r = await raw(app, { method: 'GET', url: '/api/setup/status', headers: { host: ok } });
      expect(r.json(), ok).toMatchObject({
        needs_setup: true,
        database: { type: database.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL' },
      });
    }
  });

  it('validation names the fields: passwords that do not match, a short password, no lab name', async () => {
    const mismatch = await raw(app, {
      method: 'POST',
      url: '/api/setup',
      payload: { ...wizard, confirmPassword: 'something-else' },
    });
    expect(badFields(mismatch)).toEqual(['confirmPassword']);
    expect(errorBody(mismatch).details?.[0]?.message).toBe('Passwords do not match');
    const weak = await raw(app, {
      method: 'POST',
      url: '/api/setup',
      payload: { ...wizard, adminPassword: 'short', confirmPassword: 'short' },
    });
    expect(badFields(weak)).toEqual(['adminPassword']);
    const nameless = await raw(app, {
      method: 'POST',
      url: '/api/setup',
      payload: { ...wizard, labName: ' ', adminEmail: 'nope', timezone: 'Mars/Olympus' },
    });
    expect(badFields(nameless).sort()).toEqual(['adminEmail', 'labName', 'timezone']);
    expect((await raw(app, { method: 'GET', url: '/api/setup/status' })).json()).toMatchObject({ needs_setup: true });
  });

  it('creates the lab and its administrator, who can then sign in', async () => {
    const res = await raw(app, { method: 'POST', url: '/api/setup', payload: wizard });
    expect(res.statusCode).toBe(201);
    const { admin_id } = res.json<{ organization_id: number; admin_id: number }>();
    expect((await raw(app, { method: 'GET', url: '/api/setup/status' })).json()).toMatchObject({ needs_setup: false });

    const login = await raw(app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nandini@sunrise.test', password: 'sunrise-admin-1' },
    });
    expect(login.statusCode).toBe(200);
    const user = login.json<{ user: User }>().user;
    expect(user).toMatchObject({
      id: admin_id,
      first_name: 'Nandini',
      last_name: 'Rao Menon',
      role: 'superadmin',
      email: 'nandini@sunrise.test',
    });
    const org = await rows(database, 'SELECT name, address, phone, email, timezone FROM organizations');
    expect(org).toEqual([
      {
        name: 'Sunrise Diagnostics',
        address: '22 Park Street, Kolkata',
        phone: '+91 33 2222 1111',
        email: 'front@sunrise.test',
        timezone: 'Asia/Kolkata',
      },
    ]);
  });

  it('refuses a second setup with 409 and changes nothing', async () => {
    const res = await raw(app, {
      method: 'POST',
      url: '/api/setup',
      payload: { ...wizard, labName: 'Takeover Lab', adminEmail: 'intruder@x.test' },
    });
    expect(res.statusCode).toBe(409);
    expect(errorBody(res).message).toMatch(/already set up/);
    expect(await rows(database, 'SELECT name FROM organizations')).toEqual([{ name: 'Sunrise Diagnostics' }]);
    expect(
      Number(
        (await row<{ n: number }>(database, "SELECT count(*) AS n FROM users WHERE email = 'intruder@x.test'"))?.n,
      ),
    ).toBe(0);
  });
});

describe('on a lab that is already set up', () => {
  let lab: TestLab;
  beforeAll(async () => {
    lab = await makeLab();
  });
  afterAll(() => lab.close());

  it('the status says so and setup answers 409', async () => {
    expect((await raw(lab.app, { method: 'GET', url: '/api/setup/status' })).json()).toMatchObject({
      needs_setup: false,
    });
    expect((await raw(lab.app, { method: 'GET', url: '/api/setup/status' })).json()).toEqual({ needs_setup: false });
    const res = await raw(lab.app, { method: 'POST', url: '/api/setup', payload: wizard });
    expect(res.statusCode).toBe(409);
    expect(errorBody(res).code).toBe('ALREADY_SET_UP');
  });
});
