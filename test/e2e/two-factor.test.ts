import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { login, MOBILE, screenshot, startApp, type E2eApp } from './harness.js';

/**
 * Two-factor sign-in in the browser: an administrator sets up an authenticator from the
 * account menu (the key read off the screen, as a person would type it into an app), signs out and
 * signs in with a code; then requires two-factor of all staff, and a receptionist sets it up at
 * sign-in on a phone before getting in.
 */
let app: E2eApp;

beforeAll(async () => {
  app = await startApp({ roles: ['receptionist'] });
});

afterAll(async () => {
  await app?.close();
});

const STEP_MS = 30_000;

/** Waits when within 3 s of a 30-s step boundary, so a code typed now is checked in the same step. */
async function awayFromBoundary(): Promise<void> {
  const into = Date.now() % STEP_MS;
  if (into > STEP_MS - 3000) await new Promise((r) => setTimeout(r, STEP_MS - into + 50));
}

function code(secret: string, offset = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offset * STEP_MS,
  });
}

/** The key for manual entry, as shown in groups of four. */
async function keyOnScreen(page: Page): Promise<string> {
  const shown = (await page.getByLabel(/^Key: /).textContent()) ?? '';
  expect(shown).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
  return shown.replace(/\s+/g, '');
}

describe('two-factor sign-in', () => {
  let adminSecret = '';

  it('an administrator sets up an authenticator from the account menu and keeps the recovery codes', async () => {
    const page = await app.newPage();
    await page.goto('/home');
    await login(page, app.admin.email, app.admin.password);
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Two-factor sign-in' }).click();
    await page.waitForURL('**/account/two-factor');
    await page.getByRole('heading', { name: 'Two-factor sign-in', level: 1 }).waitFor();
    await page.getByText('Off', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const qr = page.getByRole('img', { name: /QR code to add admin@lab\.test at E2E Diagnostics/ });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    adminSecret = await keyOnScreen(page);

    const field = page.getByLabel('Code from the app');
    expect(await field.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await field.getAttribute('inputmode')).toBe('numeric');
    await field.fill('000000' === code(adminSecret) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('That code does not match').waitFor();
    await screenshot(page, 'two-factor-setup-wrong-code');

    await awayFromBoundary();
    // The previous step's code (accepted), leaving the current one for the sign-in below.
    await field.fill(code(adminSecret, -1));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' });
    await codes.waitFor();
    expect(await codes.getByRole('listitem').count()).toBe(10);
    await page.getByRole('button', { name: 'Copy', exact: true }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download .txt' }).click();
    expect((await download).suggestedFilename()).toBe('lims-recovery-codes-admin@lab.test.txt');
    await screenshot(page, 'two-factor-recovery-codes');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('On', { exact: true }).waitFor();
    await page.getByText('10 of 10').waitFor();
  });

  it('signs in with the password and then a code from the app', async () => {
    const page = await app.newPage();
    await page.goto('/login');
    await login(page, app.admin.email, app.admin.password);
    await page.getByRole('heading', { name: 'Two-factor sign-in', level: 1 }).waitFor();
    const field = page.getByLabel('Authentication code');
    expect(await field.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await field.getAttribute('inputmode')).toBe('numeric');
    // No session yet.
    expect((await page.context().cookies()).find((c) => c.name === 'lims_session')).toBeUndefined();

    await field.fill('12345');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Enter the 6-digit code from your authenticator app').waitFor();
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').waitFor();
    await page.getByRole('button', { name: 'Use your authenticator app' }).click();
    await screenshot(page, 'two-factor-code-step');

    await awayFromBoundary();
    await page.getByLabel('Authentication code').fill(code(adminSecret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/home');
    await page.getByRole('button', { name: /Account menu/ }).waitFor();
  });

  it('once the lab requires it, a receptionist sets up an authenticator at sign-in on a phone before getting in', async () => {
    const admin = await app.newPage();
    await admin.goto('/login');
    await login(admin, app.admin.email, app.admin.password);
    await awayFromBoundary();
    await admin.getByLabel('Authentication code').fill(code(adminSecret, 1));
    await admin.getByRole('button', { name: 'Verify' }).click();
    await admin.waitForURL('**/home');
    await admin.goto('/settings');
    const toggle = admin.getByRole('switch', { name: 'Two-factor authentication' });
    expect(await toggle.isDisabled()).toBe(false);
    await toggle.click();
    await admin.getByRole('button', { name: 'Save Settings' }).click();
    await admin.getByText('Settings saved').first().waitFor();

    const receptionist = app.users.receptionist!;
    const page = await app.newPage(MOBILE);
    await page.goto('/login');
    await login(page, receptionist.email, receptionist.password);
    await page.getByRole('heading', { name: 'Set up two-factor sign-in', level: 1 }).waitFor();
    await page.getByRole('img', { name: /QR code/ }).waitFor();
    const secret = await keyOnScreen(page);
    await screenshot(page, 'two-factor-enrol-at-sign-in-phone');
    await awayFromBoundary();
    await page.getByLabel('Code from the app').fill(code(secret));
    await page.getByRole('button', { name: 'Turn on and sign in' }).click();
    await page.getByRole('list', { name: 'Recovery codes' }).waitFor();
    const go = page.getByRole('button', { name: 'Continue' });
    expect(await go.isDisabled()).toBe(true);
    await page.getByLabel('I have saved my recovery codes').check();
    await go.click();
    await page.waitForURL('**/home');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
  });
});
