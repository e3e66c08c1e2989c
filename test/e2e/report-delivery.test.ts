import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MOBILE, screenshot, screenshotFailures, startApp, type E2eApp } from './harness.js';
import { copyLink } from '../../src/core/report-delivery/desk.js';
import { systemActor } from '../../src/core/context.js';

/**
 * Report delivery in the browser: the front desk (1280 px) sees the day's reports and who has not
 * received theirs, copies a link; the patient (390 px phone) opens it, is refused a wrong year of
 * birth, gives the right one and downloads the PDF.
 */
let app: E2eApp;
const watch = screenshotFailures();
const stamp = Date.now() % 100000;
const tag = [...String(stamp)].map((d) => String.fromCharCode(97 + Number(d))).join('');
const DESK = { width: 1280, height: 800 } as const;
let sample: { id: number; code: string };

async function post(page: Page, url: string, data: unknown, method: 'post' | 'put' = 'post') {
  const res = await page.request[method](url, { data });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

beforeAll(async () => {
  app = await startApp({ roles: ['lab_technician', 'validator', 'receptionist'] });
  const admin = await app.signedInPage('/');
  const tech = await app.signedInPage('/', app.users.lab_technician);
  const validator = await app.signedInPage('/', app.users.validator);
  await post(
    admin,
    '/api/report-delivery/settings',
    {
      enabled: true,
      link_days: 7,
      proof: 'birth_year',
      send_to_doctors: false,
      email_mode: 'link',
      fallback_channel: 'sms',
      whatsapp_base_url: 'https://graph.facebook.com/v20.0',
      whatsapp_language: 'en',
      price_whatsapp: 0.8,
      price_sms: 0.25,
      price_email: 0,
    },
    'put',
  );
  const glu = (await post(admin, '/api/tests', { name: 'Glucose Fasting', code: `GL${stamp}`, price: 90 })).test.id;
  for (const first of [`Asha${tag}`, `Ravi${tag}`]) {
    const p = (
      await post(admin, '/api/patients', {
        first_name: first,
        last_name: 'Rao',
        date_of_birth: '1984-06-02',
        phone: '9845012345',
      })
    ).patient.id;
    await post(admin, `/api/patients/${p}/report-consent`, { channel: 'sms', consent: true }, 'put');
    const s = (await post(tech, '/api/samples', { patient_id: p, sample_type: 'Blood', test_ids: [glu] })).sample;
    const r = (await post(tech, '/api/test-results', { sample_id: s.id, test_id: glu, result_value: '96' })).result;
    const v = await validator.request.put(`/api/test-results/${r.id}/verify`, { data: {} });
    expect(v.status()).toBe(200);
    sample = { id: s.id, code: s.sample_id };
  }
}, 120_000);
afterAll(async () => {
  await app.close();
});

describe('report delivery', () => {
  it('the front desk sees who has not received their report; the patient opens the link on a phone', async () => {
    const page = watch(await app.signedInPage('/report-delivery', app.users.receptionist, DESK));
    await page.getByRole('heading', { name: 'Report Delivery', level: 1 }).waitFor();
    await page
      .getByRole('row')
      .filter({ hasText: `Asha${tag}` })
      .waitFor();
    await page
      .getByRole('row')
      .filter({ hasText: `Ravi${tag}` })
      .getByText('Not sent')
      .waitFor();
    await screenshot(page, 'report-delivery-desk', { always: true });

    const { url } = await copyLink(app.database.db, systemActor(app.organizationId!), sample.id, app.url);
    const phone = watch(await app.newPage(MOBILE));
    await phone.goto(new URL(url).pathname + new URL(url).hash);
    await phone.getByLabel('Your year of birth').fill('1985');
    await phone.getByRole('button', { name: 'Open my report' }).click();
    await phone.getByText(/That is not the year of birth the lab has/).waitFor();
    await screenshot(phone, 'report-link-wrong', { always: true });
    await phone.getByLabel('Your year of birth').fill('1984');
    await phone.getByRole('button', { name: 'Open my report' }).click();
    await phone.getByText(`Hello Ravi${tag}, your report is ready`).waitFor();
    await phone.getByText('Glucose Fasting').waitFor();
    const download = phone.waitForEvent('download');
    await phone.getByRole('button', { name: 'Download the report (PDF)' }).click();
    expect((await download).suggestedFilename()).toBe(`report-${sample.code}.pdf`);
    await screenshot(phone, 'report-link-open', { always: true });

    // Opened: the desk no longer lists it among those not received.
    await page.reload();
    await page
      .getByRole('row')
      .filter({ hasText: `Asha${tag}` })
      .waitFor();
    expect(
      await page
        .getByRole('row')
        .filter({ hasText: `Ravi${tag}` })
        .count(),
    ).toBe(0);
  });
});

describe('report delivery settings', () => {
  it('the admin turns a channel off, sets the token (never shown back) and is told which field is wrong', async () => {
    const page = watch(await app.signedInPage('/report-delivery/settings', undefined, DESK));
    await page.getByRole('heading', { name: 'Report Delivery Settings', level: 1 }).waitFor();
    await page.getByLabel("SMS (the lab's SMS gateway)").uncheck();
    await page.getByLabel('Link expires after (days)').fill('0');
    await page.getByLabel('Access token', { exact: true }).fill('EAAG-e2e-token');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('link_days must be at least 1').waitFor();
    await page.getByLabel('Link expires after (days)').fill('10');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('Report delivery settings saved').waitFor();
    await page.getByText('Saved. Leave empty to keep it').first().waitFor();
    expect(await page.getByLabel('Access token', { exact: true }).inputValue()).toBe('');
    const saved = await page.request.get('/api/report-delivery/settings');
    const settings = (await saved.json()).settings;
    expect(settings).toMatchObject({ sms_on: false, link_days: 10, whatsapp_token_set: true });
    expect(JSON.stringify(settings)).not.toContain('EAAG-e2e-token');
    await screenshot(page, 'report-delivery-settings', { always: true, fullPage: true });
    const phone = watch(await app.signedInPage('/report-delivery/settings', undefined, MOBILE));
    await phone.getByRole('heading', { name: 'Report Delivery Settings', level: 1 }).waitFor();
    await phone.getByLabel('Link expires after (days)').waitFor();
    await screenshot(phone, 'report-delivery-settings-phone', { always: true, fullPage: true });
  });
});
