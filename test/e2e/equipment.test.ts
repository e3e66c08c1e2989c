import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createSample } from '../../src/core/samples/service.js';
import { systemActor } from '../../src/core/context.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { sampleCreateSchema } from '../../src/shared/schemas/samples.js';
import { addDays, localDate } from '../../src/shared/time.js';
import { rows } from '../db.js';
import { screenshot, startApp, type E2eApp } from './harness.js';

/**
 * Equipment as the lab runs it: an analyser registered on Instruments, its calibration
 * scheduled and recorded (the next one follows from the interval) with its certificate uploaded
 * and opened, a maintenance record with its cost, a calibration past its due date shown overdue on
 * Calibration and the instrument shown Calibration Due, and Enter Results' machine picker carrying
 * the server's warning for it.
 */
let app: E2eApp;
let sample: { id: number; code: string };
let today: string;

beforeAll(async () => {
  app = await startApp();
  const db = app.database.db;
  const system = systemActor(app.organizationId!);
  today = localDate('Asia/Kolkata');
  const fbs = await createTest(
    db,
    system,
    testCreateSchema.parse({
      name: 'Fasting Blood Sugar',
      code: 'FBS',
      unit: 'mg/dL',
      normal_range: '70-110',
      price: 120,
    }),
  );
  const patient = await createPatient(
    db,
    system,
    patientCreateSchema.parse({
      first_name: 'Lata',
      last_name: 'Kamath',
      date_of_birth: '1970-06-02',
      gender: 'Female',
    }),
  );
  const s = await createSample(
    db,
    system,
    sampleCreateSchema.parse({ patient_id: patient.id, sample_type: 'Blood', test_ids: [fbs.id] }),
  );
  sample = { id: s.id, code: s.sample_id };
});

afterAll(async () => {
  await app?.close();
});

/** DD/MM/YYYY, the lab's date format. */
const shown = (iso: string) => iso.split('-').reverse().join('/');
const card = (page: Page, name: string) => page.getByRole('group', { name });

