import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/core/auth/password.js';
import { systemActor } from '../../src/core/context.js';
import { primaryOrganization } from '../../src/core/settings/organization.js';
import { createUser } from '../../src/core/users/service.js';
import { saveEnabled } from '../../src/core/two-factor/repository.js';
import type { Role } from '../../src/shared/roles.js';
import { row } from '../db.js';
import {
  ADMIN,
  cleanup,
  dbFileOf,
  labDatabaseUsed,
  lims,
  limsInProcess,
  openLabDatabase,
  setUpLab,
  tempDir,
} from './helpers.js';

let dir: string;
// In this process (runCli); where no terminal is the point, on the built binary with stdin a pipe.
const run = (...args: string[]) => limsInProcess(['--data-dir', dir, ...args]);
const spawned = (...args: string[]) => lims(['--data-dir', dir, ...args]);

interface ListedUser {
  email: string;
  role: string;
  is_active: boolean;
}

async function storedUser(email: string): Promise<{ password_hash: string; is_active: number } | undefined> {
  const database = await openLabDatabase(dir);
  try {
    return await row<{ password_hash: string; is_active: number }>(
      database,
      'SELECT password_hash, is_active FROM users WHERE email = ?',
      email,
    );
  } finally {
    await database.close();
  }
}

/** Users the list/reset/deactivate tests act on, made through core: adding via the CLI has its own test. */
const SEEDED: { email: string; first_name: string; last_name: string; role: Role; password: string }[] = [
  { email: 'meera@citylab.in', first_name: 'Meera', last_name: 'Iyer', role: 'receptionist', password: 'meera-pass-1' },
  { email: 'sunil@citylab.in', first_name: 'Sunil', last_name: 'Das', role: 'collector', password: 'old-pass-123' },
  { email: 'temp@citylab.in', first_name: 'Temp', last_name: 'Staff', role: 'user', password: 'temp-pass-1' },
];

beforeAll(async () => {
  dir = tempDir();
  await setUpLab(dir);
  const database = await openLabDatabase(dir);
  try {
    const org = await primaryOrganization(database.db);
    for (const u of SEEDED) await createUser(database.db, systemActor(org!.id, 'test'), u);
  } finally {
    await database.close();
  }
});
afterAll(cleanup);

