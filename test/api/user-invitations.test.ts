import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { row, rows } from '../db.js';
import { badFields, errorBody, otherLabAdmin, uniqueEmail, uniqueWord } from './support.js';
import type { IssuedInvitation } from '../../src/shared/schemas/tenants.js';
import type { OpenInvitation } from '../../src/shared/schemas/invitations.js';
import type { User } from '../../src/shared/schemas/users.js';

/**
 * Staff invited by email on the Users screen: an admin adds an account without typing a
 * password; its owner sets one through a one-time link. Resend makes a new link (the old one stops
 * working); withdraw ends the link.
 */
let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

const tokenOf = (i: IssuedInvitation) => i.path.split('#')[1]!;

function invite(overrides: Record<string, unknown> = {}, as = lab.admin) {
  return as.post('/api/users/invite', {
    first_name: uniqueWord('In'),
    last_name: 'Vitee',
    email: uniqueEmail('invitee'),
    role: 'receptionist',
    ...overrides,
  });
}

async function invited(overrides: Record<string, unknown> = {}) {
  const res = await invite(overrides);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ user: User; invitation: IssuedInvitation }>();
}

const accept = (token: string, password: string) =>
  lab.app.inject({ method: 'POST', url: '/api/invitations/accept', payload: { token, password } });
const preview = (token: string) => lab.app.inject({ url: `/api/invitations/preview?token=${token}` });

async function openList(): Promise<OpenInvitation[]> {
  const res = await lab.admin.get('/api/users/invitations');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ invitations: OpenInvitation[] }>().invitations;
}

describe('inviting staff by email', () => {
  it('creates the account without a password; the link sets one and signs them in with their role', async () => {
    const { user, invitation } = await invited({ role: 'lab_technician' });
    expect(user).toMatchObject({ role: 'lab_technician', last_login: null, is_active: true });
    const stored = await row<{ password_hash: string }>(
      lab.database,
      'SELECT password_hash FROM users WHERE id = ?',
      user.id,
    );
    expect(stored!.password_hash).toBe('');
    expect((await openList()).map((i) => [i.user_id, i.email, i.expired])).toContainEqual([user.id, user.email, false]);
    // No password, no sign-in yet.
    const early = await lab.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'anything-at-all-1' },
    });
    expect(early.statusCode).toBe(401);

    expect((await preview(tokenOf(invitation))).json()).toEqual({
      invitation: { lab_name: 'Test Lab', email: user.email },
    });
    const ok = await accept(tokenOf(invitation), 'technician-pass-5');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<{ user: User }>().user).toMatchObject({ id: user.id, role: 'lab_technician' });
    expect((await openList()).map((i) => i.user_id)).not.toContain(user.id);
    const audit = await rows<{ entity: string; action: string; new_values: string }>(
      lab.database,
      "SELECT entity, action, new_values FROM audit_log WHERE entity IN ('user', 'invitation') AND entity_id = ? ORDER BY id",
      String(user.id),
    );
    expect(audit.map((a) => `${a.entity}:${a.action}`)).toEqual(['user:create', 'invitation:create', 'user:update']);
    expect(JSON.stringify(audit)).not.toContain(tokenOf(invitation));
  });

  it('applies the rules of Add User: permission, role rank, fields, one account per email per lab', async () => {
    const receptionist = await lab.as('receptionist');
    expect((await invite({}, receptionist)).statusCode).toBe(403);
    expect((await receptionist.get('/api/users/invitations')).statusCode).toBe(200);
    expect(badFields(await invite({ email: 'nope', role: 'wizard', first_name: '' })).sort()).toEqual([
      'email',
      'first_name',
      'role',
    ]);
    const email = uniqueEmail('taken');
    await invited({ email });
    const dup = await invite({ email: email.toUpperCase() });
    expect(dup.statusCode).toBe(409);
    expect(errorBody(dup).code).toBe('EMAIL_TAKEN');
    // The same email in another lab is another account.
    const other = await otherLabAdmin(lab);
    expect((await invite({ email }, other.admin)).statusCode).toBe(201);
    // Another lab's user: 404 to resend or withdraw.
    const mine = await invited();
    expect((await other.admin.post(`/api/users/${mine.user.id}/invitation`)).statusCode).toBe(404);
    expect((await other.admin.delete(`/api/users/${mine.user.id}/invitation`)).statusCode).toBe(404);
    expect(
      (await other.admin.get('/api/users/invitations'))
        .json<{ invitations: OpenInvitation[] }>()
        .invitations.map((i) => i.user_id),
    ).not.toContain(mine.user.id);
  });
});

