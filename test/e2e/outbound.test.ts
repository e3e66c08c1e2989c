import { afterAll, beforeAll, describe, it } from 'vitest';
import { MOBILE, screenshot, startApp, type E2eApp, screenshotFailures } from './harness.js';

/** A forbidden outbound address typed on /settings is refused under its field, on a wide and a narrow screen. */
let app: E2eApp;

beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

const track = screenshotFailures();

describe('outbound targets on System Settings', () => {
  for (const [label, viewport] of [
    ['1280', { width: 1280, height: 900 }],
    ['390', MOBILE],
  ] as const)
    it(`shows the refusal of an internal address under the field (${label} px)`, async () => {
      const page = await app.signedInPage('/settings', undefined, viewport);
      track(page);
      await page.getByRole('heading', { name: 'System Settings', level: 1 }).waitFor();

      await page.getByLabel('URL Template').fill('http://169.254.169.254/latest/meta-data?to={to}&text={message}');
      await page.getByRole('button', { name: 'Save SMS Gateway' }).click();
      const sms = page.getByText(/address not allowed: link-local/);
      await sms.waitFor();
      await sms.scrollIntoViewIfNeeded();
      await screenshot(page, `settings-sms-outbound-${label}`);

      await page.getByLabel('Host', { exact: true }).fill('127.0.0.1');
      await page.getByLabel('From Address').fill('reports@lab.example');
      await page.getByRole('button', { name: 'Save Email Settings' }).click();
      const mail = page.getByText(/address not allowed: loopback/);
      await mail.waitFor();
      await mail.scrollIntoViewIfNeeded();
      await screenshot(page, `settings-email-outbound-${label}`);
      await page.close();
    });
});
