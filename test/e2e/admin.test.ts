import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { login, MOBILE, screenshot, startApp, type E2eApp } from './harness.js';
import { ENGINE } from '../db.js';

/**
 * Admin screens as a lab administrator uses them: staff accounts (User Management, Users), the
 * audit trail, the web setup wizard on an empty data dir, and the diagnostics pages.
 */
let app: E2eApp;

beforeAll(async () => {
  app = await startApp({ roles: ['receptionist'] });
});

afterAll(async () => {
  await app?.close();
});

async function signedIn(path: string, email = app.admin.email, password = app.admin.password): Promise<Page> {
  const page = await app.signedInPage(path, { ...app.admin, email, password });
  return page;
}

/** The row of the users table that names this person (exact name cell). */
const userRow = (page: Page, name: string) =>
  page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });

describe('User Management', () => {
  const first = 'Meera';
  const last = `Iyer${Date.now() % 100000}`;
  const name = `${first} ${last}`;
  const email = `meera.${Date.now()}@lab.test`;
  const password = 'pipette-42-long';

  it('creates a user, edits their department (kept after reload), and deactivates them so they cannot sign in', async () => {
    const page = await signedIn('/user-management');
    await page.getByRole('heading', { name: 'User Management', level: 1 }).waitFor();

    // The superadmin row has no delete (deactivate) action.
    const adminRow = userRow(page, `${app.admin.firstName} ${app.admin.lastName}`);
    await adminRow.waitFor();
    expect(await adminRow.getByRole('button', { name: /^Deactivate/ }).count()).toBe(0);

    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    // Superadmin is never offered; the roles below it are.
    const roleOptions = await dialog.getByLabel('Role').locator('option').allTextContents();
    expect(roleOptions).not.toContain('Super Admin');
    expect(roleOptions).toEqual(expect.arrayContaining(['Admin', 'Doctor', 'Receptionist', 'Inventory Manager']));

    await dialog.getByLabel('First Name').fill(first);
    await dialog.getByLabel('Last Name').fill(last);
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Role').selectOption('doctor');
    await dialog.getByLabel('Consultation Fee (₹)').fill('450');
    await dialog.getByLabel('Department').fill('Pathology');
    await dialog.getByLabel('Password', { exact: true }).fill(password);
    // The lab's policy (strong, a new lab's) under the field, ticked as the password is typed.
    await expect(
      dialog.getByRole('list', { name: 'Password rules' }).getByRole('listitem').allTextContents(),
    ).resolves.toEqual(['At least 10 characters (met)', 'A letter (met)', 'A digit (met)']);
    await dialog.getByLabel('Confirm Password').fill('something-else-1');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await dialog.getByText('Passwords do not match').waitFor();
    await dialog.getByLabel('Confirm Password').fill(password);
    await screenshot(page, 'admin-add-user-dialog');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await page.getByText(`User created successfully: ${name}`).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await userRow(page, name).getByText('Pathology').waitFor();

    // Edit: the department change is saved on the server and still there after a reload.
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit User: ${name}` });
    await edit.getByLabel('Department').fill('Microbiology');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('User updated successfully').waitFor();
    await page.reload();
    await userRow(page, name).getByText('Microbiology').waitFor();
    await screenshot(page, 'admin-user-management');

    // Deactivate: confirmed in a dialog naming the user; then the row leaves the active list.
    await page.getByRole('button', { name: `Deactivate ${name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Deactivate User' });
    await confirm.getByText(`Are you sure you want to deactivate ${name}?`).waitFor();
    await confirm.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByText('User deactivated').waitFor();
    await userRow(page, name).waitFor({ state: 'detached' });
    // The toggle writes ?inactive=1 to the address (a router navigation), so wait for the list it shows.
    await page.getByLabel('Show inactive').click();
    await page.waitForURL(/inactive=1/);
    await userRow(page, name).getByText('Inactive').waitFor();

    // They can no longer sign in.
    const them = await app.newPage();
    await them.goto('/login');
    await login(them, email, password);
    await them.getByText('Login Failed').waitFor();
    expect(new URL(them.url()).pathname).toBe('/login');
  });

  it('cannot change your own role: the select is locked with a hint', async () => {
    const page = await signedIn('/user-management');
    await page.getByRole('button', { name: `Edit ${app.admin.firstName} ${app.admin.lastName}` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByLabel('Role').isDisabled()).resolves.toBe(true);
    await dialog.getByText('You cannot change your own role.').waitFor();
  });

  it('shows the create and update rows in the Audit Trail with old and new values', async () => {
    const page = await signedIn('/audit?entity=user');
    await page.getByRole('heading', { name: 'Audit Trail', level: 1 }).waitFor();
    const rows = page.getByRole('row').filter({ hasText: name });
    // create, the department edit, the deactivation.
    await rows.nth(2).waitFor();
    await screenshot(page, 'admin-audit');

    const updates = page.getByRole('row').filter({ hasText: name }).filter({ hasText: 'Update' });
    // Newest first: the deactivation, then the department change.
    await updates.nth(1).click();
    const dialog = page.getByRole('dialog', { name: /Audit Entry #/ });
    const department = dialog.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Department' }) });
    await expect(department.getByRole('cell').allTextContents()).resolves.toEqual(['Pathology', 'Microbiology']);
    await screenshot(page, 'admin-audit-changes');
    await page.keyboard.press('Escape');

    await page.getByRole('row').filter({ hasText: name }).filter({ hasText: 'Create' }).click();
    const created = page.getByRole('dialog', { name: /Audit Entry #/ });
    const emailRow = created.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Email' }) });
    await expect(emailRow.getByRole('cell').allTextContents()).resolves.toEqual(['—', email]);
    await page.keyboard.press('Escape');

    // Filters live in the URL: the action filter narrows the list and survives a reload.
    await page.getByLabel('Action', { exact: true }).selectOption('create');
    await page.waitForURL(/action=create/);
    await page.reload();
    await page.getByRole('row').filter({ hasText: name }).first().waitFor();
    expect(await page.getByRole('row').filter({ hasText: name }).filter({ hasText: 'Update' }).count()).toBe(0);
  });

  it('Users shows real figures and the role permissions matrix', async () => {
    const page = await signedIn('/users');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    const card = (label: string) => page.locator('section[aria-label="User counts"] > div').filter({ hasText: label });
    // Admin + receptionist active, the deactivated doctor inactive (this file's own lab).
    await expect
      .poll(() => card('Inactive Users').getByTestId('summary-value').textContent(), { timeout: 5000 })
      .toBe('1');
    await expect
      .poll(() => card('Total Users').getByTestId('summary-value').textContent(), { timeout: 5000 })
      .toBe('3');
    await page.getByRole('heading', { name: 'Recent User Activity' }).waitFor();
    await page.getByLabel('Status').selectOption('inactive');
    // The filtered list replaces the whole one: the (active) admin's row goes, the deactivated user's stays.
    await page.getByRole('row').filter({ hasText: app.admin.email }).waitFor({ state: 'detached' });
    await userRow(page, name).waitFor();
    await screenshot(page, 'admin-users');
    await page.getByRole('tab', { name: 'Permission Manager' }).click();
    await page.getByRole('table', { name: 'Permissions by role' }).waitFor();
  });
  it('reactivates the user and resets their password; they sign in with the new one', async () => {
    const page = await signedIn('/user-management?inactive=1');
    await page.getByRole('button', { name: `Reactivate ${name}` }).click();
    await page.getByText('User reactivated').waitFor();
    await page.getByRole('button', { name: `Reset password for ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset Password' });
    await dialog.getByLabel('New Password', { exact: true }).fill('brand-new-pass-7');
    await dialog.getByLabel('Confirm New Password').fill('brand-new-pass-7');
    await dialog.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Password reset', { exact: true }).waitFor();

    const them = await app.newPage();
    await them.goto('/login');
    await login(them, email, password);
    await them.getByText('Login Failed').waitFor();
    await login(them, email, 'brand-new-pass-7');
    await them.getByRole('heading', { name: `Welcome, ${name}` }).waitFor();
  });
});

describe('permissions', () => {
  it('a receptionist opening /audit sees the no-permission message, and User Management read-only', async () => {
    const rec = app.users.receptionist!;
    const page = await signedIn('/audit', rec.email, rec.password);
    await page.getByText('You do not have permission to view the audit trail').waitFor();
    await page.getByText('view_audit').waitFor();
    await screenshot(page, 'admin-audit-receptionist');
    await page.goto('/user-management');
    await page.getByRole('heading', { name: 'User Management', level: 1 }).waitFor();
    await userRow(page, `${app.admin.firstName} ${app.admin.lastName}`).waitFor();
    expect(await page.getByRole('button', { name: 'Add User' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Edit / }).count()).toBe(0);
  });
});

describe('diagnostics', () => {
  it('Debug Import runs all tests for real, each with a Pending then a Success entry', async () => {
    const page = await signedIn('/debug-import');
    await page.getByText('No test results yet. Run some tests to see results here.').waitFor();
    await page.getByRole('button', { name: 'Run All Tests' }).click();
    const results = page.getByRole('list', { name: 'Test results' }).getByRole('listitem');
    await results.nth(5).waitFor();
    const texts = await results.allTextContents();
    expect(
      texts.map((t) => (t.startsWith('Pending') ? 'Pending' : t.startsWith('Success') ? 'Success' : 'Error')),
    ).toEqual(['Pending', 'Success', 'Pending', 'Success', 'Pending', 'Success']);
    // The connection check names the database: the SQLite file in the data dir, or the PostgreSQL server.
    expect(texts[1]).toContain(ENGINE === 'sqlite' ? app.dataDir : 'Connected to PostgreSQL');
    expect(texts[5]).toMatch(/rolled it back/);
    await page.getByRole('button', { name: 'Verify Audit Trail' }).click();
    await page.getByText(/audit rows are intact/).waitFor();
    await screenshot(page, 'admin-debug-import');
    await page.getByRole('button', { name: 'Clear Results' }).click();
    await page.getByText('No test results yet. Run some tests to see results here.').waitFor();
  });

  it('API Connection Test shows the health answer, the backend address and the diagnostics', async () => {
    const page = await signedIn('/test-api-connection');
    await page.getByRole('button', { name: 'Test Health Check' }).click();
    await page.getByText('"status": "ok"').waitFor();
    await expect(page.getByTestId('backend-address').textContent()).resolves.toBe(`${app.url}/api`);
    if (ENGINE === 'sqlite') {
      await page.getByText('Journal mode').waitFor();
      await page.getByText('wal', { exact: true }).waitFor();
    } else {
      await page.getByText("Other servers' changes").waitFor();
      await page.getByText('Listening', { exact: true }).waitFor();
    }
  });

  it("Auth debug is the server superadmin's: others get the no-access panel, a visitor the sign-in, and the Debug Import item is in no one else's menu", async () => {
    // A visitor who is not signed in is asked to sign in, and sees nothing of the page.
    const visitor = await app.newPage();
    await visitor.goto('/auth-debug');
    await visitor.getByRole('button', { name: /sign in/i }).waitFor();
    expect(await visitor.getByText('Test Login').count()).toBe(0);
    // Staff of the lab who are not its superadmin see why not, and no Debug Import in the sidebar.
    const desk = app.users.receptionist!;
    const page = await signedIn('/auth-debug', desk.email, desk.password);
    await page.getByText(/You do not have permission/).waitFor();
    expect(
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Debug Import' }).count(),
    ).toBe(0);
    // The superadmin sees the real state of this browser's session, and the menu item.
    const admin = await signedIn('/auth-debug');
    await admin.getByText('Signed in', { exact: true }).waitFor();
    await admin.getByText('system_settings').first().waitFor();
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Debug Import' }).waitFor();
  });
});

describe('setup wizard on an empty data dir', () => {
  let empty: E2eApp;
  beforeAll(async () => {
    empty = await startApp({ setup: false });
  });
  afterAll(async () => {
    await empty?.close();
  });

  it('goes through the five steps, sets up the lab, and the new admin can sign in', async () => {
    const page = await empty.newPage(MOBILE);
    // Any address opens the wizard while the lab is not set up.
    await page.goto('/dashboard');
    await page.waitForURL('**/setup-wizard');
    await page.getByText('Step 1 of 5').waitFor();
    await expect(page.getByRole('button', { name: 'Previous' }).isDisabled()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Lab name is required').waitFor();
    await page.getByLabel('Lab Name').fill('Lotus Path Lab');
    await page.getByLabel('Lab Phone').fill('+91 80 4000 1234');
    await page.getByRole('button', { name: 'Next' }).click();

    await page.getByText('Step 2 of 5').waitFor();
    await page.getByLabel('Administrator Name').fill('Kavya Menon');
    await page.getByLabel('Administrator Email').fill('kavya@lotus.test');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm Password').fill('different');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Password must be at least 10 characters').waitFor();
    await page.getByText('Passwords do not match').waitFor();
    // The rule is stated under the field and each part is ticked as it is typed.
    const rules = page.getByRole('list', { name: 'Password rules' });
    await expect(rules.getByRole('listitem').allTextContents()).resolves.toEqual([
      'At least 10 characters (not yet)',
      'A letter (met)',
      'A digit (not yet)',
    ]);
    await screenshot(page, 'admin-setup-step2-errors-mobile');
    await page.getByLabel('Password', { exact: true }).fill('lotus-secret-99');
    await expect(rules.getByRole('listitem').allTextContents()).resolves.toEqual([
      'At least 10 characters (met)',
      'A letter (met)',
      'A digit (met)',
    ]);
    await page.getByLabel('Confirm Password').fill('lotus-secret-99');
    await page.getByRole('button', { name: 'Next' }).click();

    await page.getByText('Step 3 of 5').waitFor();
    if (ENGINE === 'postgres') {
      // The server was started on its PostgreSQL database: the step names it and offers no other.
      await expect(page.getByTestId('database-file').textContent()).resolves.toMatch(/@127\.0\.0\.1:\d+\//);
    } else {
      await expect(page.getByTestId('database-file').textContent()).resolves.toContain(empty.dataDir);
      // SQLite is chosen; PostgreSQL is a real choice whose fields are checked before Next.
      await expect(page.getByRole('radio', { name: /SQLite \(embedded\)/ }).isChecked()).resolves.toBe(true);
      await page.getByRole('radio', { name: /PostgreSQL/ }).check();
      await page.getByLabel('Host').fill('');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('Host is required').waitFor();
      await page.getByRole('button', { name: 'Test Connection' }).waitFor();
      await page.getByRole('radio', { name: /SQLite \(embedded\)/ }).check();
    }
    await page.getByRole('button', { name: 'Next' }).click();

    await page.getByText('Step 4 of 5').waitFor();
    // The three imports default to on (spec 001 section 9); turn packages off.
    for (const sw of await page.getByRole('switch').all()) {
      await expect(sw.getAttribute('aria-checked')).resolves.toBe('true');
    }
    await page.getByRole('switch', { name: 'Import sample test packages' }).click();
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByText('Step 3 of 5').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Next' }).click();

    await page.getByText('Step 5 of 5').waitFor();
    await page.getByLabel('Date Format').selectOption('YYYY-MM-DD');
    await page.getByText('Lotus Path Lab').waitFor();
    await page.getByText('kavya@lotus.test').waitFor();
    await screenshot(page, 'admin-setup-review-mobile');
    await page.getByRole('button', { name: 'Complete Setup' }).click();
    await page.getByRole('heading', { name: 'Setup complete' }).waitFor();

    const org = await empty.database.db
      .selectFrom('organizations')
      .select(['name', 'date_format', 'phone'])
      .executeTakeFirstOrThrow();
    expect(org).toEqual({ name: 'Lotus Path Lab', date_format: 'YYYY-MM-DD', phone: '+91 80 4000 1234' });
    const count = async (table: 'tests' | 'test_profiles' | 'test_packages') =>
      Number(
        (
          await empty.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('tests')).toBeGreaterThanOrEqual(60);
    expect(await count('test_profiles')).toBeGreaterThanOrEqual(10);
    expect(await count('test_packages')).toBe(0);

    await page.getByRole('link', { name: 'Sign In' }).click();
    await page.waitForURL('**/login');
    await login(page, 'kavya@lotus.test', 'lotus-secret-99');
    await page.getByRole('heading', { name: /Welcome, Kavya Menon/ }).waitFor();

    // The wizard now refuses to run again.
    await page.goto('/setup-wizard');
    await page.getByText('This lab is already set up').waitFor();
    expect(await page.getByRole('button', { name: 'Next' }).count()).toBe(0);
  });
});
