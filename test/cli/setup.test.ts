import { existsSync, readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/core/auth/password.js';
import { readDataDirConfig } from '../../src/core/datadir.js';
import { describeTarget, parseDatabaseUrl } from '../../src/core/db/url.js';
import { ENGINE, row, rows } from '../db.js';
import { ADMIN, cleanup, dbFileOf, labDatabaseUsed, lims, openLabDatabase, setUpLab, tempDir } from './helpers.js';

afterAll(cleanup);

interface UserRow {
  email: string;
  role: string;
  first_name: string;
  last_name: string;
  password_hash: string;
}

/**
 * What a command that must create nothing may leave in the data dir: nothing on SQLite; on
 * PostgreSQL the config.json naming the dir's database, which the test helpers wrote beforehand.
 */
const UNTOUCHED_DIR = ENGINE === 'sqlite' ? [] : ['config.json'];

/** No lims.db appeared and the lab's database holds no lab. */
async function expectNoLab(dir: string): Promise<void> {
  expect(existsSync(dbFileOf(dir))).toBe(false);
  expect(await labDatabaseUsed(dir)).toBe(false);
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
    // Started from this checkout: the next steps name its launcher (src/cli/invocation.ts).
    expect(r.stdout).toContain(`1. Start the server:     node bin/lims.js serve --data-dir ${dir}\n`);
    expect(r.stdout).toContain('http://127.0.0.1:3001');
    expect(r.stderr).toBe('');

    const database = await openLabDatabase(dir);
    const org = await rows(database, 'SELECT name, phone, timezone, currency, date_format FROM organizations');
    const users = await rows<UserRow>(database, 'SELECT email, role, first_name, last_name, password_hash FROM users');
    await database.close();
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

  it("keeps the title of the administrator's name apart from the first name", async () => {
    const dir = tempDir();
    const r = await lims([
      '--data-dir',
      dir,
      'setup',
      '--yes',
      '--lab-name',
      'Kulkarni Clinic',
      '--admin-name',
      'Dr. Meena Kulkarni',
      '--admin-email',
      'meena@clinic.in',
      '--admin-password',
      'Clinic-pass-2026',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const database = await openLabDatabase(dir);
    const user = await row<UserRow & { title: string | null }>(
      database,
      'SELECT title, first_name, last_name FROM users',
    );
    await database.close();
    expect(user).toMatchObject({ title: 'Dr', first_name: 'Meena', last_name: 'Kulkarni' });
  });

  it('takes the data dir from LIMS_DATA_DIR and the password from LIMS_ADMIN_PASSWORD', async () => {
    const dir = tempDir();
    const r = await lims(['setup', '--yes', '--lab-name', 'Env Lab', '--admin-email', 'env@lab.in'], {
      env: { LIMS_DATA_DIR: dir, LIMS_ADMIN_PASSWORD: 'from-the-env-1' },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // Without --data-dir typed, the printed next step is the plain command.
    expect(r.stdout).toContain('1. Start the server:     node bin/lims.js serve\n');
    const database = await openLabDatabase(dir);
    const hash = (await row<{ password_hash: string }>(database, 'SELECT password_hash FROM users'))!.password_hash;
    await database.close();
    expect(await verifyPassword('from-the-env-1', hash)).toBe(true);
  });

  it('refuses an already set-up data dir and changes nothing', async () => {
    const dir = tempDir();
    await setUpLab(dir);
    const contents = async () => {
      const database = await openLabDatabase(dir);
      try {
        return {
          users: await rows(database, 'SELECT * FROM users ORDER BY id'),
          orgs: await rows(database, 'SELECT * FROM organizations ORDER BY id'),
          audit: await row(database, 'SELECT count(*) AS n FROM audit_log'),
          hash: (await row<{ password_hash: string }>(
            database,
            'SELECT password_hash FROM users WHERE email = ?',
            ADMIN.email,
          ))!.password_hash,
        };
      } finally {
        await database.close();
      }
    };
    const snapshot = await contents();

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
    // On PostgreSQL the refusal names the database that holds the lab (the data dir's config points at it).
    expect(r.stderr).toBe(
      ENGINE === 'sqlite'
        ? `lims: this data dir already holds a lab (City Diagnostics); nothing was changed (data dir: ${dir})\n`
        : `lims: this database already holds a lab (City Diagnostics); nothing was changed (${describeTarget(parseDatabaseUrl(readDataDirConfig(dir).database_url!))})\n`,
    );

    const after = await contents();
    expect(after.users).toEqual(snapshot.users);
    expect(after.orgs).toEqual(snapshot.orgs);
    expect(after.audit).toEqual(snapshot.audit);
    expect(await verifyPassword(ADMIN.password, after.hash)).toBe(true);
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
    expect(r.stderr).toContain('--admin-password: Password must be at least 10 characters');
    expect(r.stderr).not.toContain('short');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    await expectNoLab(dir);
  });

  it('lists the missing flags when --yes lacks them', async () => {
    const dir = tempDir();
    const r = await lims(['--data-dir', dir, 'setup', '--yes', '--lab-name', 'Lab']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^lims: missing --admin-email, --admin-password: /);
    await expectNoLab(dir);
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
    expect(readdirSync(dir)).toEqual(UNTOUCHED_DIR);
    await expectNoLab(dir);
  });

  it('--sample-data loads the starter catalogue with the lab', async () => {
    const dir = tempDir();
    const r = await setUpLab(dir, ['--sample-data']);
    const database = await openLabDatabase(dir);
    const count = async (table: string) =>
      (await row<{ n: number }>(database, `SELECT count(*) AS n FROM ${table}`))!.n;
    const counts = {
      tests: await count('tests'),
      profiles: await count('test_profiles'),
      packages: await count('test_packages'),
    };
    await database.close();
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
    expect(readdirSync(dir)).toEqual(UNTOUCHED_DIR);
    await expectNoLab(dir);
  });

  it('rejects an unknown option with exit code 2', async () => {
    const r = await lims(['--data-dir', tempDir(), 'setup', '--lab-nmae', 'Lab']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^lims: unknown option '--lab-nmae' \(did you mean --lab-name\?\)/);
  });
});
