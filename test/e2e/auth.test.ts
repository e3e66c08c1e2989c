import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, screenshot, startApp, type E2eApp } from './harness.js';

let app: E2eApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.close();
});

describe('sign-in', () => {
  it('refuses a wrong password with a Login Failed toast and stays on /login', async () => {
    const page = await app.newPage();
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    await login(page, app.admin.email, 'not-the-password');
    await page.getByText('Login Failed').waitFor();
    await screenshot(page, 'login-failed');
    expect(new URL(page.url()).pathname).toBe('/login');
    // No demo box without --demo, and never the spec's "any password works" text.
    expect(await page.getByText('Test Credentials').count()).toBe(0);
    expect(await page.getByText(/any password/i).count()).toBe(0);
  });

  it('asks for both fields when the form is empty', async () => {
    const page = await app.newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Please enter both email and password').waitFor();
    expect(await page.getByText('Validation Error').count()).toBeGreaterThan(0);
    expect(await page.getByLabel('Email').getAttribute('type')).toBe('email');
  });

  it('signs in with the right password, welcomes the user and lands on /home', async () => {
    const page = await app.newPage();
    await page.goto('/login');
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('secret');
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await password.getAttribute('type')).toBe('text');
    await login(page, app.admin.email, app.admin.password);
    await page.getByRole('heading', { name: `Welcome, ${app.admin.firstName} ${app.admin.lastName}` }).waitFor();
    await page.getByText('Login Successful').waitFor();
    expect(new URL(page.url()).pathname).toBe('/home');
  });

  it('shows the sign-in form in place on a protected route, then the page at the same address', async () => {
    const page = await app.newPage();
    await page.goto('/dashboard?from=test');
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/dashboard?from=test');
    await login(page, app.admin.email, app.admin.password);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    // Real counts: the lab has its one administrator.
    const users = page.getByRole('group', { name: 'Users' });
    await users.getByText('active staff accounts').waitFor();
    await users.getByText('1', { exact: true }).waitFor();
  });

  it('logs out from the user menu, back to /login, and protected pages ask to sign in again', async () => {
    const page = await app.newPage();
    await page.goto('/home');
    await login(page, app.admin.email, app.admin.password);
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');
  });
});
