import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { changeSampleStatus, createSample } from '../../src/core/samples/service.js';
import { systemActor } from '../../src/core/context.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { sampleCreateSchema, type Sample } from '../../src/shared/schemas/samples.js';
import { MOBILE, RESULTS_DIR, screenshot, startApp, type E2eApp, screenshotFailures } from './harness.js';
import { requirePoppler } from '../../scripts/find-browser.mjs';

let app: E2eApp;
/** Collected in the browser: Meera's blood sample with two tests. */
let collected: { sampleId: string; barcode: string; id: number };
/** Ravi's collected urine sample: rejected in the browser. */
let toReject: Sample;
/** Ravi's pending stool sample (not drawn yet): no barcode until Generate Missing Barcodes. */
let pending: Sample;

beforeAll(async () => {
  app = await startApp({ roles: ['collector'] });
  const db = app.database.db;
  const actor = systemActor(app.organizationId!);
  const test = (name: string, code: string, sample_type: string) =>
    createTest(db, actor, testCreateSchema.parse({ name, code, price: 150, sample_type }));
  await test('Haemoglobin', 'HB', 'Blood');
  await test('Fasting Blood Sugar', 'FBS', 'Blood');
  await test('Urine Routine', 'URE', 'Urine');
  await createPatient(
    db,
    actor,
    patientCreateSchema.parse({
      first_name: 'Meera',
      last_name: 'Iyer',
      date_of_birth: '1990-05-01',
      gender: 'Female',
    }),
  );
  const ravi = await createPatient(
    db,
    actor,
    patientCreateSchema.parse({ first_name: 'Ravi', last_name: 'Kumar', date_of_birth: '1978-02-11', gender: 'Male' }),
  );
  const sample = (body: Record<string, unknown>) =>
    createSample(db, actor, sampleCreateSchema.parse({ patient_id: ravi.id, location: 'Home Collection', ...body }));
  toReject = await sample({ sample_type: 'Urine' });
  pending = await sample({ sample_type: 'Stool', status: 'pending', priority: 'low' });
  // One sample already through the lab, so Real-time Status has a measured processing time.
  const done = await sample({ sample_type: 'Blood', priority: 'high' });
  await changeSampleStatus(db, actor, done.id, { status: 'processing' });
  await changeSampleStatus(db, actor, done.id, { status: 'completed' });
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

const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

/** A row's secondary action: the "More actions" menu, then the item. */
async function menu(page: Page, sampleId: string, item: 'Edit' | 'Reject' | 'Delete'): Promise<void> {
  await page.getByRole('button', { name: `More actions for ${sampleId}` }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

describe('Sample Collection', () => {
  it('collects a blood sample with two tests, shows its barcode and QR, prints the label and downloads the image', async () => {
    const page = await open('/samples', 'Sample Collection');
    await page.getByRole('group', { name: 'Total Samples' }).getByText('3').waitFor();

    await page.getByRole('button', { name: 'Collect Sample' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Collect Sample' });
    // Nothing chosen: the spec's error toast, and the fields say what is missing.
    await dialog.getByRole('button', { name: 'Collect Sample' }).click();
    await page.getByText('Please fill in all required fields').waitFor();
    await dialog.getByText('Choose the sample type').waitFor();

    await dialog.getByRole('combobox', { name: 'Patient' }).fill('Meera');
    await dialog.getByRole('option', { name: /Meera Iyer/ }).click();
    await dialog.getByLabel('Sample Type').selectOption('Blood');
    // A Blood tube lists the blood tests first; the urine test only with "every sample type".
    await expect.poll(() => dialog.getByLabel('Urine Routine').count()).toBe(0);
    await dialog.getByLabel('Haemoglobin').check();
    await dialog.getByLabel('Fasting Blood Sugar').check();
    await dialog.getByLabel('Priority').selectOption('urgent');
    await dialog.getByLabel('Location').selectOption('Main Lab');
    // Collector options name each user's role.
    expect(await dialog.getByLabel('Collected By').locator('option').allTextContents()).toContain(
      'Test collector (Collector)',
    );
    await dialog.getByLabel('Notes').fill('Fasting 12 h');
    await screenshot(page, 'samples-collect-dialog');
    await dialog.getByRole('button', { name: 'Collect Sample' }).click();
    await page.getByText('Sample collected successfully').waitFor();

    // Straight into the barcode dialog: Code 128 and QR made by the server.
    const bc = page.getByRole('dialog', { name: 'Sample Barcode' });
    const img = bc.getByRole('img', { name: /^Barcode BCBL\d{11}$/ });
    await img.waitFor();
    const barcode = (await img.getAttribute('alt'))!.replace('Barcode ', '');
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(100);
    await expect
      .poll(() =>
        bc.getByRole('img', { name: `QR code ${barcode}` }).evaluate((el: HTMLImageElement) => el.naturalWidth),
      )
      .toBeGreaterThan(50);
    const sampleId = /SMP\d{12}/.exec((await bc.textContent())!)![0];
    await bc.getByText('Haemoglobin, Fasting Blood Sugar').waitFor();
    await screenshot(page, 'samples-barcode-dialog');

    // Print Label: the label PDF in a new window.
    const [popup] = await Promise.all([
      page.context().waitForEvent('page'),
      bc.getByRole('button', { name: 'Print Label' }).click(),
    ]);
    await expect.poll(() => popup.title()).toBe(`Label ${sampleId}`);
    const src = (await popup.locator('iframe').getAttribute('src'))!;
    expect(src).toMatch(/\/api\/samples\/\d+\/label\.pdf$/);
    await page.getByText('Print Started').waitFor();
    await popup.close();
    const pdf = await page.request.get(src);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    const file = join(RESULTS_DIR, 'samples-label.pdf');
    writeFileSync(file, await pdf.body());
    const text = execFileSync(requirePoppler('pdftotext'), ['-layout', file, '-']).toString();
    expect(text).toContain('Meera Iyer');
    expect(text).toContain(barcode);
    execFileSync(requirePoppler('pdftoppm'), [
      '-png',
      '-r',
      '300',
      '-singlefile',
      file,
      join(RESULTS_DIR, 'samples-label'),
    ]);

    // Download: the barcode PNG under its code.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      bc.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${barcode}.png`);

    // A popup blocker: the spec's print error.
    await page.evaluate(() => {
      window.open = () => null;
    });
    await bc.getByRole('button', { name: 'Print Label' }).click();
    await page.getByText('Unable to open print window').waitFor();
    await page.keyboard.press('Escape');

    const r = row(page, sampleId);
    await r.getByText('Urgent').filter({ visible: true }).waitFor();
    await r.getByText(barcode).filter({ visible: true }).waitFor();
    await r.getByText('Asha Rao').filter({ visible: true }).waitFor();
    await screenshot(page, 'samples-collection');
    collected = { sampleId, barcode, id: Number(/samples\/(\d+)\//.exec(src)![1]) };
  });

  it('finds the sample with a hand scanner in the Barcode System; manual, camera and errors as the spec says', async () => {
    const page = await open('/barcode-system', 'Barcode System');
    await page.getByRole('group', { name: 'With Barcodes' }).waitFor();

    await page.getByLabel('Scanner Type').selectOption('handheld');
    const field = page.getByLabel('Hand Scanner');
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    // A keyboard-wedge scanner: the code typed in a burst, then Enter.
    await page.keyboard.type(collected.barcode, { delay: 5 });
    await page.keyboard.press('Enter');
    await page.getByText('Barcode Found').waitFor();
    await page.getByText(`Sample ${collected.sampleId} found`).waitFor();
    const dialog = page.getByRole('dialog', { name: 'Sample Barcode' });
    await dialog.getByText(/^Meera Iyer \(PAT/).waitFor();
    await screenshot(page, 'barcode-system-found');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // Focus elsewhere on the page: a burst ending with Enter is still taken as a scan, a person's
    // slow typing is not. Keys are dispatched in the page so the timing does not depend on the test
    // machine's load.
    await page.getByRole('heading', { name: 'Barcode System', level: 1 }).click();
    const typeOnPage = (code: string, gapMs: number) =>
      page.evaluate(
        async ([text, gap]) => {
          const key = (k: string) =>
            document.body.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
          for (const ch of [...text, 'Enter']) {
            key(ch);
            if (gap) await new Promise((r) => setTimeout(r, gap));
          }
        },
        [code, gapMs] as const,
      );
    await typeOnPage(collected.barcode, 150);
    await page.waitForTimeout(500);
    expect(await dialog.count()).toBe(0);
    await typeOnPage(collected.barcode.toLowerCase(), 0);
    await dialog.waitFor();
    await page.keyboard.press('Escape');

    // Manual: blank, malformed and unknown codes.
    await page.getByLabel('Scanner Type').selectOption('manual');
    await page.getByRole('button', { name: 'Lookup' }).click();
    await page.getByText('Please enter a barcode').waitFor();
    await page.getByLabel('Barcode', { exact: true }).fill('XX123');
    await page.getByLabel('Barcode', { exact: true }).press('Enter');
    await page.getByText('The scanned barcode format is invalid').waitFor();
    await page.getByLabel('Barcode', { exact: true }).fill('BCBL00000000000');
    await page.getByRole('button', { name: 'Lookup' }).click();
    await page.getByText('No sample found with this barcode').waitFor();

    // Camera: headless Chromium has no camera, so the spec's Camera Error and back to manual.
    await page.getByLabel('Scanner Type').selectOption('camera');
    await page.getByText('Unable to access camera. Please use manual input.').waitFor();
    await expect.poll(() => page.getByLabel('Scanner Type').inputValue()).toBe('manual');

    // Search by barcode, and the table's columns.
    await page.getByRole('searchbox', { name: 'Search samples' }).fill(collected.barcode);
    await expect.poll(() => page.getByRole('table').getByRole('row').count()).toBe(2);
    await row(page, collected.sampleId).getByText('Main Lab').filter({ visible: true }).waitFor();
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await screenshot(page, 'barcode-system');

    // The Scan Barcode dialog does the same lookup.
    await page.getByRole('button', { name: 'Scan Barcode' }).click();
    const scanner = page.getByRole('dialog', { name: 'Barcode Scanner' });
    await scanner.getByLabel('Barcode').fill(collected.barcode);
    await screenshot(page, 'barcode-scanner-dialog');
    await scanner.getByLabel('Barcode').press('Enter');
    await dialog.getByText(collected.sampleId).first().waitFor();
  });

  it('moves the sample to processing; Sample Tracking shows it with its tests, ETA and custody', async () => {
    const page = await open(`/samples?search=${collected.sampleId}`, 'Sample Collection');
    await page.getByRole('button', { name: `Process ${collected.sampleId}` }).click();
    await page.getByText('Sample status updated to processing').waitFor();
    await row(page, collected.sampleId).getByText('Processing').filter({ visible: true }).waitFor();
    await page.getByRole('button', { name: `Complete ${collected.sampleId}` }).waitFor();

    await page.goto('/sample-tracking');
    await page.getByRole('heading', { name: 'Sample Tracking', level: 1 }).waitFor();
    const r = row(page, collected.sampleId);
    await r.getByText('Haemoglobin, Fasting Blood Sugar').filter({ visible: true }).waitFor();
    await r.getByText('ETA:').filter({ visible: true }).waitFor();
    await r.getByText('Meera Iyer').filter({ visible: true }).waitFor();
    // Real-time Status: the completion rate and a processing time measured from the completed sample.
    await page.getByRole('group', { name: 'Completion Rate' }).getByText('25%').waitFor();
    await page
      .getByRole('group', { name: 'Average Processing Time' })
      .getByText(/over 1 completed sample/)
      .waitFor();
    await screenshot(page, 'sample-tracking');

    // Priority filters by the stored priority.
    await page.getByLabel('Priority').selectOption('urgent');
    await expect.poll(() => page.getByRole('table').getByRole('row').count()).toBe(2);
    await row(page, collected.sampleId).waitFor();
    await page.getByLabel('Priority').selectOption('normal');
    await row(page, toReject.sample_id).waitFor();
    expect(await row(page, collected.sampleId).count()).toBe(0);
    await page.getByRole('searchbox', { name: 'Search samples' }).fill('no such sample');
    await page.getByText('No samples found').waitFor();
    await page.getByText('Try adjusting your search or filter criteria').waitFor();
    await page.getByRole('button', { name: 'Clear Filters' }).click();

    // View details goes to Sample Collection with the chain of custody open.
    await row(page, collected.sampleId)
      .getByRole('button', { name: `View details of ${collected.sampleId}` })
      .click();
    const details = page.getByRole('dialog', { name: `Sample ${collected.sampleId}` });
    const custody = details.getByRole('list', { name: 'Chain of custody' });
    await custody.getByText('Collected → Processing').waitFor();
    await custody
      .getByText(/Asha Rao · Main Lab/)
      .first()
      .waitFor();
    await custody.getByText('Fasting 12 h').waitFor();
    await details.getByText('Haemoglobin').first().waitFor();
    expect(page.url()).toContain(`view=${collected.id}`);
    await screenshot(page, 'samples-details-dialog');
  });

  it('rejects a sample only with a reason, and edits and deletes samples', async () => {
    const page = await open(`/samples?search=${toReject.sample_id}`, 'Sample Collection');
    await menu(page, toReject.sample_id, 'Reject');
    const dialog = page.getByRole('dialog', { name: 'Reject Sample' });
    await dialog.getByRole('button', { name: 'Reject Sample' }).click();
    await dialog.getByText('Give the reason for rejecting the sample').waitFor();
    await dialog.getByLabel('Reason').fill('Haemolysed');
    await screenshot(page, 'samples-reject-dialog');
    await dialog.getByRole('button', { name: 'Reject Sample' }).click();
    await page.getByText('Sample status updated to rejected').waitFor();
    await row(page, toReject.sample_id).getByText('Rejected').filter({ visible: true }).waitFor();
    // Closed: no more moves offered.
    await page.getByRole('button', { name: `More actions for ${toReject.sample_id}` }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Reject' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    // Edit: priority and location saved.
    await menu(page, toReject.sample_id, 'Edit');
    const edit = page.getByRole('dialog', { name: 'Edit Sample' });
    await edit.getByLabel('Location').selectOption('Downtown Collection Centre');
    await edit.getByLabel('Priority').selectOption('high');
    await screenshot(page, 'samples-edit-dialog');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Sample updated successfully').waitFor();
    await row(page, toReject.sample_id).getByText('High').filter({ visible: true }).waitFor();

    // Delete with confirmation naming the sample.
    await menu(page, toReject.sample_id, 'Delete');
    const confirm = page.getByRole('dialog', { name: 'Please confirm' });
    await confirm.getByText(`Are you sure you want to delete sample ${toReject.sample_id} of Ravi Kumar?`).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Sample deleted successfully').waitFor();
    await page.getByText('No samples found').waitFor();
  });

  it('Generate Missing Barcodes gives the pending sample a barcode in one call', async () => {
    const page = await open(`/barcode-system?search=${pending.sample_id}`, 'Barcode System');
    await row(page, pending.sample_id).getByText('No barcode').filter({ visible: true }).waitFor();
    await page.getByRole('button', { name: 'Generate Missing Barcodes' }).click();
    await page.getByText('Barcodes Generated').waitFor();
    await page.getByText('Generated 1 barcodes for existing samples').waitFor();
    await row(page, pending.sample_id)
      .getByText(/^BCST\d{11}$/)
      .filter({ visible: true })
      .waitFor();
    await page.getByRole('button', { name: 'Generate Missing Barcodes' }).click();
    await page.getByText('All samples already have barcodes').waitFor();
  });
});

describe('when the server fails', () => {
  it('each screen shows its error panel with the message, and Retry loads the data', async () => {
    const screens = [
      { path: '/samples', heading: 'Sample Collection', title: 'Database Connection Error', retry: 'Retry Connection' },
      { path: '/barcode-system', heading: 'Barcode System', title: 'Error Loading Barcode System', retry: 'Retry' },
      { path: '/sample-tracking', heading: 'Sample Tracking', title: 'Error Loading Sample Tracking', retry: 'Retry' },
    ];
    const page = await open('/sample-tracking', 'Sample Tracking');
    for (const sc of screens) {
      const fail = (route: Route) =>
        route.fulfill({
          status: 503,
          json: { statusCode: 503, error: 'Service Unavailable', message: 'The database is busy; try again' },
        });
      await page.route('**/api/samples?**', fail);
      await page.goto(sc.path);
      const panel = page.getByRole('alert').filter({ hasText: sc.title });
      await panel.getByText('The database is busy; try again').waitFor();
      if (sc.path === '/samples') await screenshot(page, 'samples-error');
      await page.unroute('**/api/samples?**', fail);
      await panel.getByRole('button', { name: sc.retry }).click();
      await page.getByRole('table').waitFor();
      await page.getByRole('heading', { name: sc.heading, level: 1 }).waitFor();
    }
  });
});

describe('on a phone', () => {
  it('the three screens and the collect dialog fit 390 px', async () => {
    const page = await open('/samples', 'Sample Collection', MOBILE);
    await page.getByRole('table', { name: 'Samples' }).waitFor();
    await screenshot(page, 'samples-collection-mobile');
    await page.getByRole('button', { name: 'Collect Sample' }).first().click();
    await page.getByRole('dialog', { name: 'Collect Sample' }).getByLabel('Sample Type').selectOption('Blood');
    await screenshot(page, 'samples-collect-dialog-mobile');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: `View ${collected.sampleId}` }).click();
    await page.getByRole('list', { name: 'Chain of custody' }).waitFor();
    await screenshot(page, 'samples-details-dialog-mobile');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: `Barcode of ${collected.sampleId}` }).click();
    await page
      .getByRole('dialog', { name: 'Sample Barcode' })
      .getByRole('img', { name: /^Barcode/ })
      .waitFor();
    await screenshot(page, 'samples-barcode-dialog-mobile');
    await page.keyboard.press('Escape');

    await page.goto('/barcode-system');
    await page.getByRole('heading', { name: 'Barcode System', level: 1 }).waitFor();
    await page.getByRole('table').waitFor();
    await screenshot(page, 'barcode-system-mobile');
    await page.getByRole('button', { name: 'Scan Barcode' }).click();
    await screenshot(page, 'barcode-scanner-dialog-mobile');
    await page.keyboard.press('Escape');

    await page.goto('/sample-tracking');
    await page.getByRole('heading', { name: 'Sample Tracking', level: 1 }).waitFor();
    await page.getByRole('table').waitFor();
    await screenshot(page, 'sample-tracking-mobile');
    // No horizontal scrolling of the page itself (the table may scroll inside its card).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
