import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createBill } from '../../src/core/billing/service.js';
import { createMaterial } from '../../src/core/qc/service.js';
import { systemActor } from '../../src/core/context.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { billCreateSchema } from '../../src/shared/schemas/bills.js';
import { qcMaterialCreateSchema } from '../../src/shared/schemas/qc.js';
import { MOBILE, screenshot, startApp, type E2eApp, screenshotFailures } from './harness.js';

/** The lab's day in the browser: a bill's tubes collected in one action, a QC run of two levels judged together. */
let app: E2eApp;
let hb: number;

beforeAll(async () => {
  app = await startApp();
  const db = app.database.db;
  const actor = systemActor(app.organizationId!);
  const test = async (body: Record<string, unknown>) => (await createTest(db, actor, testCreateSchema.parse(body))).id;
  hb = await test({
    name: 'Haemoglobin',
    code: 'HB',
    price: 150,
    unit: 'g/dL',
    sample_type: 'Blood',
    container: 'edta',
  });
  const chol = await test({ name: 'Total Cholesterol', code: 'CHOL', price: 200, unit: 'mg/dL', sample_type: 'Blood' });
  const p = await createPatient(
    db,
    actor,
    patientCreateSchema.parse({
      first_name: 'सुनीता',
      last_name: 'देवी',
      age: 42,
      gender: 'Female',
      phone: '9845012345',
    }),
  );
  await createBill(
    db,
    actor,
    billCreateSchema.parse({
      patient_id: p.id,
      items: [
        { item_type: 'test', item_id: hb },
        { item_type: 'test', item_id: chol },
      ],
    }),
  );
  for (const level of ['Level 1', 'Level 2'])
    await createMaterial(
      db,
      actor,
      qcMaterialCreateSchema.parse({ name: 'Haem control', test_id: hb, level, target_mean: 12, target_sd: 0.5 }),
    );
});
afterAll(async () => {
  await app?.close();
});

const track = screenshotFailures();

async function open(path: string, heading: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await app.signedInPage(path, app.admin, viewport);
  track(page);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return page;
}

describe('the lab day in the browser', () => {
  it('Collect Sample offers the tubes the bill ordered and collects both in one action', async () => {
    const page = await open('/samples', 'Sample Collection', MOBILE);
    await page.getByRole('button', { name: 'Collect Sample' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Collect Sample' });
    await dialog.getByRole('combobox', { name: 'Patient' }).fill('सुनीता');
    await dialog.getByRole('option', { name: /सुनीता देवी/ }).click();
    const tubes = dialog.getByRole('region', { name: /Tubes to collect \(2\)/ });
    await tubes.getByText('EDTA (lavender top)').waitFor();
    await tubes.getByText('Plain / serum (red or yellow top)').waitFor();
    await page.evaluate(() => document.fonts.ready);
    await screenshot(page, 'lab-day-tubes-mobile');
    // One scan collects that tube; the other is ticked and collected with the button.
    const [edta] = await app.database.db
      .selectFrom('samples')
      .select(['barcode'])
      .where('container', '=', 'edta')
      .execute();
    await tubes.getByLabel('Scan a tube').fill(edta!.barcode!);
    await tubes.getByLabel('Scan a tube').press('Enter');
    await page.getByText('1 tube collected').waitFor();
    await dialog.getByRole('region', { name: /Tubes to collect \(1\)/ }).waitFor();
    await dialog.getByRole('button', { name: 'Collect 1 tube' }).click();
    await page.getByText('1 tube collected').nth(1).waitFor();
    const rows = await app.database.db.selectFrom('samples').select(['status', 'container']).execute();
    expect(rows.map((r) => [r.container, r.status]).sort()).toEqual([
      ['edta', 'collected'],
      ['serum', 'collected'],
    ]);
  });

  it('a QC run of two levels is judged together: both beyond +2 SD reject it (2-2s)', async () => {
    const page = await open('/quality', 'Quality Control');
    await page.getByRole('button', { name: 'Run All Levels' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record QC Run (all levels)' });
    await dialog.getByLabel('Test').selectOption({ label: 'Haemoglobin (2 levels)' });
    await dialog.getByLabel(/^Level 1/).fill('13.1');
    await dialog.getByLabel(/^Level 2/).fill('13.2');
    await screenshot(page, 'lab-day-qc-run');
    await dialog.getByRole('button', { name: 'Record Run' }).click();
    await page.getByText('QC run rejected: 2-2s').waitFor();
    const runs = await app.database.db.selectFrom('qc_runs').select(['status', 'run_key']).execute();
    expect(runs).toHaveLength(2);
    expect(new Set(runs.map((r) => r.run_key)).size).toBe(1);
    expect(runs.every((r) => r.status === 'failed')).toBe(true);
  });
});
