import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, screenshot, startApp, type E2eApp, screenshotFailures } from './harness.js';

/** Lab email on /settings in the browser: set up the mail server, send a test, then switch email on. */
let app: E2eApp;
let smtp: SMTPServer;
let port: number;
const received: { to: string[]; raw: string }[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (auth, _s, cb) => cb(null, { user: auth.username }),
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString() });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
  port = (smtp.server.address() as AddressInfo).port;
  app = await startApp({ allowPrivateOutbound: true });
});
afterAll(async () => {
  await app?.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});

const track = screenshotFailures();

describe('Email (SMTP) on System Settings', () => {
  it('refuses email notifications until a mail server is saved, sends a test email, and then turns them on', async () => {
    const page = await app.newPage();
    track(page);
    await page.goto('/settings');
    await login(page, app.admin.email, app.admin.password);
    await page.getByRole('heading', { name: 'System Settings', level: 1 }).waitFor();

    // The spec's default has email on; off, it cannot be turned back on without a mail server.
    const email = page.getByRole('switch', { name: 'Email notifications' });
    await page.getByText('On, but no mail server is set up: nothing is sent.').waitFor();
    await email.click();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('Settings saved').first().waitFor();
    await expect(email.isDisabled()).resolves.toBe(true);

    await page.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    await page.getByLabel('Port', { exact: true }).fill('70000');
    await page.getByLabel('Security', { exact: true }).selectOption('none');
    await page.getByLabel('User', { exact: true }).fill('mailer');
    await page.getByLabel('Password', { exact: true }).fill('Smtp-secret-99');
    await page.getByLabel('From Address').fill('reports@lab.example');
    await page.getByRole('button', { name: 'Save Email Settings' }).click();
    await page.getByText('Port must be a whole number from 1 to 65535').waitFor();
    await page.getByLabel('Port', { exact: true }).fill(String(port));
    await page.getByRole('button', { name: 'Save Email Settings' }).click();
    await page.getByText('Email settings saved').first().waitFor();
    await page.getByText('Set. Leave empty to keep it; type a new one to replace it.').waitFor();
    await expect(page.getByLabel('Password', { exact: true }).inputValue()).resolves.toBe('');

    await page.getByLabel('Send a test email to').fill('desk@clinic.example');
    await page.getByRole('button', { name: 'Send Test Email' }).click();
    await page
      .getByTestId('test-outcome')
      .filter({ hasText: /Sent.*250/ })
      .waitFor();
    expect(received.map((m) => m.to)).toEqual([['desk@clinic.example']]);
    expect(received[0]!.raw).toContain('Subject: Test email from');

    await email.click();
    await page.getByText('The same notifications by email, to staff with an email address.').waitFor();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('Settings saved').first().waitFor();
    await expect(email.getAttribute('aria-checked')).resolves.toBe('true');
    await page.getByRole('heading', { name: 'Email (SMTP)' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-email');
  });
});
