import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOBILE, screenshot, screenshotFailures, startApp, type E2eApp } from './harness.js';

/**
 * My sessions, from the account menu: a user signed in on a phone and a desktop sees both, ends
 * the phone's session from the desktop (the phone is sent to the sign-in page at its next
 * request), and then signs out every other session at once.
 */
let app: E2eApp;
const watch = screenshotFailures();

beforeAll(async () => {
  app = await startApp({ roles: ['receptionist'] });
});

afterAll(async () => {
  await app?.close();
});

describe('my sessions', () => {
  it('lists one own sessions and ends one, then all the others', async () => {
    const who = app.users.receptionist!;
    const phone = await app.signedInPage('/home', who, MOBILE);
    const tablet = await app.signedInPage('/home', who, MOBILE);
    const desk = watch(await app.signedInPage('/home', who));
    await desk.getByRole('button', { name: /Account menu/ }).click();
    await desk.getByRole('menuitem', { name: 'My sessions' }).click();
    await desk.waitForURL('**/account/sessions');
    await desk.getByRole('heading', { name: 'My Sessions', level: 1 }).waitFor();
    const rows = desk.getByRole('table', { name: 'Your open sessions' }).locator('tbody tr');
    // Three here (a run tried again may have left one of its own).
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3);
    const open = await rows.count();
    await desk.getByText('This browser').waitFor();
    await screenshot(desk, 'account-sessions');

    // End one: the confirmation, then that browser is signed out at its next request.
    await desk
      .getByRole('button', { name: /^End session in / })
      .first()
      .click();
    await desk.getByRole('dialog').getByRole('button', { name: 'End session' }).click();
    await desk.getByText('Session ended').first().waitFor();
    await expect.poll(() => rows.count()).toBe(open - 1);

    await desk.getByRole('button', { name: 'Sign out all other sessions' }).click();
    await desk.getByRole('dialog').getByRole('button', { name: 'Sign out others' }).click();
    await desk.getByText(/other sessions? ended/).waitFor();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await desk.getByRole('button', { name: 'Sign out all other sessions' }).isDisabled()).toBe(true);

    for (const page of [phone, tablet]) {
      await page.reload();
      await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    }
    // This browser goes on.
    await desk.reload();
    await desk.getByText('This browser').waitFor();

    const small = watch(await app.signedInPage('/account/sessions', who, MOBILE));
    await small.getByText('This browser').waitFor();
    await screenshot(small, 'account-sessions-phone');
  });
});