describe('resending and withdrawing', () => {
  it('a new link withdraws the old one; once the password is set there are no more links', async () => {
    const { user, invitation } = await invited();
    const again = await lab.admin.post(`/api/users/${user.id}/invitation`);
    expect(again.statusCode, again.body).toBe(201);
    const fresh = again.json<{ invitation: IssuedInvitation }>().invitation;
    expect(errorBody(await preview(tokenOf(invitation))).code).toBe('INVITATION_REVOKED');
    expect((await accept(tokenOf(fresh), 'receptionist-pass-7')).statusCode).toBe(200);
    const after = await lab.admin.post(`/api/users/${user.id}/invitation`);
    expect(after.statusCode).toBe(409);
    expect(errorBody(after).code).toBe('PASSWORD_SET');
  });

  it('withdrawing ends the link and leaves the account without a password', async () => {
    const { user, invitation } = await invited();
    const res = await lab.admin.delete(`/api/users/${user.id}/invitation`);
    expect(res.statusCode, res.body).toBe(200);
    expect(errorBody(await accept(tokenOf(invitation), 'receptionist-pass-7')).code).toBe('INVITATION_REVOKED');
    expect((await openList()).map((i) => i.user_id)).not.toContain(user.id);
    const twice = await lab.admin.delete(`/api/users/${user.id}/invitation`);
    expect(twice.statusCode).toBe(409);
    // A new link can still be sent.
    expect((await lab.admin.post(`/api/users/${user.id}/invitation`)).statusCode).toBe(201);
  });

  it('sends no link to an account that was never invited (a referring doctor without sign-in)', async () => {
    const doctor = await lab.admin.post('/api/doctors', {
      first_name: 'Refer',
      last_name: uniqueWord('Doc'),
      email: uniqueEmail('refdoc'),
      status: 'active',
      can_sign_in: false,
    });
    expect(doctor.statusCode, doctor.body).toBe(201);
    const res = await lab.admin.post(`/api/users/${doctor.json<{ doctor: { id: number } }>().doctor.id}/invitation`);
    expect(res.statusCode).toBe(409);
    expect(errorBody(res).code).toBe('NOT_INVITED');
  });

  it('lists an expired link as expired; a deactivated account’s link stops working', async () => {
    const a = await invited();
    await rows(
      lab.database,
      "UPDATE invitations SET expires_at = '2020-01-01T00:00:00.000Z' WHERE user_id = ?",
      a.user.id,
    );
    expect((await openList()).find((i) => i.user_id === a.user.id)?.expired).toBe(true);
    const b = await invited();
    expect((await lab.admin.delete(`/api/users/${b.user.id}`)).statusCode).toBe(200);
    expect(errorBody(await preview(tokenOf(b.invitation))).code).toBe('INVITATION_REVOKED');
    expect((await openList()).map((i) => i.user_id)).not.toContain(b.user.id);
  });

  it('makes the account Add User would: the title kept, a centre login bound to its centre and to nothing else', async () => {
    const { user } = await invited({ title: 'Dr', role: 'lab_technician' });
    expect(user.title).toBe('Dr');
    const centre = await lab.admin.post('/api/centres', { name: uniqueWord('Centre '), credit_days: 30 });
    expect(centre.statusCode, centre.body).toBe(201);
    const centreId = centre.json<{ centre: { id: number } }>().centre.id;
    expect(badFields(await invite({ role: 'centre' }))).toEqual(['centre_id']);
    expect(badFields(await invite({ role: 'receptionist', centre_id: centreId }))).toEqual(['centre_id']);
    const bound = await invited({ role: 'centre', centre_id: centreId });
    const stored = await row<{ centre_id: number | null }>(
      lab.database,
      'SELECT centre_id FROM users WHERE id = ?',
      bound.user.id,
    );
    expect(Number(stored!.centre_id)).toBe(centreId);
    // Refused invitations left no account behind.
    const emails = await rows<{ n: number }>(lab.database, "SELECT count(*) AS n FROM users WHERE role = 'centre'");
    expect(Number(emails[0]!.n)).toBe(1);
  });
});
