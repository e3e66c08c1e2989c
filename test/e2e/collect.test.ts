import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createBill } from '../../src/core/billing/service.js';
import { changeSampleStatus, createSample, listSamples } from '../../src/core/samples/service.js';
import { systemActor } from '../../src/core/context.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { billCreateSchema } from '../../src/shared/schemas/bills.js';
import { sampleCreateSchema, sampleListQuery, type Sample } from '../../src/shared/schemas/samples.js';
import { MOBILE, screenshot, startApp, type E2eApp, screenshotFailures } from './harness.js';

/**
 * The collector's morning: a bill's tubes waiting, a hand scanner on the collection screen, and a
 * haemolysed tube drawn again.
 */
let app: E2eApp;
let edta: Sample;
let fluoride: Sample;
let rejected: Sample;
let collectorId: number;

async function samplesOf(patientId: number): Promise<Sample[]> {
  return (await listSamples(app.database.db, app.organizationId!, sampleListQuery.parse({ patient_id: patientId })))
    .samples;
}

beforeAll(async () => {
  app = await startApp({ roles: ['collector'] });
  const db = app.database.db;
  const actor = systemActor(app.organizationId!);
  const test = (name: string, code: string, container: string) =>
    createTest(db, actor, testCreateSchema.parse({ name, code, price: 150, sample_type: 'Blood', container }));
  const cbc = await test('Complete Blood Count', 'CBC', 'edta');
  const esr = await test('ESR', 'ESR', 'edta');
  const fbs = await test('Glucose Fasting', 'FBS', 'fluoride');
  const lata = await createPatient(
    db,
    actor,
    patientCreateSchema.parse({
      first_name: 'Lata',
      last_name: 'Menon',
      date_of_birth: '1980-04-04',
      gender: 'Female',
    }),
  );
  await createBill(
    db,
    actor,
    billCreateSchema.parse({
      patient_id: lata.id,
      items: [cbc, esr, fbs].map((t) => ({ item_type: 'test', item_id: t.id })),
    }),
  );
  const tubes = await samplesOf(lata.id);
  edta = tubes.find((t) => t.container === 'edta')!;
  fluoride = tubes.find((t) => t.container === 'fluoride')!;
  const ravi = await createPatient(
    db,
    actor,
    patientCreateSchema.parse({ first_name: 'Ravi', last_name: 'Kumar', date_of_birth: '1978-02-11', gender: 'Male' }),
  );
  rejected = await createSample(
    db,
    actor,
    sampleCreateSchema.parse({ patient_id: ravi.id, sample_type: 'Blood', test_ids: [cbc.id] }),
  );
  rejected = await changeSampleStatus(db, actor, rejected.id, { status: 'rejected', notes: 'Haemolysed' });
  const who = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', app.users.collector!.email)
    .executeTakeFirstOrThrow();
  collectorId = who.id;
});

afterAll(async () => {
  await app?.close();
});

const track = screenshotFailures();

async function open(path: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await app.signedInPage(path, app.users.collector, viewport);
  track(page);
  await page.getByRole('heading', { name: 'Sample Collection', level: 1 }).waitFor();
  return page;
}

/** A hand scanner: the code typed in a burst into the focused search box, then Enter. */
async function scan(page: Page, code: string): Promise<void> {
  const box = page.getByRole('searchbox', { name: 'Search samples or scan a barcode' });
  await box.click();
  await page.keyboard.type(code, { delay: 5 });
  await page.keyboard.press('Enter');
}

