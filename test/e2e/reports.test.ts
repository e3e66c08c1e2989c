import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MOBILE, screenshot, startApp, type E2eApp } from './harness.js';
import { systemActor } from '../../src/core/context.js';
import { entityNamed, runImport } from '../../src/core/transfer/service.js';
import { REPORT_PDF_MAX_ROWS } from '../../src/shared/reports.js';

/**
 * Reports as a lab manager uses them: the catalogue's cards, View of a report with its chart (and
 * the chart's data as a table), a figure from this lab's own bill, the CSV download, and the
 * monthly management report's figures.
 */
let app: E2eApp;
const stamp = Date.now() % 100000;
const testName = `Ferritin ${stamp}`;

async function post(page: Page, url: string, data: unknown) {
  const res = await page.request.post(url, { data });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

beforeAll(async () => {
  app = await startApp({ roles: ['lab_manager'] });
});
afterAll(async () => {
  await app?.close();
});

describe('Reports', () => {
  it('views Revenue by Test with its chart and table, downloads the CSV; the monthly report shows the same money', async () => {
    const page = await app.signedInPage('/reports');
    // One bill of this lab: 2 × ₹750 less 10% line discount = ₹1,350.00.
    const test = (
      await post(page, '/api/tests', { name: testName, code: `FER${stamp}`, price: 750, category: 'Immunology' })
    ).test;
    const patient = (
      await post(page, '/api/patients', {
        first_name: 'Lakshmi',
        last_name: 'Iyer',
        date_of_birth: '1979-04-04',
        gender: 'Female',
      })
    ).patient;
    await post(page, '/api/bills', {
      patient_id: patient.id,
      visit_type: 'lab_only',
      items: [{ item_type: 'test', item_id: test.id, qty: 2, discount_percent: 10 }],
    });

    await page.reload();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await page.getByRole('group', { name: 'Active Reports' }).getByText('10', { exact: true }).waitFor();
    const row = page.getByTestId('report-revenue-by-test');
    await row.getByText('Never').waitFor();
    await row.getByRole('button', { name: 'View Revenue by Test' }).click();

    const table = page.getByRole('table', { name: 'Revenue by Test table' });
    const line = table.getByRole('row').filter({ hasText: testName });
    await line.getByText('₹1,350.00').waitFor();
    await line.getByText('Immunology').waitFor();
    await page.getByTestId('report-chart').locator('svg').first().waitFor();
    await page.getByRole('button', { name: 'Show as table' }).click();
    await page
      .getByRole('table', { name: 'Revenue by category (data)' })
      .getByRole('row')
      .filter({ hasText: 'Immunology' })
      .getByText('₹1,350.00')
      .waitFor();
    // The run was recorded: the catalogue counts it.
    await row.getByRole('cell', { name: '1', exact: true }).waitFor();
    await screenshot(page, 'reports-revenue-by-test');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^revenue-by-test-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8');
    // As every CSV lims writes: a BOM (Excel reads Indian scripts), CRLF line ends.
    expect(csv.split('\r\n')[0]).toBe('\uFEFFTest ID,Test,Category,Count,Revenue');
    expect(csv).toContain(`${test.id},${testName},Immunology,2,1350`);

    // The type filter keeps only laboratory reports.
    await page.getByLabel('Report type').selectOption('laboratory');
    await page.getByTestId('report-tat-by-test').waitFor();
    await page.getByTestId('report-revenue-by-test').waitFor({ state: 'detached' });

    const month = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Asia/Kolkata',
      year: 'numeric',
      month: '2-digit',
    }).format(new Date());
    const monthly = await app.signedInPage(`/comprehensive-reports?month=${month}`, app.users.lab_manager, MOBILE);
    await monthly
      .getByTestId('figure-Billed for tests and packages (after line discounts)')
      .getByText('₹1,350.00')
      .waitFor();
    await monthly.getByTestId('figure-Bills made').getByText('1', { exact: true }).waitFor();
    await screenshot(monthly, 'comprehensive-reports-phone');
  });

  it('says why a report too long for a PDF cannot be printed from the list, instead of opening its error in a tab', async () => {
    // Enough patients registered today for a Patient Register past the PDF's row limit.
    const file = join(app.dataDir, 'many-patients.csv');
    const letters = (n: number) =>
      n.toString(26).replace(/[0-9a-p]/g, (d) => String.fromCharCode(97 + parseInt(d, 26)));
    const lines = ['first_name,last_name,date_of_birth,gender'];
    for (let i = 0; i <= REPORT_PDF_MAX_ROWS; i++) lines.push(`Print,Row${letters(i)},1980-01-02,Female`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const imported = await runImport(app.database.db, systemActor(app.organizationId!), {
      entity: entityNamed('patients')!,
      path: file,
      dryRun: false,
      update: false,
      origin: 'cli',
      reportPath: () => null,
      spoolDir: join(app.dataDir, 'spool'),
    });
    expect(imported.status).toBe('completed');

    const page = await app.signedInPage('/reports', app.users.lab_manager);
    const row = page.getByTestId('report-patient-register');
    const popup = page.waitForEvent('popup');
    await row.getByRole('button', { name: 'Print Patient Register' }).click();
    // The window opened inside the click closes again, and the server's reason is shown here.
    const win = await popup;
    await win.waitForEvent('close');
    await page.getByText(/a PDF is made for at most 5,000/).waitFor();
    await page.getByText('Download it as CSV or XLSX', { exact: false }).first().waitFor();
    await screenshot(page, 'reports-print-too-long');
  });
});
