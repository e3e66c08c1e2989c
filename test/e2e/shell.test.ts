import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MOBILE, boxOf, screenshot, startApp, type E2eApp } from './harness.js';

const GROUPS = [
  'Overview',
  'Patient Management',
  'Test Management',
  'Laboratory Operations',
  'Equipment & Integration',
  'Inventory & Supplies',
  'Financial Management',
  'User & System',
  'Reports & Export',
  'Setup & Configuration',
];

let app: E2eApp;

beforeAll(async () => {
  app = await startApp({ roles: ['receptionist'] });
});

afterAll(async () => {
  await app?.close();
});

async function signedIn(path: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await app.signedInPage(path, app.admin, viewport);
  await page.locator('#main h1').first().waitFor();
  return page;
}

describe('sidebar', () => {
  it('shows every group of the spec and highlights the current route', async () => {
    const page = await signedIn('/dashboard');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const g of GROUPS) await nav.getByRole('group', { name: g }).waitFor();
    const current = nav.locator('a[aria-current="page"]');
    expect(await current.count()).toBe(1);
    expect(await current.getAttribute('href')).toBe('/dashboard');

    await nav.getByRole('link', { name: 'Bills List' }).click();
    await page.waitForURL('**/bills-list');
    // The page is a lazy chunk: the navigation (and the sidebar's highlight) commits once it has loaded.
    await page.getByRole('heading', { name: 'Bills List', level: 1 }).waitFor();
    expect(await nav.locator('a[aria-current="page"]').getAttribute('href')).toBe('/bills-list');
    await screenshot(page, 'desktop-sidebar-bills-list');
  });

  it('collapses with Ctrl+B to icons, keeps tooltips, and remembers the state in the sidebar:state cookie', async () => {
    const page = await signedIn('/home');
    const sidebar = page.getByTestId('sidebar');
    expect(await sidebar.getAttribute('data-state-sidebar')).toBe('expanded');
    expect((await boxOf(sidebar)).width).toBeCloseTo(16 * 14, 0);

    await page.keyboard.press('Control+b');
    await page.locator('[data-testid="sidebar"][data-state-sidebar="collapsed"]').waitFor();
    await page.waitForTimeout(250); // width transition
    expect((await boxOf(sidebar)).width).toBeCloseTo(3 * 14, 0);
    const cookie = (await page.context().cookies()).find((c) => c.name === 'sidebar:state');
    expect(cookie?.value).toBe('false');
    // About 7 days from now.
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(6.9 * 86400);
    // Icons only, each still named for screen readers.
    await page.getByRole('link', { name: 'All Patients' }).waitFor();
    await screenshot(page, 'desktop-sidebar-collapsed');

    await page.reload();
    await page.locator('#main h1').first().waitFor();
    expect(await page.getByTestId('sidebar').getAttribute('data-state-sidebar')).toBe('collapsed');
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    expect(await page.getByTestId('sidebar').getAttribute('data-state-sidebar')).toBe('expanded');
    expect((await page.context().cookies()).find((c) => c.name === 'sidebar:state')?.value).toBe('true');
  });

  it('shows the signed-in user with initials in the footer menu', async () => {
    const page = await signedIn('/home');
    const trigger = page.getByRole('button', { name: /Account menu/ });
    expect(await trigger.textContent()).toContain('AR');
    expect(await trigger.textContent()).toContain('Asha Rao');
    expect(await trigger.textContent()).toContain('Super Admin');
    await trigger.click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await page.waitForURL('**/settings');
  });
});

describe('page not found', () => {
  it('shows the requested path, the quick links and the buttons', async () => {
    const page = await app.newPage();
    await page.goto('/no-such-page');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    expect(await page.getByTestId('requested-path').textContent()).toBe('/no-such-page');
    for (const [name, href] of [
      ['Dashboard', '/dashboard'],
      ['Patient Registration', '/patients'],
      ['Test Management', '/test-packages'],
      ['Results', '/results'],
    ]) {
      expect(await page.getByRole('link', { name }).getAttribute('href')).toBe(href);
    }
    await page.getByRole('link', { name: 'Go to Home' }).waitFor();
    await page.getByRole('button', { name: 'Go Back' }).waitFor();
    await page.getByRole('button', { name: 'Refresh' }).waitFor();
    await page.getByText('Need Help?').waitFor();
    await screenshot(page, 'desktop-404');
  });
});

describe('mobile', () => {
  it('hides the sidebar at 390 px, opens it as a drawer, and closes it on navigation and Escape', async () => {
    const page = await signedIn('/home', MOBILE);
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    await screenshot(page, 'mobile-home');

    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    const drawer = page.getByRole('dialog', { name: 'Navigation' });
    await drawer.waitFor();
    expect((await boxOf(drawer)).width).toBeCloseTo(18 * 14, 0);
    await screenshot(page, 'mobile-drawer');

    await drawer.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await page.waitForURL('**/dashboard');
    await drawer.waitFor({ state: 'detached' });

    await page.keyboard.press('Control+b');
    await drawer.waitFor();
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
  });
});

describe('first start', () => {
  it('sends every page to the setup wizard while the data dir holds no lab', async () => {
    const empty = await startApp({ setup: false });
    try {
      const page = await empty.newPage();
      await page.goto('/dashboard');
      await page.waitForURL('**/setup-wizard');
      await page.goto('/no-such-page');
      await page.waitForURL('**/setup-wizard');
    } finally {
      await empty.close();
    }
  });
});
