import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MOBILE, screenshot, screenshotFailures, startApp, type E2eApp } from './harness.js';
import { systemActor } from '../../src/core/context.js';
import { createArea, getCalendar, listAreas } from '../../src/core/home-collection/calendar.js';
import { createTest } from '../../src/core/catalogue/tests.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';

/**
 * Home Collection Settings at the desk: a lab with no calendar sets one up (a bad slot time named
 * on its field first), adds an area (a pin code of six digits asked for, then one another area has
 * refused on the field by the server), and gives a test its fasting; at 1280 px and on a phone.
 */
let app: E2eApp;
const shot = screenshotFailures();
const WIDE = { width: 1280, height: 900 };
const stamp = Date.now() % 100000;
const testName = `Fasting Lipids ${stamp}`;

beforeAll(async () => {
  app = await startApp({ roles: ['receptionist'] });
  const actor = systemActor(app.organizationId!);
  await createTest(app.database.db, actor, testCreateSchema.parse({ name: testName, code: `FL${stamp}`, price: 500 }));
  await createArea(app.database.db, actor, { name: 'Jayanagar', pin_codes: ['560011'], is_active: true });
});

afterAll(async () => {
  await app?.close();
});

const desk = (viewport = WIDE): Promise<Page> =>
  app.signedInPage('/home-collection/settings', app.users.receptionist!, viewport).then(shot);

describe('Home Collection Settings', () => {
  it('sets up the slot calendar, an area and a fasting test, each bad input named on its field', async () => {
    const page = await desk();
    await page.getByRole('heading', { name: 'Home Collection Settings', level: 1 }).waitFor();
    await page.getByText('Not set up yet').waitFor();
    await page.getByRole('cell', { name: 'Jayanagar', exact: true }).waitFor();
    await screenshot(page, 'home-settings-empty-1280', { always: true, fullPage: true });

    await page.getByRole('button', { name: 'Edit Calendar' }).click();
    const cal = page.getByRole('dialog', { name: 'Edit Slot Calendar' });
    await cal.getByLabel('First slot').fill('25:00');
    await cal.getByLabel('Slot length (minutes)').fill('5');
    await cal.getByRole('button', { name: 'Save Calendar' }).click();
    await cal.getByText('First slot must be a time (HH:MM)').waitFor();
    await cal.getByText('Slot length must be at least 10').waitFor();
    await cal.getByLabel('First slot').fill('06:30');
    await cal.getByLabel('Last slot').fill('10:30');
    await cal.getByLabel('Slot length (minutes)').fill('30');
    await cal.getByLabel('Visits per slot').fill('4');
    await cal.getByLabel('Patients may book from the portal').check();
    await screenshot(page, 'home-settings-calendar-1280', { always: true });
    await cal.getByRole('button', { name: 'Save Calendar' }).click();
    await cal.waitFor({ state: 'hidden' });
    await page.getByText('06:30 to 10:30, every 30 min').waitFor();

    await page.getByRole('button', { name: 'Add Area' }).click();
    const area = page.getByRole('dialog', { name: 'Add Area' });
    await area.getByLabel('Area name').fill('Basavanagudi');
    await area.getByLabel('Pin codes').fill('560004, 04');
    await area.getByRole('button', { name: 'Add Area' }).click();
    await area.getByText('Pin code 04 must be six digits (not starting with 0)').waitFor();
    // Valid to the form, refused by the server: Jayanagar has 560011.
    await area.getByLabel('Pin codes').fill('560004 560011');
    await area.getByRole('button', { name: 'Add Area' }).click();
    await area.getByText('Pin code 560011 is already in Jayanagar').waitFor();
    await area.getByLabel('Pin codes').fill('560004, 560019');
    await area.getByRole('button', { name: 'Add Area' }).click();
    await area.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: '560004, 560019' }).waitFor();

    await page.getByRole('button', { name: 'Add Fasting Test' }).click();
    const fast = page.getByRole('dialog', { name: 'Add Fasting Test' });
    await fast.getByRole('button', { name: 'Save Fasting' }).click();
    await fast.getByText('Choose the test that needs fasting').waitFor();
    await fast.getByLabel('Test').selectOption({ label: testName });
    await fast.getByLabel('Fasting hours').fill('30');
    await fast.getByRole('button', { name: 'Save Fasting' }).click();
    await fast.getByText('Fasting hours must be at most 24').waitFor();
    await fast.getByLabel('Fasting hours').fill('12');
    await fast.getByRole('button', { name: 'Save Fasting' }).click();
    await fast.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: '12 h', exact: true }).waitFor();
    await screenshot(page, 'home-settings-filled-1280', { always: true, fullPage: true });

    const db = app.database.db;
    const calendar = await getCalendar(db, app.organizationId!);
    expect(calendar).toMatchObject({
      configured: true,
      slot_minutes: 30,
      first_slot: '06:30',
      last_slot: '10:30',
      slot_capacity: 4,
      portal_booking: true,
      fasting: [{ test_name: testName, hours: 12 }],
    });
    const areas = await listAreas(db, app.organizationId!);
    expect(areas.map((a) => [a.name, a.pin_codes])).toEqual([
      ['Basavanagudi', ['560004', '560019']],
      ['Jayanagar', ['560011']],
    ]);

    const phone = await desk(MOBILE);
    await phone.getByRole('cell', { name: testName, exact: true }).waitFor();
    await screenshot(phone, 'home-settings-390', { always: true, fullPage: true });
  });
});
