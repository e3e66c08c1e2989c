import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/core/auth/password.js';
import { ADMIN, cleanup, lims, openDbFile, setUpLab, tempDir } from './helpers.js';

let dir: string;
const run = (...args: string[]) => lims(['--data-dir', dir, ...args]);

interface ListedUser {
  email: string;
  role: string;
  is_active: boolean;
  first_name: string;
}

function storedUser(email: string): { password_hash: string; is_active: number } | undefined {
  const db = openDbFile(dir);
  try {
    return db.prepare('SELECT password_hash, is_active FROM users WHERE email = ?').get(email) as
      { password_hash: string; is_active: number } | undefined;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dir = tempDir();
  await setUpLab(dir);
});
afterAll(cleanup);

describe('lims user', () => {
  it('adds a user from flags, who can then sign in with that password', async () => {
    const r = await run(
      'user',
      'add',
      '--email',
      'Ravi@CityLab.in',
      '--first-name',
      'Ravi',
      '--last-name',
      'Kumar',
      '--role',
      'lab_technician',
      '--password',
      'ravi-pass-123',
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Added Ravi Kumar <ravi@citylab\.in> as Lab Technician \(user id \d+\)\.$/m);
    const row = storedUser('ravi@citylab.in');
    expect(row?.is_active).toBe(1);
    expect(await verifyPassword('ravi-pass-123', row!.password_hash)).toBe(true);
  });

  it('refuses a second user with the same email', async () => {
    const r = await run(
      'user',
      'add',
      '--email',
      ADMIN.email,
      '--first-name',
      'X',
      '--last-name',
      'Y',
      '--role',
      'user',
      '--password',
      'whatever-123',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`lims: A user with email ${ADMIN.email} already exists\n`);
  });

  it('names each bad flag and its value, never the password', async () => {
    const r = await run(
      'user',
      'add',
      '--email',
      'not-an-email',
      '--first-name',
      'A',
      '--last-name',
      'B',
      '--role',
      'user',
      '--password',
      'tiny',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--email: Enter a valid email address (got "not-an-email")');
    expect(r.stderr).toContain('--password: Password must be at least 8 characters');
    expect(r.stderr).not.toContain('tiny');

    const role = await run(
      'user',
      'add',
      '--email',
      'c@d.in',
      '--first-name',
      'A',
      '--last-name',
      'B',
      '--role',
      'boss',
      '--password',
      'long-enough-1',
    );
    expect(role.code).toBe(2);
    expect(role.stderr).toContain("'--role <role>' argument 'boss' is invalid");
  });

  it('without a terminal, lists the flags that are missing', async () => {
    const r = await run('user', 'add', '--email', 'e@f.in', '--role', 'user');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^lims: missing --first-name, --last-name, --password: /);
  });

  it('lists users as a table, JSON and CSV, filtered by role', async () => {
    await run(
      'user',
      'add',
      '--email',
      'meera@citylab.in',
      '--first-name',
      'Meera',
      '--last-name',
      'Iyer',
      '--role',
      'receptionist',
      '--password',
      'meera-pass-1',
    );

    const table = await run('user', 'list');
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('Receptionist');
    expect(table.stdout).toContain('meera@citylab.in');
    expect(table.stdout).toContain(ADMIN.email);

    const json = await run('user', 'list', '--format', 'json', '--role', 'receptionist');
    const users = JSON.parse(json.stdout) as ListedUser[];
    expect(users.map((u) => u.email)).toEqual(['meera@citylab.in']);
    expect(users[0]).not.toHaveProperty('password_hash');

    const csv = await run('user', 'list', '--format', 'csv', '--role', 'superadmin');
    expect(csv.stdout).toBe(
      `ID,Name,Email,Role,Department,Active,Last login\n1,Asha Rao,${ADMIN.email},superadmin,Administration,true,\n`,
    );

    const none = await run('user', 'list', '--role', 'validator');
    expect(none.stdout).toBe('No users match.\n');

    const bad = await run('user', 'list', '--format', 'xml');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'--format <format>' argument 'xml' is invalid");
  });

  it('resets a password: the new one works, the old one no longer does', async () => {
    await run(
      'user',
      'add',
      '--email',
      'sunil@citylab.in',
      '--first-name',
      'Sunil',
      '--last-name',
      'Das',
      '--role',
      'collector',
      '--password',
      'old-pass-123',
    );
    const r = await run('user', 'reset-password', 'sunil@citylab.in', '--password', 'new-pass-456');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Password reset for sunil@citylab.in');
    const hash = storedUser('sunil@citylab.in')!.password_hash;
    expect(await verifyPassword('new-pass-456', hash)).toBe(true);
    expect(await verifyPassword('old-pass-123', hash)).toBe(false);

    const missing = await run('user', 'reset-password', 'sunil@citylab.in');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing --password');

    const unknown = await run('user', 'reset-password', 'nobody@citylab.in', '--password', 'new-pass-456');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('lims: no user with email nobody@citylab.in in this lab\n');
  });

  it('deactivates a user, who then drops out of the default list; the superadmin cannot be deactivated', async () => {
    await run(
      'user',
      'add',
      '--email',
      'temp@citylab.in',
      '--first-name',
      'Temp',
      '--last-name',
      'Staff',
      '--role',
      'user',
      '--password',
      'temp-pass-1',
    );
    const r = await run('user', 'deactivate', 'temp@citylab.in');
    expect(r.code).toBe(0);
    expect(storedUser('temp@citylab.in')?.is_active).toBe(0);

    const active = JSON.parse((await run('user', 'list', '--format', 'json')).stdout) as ListedUser[];
    expect(active.map((u) => u.email)).not.toContain('temp@citylab.in');
    const all = JSON.parse((await run('user', 'list', '--all', '--format', 'json')).stdout) as ListedUser[];
    expect(all.find((u) => u.email === 'temp@citylab.in')?.is_active).toBe(false);

    const again = await run('user', 'deactivate', 'temp@citylab.in');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already deactivated');

    const boss = await run('user', 'deactivate', ADMIN.email);
    expect(boss.code).toBe(1);
    expect(boss.stderr).toBe('lims: The superadmin cannot be deleted\n');
    expect(storedUser(ADMIN.email)?.is_active).toBe(1);
  });

  it('says to run setup first on a data dir with no lab, without creating one', async () => {
    const empty = tempDir();
    const r = await lims(['--data-dir', empty, 'user', 'list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`lims: this data dir has no lab yet; run lims setup first (data dir: ${empty})\n`);
  });
});
