import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createSample } from '../../src/core/samples/service.js';
import { createResult } from '../../src/core/results/entry.js';
import { createMaterial } from '../../src/core/qc/service.js';
import { recordTestRun } from '../../src/core/qc/runs.js';
import { systemActor, type Actor } from '../../src/core/context.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { sampleCreateSchema } from '../../src/shared/schemas/samples.js';
import { qcMaterialCreateSchema } from '../../src/shared/schemas/qc.js';
import { MOBILE, screenshot, screenshotFailures, startApp, type E2eApp } from './harness.js';

/**
 * A rejected QC level is shown where results are worked on: on the entry sheet before a value is
 * typed, in the validation queue and on the review; the same value is confirmed after a re-run;
 * a supervisor overrides a rejection from the review.
 */
let app: E2eApp;
let hb: number;
let l1: number;
let l2: number;
let l2Control: string;
let tech: Actor;
const watch = screenshotFailures();
const WIDE = { width: 1280, height: 800 };

async function sampleOf(first: string, last: string): Promise<{ id: number; code: string; barcode: string }> {
  const db = app.database.db;
  const system = systemActor(app.organizationId!);
  const p = await createPatient(
    db,
    system,
    patientCreateSchema.parse({ first_name: first, last_name: last, date_of_birth: '1980-01-01', gender: 'Male' }),
  );
  const s = await createSample(
    db,
    system,
    sampleCreateSchema.parse({ patient_id: p.id, sample_type: 'Blood', test_ids: [hb], priority: 'normal' }),
  );
  return { id: s.id, code: s.sample_id, barcode: s.barcode! };
}

const run = (material: number, value: number, at?: string) =>
  recordTestRun(app.database.db, tech, { test_id: hb, values: [{ material_id: material, value }], performed_at: at });

let waiting: { id: number; code: string; barcode: string };
let entered: { id: number; code: string; barcode: string };

beforeAll(async () => {
  app = await startApp({ roles: ['lab_technician', 'validator'] });
  const db = app.database.db;
  const system = systemActor(app.organizationId!);
  hb = (
    await createTest(
      db,
      system,
      testCreateSchema.parse({ name: 'Haemoglobin', code: 'HB', price: 150, unit: 'g/dL', normal_range: '12.0-17.0' }),
    )
  ).id;
  const material = async (level: string, mean: number, sd: number) =>
    createMaterial(
      db,
      system,
      qcMaterialCreateSchema.parse({
        name: `Hb control ${level}`,
        test_id: hb,
        level,
        target_mean: mean,
        target_sd: sd,
      }),
    );
  l1 = (await material('Level 1', 8, 0.2)).id;
  const level2 = await material('Level 2', 13.5, 0.3);
  l2 = level2.id;
  l2Control = level2.control_id;
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', app.users.lab_technician!.email)
    .executeTakeFirstOrThrow();
  tech = {
    userId: row.id,
    email: app.users.lab_technician!.email,
    role: 'lab_technician',
    organizationId: app.organizationId!,
  };
  // Level 2 rejected 1-3s, then Level 1 passing at the same moment: recorded one at a time.
  const at = new Date(Date.now() - 60_000).toISOString();
  expect((await run(l2, 14.6, at)).status).toBe('failed');
  expect((await run(l1, 8.1, at)).status).toBe('passed');
  waiting = await sampleOf('Kiran', 'Shah');
  entered = await sampleOf('Lata', 'Joshi');
  await createResult(db, tech, { sample_id: entered.id, test_id: hb, result_value: '13.2' });
});

afterAll(async () => {
  await app?.close();
});