describe('equipment', () => {
  it('registers an analyser, records its calibration and maintenance, sees it overdue, and result entry warns', async () => {
    // Instruments: register the analyser.
    const page = await app.signedInPage('/instruments');
    await page.getByRole('button', { name: 'Add Instrument' }).first().click();
    const form = page.getByRole('dialog', { name: 'Add Instrument' });
    await form.getByLabel('Name').fill('Glucose analyser');
    await form.getByLabel('Serial Number').fill('GA-1001');
    await form.getByLabel('Type').selectOption('Analytical');
    await form.getByLabel('Location').fill('Biochemistry');
    await form.getByRole('button', { name: 'Add Instrument' }).click();
    await form.waitFor({ state: 'hidden' });
    const instrument = page.getByRole('row').filter({ hasText: 'Glucose analyser' });
    await instrument.getByText('Operational').waitFor();
    await expect.poll(async () => card(page, 'Total Instruments').innerText()).toContain('1');

    // Calibration: scheduled for today every 180 days, done today at 99.2%: the next is due in 180 days.
    await page.goto('/calibration');
    await page.getByRole('button', { name: 'Schedule Calibration' }).first().click();
    const schedule = page.getByRole('dialog', { name: 'Schedule Calibration' });
    await schedule.getByLabel('Equipment').selectOption({ label: 'Glucose analyser (GA-1001)' });
    await schedule.getByLabel('Due Date').fill(today);
    await schedule.getByLabel('Interval (days)').fill('180');
    await schedule.getByRole('button', { name: 'Schedule Calibration' }).click();
    await schedule.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Record work on Glucose analyser' }).click();
    const record = page.getByRole('dialog', { name: 'Record Calibration: Glucose analyser' });
    await record.getByLabel('Performed By').fill('Ravi Shetty');
    await record.getByLabel('Accuracy (%)').fill('99.2');
    await record.getByRole('button', { name: 'Record Work' }).click();
    await record.waitFor({ state: 'hidden' });
    const nextDue = addDays(today, 180);
    const done = page.getByRole('row').filter({ hasText: 'Ravi Shetty' });
    await done.getByRole('cell', { name: 'Completed', exact: true }).waitFor();
    expect(await done.innerText()).toContain('99.2%');
    expect(await done.innerText()).toContain(shown(nextDue));
    const next = page.getByRole('row').filter({ hasText: 'Scheduled' });
    expect(await next.innerText()).toContain(shown(nextDue));

    // The certificate: a PDF uploaded on the record, then opened from its link (the stored bytes).
    await done.getByRole('button', { name: 'Upload certificate for Glucose analyser' }).click();
    const certificate = page.getByRole('dialog', { name: 'Certificate: Glucose analyser' });
    await certificate.locator('input[type=file]').setInputFiles({
      name: 'GA-1001-calibration.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n% GA-1001 calibration certificate\n%%EOF\n'),
    });
    await certificate.getByRole('button', { name: 'Upload Certificate' }).click();
    await certificate.waitFor({ state: 'hidden' });
    const href = await done.getByRole('link', { name: 'Open' }).getAttribute('href');
    const file = await page.request.get(href!);
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toContain('application/pdf');
    expect((await file.body()).toString('latin1')).toContain('GA-1001 calibration certificate');
    await expect.poll(async () => card(page, 'Certificates').innerText()).toContain('1');

    // Maintenance: a preventive service done today for ₹2,500.
    await page.goto('/maintenance');
    await page.getByRole('button', { name: 'Schedule Maintenance' }).first().click();
    const mSchedule = page.getByRole('dialog', { name: 'Schedule Maintenance' });
    await mSchedule.getByLabel('Equipment').selectOption({ label: 'Glucose analyser (GA-1001)' });
    await mSchedule.getByLabel('Type').selectOption('Preventive');
    await mSchedule.getByLabel('Due Date').fill(today);
    await mSchedule.getByRole('button', { name: 'Schedule Maintenance' }).click();
    await mSchedule.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Record work on Glucose analyser' }).click();
    const mRecord = page.getByRole('dialog', { name: 'Record Maintenance: Glucose analyser' });
    await mRecord.getByLabel('Performed By').fill('Service team');
    await mRecord.getByLabel('Cost (₹)').fill('2500');
    await mRecord.getByRole('button', { name: 'Record Work' }).click();
    await mRecord.waitFor({ state: 'hidden' });
    await page.getByRole('row').filter({ hasText: 'Service team' }).getByText('₹2,500.00').waitFor();
    await expect.poll(async () => card(page, 'Cost This Month').innerText()).toContain('₹2,500.00');

    // The open calibration is moved 5 days into the past through the API (the test's clock): overdue.
    const [open] = await rows<{ id: number }>(
      app.database,
      "SELECT id FROM equipment_services WHERE kind = 'calibration' AND status = 'scheduled'",
    );
    const due = addDays(today, -5);
    const res = await page.request.put(`/api/calibrations/${open!.id}`, { data: { due_date: due } });
    expect(res.status()).toBe(200);
    await page.goto('/calibration');
    const overdue = page.getByRole('row').filter({ hasText: 'Overdue' });
    await overdue.getByText('5 days overdue').waitFor();
    expect(await overdue.innerText()).toContain(shown(due));
    await expect.poll(async () => card(page, 'Overdue').innerText()).toContain('1');
    await screenshot(page, 'equipment-calibration-overdue');
    await page.goto('/instruments');
    await instrument.getByText('Calibration Due').waitFor();
    await expect.poll(async () => card(page, 'Calibration Due').innerText()).toContain('1');

    // Enter Results: the picker names the machine as overdue; saving carries the server's warning.
    await page.goto('/results');
    await page.getByRole('button', { name: 'Enter Results' }).click();
    await page
      .getByRole('dialog', { name: 'Enter Results' })
      .getByRole('button', { name: `Enter results for ${sample.code}, Lata Kamath` })
      .click();
    const sheet = page.getByRole('dialog', { name: `Enter Results: ${sample.code}` });
    await sheet
      .getByLabel('Machine')
      .selectOption({ label: 'Glucose analyser (calibration overdue) · GA-1001 · Biochemistry' });
    await sheet
      .getByText('Glucose analyser is past its calibration due date: values entered on it carry a warning.')
      .waitFor();
    await screenshot(page, 'equipment-results-picker');
    await sheet.getByLabel('Fasting Blood Sugar result').fill('96');
    await sheet.getByRole('button', { name: 'Save Results' }).click();
    await sheet.waitFor({ state: 'detached' });
    await page.getByText(`Glucose analyser (GA-1001) calibration was due ${due}`).waitFor();
    const [result] = await rows<{ equipment_warning: string | null }>(
      app.database,
      `SELECT equipment_warning FROM test_results WHERE sample_id = ${sample.id}`,
    );
    expect(result!.equipment_warning).toBe(`Glucose analyser (GA-1001) calibration was due ${due}`);
  });
});
