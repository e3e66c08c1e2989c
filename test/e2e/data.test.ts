import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createBill, updateBill } from '../../src/core/billing/service.js';
import { systemActor } from '../../src/core/context.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { billCreateSchema, billUpdateSchema } from '../../src/shared/schemas/bills.js';
import { localDate } from '../../src/shared/time.js';
import { rows } from '../db.js';
import { screenshot, startApp, type E2eApp } from './harness.js';
import { menuFiles } from '../api/menu-files.js';

/**
 * The data screens as a lab moving in from another system uses them: the patients
 * template, a file of 20 patients with a bad date and a duplicate code, the errors by row and
 * column, the fixed file imported, the history; then the bills of a date range to Excel, whose
 * sums are checked against the lab's own figures; and a test menu of 300 tests from Excel with
 * profiles naming them by code, where a wrong code is named by row and column and stores nothing.
 */
let app: E2eApp;
const SURNAME = 'Walkthrough';
const NAMES =
  'Aarav Diya Kabir Anaya Vihaan Isha Reyansh Myra Arjun Saanvi Ishaan Kiara Advik Navya Dhruv Riya Kian Tara Rohan Zoya'.split(
    ' ',
  );

beforeAll(async () => {
  app = await startApp();
  const db = app.database.db;
  const actor = systemActor(app.organizationId!);
  const cbc = await createTest(
    db,
    actor,
    testCreateSchema.parse({ name: 'Complete Blood Count', code: 'CBC', price: 400, category: 'Haematology' }),
  );
  const patient = await createPatient(
    db,
    actor,
    patientCreateSchema.parse({
      first_name: 'Meera',
      last_name: 'Iyer',
      date_of_birth: '1990-05-01',
      gender: 'Female',
    }),
  );
  // 400 and 2 x 400 less 10%, and a cancelled one that an export still lists as cancelled.
  for (const [qty, discount] of [
    [1, 0],
    [2, 10],
  ] as const) {
    await createBill(
      db,
      actor,
      billCreateSchema.parse({
        patient_id: patient.id,
        items: [{ item_type: 'test', item_id: cbc.id, qty }],
        discount_percentage: discount,
      }),
    );
  }
  const cancelled = await createBill(
    db,
    actor,
    billCreateSchema.parse({ patient_id: patient.id, items: [{ item_type: 'test', item_id: cbc.id }] }),
  );
  await updateBill(
    db,
    actor,
    cancelled.id,
    billUpdateSchema.parse({ status: 'cancelled', cancel_reason: 'Entered twice' }),
  );
});

afterAll(async () => {
  await app?.close();
});

