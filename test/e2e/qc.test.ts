import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createMaterial, recordRun } from '../../src/core/qc/service.js';
import { addDays } from '../../src/shared/time.js';
import { localDate } from '../../src/shared/time.js';
import { systemActor, type Actor } from '../../src/core/context.js';
import { MOBILE, login, screenshot, startApp, type E2eApp } from './harness.js';

let app: E2eApp;

beforeAll(async () => {
  app = await startApp({ roles: ['lab_technician', 'validator', 'receptionist'] });
  await createTest(app.database.db, systemActor(app.organizationId!), {
    name: 'Glucose Fasting',
    code: 'GLUF',
    price: 120,
    unit: 'mg/dL',
    status: 'active',
    category: 'Biochemistry',
  });
});

afterAll(async () => {
  await app?.close();
});

async function open(
  who: 'admin' | 'lab_technician' | 'validator' | 'receptionist',
  viewport?: { width: number; height: number },
): Promise<Page> {
  const page = await app.signedInPage('/quality', who === 'admin' ? app.admin : app.users[who]!, viewport);
  await page.getByRole('heading', { name: 'Quality Control', level: 1 }).waitFor();
  return page;
}

const formatLabDate = (ymd: string) => ymd.split('-').reverse().join('/');

const card = (page: Page, name: string) => page.getByRole('group', { name });

/** Earlier daily runs of the material (recorded through the service as the technician would have), for a chart with history. */
async function seedHistory(controlId: string) {
  const db = app.database.db;
  const m = await db
    .selectFrom('qc_materials')
    .select('id')
    .where('control_id', '=', controlId)
    .executeTakeFirstOrThrow();
  const tech = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', app.users.lab_technician!.email)
    .executeTakeFirstOrThrow();
  const actor: Actor = {
    userId: tech.id,
    email: app.users.lab_technician!.email,
    role: 'lab_technician',
    organizationId: app.organizationId!,
  };
  const values = [99.1, 100.8, 101.5, 98.7, 100.2, 97.9, 102.6, 100.4, 99.3, 101.1, 98.4, 100.9];
  for (const [i, value] of values.entries()) {
    const performed_at = new Date(Date.now() - (values.length - i) * 86_400_000).toISOString();
    await recordRun(db, actor, m.id, { value, performed_at });
  }
}

/** Toasts cover the bottom right: dismiss the lasting ones and let the rest go before a screenshot. */
async function quietToasts(page: Page) {
  // Stacked toasts keep moving while they animate, so Playwright's click never sees them stable:
  // press every close button from inside the page instead.
  await page.evaluate(
    "document.querySelectorAll('[data-sonner-toast] [data-close-button]').forEach((b) => b instanceof HTMLElement && b.click())",
  );
  await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached', timeout: 15_000 });
}

async function recordFromRow(page: Page, controlId: string, value: string) {
  await page.getByRole('button', { name: `Record QC run for ${controlId}` }).click();
  const d = page.getByRole('dialog', { name: `Record QC Run: ${controlId}` });
  await d.getByLabel('Value (mg/dL)').fill(value);
  await d.getByRole('button', { name: 'Record Run' }).click();
  await d.waitFor({ state: 'detached' });
}

