import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createBill } from '../../src/core/billing/service.js';
import { updatePermissionMatrix } from '../../src/core/users/permissions.js';
import { systemActor } from '../../src/core/context.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { billCreateSchema } from '../../src/shared/schemas/bills.js';
import { localDate } from '../../src/shared/time.js';
import { MOBILE, screenshot, screenshotFailures, startApp, type E2eApp } from './harness.js';

/**
 * The accountant's month in the browser, as a user whose role holds export_accounts and nothing
 * else: the month's figures, the Tally file downloaded, a ledger renamed in the settings and the
 * next file posting to it. At 1280 px and on a phone.
 */
let app: E2eApp;
const shot = screenshotFailures();
const WIDE = { width: 1280, height: 800 };
const month = localDate('Asia/Kolkata').slice(0, 7);

beforeAll(async () => {
  app = await startApp({ roles: ['user'] });
  const db = app.database.db;
  const actor = systemActor(app.organizationId!);
  await updatePermissionMatrix(db, actor, { roles: [{ role: 'user', permissions: ['export_accounts'] }] });
  const cbc = await createTest(
    db,
    actor,
    testCreateSchema.parse({ name: 'Complete Blood Count', code: 'CBC', price: 400 }),
  );
  const skin = await createTest(
    db,
    actor,
    testCreateSchema.parse({
      name: 'Skin analysis',
      code: 'SKN',
      price: 1200,
      tax_category: 'gst_18',
      sac_code: '999722',
    }),
  );
  for (const [first, items, paid] of [
    ['Meera', [cbc.id], 400],
    ['Arjun', [cbc.id, skin.id], 1000],
  ] as const) {
    const p = await createPatient(
      db,
      actor,
      patientCreateSchema.parse({ first_name: first, last_name: 'Rao', date_of_birth: '1990-05-01', gender: 'Female' }),
    );
    await createBill(
      db,
      actor,
      billCreateSchema.parse({
        patient_id: p.id,
        items: items.map((item_id) => ({ item_type: 'test', item_id })),
        payment_method: 'upi',
        payment_reference: `UPI-${first}`,
        amount_paid: paid,
      }),
    );
  }
});

afterAll(async () => {
  await app?.close();
});

describe('Accounts', () => {
  it('shows the month to an accountant with only export_accounts, and downloads the Tally file with the ledger names set there', async () => {
    const page = shot(await app.signedInPage(`/accounts?month=${month}`, app.users.user!, WIDE));
    await expect.poll(() => page.getByRole('heading', { name: 'Accounts' }).isVisible()).toBe(true);
    const sales = page.getByRole('group', { name: 'Sales' });
    // 400 + 400 + 1,200 + 18% GST on 1,200.
    await expect.poll(() => sales.textContent()).toContain('₹2,216.00');
    expect(await page.getByRole('group', { name: 'Receipts' }).textContent()).toContain('₹1,400.00');
    expect(await page.getByRole('group', { name: 'Exempt value' }).textContent()).toContain('₹800.00');
    expect(await page.getByText('Not needed: the lab’s annual turnover').isVisible()).toBe(true);
    await screenshot(page, 'accounts-1280', { fullPage: true });

    const download = async () => {
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download Tally day book (XML)' }).click(),
      ]);
      expect(file.suggestedFilename()).toBe(`tally-${month}.xml`);
      return readFileSync((await file.path())!, 'utf8');
    };
    const before = await download();
    expect(before).toContain('<LEDGERNAME>UPI Receipts</LEDGERNAME>');

    await page.getByRole('button', { name: 'Accounts settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Accounts settings' });
    await dialog.getByLabel('UPI', { exact: true }).fill('');
    await dialog.getByRole('button', { name: 'Save Settings' }).click();
    await expect.poll(() => dialog.getByText('UPI is required').isVisible()).toBe(true);
    await dialog.getByLabel('UPI', { exact: true }).fill('HDFC UPI Collections');
    await dialog.getByLabel('Annual turnover (₹)').fill('60000000');
    await screenshot(page, 'accounts-settings-1280');
    await dialog.getByRole('button', { name: 'Save Settings' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect.poll(() => page.getByTestId('ledger-upi').textContent()).toBe('HDFC UPI Collections');
    // Above the threshold the IRN file is offered.
    await expect
      .poll(() => page.getByRole('button', { name: 'Download E-invoices (IRN JSON)' }).isVisible())
      .toBe(true);
    const after = await download();
    expect(after).toContain('<LEDGERNAME>HDFC UPI Collections</LEDGERNAME>');
    expect(after).not.toContain('<LEDGERNAME>UPI Receipts</LEDGERNAME>');
  });

  it('fits a phone', async () => {
    const page = shot(await app.signedInPage(`/accounts?month=${month}`, app.users.user!, MOBILE));
    await expect.poll(() => page.getByRole('group', { name: 'Sales' }).textContent()).toContain('₹2,216.00');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'accounts-390', { fullPage: true });
  });
});
