import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { loadStarterCatalogue } from '../../src/core/catalogue/starter.js';
import { systemActor } from '../../src/core/context.js';
import type { ResultSheet } from '../../src/shared/schemas/results.js';
import {
  DESKTOP,
  MOBILE,
  RESULTS_DIR,
  SAVE_SCREENSHOTS,
  screenshot,
  screenshotFailures,
  startApp,
  type Account,
  type E2eApp,
} from './harness.js';
import { NORMAL_URINE } from '../urine.js';

/**
 * The report a patient takes home, at the desk: a health package's visit report from the bill's
 * details and from the patient's history, and the report paper setting.
 */
let app: E2eApp;
let bill: { id: number; bill_number: string };
let patientId: number;
const watch = screenshotFailures();

async function as(who: Account) {
  const res = await fetch(`${app.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: who.email, password: who.password }),
  });
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('lims_session='))!
    .split(';')[0]!;
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${app.url}${path}`, {
      method,
      headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await r.json()) as Record<string, unknown>;
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
    return json;
  };
  return call;
}

beforeAll(async () => {
  app = await startApp({ roles: ['lab_technician', 'validator'] });
  await loadStarterCatalogue(app.database.db, systemActor(app.organizationId!, 'test'), {
    tests: true,
    profiles: true,
    packages: true,
  });
  const admin = await as(app.admin);
  const tech = await as(app.users.lab_technician!);
  const validator = await as(app.users.validator!);
  const patient = (await admin('POST', '/api/patients', {
    first_name: 'Kavitha',
    last_name: 'Subramanian',
    date_of_birth: '1968-08-15',
    gender: 'Female',
    phone: '9845012345',
    confirm_new: true,
  })) as { patient: { id: number } };
  patientId = patient.patient.id;
  const packages = (await admin('GET', '/api/test-packages')) as { packages: { id: number; code: string }[] };
  const profiles = (await admin('GET', '/api/test-profiles')) as { profiles: { id: number; code: string }[] };
  const pkg = packages.packages.find((p) => p.code === 'PKG-COMP')!;
  bill = (
    (await admin('POST', '/api/bills', {
      patient_id: patientId,
      items: [
        { item_type: 'package', item_id: pkg.id },
        { item_type: 'profile', item_id: profiles.profiles.find((p) => p.code === 'CBC')!.id },
        { item_type: 'profile', item_id: profiles.profiles.find((p) => p.code === 'LFT')!.id },
        { item_type: 'profile', item_id: profiles.profiles.find((p) => p.code === 'LIPID')!.id },
      ],
      // The package and its profiles again, on purpose: more tubes and departments on one visit.
      confirm_duplicates: true,
    })) as { bill: { id: number; bill_number: string } }
  ).bill;
  const samples = (await admin('GET', `/api/samples?patient_id=${patientId}&limit=50`)) as {
    samples: { id: number }[];
  };
  await tech('POST', '/api/samples/collect', { ids: samples.samples.map((s) => s.id) });
  for (const s of samples.samples) {
    const sheet = (await tech('GET', `/api/samples/${s.id}/results`)) as unknown as ResultSheet;
    for (const t of sheet.tests) {
      if (t.formula) continue;
      const nums = (t.normal_range ?? '').match(/\d+(\.\d+)?/g)?.map(Number) ?? [];
      const value =
        t.result_type === 'choice'
          ? (t.choices.find((c) => c === t.normal_range) ?? t.choices[0]!)
          : t.result_type !== 'numeric'
            ? (t.normal_range ?? 'Normal study')
            : (nums.length >= 2 ? (nums[0]! + nums[1]!) / 2 : nums.length ? nums[0]! * 0.8 : 1).toFixed(
                t.decimals ?? 1,
              );
      // A urine routine is entered parameter by parameter (a normal one); other panels are left awaited.
      if (t.result_type === 'structured') {
        if (t.result_template === 'urine_routine')
          await tech('POST', '/api/test-results', { sample_id: s.id, test_id: t.test_id, structured: NORMAL_URINE });
        continue;
      }
      await tech('POST', '/api/test-results', { sample_id: s.id, test_id: t.test_id, result_value: value });
    }
    // The urine routine stays unverified: the visit report names it as pending.
    const entered = (await tech('GET', `/api/samples/${s.id}/results`)) as unknown as ResultSheet;
    for (const t of entered.tests)
      if (t.result && t.result.status !== 'verified' && t.test_code !== 'URM')
        await validator('PUT', `/api/test-results/${t.result.id}/verify`, {});
  }
}, 120_000);
afterAll(() => app.close());

/** Clicks and returns the window the report opens in, once it shows the PDF. */
async function reportWindow(page: Page, click: () => Promise<void>): Promise<Page> {
  const popup = page.waitForEvent('popup');
  await click();
  const win = await popup;
  await win.waitForURL(/^blob:/);
  return win;
}