async function sheetOf(page: Page, s: { code: string; barcode: string }) {
  await page.getByRole('heading', { name: 'Result Entry', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Enter Results' }).click();
  const picker = page.getByRole('dialog', { name: 'Enter Results' });
  await picker.getByLabel('Sample ID or barcode').fill(s.barcode);
  await picker.getByLabel('Sample ID or barcode').press('Enter');
  return page.getByRole('dialog', { name: `Enter Results: ${s.code}` });
}

const REJECTED = /QC rejected: Haemoglobin Level 2 \(1-3s\) at \d\d\/\d\d\/\d{4} \d\d:\d\d — results held/;

describe('QC holds, where results are worked on', () => {
  it('the technician sees the rejected level on the entry sheet before typing a value', async () => {
    for (const [viewport, name] of [
      [WIDE, 'desktop'],
      [MOBILE, 'phone'],
    ] as const) {
      const page = watch(await app.signedInPage('/results', app.users.lab_technician!, viewport));
      const sheet = await sheetOf(page, waiting);
      const alert = sheet.getByRole('alert').filter({ hasText: 'Level 2' });
      await alert.getByText(REJECTED).waitFor();
      expect(await alert.innerText()).toContain('A value entered now is held');
      // Overriding is a supervisor's: a technician is not offered it.
      expect(await alert.getByRole('button', { name: 'Override Rejection...' }).count()).toBe(0);
      await screenshot(page, `qc-gate-entry-${name}`);
      await page.close();
    }
  });

  it('the validator sees the held result in the queue and on its review, where Validate waits', async () => {
    for (const [viewport, name] of [
      [WIDE, 'desktop'],
      [MOBILE, 'phone'],
    ] as const) {
      const page = watch(await app.signedInPage('/result-validation', app.users.validator!, viewport));
      await page.getByRole('heading', { name: 'Result Validation', level: 1 }).waitFor();
      await page.getByLabel(/^R-\d{6} needs review on its own: Held by a QC rejection/).waitFor();
      if (name === 'desktop') {
        await page.getByText('QC Held', { exact: true }).waitFor();
        await screenshot(page, 'qc-gate-queue-desktop');
      }
      expect(await page.getByRole('button', { name: /^Validate R-\d{6} \(Haemoglobin\)/ }).count()).toBe(0);
      await page.getByRole('button', { name: /^Review R-\d{6} \(Haemoglobin\)/ }).click();
      const review = page.getByRole('dialog', { name: /^Review Result R-\d{6}$/ });
      await review.getByText(REJECTED).waitFor();
      expect(await review.getByRole('button', { name: 'I have reviewed it: Validate' }).isDisabled()).toBe(true);
      await screenshot(page, `qc-gate-review-${name}`);
      await page.close();
    }
  });

  it('after the level passes a re-run, the technician confirms the same value and it is released', async () => {
    expect((await run(l2, 13.6)).status).toBe('passed');
    const page = watch(await app.signedInPage('/results', app.users.lab_technician!, WIDE));
    const sheet = await sheetOf(page, entered);
    const held = sheet.getByRole('alert').filter({ hasText: 'Held by an earlier QC rejection' });
    await held.getByText('QC has passed since this value was entered').waitFor();
    await screenshot(page, 'qc-gate-confirm-desktop');
    await held.getByRole('button', { name: 'Confirm 13.2 g/dL (re-run gave the same)' }).click();
    await page.getByText(/^Result R-\d{6} confirmed$/).waitFor();
    await held.waitFor({ state: 'detached' });
  });

  it('a supervisor overrides an earlier rejection (not the latest run) from the review', async () => {
    // Level 1 rejected, then Level 2 passing: the rejection is no longer the test's latest run.
    expect((await run(l1, 8.8)).status).toBe('failed');
    expect((await run(l2, 13.4)).status).toBe('passed');
    const third = await sampleOf('Manoj', 'Pillai');
    await createResult(app.database.db, tech, { sample_id: third.id, test_id: hb, result_value: '14.1' });
    const page = watch(await app.signedInPage('/result-validation', app.admin, WIDE));
    await page.getByRole('heading', { name: 'Result Validation', level: 1 }).waitFor();
    await page.getByRole('button', { name: /^Review R-\d{6} \(Haemoglobin\)/ }).click();
    const review = page.getByRole('dialog', { name: /^Review Result R-\d{6}$/ });
    const alert = review.getByRole('alert');
    await alert.getByText(/QC rejected: Haemoglobin Level 1 \(1-3s\)/).waitFor();
    await alert.getByRole('button', { name: 'Override Rejection...' }).click();
    await alert
      .getByLabel('Reason to accept Haemoglobin Level 1 anyway')
      .fill('Level 1 vial left open; fresh vial in range');
    await screenshot(page, 'qc-gate-override-desktop');
    await alert.getByRole('button', { name: 'Override Rejection', exact: true }).click();
    await page.getByText('QC rejection overridden').waitFor();
    await alert.waitFor({ state: 'detached' });
    await review.getByRole('button', { name: 'I have reviewed it: Validate' }).click();
    await review.waitFor({ state: 'detached' });
  });

  it('the QC screen offers the override of an earlier rejected run, not only of the latest', async () => {
    const page = watch(await app.signedInPage('/quality', app.admin, WIDE));
    await page.getByRole('heading', { name: 'Quality Control', level: 1 }).waitFor();
    await page.getByRole('button', { name: `View ${l2Control}` }).click();
    const detail = page.getByRole('dialog', { name: new RegExp(l2Control) });
    // Level 2's rejection of 14.6 was followed by passing runs: it is not the latest, still offered.
    const section = detail.getByRole('region', { name: 'Override a rejected run' });
    await section.getByText(/14\.6 · 1-3s/).waitFor();
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'qc-gate-material-override-desktop');
  });
});