describe('lims user add', () => {
  it('adds a user from flags, who can then sign in with that password', async () => {
    const r = await run(
      ...['user', 'add', '--email', 'Ravi@CityLab.in', '--first-name', 'Ravi', '--last-name', 'Kumar'],
      ...['--role', 'lab_technician', '--password', 'ravi-pass-123'],
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Added Ravi Kumar <ravi@citylab\.in> as Lab Technician \(user id \d+\)\.$/m);
    const stored = await storedUser('ravi@citylab.in');
    expect(stored?.is_active).toBe(1);
    expect(await verifyPassword('ravi-pass-123', stored!.password_hash)).toBe(true);
  });

  it('refuses a second user with the same email (exit 1)', async () => {
    const r = await run(
      ...['user', 'add', '--email', ADMIN.email, '--first-name', 'X', '--last-name', 'Y'],
      ...['--role', 'user', '--password', 'whatever-123'],
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`lims: A user with email ${ADMIN.email} already exists\n`);
  });

  it('names each bad flag and its value (exit 2), never the password', async () => {
    const [r, role] = await Promise.all([
      run(
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
      ),
      run(
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
      ),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--email: Enter a valid email address (got "not-an-email")');
    expect(r.stderr).toContain('--password: Password must be at least 8 characters');
    expect(r.stderr).not.toContain('tiny');
    expect(role.code).toBe(2);
    expect(role.stderr).toContain("'--role <role>' argument 'boss' is invalid");
    expect(await storedUser('c@d.in')).toBeUndefined();
  });

  it('without a terminal, lists the flags that are missing', async () => {
    const r = await spawned('user', 'add', '--email', 'e@f.in', '--role', 'user');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^lims: missing --first-name, --last-name, --password: /);
  });
});

describe('lims user list', () => {
  it('lists users as a table, JSON and CSV, filtered by role', async () => {
    const [table, json, csv, none, bad] = await Promise.all([
      run('user', 'list'),
      run('user', 'list', '--format', 'json', '--role', 'receptionist'),
      run('user', 'list', '--format', 'csv', '--role', 'superadmin'),
      run('user', 'list', '--role', 'validator'),
      run('user', 'list', '--format', 'xml'),
    ]);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('Receptionist');
    expect(table.stdout).toContain('meera@citylab.in');
    expect(table.stdout).toContain(ADMIN.email);

    const users = JSON.parse(json.stdout) as ListedUser[];
    expect(users.map((u) => u.email)).toEqual(['meera@citylab.in']);
    expect(users[0]).not.toHaveProperty('password_hash');

    expect(csv.stdout).toBe(
      `ID,Name,Email,Role,Department,Active,Status,Last login\n1,Asha Rao,${ADMIN.email},superadmin,Administration,true,active,\n`,
    );
    expect(none.stdout).toBe('No users match.\n');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'--format <format>' argument 'xml' is invalid");
  });
});

describe('lims user reset-password', () => {
  it('sets a new password: the new one works, the old one no longer does', async () => {
    const r = await run('user', 'reset-password', 'sunil@citylab.in', '--password', 'new-pass-456');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Password reset for sunil@citylab.in');
    const hash = (await storedUser('sunil@citylab.in'))!.password_hash;
    expect(await verifyPassword('new-pass-456', hash)).toBe(true);
    expect(await verifyPassword('old-pass-123', hash)).toBe(false);
  });

  it('needs --password without a terminal, and a user of this lab', async () => {
    const [missing, unknown] = await Promise.all([
      spawned('user', 'reset-password', 'sunil@citylab.in'),
      run('user', 'reset-password', 'nobody@citylab.in', '--password', 'new-pass-456'),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing --password');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('lims: no user with email nobody@citylab.in in this lab\n');
  });
});

describe('lims user deactivate', () => {
  it('deactivates a user, who then drops out of the default list', async () => {
    const r = await run('user', 'deactivate', 'temp@citylab.in');
    expect(r.code).toBe(0);
    expect((await storedUser('temp@citylab.in'))?.is_active).toBe(0);

    const [active, all, again] = await Promise.all([
      run('user', 'list', '--format', 'json'),
      run('user', 'list', '--all', '--format', 'json'),
      run('user', 'deactivate', 'temp@citylab.in'),
    ]);
    expect((JSON.parse(active.stdout) as ListedUser[]).map((u) => u.email)).not.toContain('temp@citylab.in');
    expect((JSON.parse(all.stdout) as ListedUser[]).find((u) => u.email === 'temp@citylab.in')?.is_active).toBe(false);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already deactivated');
  });

  it('refuses to deactivate the superadmin (exit 1)', async () => {
    const r = await run('user', 'deactivate', ADMIN.email);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('lims: The superadmin cannot be deleted\n');
    expect((await storedUser(ADMIN.email))?.is_active).toBe(1);
  });
});

describe('lims user reset-two-factor', () => {
  it("switches a user's two-factor off (audited as the CLI); a user without it fails with one line", async () => {
    const database = await openLabDatabase(dir);
    try {
      const user = await row<{ id: number; organization_id: number }>(
        database,
        'SELECT id, organization_id FROM users WHERE email = ?',
        'meera@citylab.in',
      );
      await saveEnabled(
        database.db,
        user!.organization_id,
        user!.id,
        'v1:sealed-elsewhere',
        1,
        new Date().toISOString(),
      );
    } finally {
      await database.close();
    }
    const r = await run('user', 'reset-two-factor', 'meera@citylab.in');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Two-factor sign-in reset for meera@citylab.in');
    const after = await openLabDatabase(dir);
    try {
      expect(
        await row(
          after,
          'SELECT 1 AS x FROM user_two_factor u JOIN users ON users.id = u.user_id WHERE email = ?',
          'meera@citylab.in',
        ),
      ).toBeUndefined();
      const audit = await row<{ user_email: string; new_values: string }>(
        after,
        "SELECT user_email, new_values FROM audit_log WHERE entity = 'two_factor' ORDER BY id DESC",
      );
      expect(audit?.user_email).toBe('cli');
      expect(JSON.parse(audit!.new_values)).toEqual({ enabled: false, reset_by_administrator: true });
    } finally {
      await after.close();
    }

    const again = await run('user', 'reset-two-factor', 'meera@citylab.in');
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe('lims: meera@citylab.in has not set up two-factor sign-in');
  });
});

describe('lims user on a data dir without a lab', () => {
  it('says to run setup first, without creating a database', async () => {
    const empty = tempDir();
    const r = await lims(['--data-dir', empty, 'user', 'list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`lims: this data dir has no lab yet; run lims setup first (data dir: ${empty})\n`);
    expect(existsSync(dbFileOf(empty))).toBe(false);
    expect(await labDatabaseUsed(empty)).toBe(false);
  });
});
