import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPatient } from '../../src/core/patients/service.js';
import { systemActor } from '../../src/core/context.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { MOBILE, screenshot, startApp, type E2eApp, screenshotFailures } from './harness.js';

/** System Settings in the browser: saved settings change what every screen shows; maintenance mode stops staff. */
let app: E2eApp;

beforeAll(async () => {
  app = await startApp({ roles: ['receptionist'] });
  await createPatient(
    app.database.db,
    systemActor(app.organizationId!),
    patientCreateSchema.parse({
      first_name: 'Lakshmi',
      last_name: 'Narayanan',
      gender: 'Female',
      date_of_birth: '1979-06-21',
    }),
  );
});
afterAll(async () => {
  await app?.close();
});

const track = screenshotFailures();

async function open(path: string, heading: string, who = app.admin, viewport?: { width: number; height: number }) {
  const page = await app.signedInPage(path, who, viewport);
  track(page);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return page;
}

describe('System Settings', () => {
  it('saves the lab’s name, date format and currency, refuses a bad value, and every screen follows', async () => {
    const page = await open('/settings', 'System Settings');
    await page
      .getByTestId('db-engine')
      .filter({ hasText: /SQLite|PostgreSQL/ })
      .waitFor();
    await screenshot(page, 'settings-desktop');
    await page.getByLabel('Lab Name').fill('');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('Lab name is required').waitFor();
    await page.getByLabel('Lab Name').fill('Sunrise Diagnostics');
    await page.getByLabel('Date Format').selectOption('YYYY-MM-DD');
    await page.getByLabel('Currency').selectOption('USD');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('Settings saved').first().waitFor();
    const org = await app.database.db
      .selectFrom('organizations')
      .select(['name', 'date_format', 'currency'])
      .executeTakeFirstOrThrow();
    expect(org).toEqual({ name: 'Sunrise Diagnostics', date_format: 'YYYY-MM-DD', currency: 'USD' });

    // The patient list shows the registration date as the lab now writes dates (YYYY-MM-DD).
    await page.goto('/patients?search=Lakshmi');
    await page.getByRole('row').filter({ hasText: 'Lakshmi Narayanan' }).waitFor();
    await expect
      .poll(() => page.getByRole('row').filter({ hasText: 'Lakshmi' }).innerText())
      .toMatch(/\b20\d\d-\d\d-\d\d\b/);
    // Catalogue prices are labelled in the lab's currency.
    await page.goto('/individual-tests');
    await page
      .getByRole('button', { name: /Add Test/ })
      .first()
      .click();
    await page.getByLabel('Price ($)', { exact: true }).waitFor();

    await page.goto('/settings');
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByRole('dialog', { name: 'Reset settings' }).getByRole('button', { name: 'Reset' }).click();
    await page.getByText('Settings reset to the defaults').waitFor();
    await expect(page.getByLabel('Currency').inputValue()).resolves.toBe('INR');
    await expect(page.getByLabel('Lab Name').inputValue()).resolves.toBe('Sunrise Diagnostics');
  });

  it('maintenance mode: a receptionist sees the banner and cannot save; the admin ends it', async () => {
    const admin = await open('/settings', 'System Settings');
    await admin.getByRole('switch', { name: 'Maintenance mode' }).click();
    await admin.getByRole('button', { name: 'Save Settings' }).click();
    await admin.getByText('Settings saved').first().waitFor();
    await admin.getByText('Maintenance mode.', { exact: false }).first().waitFor();

    const reception = await open('/patients', 'All Patients', app.users.receptionist!, MOBILE);
    await reception.getByText('Changes are paused until an administrator ends it').waitFor();
    await reception.getByRole('button', { name: 'Add Patient' }).first().click();
    const add = reception.getByRole('dialog', { name: 'Add New Patient' });
    await add.getByLabel('First Name').fill('Ravi');
    await add.getByLabel('Last Name').fill('Kumar');
    await add.getByLabel('Gender').selectOption('Male');
    await add.getByLabel('Age', { exact: true }).fill('45');
    await add.getByLabel('Phone').fill('9845012399');
    await add.getByRole('button', { name: 'Add Patient' }).click();
    await reception
      .getByText(/maintenance mode/)
      .first()
      .waitFor();
    await screenshot(reception, 'settings-maintenance-refused-mobile');
    await add.getByRole('button', { name: 'Cancel' }).click();
    await add.waitFor({ state: 'hidden' });
    await screenshot(reception, 'settings-maintenance-mobile');
    expect(
      await app.database.db.selectFrom('patients').select('id').where('first_name', '=', 'Ravi').execute(),
    ).toEqual([]);

    await admin.getByRole('switch', { name: 'Maintenance mode' }).click();
    await admin.getByRole('button', { name: 'Save Settings' }).click();
    await admin.getByText('Settings saved').first().waitFor();
    await screenshot(admin, 'settings-after-maintenance');
  });

  it('fits a phone', async () => {
    const page = await open('/settings', 'System Settings', app.admin, MOBILE);
    await page
      .getByTestId('db-engine')
      .filter({ hasText: /SQLite|PostgreSQL/ })
      .waitFor();
    await screenshot(page, 'settings-mobile');
    await page.getByRole('button', { name: 'Back Up Now' }).click();
    await page.getByText('Backup written').first().waitFor();
    await page.getByTestId('last-backup').filter({ hasText: 'lims-auto-' }).waitFor();
    await page.getByRole('button', { name: 'Check Integrity' }).click();
    await page.getByTestId('integrity').filter({ hasText: 'Audit chain: intact' }).waitFor();
    await page.getByRole('heading', { name: 'Database', exact: true }).scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-database-mobile');
    await page.getByRole('heading', { name: 'System', exact: true }).scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-system-mobile');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