describe('Quality Control', () => {
  it('starts empty, adds a control material with the default lot, expiry and control id, and judges runs on entry', async () => {
    const page = await open('admin');
    await page.getByText('No QC records found').waitFor();
    // The cards fill in when the summary arrives (the page may show before it does).
    await expect.poll(() => card(page, 'Total Runs').innerText()).toMatch(/\n0\n/);

    await page.getByRole('button', { name: 'Add Control Material' }).click();
    const add = page.getByRole('dialog', { name: 'Add Control Material' });
    await add.getByRole('button', { name: 'Add Control Material' }).click();
    await add.getByText('Name is required').waitFor();
    await add.getByText('Test is required').waitFor();
    await add.getByText('Target SD is required').waitFor();
    await add.getByLabel('Name').fill('Lyphochek Assayed Chemistry');
    await add.getByLabel('Test').selectOption({ label: 'Glucose Fasting (GLUF)' });
    await add.getByLabel('Level').fill('Level 1 (Normal)');
    await add.getByLabel('Target Mean').fill('100');
    await add.getByLabel('Target SD').fill('0');
    await add.getByLabel('Target Mean').click();
    await add.getByText('Target SD must be greater than 0').waitFor();
    await add.getByLabel('Target SD').fill('2');
    await screenshot(page, 'qc-add-material');
    await add.getByRole('button', { name: 'Add Control Material' }).click();
    await add.waitFor({ state: 'detached' });
    await page.getByText('Control material added').waitFor();

    const year = new Date().getFullYear();
    const controlId = `QC-${year}-001`;
    const row = page.getByRole('table', { name: 'QC records' }).getByRole('row').filter({ hasText: controlId });
    await row.getByText('LOT001').waitFor();
    await row.getByText('No runs').waitFor();
    await row.getByText('100 ± 2').waitFor();
    await row.getByText('96 – 104').waitFor();

    await seedHistory(controlId);
    await page.reload();
    await row.getByText('Passed').waitFor();

    await recordFromRow(page, controlId, '101');
    await page.getByText('QC run passed').waitFor();
    await recordFromRow(page, controlId, '104.5');
    await page.getByText('QC run accepted with warning: 1-2s').waitFor();
    await row.getByText('Warning').waitFor();
    await recordFromRow(page, controlId, '105');
    await page.getByText('QC run rejected: 2-2s').waitFor();
    await row.getByText('Rejected').waitFor();
    await row.getByText('1-2s, 2-2s').waitFor();
    await row.getByText('Asha Rao').waitFor();

    // The 12 seeded runs stay within 2 SD and break no rule; then passed, warning, rejected: 13 of 15 passed.
    await expect.poll(() => card(page, 'Total Runs').innerText()).toMatch(/\n15\n/);
    expect(await card(page, 'Passed').innerText()).toMatch(/\n13\n/);
    expect(await card(page, 'Failed/Rejected').innerText()).toMatch(/\n1\n/);
    expect(await card(page, 'Pass Rate').innerText()).toMatch(/\n86\.7%\n/);
    await quietToasts(page);
    await screenshot(page, 'qc-desktop');

    await page.getByRole('button', { name: `View ${controlId}` }).click();
    const detail = page.getByRole('dialog', { name: new RegExp(controlId) });
    const chart = detail.getByRole('img', { name: new RegExp(`Levey-Jennings chart of ${controlId}.*15 runs`) });
    await chart.waitFor();
    expect(await chart.locator('circle').count()).toBe(15);
    expect(await chart.locator('circle[fill="#dc2626"]').count()).toBe(1);
    expect(await chart.locator('circle[fill="#d97706"]').count()).toBe(1);
    await detail
      .getByRole('table', { name: `QC runs of ${controlId}` })
      .getByText('2-2s')
      .first()
      .waitFor();
    await screenshot(page, 'qc-chart-desktop');

    // From the details, a run returns to them with the new point on the chart.
    await detail.getByRole('button', { name: 'Record QC Run' }).click();
    const runDialog = page.getByRole('dialog', { name: `Record QC Run: ${controlId}` });
    await runDialog.getByLabel('Value (mg/dL)').fill('100');
    await screenshot(page, 'qc-record-run');
    await runDialog.getByRole('button', { name: 'Record Run' }).click();
    await page.getByRole('img', { name: /16 runs/ }).waitFor();

    // The filters: status of the last run, and search.
    await page.keyboard.press('Escape');
    await page.getByLabel('Status', { exact: true }).selectOption('failed');
    await page.getByText('No QC records found').waitFor();
    await page.getByText('Try adjusting your search or filter criteria').waitFor();
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await row.waitFor();
  });

  it('looks right on a phone, with the chart in the dialog', async () => {
    const page = await open('lab_technician', MOBILE);
    const controlId = `QC-${new Date().getFullYear()}-001`;
    await page.getByRole('table', { name: 'QC records' }).getByText(controlId).waitFor();
    await quietToasts(page);
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'));
    expect(overflow, '/quality scrolls sideways').toBeLessThanOrEqual(0);
    await screenshot(page, 'qc-mobile');
    await page.getByRole('button', { name: `View ${controlId}` }).click();
    await page.getByRole('img', { name: /Levey-Jennings chart/ }).waitFor();
    await screenshot(page, 'qc-chart-mobile');
  });

  it('hides write actions from a validator, marks expired and soon-expiring lots, and refuses a receptionist', async () => {
    const db = app.database.db;
    const actor = systemActor(app.organizationId!);
    const test = await db.selectFrom('tests').select('id').where('code', '=', 'GLUF').executeTakeFirstOrThrow();
    const soon = await createMaterial(db, actor, {
      name: 'Lyphochek Level 2',
      test_id: test.id,
      level: 'Level 2 (Abnormal High)',
      control_type: 'External',
      expiry_date: addDays(localDate('Asia/Kolkata'), 10),
      target_mean: 250,
      target_sd: 6,
    });
    const old = await createMaterial(db, actor, {
      name: 'Old lot',
      test_id: test.id,
      control_type: 'Internal',
      target_mean: 100,
      target_sd: 2,
    });
    await db.updateTable('qc_materials').set({ expiry_date: '2025-01-31' }).where('id', '=', old.id).execute();

    const validator = await open('validator');
    await validator.getByText(`${soon.control_id} · Glucose Fasting · lot ${soon.lot_number}`).waitFor();
    const table = validator.getByRole('table', { name: 'QC records' });
    const expiryCell = (controlId: string, date: string) =>
      table.getByRole('row').filter({ hasText: controlId }).getByText(date, { exact: true }).locator('..');
    expect(await expiryCell(old.control_id, '31/01/2025').getAttribute('class')).toContain('text-red-700');
    expect(await expiryCell(old.control_id, '31/01/2025').innerText()).toContain('Expired');
    expect(await expiryCell(soon.control_id, formatLabDate(soon.expiry_date)).getAttribute('class')).toContain(
      'text-amber-800',
    );
    expect(await expiryCell(soon.control_id, formatLabDate(soon.expiry_date)).innerText()).toContain(
      'Expires in 10 days',
    );
    await screenshot(validator, 'qc-expiry-validator');
    await validator.getByRole('table', { name: 'QC records' }).getByRole('row').nth(1).waitFor();
    expect(await validator.getByRole('button', { name: 'Add Control Material' }).count()).toBe(0);
    expect(await validator.getByRole('button', { name: /Record QC run/i }).count()).toBe(0);

    const receptionist = await open('receptionist');
    await receptionist.getByText('You do not have permission to view quality control').waitFor();
  });

  it('shows the error panel with Retry when the server cannot answer', async () => {
    const page = await app.newPage();
    await page.route('**/api/qc/materials*', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Database is locked' }),
      }),
    );
    await page.goto('/quality');
    await login(page, app.admin.email, app.admin.password);
    await page.getByText('Database Connection Error').waitFor();
    await page.getByText('Database is locked').waitFor();
    await page.unroute('**/api/qc/materials*');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('table', { name: 'QC records' }).getByRole('row').nth(1).waitFor();
  });
});
