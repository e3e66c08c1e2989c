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
import { BELL_POLL_MS } from '../../src/shared/constants.js';
import { MOBILE, boxOf, screenshot, startApp, type E2eApp } from './harness.js';

let app: E2eApp;
let fbs: number;
let tech: Actor;

/** A collected sample of a new patient with Fasting Blood Sugar ordered. */
async function sampleFor(first: string, last: string): Promise<{ id: number; code: string }> {
  const db = app.database.db;
  const system = systemActor(app.organizationId!);
  const p = await createPatient(
    db,
    system,
    patientCreateSchema.parse({ first_name: first, last_name: last, date_of_birth: '1970-05-05', gender: 'Male' }),
  );
  const s = await createSample(
    db,
    system,
    sampleCreateSchema.parse({ patient_id: p.id, sample_type: 'Blood', test_ids: [fbs], location: 'Main Lab' }),
  );
  return { id: s.id, code: s.sample_id };
}

beforeAll(async () => {
  app = await startApp({ roles: ['lab_technician', 'validator'] });
  const db = app.database.db;
  fbs = (
    await createTest(
      db,
      systemActor(app.organizationId!),
      testCreateSchema.parse({
        name: 'Fasting Blood Sugar',
        code: 'FBS',
        price: 120,
        unit: 'mg/dL',
        normal_range: '70-110',
        reference_ranges: [{ range: '70-110', critical_low: 40, critical_high: 400 }],
      }),
    )
  ).id;
  const techRow = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', app.users.lab_technician!.email)
    .executeTakeFirstOrThrow();
  tech = {
    userId: techRow.id,
    email: app.users.lab_technician!.email,
    role: 'lab_technician',
    organizationId: app.organizationId!,
  };
});

afterAll(async () => {
  await app?.close();
});

async function open(
  path: string,
  who: 'lab_technician' | 'validator',
  viewport?: { width: number; height: number },
): Promise<Page> {
  // The bell's timer on Playwright's clock: the poll is moved on instead of waited for (20 s).
  return app.signedInPage(path, app.users[who]!, viewport, { clock: true });
}

const bell = (page: Page) => page.getByRole('banner').getByRole('link', { name: /^Notifications/ });
const card = (page: Page, name: string) => page.getByRole('group', { name });

