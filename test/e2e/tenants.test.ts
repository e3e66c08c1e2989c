import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { login, MOBILE, screenshot, startApp, type E2eApp } from './harness.js';

/**
 * Multi-Tenant Setup as the server's superadmin uses it: create a lab in the Tenant
 * Setup Wizard (a bad domain first), copy the admin's one-time invitation link, open it as the new
 * admin in another browser, set a password and land signed in to the new lab; then suspend the lab
 * and watch its admin's session end and sign-in be refused with the lab's message.
 */
let app: E2eApp;
const stamp = Date.now() % 100000;
const labName = `Sunrise Diagnostics ${stamp}`;
const domain = `sunrise-${stamp}.labs.example.com`;
const adminEmail = `meera.${stamp}@sunrise.test`;
const adminPassword = 'meera-password-42';

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.close();
});

async function superadmin(viewport?: { width: number; height: number }): Promise<Page> {
  const page = await app.newPage(viewport);
  await page.goto('/multi-tenant-setup');
  await login(page, app.admin.email, app.admin.password);
  await page.getByRole('heading', { name: 'Multi-Tenant Setup', level: 1 }).waitFor();
  return page;
}

const tenantRow = (page: Page, name: string) =>
  page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });

describe('Multi-Tenant Setup', () => {
  let link = '';

  it('creates a tenant in the wizard and shows the admin’s one-time link to copy', async () => {
    const page = await superadmin();
    await page.getByRole('group', { name: 'Total Tenants' }).getByText('1', { exact: true }).waitFor();
    await screenshot(page, 'tenants-list');

    await page.getByRole('button', { name: 'Create Tenant' }).first().click();
    const wizard = page.getByRole('dialog', { name: 'Tenant Setup Wizard' });
    await wizard.getByLabel('Tenant Name').fill(labName);
    await wizard.getByLabel('Domain').fill('https://sunrise.example.com/');
    await wizard.getByLabel('Plan').selectOption('professional');
    await wizard.getByLabel('Admin Email').fill(adminEmail);
    await wizard.getByRole('button', { name: 'Create Tenant' }).click();
    await wizard.getByText('Domain is a host name only').waitFor();

    await wizard.getByLabel('Domain').fill(domain);
    await wizard.getByRole('button', { name: 'Advanced Setup' }).click();
    await wizard.getByLabel('Admin First Name').fill('Meera');
    await wizard.getByLabel('Admin Last Name').fill('Iyer');
    await wizard.getByRole('button', { name: 'Create Tenant' }).click();

    const created = page.getByRole('dialog', { name: `Tenant created: ${labName}` });
    await created.waitFor();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    await created.getByRole('button', { name: 'Copy Link' }).click();
    await created.getByRole('button', { name: 'Copied' }).waitFor();
    link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(new RegExp(`^${app.url}/invitation#[A-Za-z0-9_-]{43}$`));
    expect(await created.getByRole('textbox').inputValue()).toBe(link);
    await created.getByText(`Afterwards their lab signs in at`).waitFor();
    await screenshot(page, 'tenants-created-link');
    await created.getByRole('button', { name: 'Done' }).click();

    const row = tenantRow(page, labName);
    await row.getByText('Pending', { exact: true }).waitFor();
    await row.getByText(domain).waitFor();
    await row.getByText('Professional').waitFor();
    await page.getByRole('group', { name: 'Total Tenants' }).getByText('2', { exact: true }).waitFor();
  });

  it('opens the link as the new admin, sets a password and lands signed in to the new lab', async () => {
    expect(link).not.toBe('');
    const page = await app.newPage(MOBILE);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Set Your Password' }).waitFor();
    await page.getByText(labName).waitFor();
    await page.getByText(adminEmail).waitFor();
    await screenshot(page, 'tenants-invitation-mobile');

    // The lab's policy (strong) is the server's: a password without a digit is refused under its field.
    await page.getByLabel('New Password').fill('no-digits-at-all');
    await page.getByLabel('Confirm Password').fill('no-digits-at-all');
    await page.getByRole('button', { name: 'Set Password and Sign In' }).click();
    await page.getByText(/digit/).first().waitFor();

    await page.getByLabel('New Password').fill(adminPassword);
    await page.getByLabel('Confirm Password').fill(adminPassword);
    await page.getByRole('button', { name: 'Set Password and Sign In' }).click();
    await page.waitForURL('**/home');
    await page.getByRole('heading', { name: 'Welcome, Meera Iyer' }).waitFor();
    const me = (await (await page.request.get('/api/auth/me')).json()) as {
      user: { email: string; role: string; organization_id: number };
    };
    expect(me.user).toMatchObject({ email: adminEmail, role: 'admin' });
    expect(me.user.organization_id).not.toBe(app.organizationId);
    // The new lab's own data: no patients of the first lab.
    const patients = (await (await page.request.get('/api/patients')).json()) as { total: number };
    expect(patients.total).toBe(0);
    await screenshot(page, 'tenants-admin-home-mobile');

    // The new admin invites a colleague by email instead of typing a password for them.
    await page.goto('/users');
    await page.getByRole('button', { name: 'Add User' }).click();
    const add = page.getByRole('dialog', { name: 'Add User' });
    await add.getByLabel('First Name').fill('Ravi');
    await add.getByLabel('Last Name').fill('Kumar');
    await add.getByLabel('Email').fill(`ravi.${stamp}@sunrise.test`);
    await add.getByLabel('Role').selectOption('receptionist');
    await add.getByText('Send an invitation link').click();
    await add.getByRole('button', { name: 'Invite User' }).click();
    const invitedDialog = page.getByRole('dialog', { name: `User invited: ravi.${stamp}@sunrise.test` });
    expect(await invitedDialog.getByRole('textbox').inputValue()).toMatch(/\/invitation#[A-Za-z0-9_-]{43}$/);
    await invitedDialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('row').filter({ hasText: 'Ravi Kumar' }).getByText('Pending', { exact: true }).waitFor();

    // The link worked once.
    const again = await app.newPage();
    await again.goto(link);
    await again.getByText('This invitation link has already been used').waitFor();

    // The superadmin sees the lab active now; suspending it ends the admin's session.
    const su = await superadmin();
    const row = tenantRow(su, labName);
    await row.getByText('Active', { exact: true }).waitFor();
    await row.getByRole('button', { name: `Suspend ${labName}` }).click();
    const confirm = su.getByRole('alertdialog').or(su.getByRole('dialog', { name: 'Suspend Tenant' }));
    await confirm.getByRole('button', { name: 'Suspend' }).click();
    await row.getByText('Suspended', { exact: true }).waitFor();
    await screenshot(su, 'tenants-suspended');

    // At the server's IP address the page asks which lab; the lab's address names it.
    await page.goto('/patients');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    await page.getByText('Leave empty for', { exact: false }).waitFor();
    await login(page, adminEmail, adminPassword, domain);
    await page.getByText("This lab's account is suspended. Contact your administrator.").first().waitFor();
  });
});
