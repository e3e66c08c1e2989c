import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, makeLab, type TestLab } from '../helpers.js';
import type { IssuedInvitation, Tenant } from '../../src/shared/schemas/tenants.js';

/** The lab's name on the sign-in page (by the address it is opened at) and in the sidebar (the user's lab). */
let lab: TestLab;
let tenant: { id: number; domain: string; cookie: string };

beforeAll(async () => {
  lab = await makeLab();
  const domain = `north-${process.pid}.labname.test`;
  const res = await lab.admin.post('/api/tenants', {
    name: 'North Diagnostics',
    domain,
    plan: 'basic',
    admin_email: `north.${process.pid}@labname.test`,
  });
  expect(res.statusCode, res.body).toBe(201);
  const created = res.json<{ tenant: Tenant; invitation: IssuedInvitation }>();
  const accepted = await lab.app.inject({
    method: 'POST',
    url: '/api/invitations/accept',
    payload: { token: created.invitation.path.split('#')[1]!, password: 'north-pass-123' },
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
  const cookie = accepted.cookies.find((c) => c.name === 'lims_session')!;
  tenant = { id: created.tenant.id, domain, cookie: `lims_session=${cookie.value}` };
});
afterAll(() => lab.close());

const signInLab = (host?: string) => lab.app.inject({ url: '/api/auth/lab', ...(host ? { headers: { host } } : {}) });

describe('the lab name on the sign-in page', () => {
  it("answers without a session with the lab's name and whether to ask for the lab, nothing else", async () => {
    const res = await signInLab();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: 'Test Lab', ask_lab: true });
  });

  it("names the lab whose domain the page is opened at; any other address names the server's first lab", async () => {
    expect((await signInLab(tenant.domain)).json()).toEqual({ name: 'North Diagnostics', ask_lab: false });
    expect((await signInLab(tenant.domain.toUpperCase())).json()).toEqual({
      name: 'North Diagnostics',
      ask_lab: false,
    });
    expect((await signInLab('localhost')).json()).toEqual({ name: 'Test Lab', ask_lab: true });
  });
});

describe('the lab name in the sidebar', () => {
  it("is the signed-in user's own lab", async () => {
    expect((await lab.admin.get('/api/auth/my-lab')).json()).toEqual({ name: 'Test Lab' });
    const north = client(lab.app, tenant.cookie, 0, 'north');
    expect((await north.get('/api/auth/my-lab')).json()).toEqual({ name: 'North Diagnostics' });
  });

  it('needs a session', async () => {
    expect((await lab.app.inject({ url: '/api/auth/my-lab' })).statusCode).toBe(401);
  });
});
