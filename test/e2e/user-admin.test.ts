import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { login, MOBILE, screenshot, startApp, type E2eApp } from './harness.js';

/**
 * The Users screen's tools in a browser: Bulk Operations and the Activity Monitor's End
 * Session, each ending with the affected person's own browser signed out.
 */
let app: E2eApp;

beforeAll(async () => {
  app = await startApp({ roles: ['receptionist', 'collector', 'technician'] });
});

afterAll(async () => {
  await app?.close();
});

async function signedIn(path: string, email: string, password: string, viewport?: typeof MOBILE): Promise<Page> {
  const page = await app.newPage(viewport);
  await page.goto(path);
  await login(page, email, password);
  return page;
}

const nameOf = (role: 'receptionist' | 'collector' | 'technician') =>
  `${app.users[role]!.firstName} ${app.users[role]!.lastName}`;

describe('Users: the tools', () => {
  it('End Session in the Activity Monitor signs that browser out at its next click', async () => {
    const tech = app.users.technician!;
    const them = await signedIn('/patients', tech.email, tech.password);
    await them.getByRole('heading', { name: 'All Patients', level: 1 }).waitFor();

    const page = await signedIn('/users?tab=activity', app.admin.email, app.admin.password);
    const sessions = page.getByRole('table', { name: 'Active sessions' });
    await sessions.getByText(tech.email).waitFor();
    await screenshot(page, 'users-activity-monitor');
    await page.getByRole('button', { name: `End session of ${nameOf('technician')}` }).click();
    const dialog = page.getByRole('dialog', { name: 'End Session' });
    await dialog.getByRole('button', { name: 'End Session' }).click();
    await page.getByText('Session ended', { exact: true }).waitFor();
    await sessions.getByText(tech.email).waitFor({ state: 'detached' });
    // The admin's own session is listed, marked, and has no End Session.
    await sessions.getByText('This session').waitFor();

    // Their next request: the server answers 401 and the sign-in form takes the page's place.
    await them.reload();
    await them.getByRole('button', { name: 'Sign In' }).waitFor();

    // The history shows their sign-in.
    const history = page.getByRole('table', { name: 'Sign-in history' });
    await history.getByText(tech.email).first().waitFor();
  });

  it('Bulk Operations deactivates the selected users in one go; their browsers are signed out', async () => {
    const rec = app.users.receptionist!;
    const them = await signedIn('/patients', rec.email, rec.password);
    await them.getByRole('heading', { name: 'All Patients', level: 1 }).waitFor();

    const page = await signedIn('/users', app.admin.email, app.admin.password);
    await page.getByRole('table', { name: 'Users' }).waitFor();
    // The admin's own row cannot be selected.
    expect(
      await page.getByRole('checkbox', { name: `Select ${app.admin.firstName} ${app.admin.lastName}` }).isDisabled(),
    ).toBe(true);
    await page.getByRole('checkbox', { name: `Select ${nameOf('receptionist')}` }).check();
    await page.getByRole('checkbox', { name: `Select ${nameOf('collector')}` }).check();
    const bar = page.getByRole('region', { name: 'Bulk Operations' });
    await bar.getByText('2 selected').waitFor();
    await bar.getByRole('button', { name: 'Deactivate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deactivate 2 users' });
    await dialog.getByText(nameOf('receptionist'), { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByText('2 users deactivated').waitFor();

    await page.getByLabel('Status').selectOption('inactive');
    const table = page.getByRole('table', { name: 'Users' });
    await table.getByRole('row').filter({ hasText: rec.email }).waitFor();
    await table.getByRole('row').filter({ hasText: app.users.collector!.email }).waitFor();
    expect(await table.getByRole('row').filter({ hasText: app.admin.email }).count()).toBe(0);
    await screenshot(page, 'users-bulk-deactivated');

    await them.reload();
    await them.getByRole('button', { name: 'Sign In' }).waitFor();
    await login(them, rec.email, rec.password);
    await them.getByText('Invalid email or password').waitFor();
  });

  it('on a phone the permission matrix shows one role at a time', async () => {
    const page = await signedIn('/users?tab=permissions', app.admin.email, app.admin.password, MOBILE);
    await page.getByLabel('Role', { exact: true }).selectOption('collector');
    const list = page.getByRole('list', { name: 'Permissions of Collector' });
    await list.getByLabel('Collector has manage_samples').waitFor();
    await page.getByRole('button', { name: 'Edit Permissions' }).click();
    await list.getByRole('checkbox', { name: 'Collector: manage_samples' }).uncheck();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Permissions saved').waitFor();
    await list.getByLabel('Collector does not have manage_samples').waitFor();
    await screenshot(page, 'users-permissions-phone');
    await page.getByRole('button', { name: 'Reset to Defaults' }).click();
    await page.getByRole('dialog', { name: 'Reset to Defaults' }).getByRole('button', { name: 'Reset' }).click();
    await page.getByText('Permissions reset to the defaults').waitFor();
    await list.getByLabel('Collector has manage_samples').waitFor();
  });
});
