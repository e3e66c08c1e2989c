import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createSample } from '../../src/core/samples/service.js';
import { createResult } from '../../src/core/results/entry.js';
import { systemActor, type Actor } from '../../src/core/context.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { sampleCreateSchema } from '../../src/shared/schemas/samples.js';
import { LIVE_REFRESH_MS } from '../../src/shared/constants.js';
import { MOBILE, screenshot, startApp, type E2eApp } from './harness.js';

/**
 * Analytics Dashboard and Enhanced Dashboard: a collected sample with one entered result.
 * Analytics shows it whatever the chart type and range; the Enhanced Dashboard lists the result as
 * waiting and drops it by itself (no reload) once a validator verifies it through the API.
 */
let app: E2eApp;
let sampleCode: string;
let resultId: number;
const testName = `Serum Creatinine ${Date.now() % 100000}`;

beforeAll(async () => {
  app = await startApp({ roles: ['lab_technician', 'validator'] });
  const db = app.database.db;
  const system = systemActor(app.organizationId!);
  const test = await createTest(
    db,
    system,
    testCreateSchema.parse({
      name: testName,
      code: 'CREA',
      price: 250,
      category: 'Biochemistry',
      unit: 'mg/dL',
      normal_range: '0.6-1.2',
      target_tat_minutes: 240,
    }),
  );
  const p = await createPatient(
    db,
    system,
    patientCreateSchema.parse({
      first_name: 'Meera',
      last_name: 'Iyer',
      date_of_birth: '1980-03-03',
      gender: 'Female',
    }),
  );
  const s = await createSample(
    db,
    system,
    sampleCreateSchema.parse({
      patient_id: p.id,
      sample_type: 'Blood',
      test_ids: [test.id],
      location: 'Main Lab',
      status: 'collected',
    }),
  );
  sampleCode = s.sample_id;
  const techRow = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', app.users.lab_technician!.email)
    .executeTakeFirstOrThrow();
  const tech: Actor = {
    userId: techRow.id,
    email: app.users.lab_technician!.email,
    role: 'lab_technician',
    organizationId: app.organizationId!,
  };
  resultId = Number((await createResult(db, tech, { sample_id: s.id, test_id: test.id, result_value: '1.0' })).id);
});

afterAll(async () => {
  await app?.close();
});

const card = (page: Page, name: string) => page.getByRole('group', { name });

describe('Analytics and Enhanced Dashboard', () => {
  it('Analytics: chart type and range switch the real chart; the sample and its test are counted', async () => {
    const page = await app.signedInPage('/analytics');
    await page.getByRole('heading', { name: 'Analytics Dashboard', level: 1 }).waitFor();
    await card(page, 'Samples Collected').getByText('1', { exact: true }).waitFor();
    await page.locator('figure[data-chart-type="bar"]').first().waitFor();

    await page.getByLabel('Chart type').selectOption('line');
    await page.locator('figure[data-chart-type="line"]').first().waitFor();
    expect(await page.locator('figure[data-chart-type="bar"]').count()).toBe(0);
    await page.getByLabel('Chart type').selectOption('pie');
    await page.locator('figure[data-chart-type="pie"]').first().waitFor();

    await page.getByLabel('Time range').selectOption('7');
    await page.waitForURL(/days=7/);
    expect(page.url()).toContain('chart=pie');
    await card(page, 'Samples Collected').getByText('1', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Show Test distribution as a table' }).click();
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: testName }) });
    await expect(row.getByRole('cell').first().textContent()).resolves.toBe('1');
    await screenshot(page, 'analytics-desktop', { fullPage: true });
    const phone = await app.signedInPage('/analytics?days=7&chart=line', app.admin, MOBILE);
    await card(phone, 'Samples Collected').getByText('1', { exact: true }).waitFor();
    await screenshot(phone, 'analytics-phone', { fullPage: true });
  });

  it('Enhanced Dashboard: the waiting result leaves the board by itself after it is verified', async () => {
    const page = await app.signedInPage('/enhanced-dashboard', app.users.validator!, undefined, { clock: true });
    await page.getByRole('heading', { name: 'Enhanced Dashboard', level: 1 }).waitFor();
    await card(page, 'Awaiting Verification').getByText('1', { exact: true }).waitFor();
    const waiting = page.getByRole('table', { name: 'Awaiting verification' });
    await waiting.getByRole('cell', { name: sampleCode }).waitFor();
    // A mark that a reload would wipe out.
    await page.evaluate('window.__stillHere = true');
    await screenshot(page, 'enhanced-dashboard-desktop', { fullPage: true });

    const res = await page.request.put(`/api/test-results/${resultId}/verify`, { data: {} });
    expect(res.status(), await res.text()).toBe(200);

    // No reload: the board reads itself again when its 15 s interval has passed.
    await page.clock.fastForward(LIVE_REFRESH_MS);
    await card(page, 'Awaiting Verification').getByText('0', { exact: true }).waitFor();
    await page.getByText('No result is waiting for verification').waitFor();
    expect(await page.evaluate('window.__stillHere')).toBe(true);
    expect(await page.getByTestId('live-updated').textContent()).toMatch(
      /^Updated at \d\d:\d\d:\d\d · refreshes every 15 s$/,
    );
    const phone = await app.signedInPage('/enhanced-dashboard', app.users.validator!, MOBILE);
    await card(phone, 'Awaiting Verification').getByText('0', { exact: true }).waitFor();
    await screenshot(phone, 'enhanced-dashboard-phone', { fullPage: true });
  });
});
