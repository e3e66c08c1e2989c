import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createSample } from '../../src/core/samples/service.js';
import { systemActor } from '../../src/core/context.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { sampleCreateSchema, type Sample } from '../../src/shared/schemas/samples.js';
import { MOBILE, screenshot, startApp, type E2eApp, screenshotFailures } from './harness.js';

/** The lab's name where staff sign in and work; a calculated test on the entry sheet. */
let app: E2eApp;
let sample: Sample;

beforeAll(async () => {
  app = await startApp({ roles: ['lab_technician'] });
  const db = app.database.db;
  const actor = systemActor(app.organizationId!);
  const test = (body: Record<string, unknown>) =>
    createTest(db, actor, testCreateSchema.parse({ price: 100, sample_type: 'Blood', unit: 'mg/dL', ...body }));
  const ids = [
    await test({ name: 'Total Cholesterol', code: 'CHOL', normal_range: '0-200' }),
    await test({ name: 'Triglycerides', code: 'TG', normal_range: '0-150' }),
    await test({ name: 'HDL Cholesterol', code: 'HDL', normal_range: '40-60' }),
    await test({
      name: 'LDL Cholesterol',
      code: 'LDL',
      normal_range: '0-100',
      result_type: 'calculated',
      formula: 'CHOL - HDL - TG/5 if TG <= 400',
      decimals: 0,
    }),
  ].map((t) => t.id);
  const p = await createPatient(
    db,
    actor,
    patientCreateSchema.parse({ first_name: 'Anil', last_name: 'Joshi', date_of_birth: '1970-01-01', gender: 'Male' }),
  );
  sample = await createSample(
    db,
    actor,
    sampleCreateSchema.parse({ patient_id: p.id, sample_type: 'Blood', test_ids: ids }),
  );
});

afterAll(async () => {
  await app?.close();
});

const track = screenshotFailures();

describe("the lab's name", () => {
  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', MOBILE],
  ] as const) {
    it(`is on the sign-in page (${label})`, async () => {
      const page = track(await app.newPage(viewport));
      await page.goto('/login');
      await page.getByTestId('lab-name').getByText('E2E Diagnostics').waitFor();
      await screenshot(page, `login-lab-name-${label}`);
    });
  }

  it('is in the sidebar', async () => {
    const page = track(await app.signedInPage('/', app.admin, { width: 1280, height: 800 }));
    await page.getByTestId('sidebar-lab-name').getByText('E2E Diagnostics').waitFor();
  });
});

describe('a calculated test on the entry sheet', () => {
  async function sheet(): Promise<Page> {
    const page = track(await app.signedInPage('/results', app.users.lab_technician, { width: 1280, height: 900 }));
    await page.getByRole('button', { name: `Enter result for Total Cholesterol on ${sample.sample_id}` }).click();
    await page.getByRole('dialog', { name: `Enter Results: ${sample.sample_id}` }).waitFor();
    return page;
  }

  it('shows the value its formula gives and why it is not typed; opens for the measured value where the formula does not apply', async () => {
    const page = await sheet();
    const dialog = page.getByRole('dialog', { name: `Enter Results: ${sample.sample_id}` });
    await dialog.getByLabel('Total Cholesterol result').fill('200');
    await dialog.getByLabel('Triglycerides result').fill('150');
    await dialog.getByLabel('HDL Cholesterol result').fill('40');
    const ldl = dialog.getByLabel('LDL Cholesterol result');
    await expect.poll(() => ldl.inputValue()).toBe('130');
    expect(await ldl.getAttribute('readonly')).not.toBeNull();
    await dialog.getByText(/Calculated from CHOL - HDL - TG\/5 if TG <= 400: not typed/).waitFor();
    await screenshot(page, 'entry-calculated');

    // Triglycerides over 400: Friedewald does not apply, the lab measures LDL directly.
    await dialog.getByLabel('Triglycerides result').fill('480');
    await dialog.getByText(/Measured directly: not valid when TG is 480/).waitFor();
    await expect.poll(() => ldl.getAttribute('readonly')).toBeNull();
    await ldl.fill('152');
    await screenshot(page, 'entry-calculated-measured');
    await dialog.getByRole('button', { name: 'Save Results' }).click();
    await dialog.waitFor({ state: 'detached' });
    const saved = await app.database.db
      .selectFrom('test_results')
      .select(['result_value', 'calculated'])
      .where('sample_id', '=', sample.id)
      .where('test_id', '=', sample.test_ids[3]!)
      .executeTakeFirstOrThrow();
    expect(saved).toEqual({ result_value: '152', calculated: 0 });
  });
});