describe('the visit report at the desk', () => {
  it('opens from the bill’s details as one PDF with every department and the pending test named', async () => {
    const page = watch(await app.signedInPage('/bills-list'));
    await page
      .getByRole('table', { name: 'Bills' })
      .getByRole('button', { name: `View bill ${bill.bill_number}`, exact: true })
      .click();
    const dialog = page.getByRole('dialog', { name: `Bill Details: ${bill.bill_number}` });
    await dialog.getByRole('button', { name: 'Lab Report' }).waitFor();
    await screenshot(page, 'visit-report-bill-details-desktop');
    const win = await reportWindow(page, () => dialog.getByRole('button', { name: 'Lab Report' }).click());
    // The PDF the window shows is the server's: read it again from the same route for its text.
    const pdf = await page.request.get(`/api/bills/${bill.id}/report.pdf`);
    expect(pdf.status()).toBe(200);
    const file = join(RESULTS_DIR, 'visit-report-health-package.pdf');
    writeFileSync(file, await pdf.body());
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    expect(text).toContain('HEMATOLOGY');
    expect(text).toContain('BIOCHEMISTRY');
    expect(text.replace(/\s+/g, ' ')).toMatch(/Pending: Urine Routine & Microscopy \(awaiting verification\)/);
    if (SAVE_SCREENSHOTS) execFileSync('pdftoppm', ['-png', '-r', '60', file, join(RESULTS_DIR, 'visit-report-page')]);
    await win.close();

    const phone = watch(await app.signedInPage('/bills-list', app.admin, MOBILE));
    await phone
      .getByRole('table', { name: 'Bills' })
      .getByRole('button', { name: `View bill ${bill.bill_number}`, exact: true })
      .click();
    await phone.getByRole('dialog').getByRole('button', { name: 'Lab Report' }).scrollIntoViewIfNeeded();
    await screenshot(phone, 'visit-report-bill-details-mobile');
  });

  it('opens from the patient’s history, and the report paper is set on Lab Reports', async () => {
    const page = watch(await app.signedInPage(`/patient-history?patient=${patientId}`, app.admin, DESKTOP));
    await page.getByRole('tab', { name: /Bills/ }).click();
    const action = page.getByRole('button', { name: `Open lab report of bill ${bill.bill_number} (PDF)` });
    await action.waitFor();
    await screenshot(page, 'visit-report-history-desktop');
    const win = await reportWindow(page, () => action.click());
    await win.close();

    // The results queues offer the visit's report beside the sample's.
    const queue = watch(await app.signedInPage('/result-validation', app.admin, DESKTOP));
    const visitAction = queue.getByRole('button', { name: /^Print visit report of SMP/ }).first();
    await visitAction.waitFor();
    await screenshot(queue, 'visit-report-validation-desktop');
    const fromQueue = await reportWindow(queue, () => visitAction.click());
    await fromQueue.close();
    // On a phone the row keeps its two icons (the visit report is in the sample's and bill's details).
    const phoneQueue = watch(await app.signedInPage('/result-validation', app.admin, MOBILE));
    await phoneQueue
      .getByRole('button', { name: /^Print report of SMP/ })
      .first()
      .waitFor();
    await expect(phoneQueue.getByRole('button', { name: /^Print visit report of SMP/ }).count()).resolves.toBe(0);
    await screenshot(phoneQueue, 'visit-report-validation-mobile');

    // The sample's details offer the report of its visit.
    for (const [viewport, name] of [
      [DESKTOP, 'visit-report-sample-details-desktop'],
      [MOBILE, 'visit-report-sample-details-mobile'],
    ] as const) {
      const tracking = watch(await app.signedInPage('/sample-tracking', app.admin, viewport));
      await tracking
        .getByRole('button', { name: /^View details of SMP/ })
        .first()
        .click();
      const details = tracking.getByRole('dialog');
      await details.getByRole('button', { name: 'Visit Report' }).waitFor();
      await screenshot(tracking, name);
    }

    const settings = watch(await app.signedInPage('/lab-reports', app.admin, DESKTOP));
    await settings.getByLabel('Report paper').selectOption('preprinted');
    await settings.getByLabel('Height of the pre-printed letterhead (mm)').fill('45');
    await settings.getByRole('button', { name: 'Save Settings' }).click();
    await expect
      .poll(
        async () =>
          (
            (await (await settings.request.get('/api/lab-reports/settings')).json()) as {
              settings: { stationery: string };
            }
          ).settings.stationery,
      )
      .toBe('preprinted');
    await settings.getByLabel('Report paper').scrollIntoViewIfNeeded();
    await screenshot(settings, 'visit-report-paper-setting');
    const phone = watch(await app.signedInPage('/lab-reports', app.admin, MOBILE));
    await phone.getByLabel('Report paper').scrollIntoViewIfNeeded();
    await screenshot(phone, 'visit-report-paper-setting-mobile');
  });
});