/** A CSV line with each value quoted when it needs to be. */
const csvLine = (values: string[]) =>
  values.map((v) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(',');

/** 20 patients in the template's columns; `bad` puts an impossible date on row 6 and row 3's code again on row 10. */
function patientsFile(header: string[], bad: boolean): string {
  const lines = [csvLine(header)];
  for (let i = 1; i <= 20; i++) {
    const values: Record<string, string> = {
      patient_id: `PAT20250101${String(i).padStart(4, '0')}`,
      first_name: NAMES[i - 1]!,
      last_name: SURNAME,
      date_of_birth: `19${70 + i}-0${(i % 9) + 1}-1${i % 10}`,
      gender: i % 2 ? 'Male' : 'Female',
      phone: `98450${String(10000 + i)}`,
    };
    if (bad && i === 5) values.date_of_birth = '1988-02-30';
    if (bad && i === 9) values.patient_id = 'PAT202501010003';
    lines.push(csvLine(header.map((h) => values[h] ?? '')));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** New Import (Import Data on Test Data Import) with one file of one data type. */
async function uploadFile(page: Page, entity: string, name: string, buffer: Buffer) {
  await page.getByRole('button', { name: /^(New Import|Import Data)$/ }).click();
  const dialog = page.getByRole('dialog', { name: 'New Import' });
  await dialog.getByLabel('Data type').selectOption(entity);
  await dialog.getByTestId('import-file').setInputFiles({ name, mimeType: 'application/octet-stream', buffer });
  return dialog;
}

/**
 * The uploads the server holds for the lab: beside its SQLite file (on PostgreSQL the test app's
 * folder is a temporary one of its own, and `null` leaves the check out).
 */
function heldUploads(): string[] | null {
  if (app.database.engine !== 'sqlite') return null;
  const dir = join(dirname(app.database.file), 'uploads', String(app.organizationId));
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.upload')) : [];
}
const NONE = () => (app.database.engine === 'sqlite' ? [] : null);

const uploadPatients = (page: Page, text: string) =>
  uploadFile(page, 'patients', 'clinic-patients.csv', Buffer.from(text, 'utf8'));

describe('data import and export screens', () => {
  it('imports 20 patients from the template after the errors by row and column are fixed', async () => {
    const page = await app.signedInPage('/data-import-export');
    const [template] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download Patient template (CSV)' }).click(),
    ]);
    expect(template.suggestedFilename()).toBe('patients-template.csv');
    const header = readFileSync((await template.path())!, 'utf8')
      .replace(/^\uFEFF/, '')
      .split('\r\n')[0]!
      .split(',');
    expect(header).toEqual(
      expect.arrayContaining(['patient_id', 'first_name', 'last_name', 'date_of_birth', 'gender']),
    );

    await page.goto('/import');
    let dialog = await uploadPatients(page, patientsFile(header, true));
    // Row 1 is the header: the 5th patient is on row 6, the 9th on row 10.
    await dialog.getByText('2 errors in 20 rows').waitFor();
    const errors = dialog.getByRole('table', { name: 'Validation errors' });
    const cells = async (n: number) => errors.getByRole('row').nth(n).getByRole('cell').allTextContents();
    expect((await cells(1)).slice(0, 2)).toEqual(['6', 'date_of_birth']);
    expect((await cells(2)).slice(0, 2)).toEqual(['10', 'patient_id']);
    expect((await cells(2))[2]).toContain('also on row 4');
    await screenshot(page, 'data-import-errors');
    await expect(dialog.getByRole('button', { name: /^Import/ }).isDisabled()).resolves.toBe(true);
    expect(await rows(app.database, 'SELECT id FROM patients WHERE last_name = ?', SURNAME)).toHaveLength(0);
    expect(heldUploads()?.length ?? 1).toBe(1);
    await page.keyboard.press('Escape');
    // Closed without importing: the server no longer holds the file.
    await expect.poll(heldUploads).toEqual(NONE());

    dialog = await uploadPatients(page, patientsFile(header, false));
    await dialog.getByText('Every row is valid: 20 rows, 20 new and 0 updated if imported.').waitFor();
    await dialog.getByRole('button', { name: 'Import 20 rows' }).click();
    await dialog.getByText('Imported: 20 new, 0 updated.').waitFor();
    await expect.poll(heldUploads).toEqual(NONE());
    await screenshot(page, 'data-import-done');
    await page.keyboard.press('Escape');

    const stored = await rows<{ patient_code: string; date_of_birth: string }>(
      app.database,
      'SELECT patient_code, date_of_birth FROM patients WHERE last_name = ? ORDER BY patient_code',
      SURNAME,
    );
    expect(stored).toHaveLength(20);
    expect(stored[0]).toEqual({ patient_code: 'PAT202501010001', date_of_birth: '1971-02-11' });

    // The history lists the import with its counts.
    const history = page.getByRole('table', { name: 'Import History' });
    await history
      .getByRole('row')
      .filter({ hasText: 'clinic-patients.csv' })
      .filter({ hasText: 'Completed' })
      .waitFor();
  });

  it('exports the bills of a date range to Excel, with the sums the lab has', async () => {
    const page = await app.signedInPage('/export');
    // The header's button (Quick Export Options has one of the same name).
    await page.getByRole('button', { name: 'Create Export' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create Export' });
    await dialog.getByLabel('Data type').selectOption('bills');
    await dialog.getByLabel('Format').selectOption('xlsx');
    const today = localDate('Asia/Kolkata');
    await dialog.getByLabel('From').fill(today);
    await dialog.getByLabel('To').fill(today);
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Export' }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(/^bills.*\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await file.path())!);
    const sheet = book.worksheets[0]!;
    const names = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
    const at = (name: string) => names.indexOf(name) + 1;
    const lines: { final: number; status: string }[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1)
        lines.push({
          final: Number(row.getCell(at('final_amount')).value),
          status: String(row.getCell(at('status')).value),
        });
    });
    expect(lines).toHaveLength(3);
    const expected = await rows<{ total: number }>(
      app.database,
      'SELECT SUM(final_amount_paise) AS total FROM bills WHERE cancelled_at IS NULL',
    );
    const sum = lines.filter((l) => l.status !== 'cancelled').reduce((s, l) => s + l.final, 0);
    // 400 + 720 rupees; the cancelled bill is listed, not counted.
    expect(sum).toBe(1120);
    expect(Math.round(sum * 100)).toBe(Number(expected[0]!.total));
    expect(lines.filter((l) => l.status === 'cancelled')).toHaveLength(1);
  });

  it('imports a test menu of 300 tests from Excel and its profiles by code; a wrong code stores nothing', async () => {
    const menu = await menuFiles('EM');
    const page = await app.signedInPage('/test-data-import');
    let dialog = await uploadFile(page, 'tests', 'menu.xlsx', menu.testsXlsx);
    await dialog.getByRole('button', { name: 'Import 300 rows' }).click();
    await dialog.getByText('Imported: 300 new, 0 updated.').waitFor();
    await page.keyboard.press('Escape');

    dialog = await uploadFile(page, 'profiles', 'panels.csv', Buffer.from(menu.badProfilesCsv));
    await dialog.getByText('1 error in 30 rows').waitFor();
    const cells = await dialog
      .getByRole('table', { name: 'Validation errors' })
      .getByRole('row')
      .nth(1)
      .getByRole('cell')
      .allTextContents();
    expect(cells.slice(0, 3)).toEqual([
      '7',
      'test_codes',
      `no test with code ${menu.badCode} (import the tests first)`,
    ]);
    await screenshot(page, 'test-menu-profile-error');
    await expect(dialog.getByRole('button', { name: /^Import/ }).isDisabled()).resolves.toBe(true);
    expect(await rows(app.database, "SELECT id FROM test_profiles WHERE code LIKE 'EMP%'")).toHaveLength(0);
    await page.keyboard.press('Escape');

    dialog = await uploadFile(page, 'profiles', 'panels.csv', Buffer.from(menu.profilesCsv));
    await dialog.getByRole('button', { name: 'Import 30 rows' }).click();
    await dialog.getByText('Imported: 30 new, 0 updated.').waitFor();
    const tests = await rows<{ code: string }>(
      app.database,
      "SELECT code FROM tests WHERE code LIKE 'EM%' ORDER BY code",
    );
    expect(tests.map((t) => t.code)).toEqual(menu.testCodes);
    const links = await rows<{ profile: string; test: string }>(
      app.database,
      `SELECT p.code AS profile, t.code AS test FROM profile_tests pt
         JOIN test_profiles p ON p.id = pt.profile_id JOIN tests t ON t.id = pt.test_id
        WHERE p.code LIKE 'EMP%' ORDER BY p.code, pt.position`,
    );
    const members = new Map<string, string[]>();
    for (const l of links) members.set(l.profile, [...(members.get(l.profile) ?? []), l.test]);
    expect(members).toEqual(menu.members);
  });
});
