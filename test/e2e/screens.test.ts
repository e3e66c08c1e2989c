import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, login, MOBILE, screenshot, startApp, type E2eApp } from './harness.js';

/**
 * Every summary card shows the server's figure; a module the server reports as null (not built
 * yet) reads "—" and "not available yet" instead of a made-up zero.
 */
async function expectCards(page: Page, cards: Record<string, string>) {
  const res = await page.request.get('/api/dashboard/stats');
  const counts = ((await res.json()) as { counts: Record<string, number | null> }).counts;
  for (const [label, key] of Object.entries(cards)) {
    const card = page.getByRole('group', { name: label, exact: true });
    const value = counts[key];
    if (value === undefined) throw new Error(`/api/dashboard/stats has no ${key}`);
    if (value === null) {
      await card.getByText('not available yet').waitFor();
      expect(await card.textContent()).toContain('—');
    } else {
      await card.getByText(new Intl.NumberFormat('en-IN').format(value), { exact: true }).waitFor();
    }
  }
}

/** The shell's own screens at desktop and phone sizes; screenshots land in test-results/. */
const SIZES = [
  ['desktop', DESKTOP],
  ['mobile', MOBILE],
] as const;

describe('landing, home and dashboard', () => {
  let app: E2eApp;
  beforeAll(async () => {
    app = await startApp({ roles: ['doctor'] });
  });
  afterAll(async () => {
    await app?.close();
  });

  for (const [size, viewport] of SIZES) {
    it(`landing page for visitors, then home and dashboard with real counts (${size})`, async () => {
      const page = await app.newPage(viewport);
      await page.goto('/');
      await page.getByRole('heading', { level: 1 }).waitFor();
      // The lab's own name, and none of the spec's marketing figures (they were not this lab's).
      expect(await page.getByTestId('landing-lab-name').textContent()).toBe(
        ((await (await fetch(`${app.url}/api/auth/lab`)).json()) as { name: string }).name,
      );
      expect(await page.getByText('1300+').count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Get Started' }).first().getAttribute('href')).toBe('/login');
      expect(await page.getByRole('link', { name: 'Sign In' }).first().getAttribute('href')).toBe('/login');
      await screenshot(page, `${size}-landing`);

      await page.getByRole('link', { name: 'Sign In' }).first().click();
      await page.waitForURL('**/login');
      await screenshot(page, `${size}-login`);
      await login(page, app.admin.email, app.admin.password);
      await page.waitForURL('**/home');
      await page.getByRole('heading', { name: 'Welcome, Asha Rao' }).waitFor();
      const modules = page.getByRole('region', { name: 'Modules' }).getByRole('link');
      expect(await modules.count()).toBe(12);
      expect(await page.getByRole('link', { name: 'Dashboard', exact: true }).last().getAttribute('href')).toBe(
        '/dashboard',
      );
      await page.getByRole('group', { name: 'Patients' }).getByText('registered').waitFor();
      await expectCards(page, { Patients: 'patients', Tests: 'tests', Samples: 'samples', Staff: 'users' });
      await page.waitForTimeout(300);
      await screenshot(page, `${size}-home`);

      // A signed-in visitor to the landing page goes home.
      await page.goto('/');
      await page.waitForURL('**/home');

      await page.goto('/dashboard');
      // The cards show their labels at once and their figures once the counts arrive.
      const doctors = page.getByRole('group', { name: 'Doctors' });
      await doctors.getByText('users with the doctor role').waitFor();
      await doctors.getByText('1', { exact: true }).waitFor();
      await page.getByRole('group', { name: 'Users', exact: true }).getByText('2', { exact: true }).waitFor();
      await expectCards(page, {
        Patients: 'patients',
        Tests: 'tests',
        'Test Profiles': 'test_profiles',
        'Test Packages': 'test_packages',
        Samples: 'samples',
        'Test Results': 'test_results',
        Users: 'users',
        Doctors: 'doctors',
      });
      await page.getByText('Connected').waitFor();
      await page.getByRole('heading', { name: 'Data Summary' }).waitFor();
      for (const to of ['/op-bill', '/samples', '/individual-tests', '/test-packages', '/test-profiles', '/patients']) {
        expect(await page.locator(`main a[href="${to}"]`).count()).toBeGreaterThan(0);
      }
      await screenshot(page, `${size}-dashboard`);

      await page.goto('/no-such-page');
      await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
      await screenshot(page, `${size}-404`);
    });
  }
});

describe('demo mode', () => {
  let app: E2eApp;
  beforeAll(async () => {
    app = await startApp({ demo: true });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lists the demo accounts on the login page; clicking one fills the form and signs in as that role', async () => {
    const page = await app.newPage();
    await page.goto('/login');
    const box = page.getByRole('region', { name: 'Test Credentials' });
    await box.waitFor();
    await box.getByText(/role-based access/).waitFor();
    expect(await page.getByText(/any password/i).count()).toBe(0);
    await screenshot(page, 'desktop-login-demo');
    await box.getByRole('button', { name: /Receptionist/ }).click();
    expect(await page.getByLabel('Email').inputValue()).toBe('receptionist@demo.lims.local');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/home');
    expect(await page.getByRole('button', { name: /Account menu/ }).textContent()).toContain('Receptionist');
  });
});
