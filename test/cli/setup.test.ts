import { existsSync, readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/core/auth/password.js';
import { ADMIN, cleanup, dbFileOf, lims, openDbFile, setUpLab, tempDir } from './helpers.js';

afterAll(cleanup);

interface UserRow {
  email: string;
  role: string;
  first_name: string;
  last_name: string;
  password_hash: string;
}

describe('lims setup --yes', () => {
  it('creates the lab and its superadmin from flags and prints the next steps', async () => {
    const dir = tempDir();
    const r = await setUpLab(dir, [
      '--timezone',
      'UTC',
      '--currency',
      'USD',
      '--date-format',
      'YYYY-MM-DD',
      '--lab-phone',
      '+91 80 4000 1234',
    ]);
    expect(r.stdout).toContain('Lab "City Diagnostics" is set up.');
    expect(r.stdout).toContain(`lims serve --data-dir ${dir}`);
    expect(r.stdout).toContain('http://127.0.0.1:3001');
    expect(r.stderr).toBe('');

    const db = openDbFile(dir);
    const org = db.prepare('SELECT name, phone, timezone, currency, date_format FROM organizations').all();
    const users = db.prepare('SELECT email, role, first_name, last_name, password_hash FROM users').all() as UserRow[];
    db.close();
    expect(org).toEqual([
      {
        name: 'City Diagnostics',
        phone: '+91 80 4000 1234',
        timezone: 'UTC',
        currency: 'USD',
        date_format: 'YYYY-MM-DD',
      },
    ]);
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ email: ADMIN.email, role: 'superadmin', first_name: 'Asha', last_name: 'Rao' });
    expect(await verifyPassword(ADMIN.password, users[0]!.password_hash)).toBe(true);
  });

  it('takes the data dir from LIMS_DATA_DIR and the password from LIMS_ADMIN_PASSWORD', async () => {
    const dir = tempDir();
    const r = await lims(['setup', '--yes', '--lab-name', 'Env Lab', '--admin-email', 'env@lab.in'], {
      env: { LIMS_DATA_DIR: dir, LIMS_ADMIN_PASSWORD: 'from-the-env-1' },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // Without --data-dir typed, the printed next step is the plain command.
    expect(r.stdout).toContain('1. Start the server:     lims serve\n');
    const db = openDbFile(dir);
    const hash = (db.prepare('SELECT password_hash FROM users').get() as { password_hash: string }).password_hash;
    db.close();
    expect(await verifyPassword('from-the-env-1', hash)).toBe(true);
  });

  it('refuses an already set-up data dir and changes nothing', async () => {
    const dir = tempDir();
    await setUpLab(dir);
    const before = openDbFile(dir);
    const snapshot = {
      users: before.prepare('SELECT * FROM users ORDER BY id').all(),
      orgs: before.prepare('SELECT * FROM organizations ORDER BY id').all(),
      audit: before.prepare('SELECT count(*) AS n FROM audit_log').get(),
    };
    before.close();

    const r = await lims([
      '--data-dir',
      dir,
      'setup',
      '--yes',
      '--lab-name',
      'Another Lab',
      '--admin-email',
      'new@lab.in',
      '--admin-password',
      'another-pass-1',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `lims: this data dir already holds a lab (City Diagnostics); nothing was changed (data dir: ${dir})\n`,
    );

    const after = openDbFile(dir);
    expect(after.prepare('SELECT * FROM users ORDER BY id').all()).toEqual(snapshot.users);
    expect(after.prepare('SELECT * FROM organizations ORDER BY id').all()).toEqual(snapshot.orgs);
    expect(after.prepare('SELECT count(*) AS n FROM audit_log').get()).toEqual(snapshot.audit);
    const hash = (
      after.prepare('SELECT password_hash FROM users WHERE email = ?').get(ADMIN.email) as { password_hash: string }
    ).password_hash;
    after.close();
    expect(await verifyPassword(ADMIN.password, hash)).toBe(true);
  });
});

describe('lims setup: bad input names the flag and creates nothing', () => {
  it('reports a bad email by its flag and value, and a short password without echoing it', async () => {
    const dir = tempDir();
    const r = await lims([
      '--data-dir',
      dir,
      'setup',
      '--yes',
      '--lab-name',
      'Lab',
      '--admin-email',
      'x',
      '--admin-password',
      'short',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--admin-email: Enter a valid administrator email address (got "x")');
    expect(r.stderr).toContain('--admin-password: Password must be at least 8 characters');
    expect(r.stderr).not.toContain('short');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(dbFileOf(dir))).toBe(false);
  });

  it('lists the missing flags when --yes lacks them', async () => {
    const dir = tempDir();
    const r = await lims(['--data-dir', dir, 'setup', '--yes', '--lab-name', 'Lab']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^lims: missing --admin-email, --admin-password: /);
    expect(existsSync(dbFileOf(dir))).toBe(false);
  });

  it('rejects a value outside the allowed choices, naming flag and value', async () => {
    const dir = tempDir();
    const r = await lims([
      '--data-dir',
      dir,
      'setup',
      '--yes',
      '--lab-name',
      'Lab',
      '--admin-email',
      'a@b.in',
      '--admin-password',
      'long-enough-1',
      '--timezone',
      'Mars/Base',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("'--timezone <zone>' argument 'Mars/Base' is invalid");
    expect(readdirSync(dir)).toEqual([]);
  });

  it('--sample-data loads the starter catalogue with the lab', async () => {
    const dir = tempDir();
    const r = await setUpLab(dir, ['--sample-data']);
    const db = openDbFile(dir);
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const counts = { tests: count('tests'), profiles: count('test_profiles'), packages: count('test_packages') };
    db.close();
    expect(counts.tests).toBeGreaterThanOrEqual(60);
    expect(counts.profiles).toBeGreaterThanOrEqual(10);
    expect(counts.packages).toBeGreaterThanOrEqual(5);
    expect(r.stdout).toContain(
      `Starter catalogue: ${counts.tests} tests, ${counts.profiles} profiles, ${counts.packages} packages loaded`,
    );
  });

  it('without a terminal and without --yes, says which flags to pass', async () => {
    const dir = tempDir();
    const r = await lims(['--data-dir', dir, 'setup']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--yes --lab-name NAME --admin-email EMAIL --admin-password PASSWORD');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('rejects an unknown option with exit code 2', async () => {
    const r = await lims(['--data-dir', tempDir(), 'setup', '--lab-nmae', 'Lab']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^lims: unknown option '--lab-nmae' \(did you mean --lab-name\?\)/);
  });
});