describe('Notifications', () => {
  it('a critical result entered by the technician rings the validator’s bell without a reload; Mark Read and Mark All Read', async () => {
    // One critical value is already waiting when the validator signs in.
    const earlier = await sampleFor('Rohan', 'Das');
    await createResult(app.database.db, tech, { sample_id: earlier.id, test_id: fbs, result_value: '452' });
    const later = await sampleFor('Kiran', 'Shetty');

    const validator = await open('/dashboard', 'validator');
    await validator.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await expect.poll(async () => bell(validator).getAttribute('aria-label')).toBe('Notifications, 1 unread');
    // A mark that a reload would wipe out.
    await validator.evaluate('window.__stillHere = true');

    // The technician enters a critical value on Result Entry.
    const technician = await open('/results', 'lab_technician');
    await technician.getByRole('button', { name: `Enter result for Fasting Blood Sugar on ${later.code}` }).click();
    const sheet = technician.getByRole('dialog', { name: `Enter Results: ${later.code}` });
    await sheet.getByLabel('Fasting Blood Sugar result').fill('35');
    await sheet.getByRole('button', { name: 'Save Results' }).click();
    await sheet.waitFor({ state: 'detached' });
    // The technician acts on it; their own bell stays quiet.
    expect(await bell(technician).getAttribute('aria-label')).toBe('Notifications, none unread');

    // The validator's bell goes to 2 by itself (the poll), on the same page: its interval passes.
    await validator.clock.fastForward(BELL_POLL_MS);
    await expect.poll(async () => bell(validator).getAttribute('aria-label')).toBe('Notifications, 2 unread');
    expect(await validator.evaluate('window.__stillHere')).toBe(true);
    expect(await bell(validator).innerText()).toBe('2');
    await screenshot(validator, 'notifications-bell-desktop');

    await bell(validator).click();
    await validator.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
    expect(new URL(validator.url()).pathname).toBe('/notifications');
    await expect.poll(async () => card(validator, 'Unread').innerText()).toContain('2');
    expect(await card(validator, 'Total').innerText()).toContain('2');
    expect(await card(validator, 'High Priority').innerText()).toContain('2');
    expect(await card(validator, 'System Alerts').innerText()).toContain('0');
    const table = validator.getByRole('table', { name: 'Notifications' });
    const newest = table.getByRole('row').filter({ hasText: 'Kiran Shetty' });
    await newest.getByText('Critical result: Fasting Blood Sugar').waitFor();
    expect(await newest.innerText()).toContain(later.code);
    expect(await newest.innerText()).toContain('Unread');
    expect(await newest.innerText()).toContain('High');
    await screenshot(validator, 'notifications-desktop');

    // Mark Read on one row: its status, the Unread card and the bell follow.
    await newest.getByRole('button', { name: 'Mark read: Critical result: Fasting Blood Sugar' }).click();
    await newest.getByText('Read', { exact: true }).waitFor();
    await expect.poll(async () => card(validator, 'Unread').innerText()).toContain('1');
    await expect.poll(async () => bell(validator).getAttribute('aria-label')).toBe('Notifications, 1 unread');
    expect(await newest.getByRole('button', { name: /^Mark read/ }).count()).toBe(0);

    // Mark All Read.
    await validator.getByRole('button', { name: 'Mark All Read' }).click();
    await validator.getByText('All notifications marked as read').waitFor();
    await expect.poll(async () => card(validator, 'Unread').innerText()).toContain('0');
    await expect.poll(async () => bell(validator).getAttribute('aria-label')).toBe('Notifications, none unread');
    expect(await validator.getByRole('button', { name: 'Mark All Read' }).isDisabled()).toBe(true);
    expect(await table.getByText('Unread', { exact: true }).count()).toBe(0);

    // The Unread filter is now empty; clearing it shows both again.
    await validator.getByLabel('Status').selectOption({ label: 'Unread' });
    await validator.getByText('No notifications').waitFor();
    expect(new URL(validator.url()).searchParams.get('read')).toBe('false');
    await validator.getByRole('button', { name: /Clear/ }).click();
    await table.getByRole('row').filter({ hasText: 'Rohan Das' }).waitFor();

    // A row opens what it is about: the validation queue searched for the sample.
    await table
      .getByRole('row')
      .filter({ hasText: 'Rohan Das' })
      .getByRole('button', { name: /^Open / })
      .click();
    await validator.getByRole('heading', { name: 'Result Validation', level: 1 }).waitFor();
    expect(new URL(validator.url()).searchParams.get('search')).toBe(earlier.code);
    await validator.getByRole('row').filter({ hasText: earlier.code }).first().waitFor();
  });

  it('fits a 390 px phone: the bell in the top bar, the cards and the list', async () => {
    const s = await sampleFor('Anil', 'Kumar');
    await createResult(app.database.db, tech, { sample_id: s.id, test_id: fbs, result_value: '480' });
    const phone = await open('/dashboard', 'validator', MOBILE);
    await phone.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await expect.poll(async () => bell(phone).getAttribute('aria-label')).toBe('Notifications, 1 unread');
    const box = await boxOf(bell(phone));
    expect(box.x).toBeGreaterThan(0);
    expect(box.x + box.width).toBeLessThanOrEqual(MOBILE.width);
    expect(box.y + box.height).toBeLessThanOrEqual(56);
    await screenshot(phone, 'notifications-bell-mobile');

    await bell(phone).click();
    await phone.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
    const row = phone.getByRole('table', { name: 'Notifications' }).getByRole('row').filter({ hasText: 'Anil Kumar' });
    await row.getByText('Critical result: Fasting Blood Sugar').waitFor();
    // No sideways scrolling of the page on a phone.
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(MOBILE.width);
    await screenshot(phone, 'notifications-mobile');
    await row.getByRole('button', { name: /^Mark read/ }).click();
    await expect.poll(async () => bell(phone).getAttribute('aria-label')).toBe('Notifications, none unread');
    // The table has read itself again after Mark read (its baseline for "new ones arrived") before more come.
    await expect.poll(() => row.getByRole('button', { name: /^Mark read/ }).count()).toBe(0);
    await phone.waitForLoadState('networkidle');
    await screenshot(phone, 'notifications-mobile-read');

    // One more arrives while the screen is open: the bell's poll sees it, the screen offers to show it.
    const next = await sampleFor('Sunita', 'Rao');
    await createResult(app.database.db, tech, { sample_id: next.id, test_id: fbs, result_value: '20' });
    const notice = phone.getByRole('status').filter({ hasText: '1 new notification has arrived.' });
    await phone.clock.fastForward(BELL_POLL_MS);
    await notice.waitFor();
    await screenshot(phone, 'notifications-mobile-arrived');
    await notice.getByRole('button', { name: 'Show' }).click();
    await phone
      .getByRole('table', { name: 'Notifications' })
      .getByRole('row')
      .filter({ hasText: 'Sunita Rao' })
      .waitFor();
    await notice.waitFor({ state: 'detached' });
  });
});