describe('Sample Collection with a hand scanner', () => {
  it('a scanned pending tube opens Collect on it, Collected By set to the signed-in collector', async () => {
    const page = await open('/samples', { width: 1280, height: 860 });
    await scan(page, edta.barcode!);
    const dialog = page.getByRole('dialog', { name: 'Collect Sample' });
    await dialog.getByTestId('selected-patient').getByText('Lata Menon').waitFor();
    const collectedBy = dialog.getByLabel('Collected By');
    await expect.poll(() => collectedBy.inputValue()).toBe(String(collectorId));
    expect(await collectedBy.locator('option:checked').textContent()).toBe('Test collector (Collector)');
    // Only the scanned tube is ticked; the other tube of the bill waits.
    const edtaBox = dialog.getByRole('checkbox', { name: `Collect EDTA (lavender top) ${edta.sample_id}` });
    await expect.poll(() => edtaBox.isChecked()).toBe(true);
    expect(
      await dialog.getByRole('checkbox', { name: `Collect Fluoride (grey top) ${fluoride.sample_id}` }).isChecked(),
    ).toBe(false);
    await dialog.getByText('Scanned').waitFor();
    await screenshot(page, 'collect-scanned');
    await dialog.getByRole('button', { name: 'Collect 1 tube' }).click();
    await page.getByText('1 tube collected').waitFor();
    await page.getByRole('dialog', { name: 'Sample Barcode' }).waitFor();
    const [after] = (await samplesOf(edta.patient_id)).filter((s) => s.id === edta.id);
    expect(after).toMatchObject({ status: 'collected', collector_id: collectorId });
    await page.keyboard.press('Escape');

    // Scanned again, or a code this lab never issued: it says why, and opens nothing.
    await scan(page, edta.barcode!);
    await page.getByText(`Cannot collect ${edta.sample_id}`).waitFor();
    await page.getByText(/It was already collected on .* by Test collector\./).waitFor();
    await scan(page, 'BCBL00000000000');
    await page.getByText('No sample of this lab has barcode BCBL00000000000').waitFor();
    expect(await page.getByRole('dialog', { name: 'Collect Sample' }).count()).toBe(0);
  });

  it('a rejected sample is recollected: a new tube, linked both ways, its label ready', async () => {
    const page = await open(`/samples?search=${rejected.sample_id}`, { width: 1280, height: 860 });
    await page.getByRole('button', { name: `Recollect ${rejected.sample_id}` }).click();
    const dialog = page.getByRole('dialog', { name: `Recollect ${rejected.sample_id}` });
    await dialog.getByText('Haemolysed').waitFor();
    await screenshot(page, 'collect-recollect-dialog');
    await dialog.getByRole('button', { name: 'Recollect' }).click();
    await page.getByText('Recollection ordered').waitFor();
    const barcode = page.getByRole('dialog', { name: 'Sample Barcode' });
    await barcode.getByRole('img', { name: /^Barcode BCBL\d{11}$/ }).waitFor();
    await page.keyboard.press('Escape');
    const fresh = (await samplesOf(rejected.patient_id)).find((s) => s.recollect_of === rejected.id)!;
    expect(fresh).toMatchObject({ status: 'pending', test_ids: rejected.test_ids });

    await page
      .getByRole('row')
      .filter({ hasText: rejected.sample_id })
      .getByText(`Recollected as ${fresh.sample_id}`)
      .waitFor();
    expect(await page.getByRole('button', { name: `Recollect ${rejected.sample_id}` }).count()).toBe(0);
    await page.goto(`/samples?view=${fresh.id}`);
    const details = page.getByRole('dialog', { name: `Sample ${fresh.sample_id}` });
    await details.getByText('Recollection of').first().waitFor();
    await details.getByRole('button', { name: rejected.sample_id }).waitFor();
    await screenshot(page, 'collect-recollection-details');
  });

  it('works on a phone: the scan opens Collect', async () => {
    const page = await open('/samples', MOBILE);
    await scan(page, fluoride.barcode!);
    const dialog = page.getByRole('dialog', { name: 'Collect Sample' });
    await dialog.getByTestId('selected-patient').getByText('Lata Menon').waitFor();
    await expect.poll(() => dialog.getByLabel('Collected By').inputValue()).toBe(String(collectorId));
    await screenshot(page, 'collect-scanned-mobile');
    await page.keyboard.press('Escape');
    await page.getByText(`Recollected as`).first().waitFor();
    await screenshot(page, 'collect-list-mobile');
  });
});
