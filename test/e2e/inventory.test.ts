import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createSample } from '../../src/core/samples/service.js';
import { systemActor } from '../../src/core/context.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { sampleCreateSchema } from '../../src/shared/schemas/samples.js';
import { addDays, localDate } from '../../src/shared/time.js';
import { rows } from '../db.js';
import { MOBILE, boxOf, screenshot, screenshotFailures, startApp, type E2eApp } from './harness.js';

/**
 * Stock as the lab's store keeper runs it: an item added with its opening stock, stock
 * used until it falls under the minimum, the alert the server raises, and a delivery that clears it;
 * then the stock story: two lots of a glucose reagent, mapped to the glucose test, 30
 * results that use it up earliest expiry first, the low-stock alert and its notification,
 * acknowledged, and resolved by a delivery.
 */
let app: E2eApp;
let fbs: number;
/** 30 samples each waiting for a glucose result. */
const samples: { id: number; code: string }[] = [];

beforeAll(async () => {
  app = await startApp({ roles: ['inventory_manager', 'lab_technician'] });
  const db = app.database.db;
  const system = systemActor(app.organizationId!);
  // Named as the starter catalogue names it: the name already carries the code.
  fbs = (
    await createTest(
      db,
      system,
      testCreateSchema.parse({
        name: 'Fasting Blood Sugar (FBS)',
        code: 'FBS',
        unit: 'mg/dL',
        normal_range: '70-110',
        price: 80,
      }),
    )
  ).id;
  const patient = await createPatient(
    db,
    system,
    patientCreateSchema.parse({ first_name: 'Gita', last_name: 'Rao', date_of_birth: '1980-01-01', gender: 'Female' }),
  );
  for (let i = 0; i < 30; i++) {
    const s = await createSample(
      db,
      system,
      sampleCreateSchema.parse({ patient_id: patient.id, sample_type: 'Blood', test_ids: [fbs] }),
    );
    samples.push({ id: s.id, code: s.sample_id });
  }
});

afterAll(async () => {
  await app?.close();
});

const track = screenshotFailures();

describe('inventory', () => {
  it('adds an item, uses stock under the minimum, sees the alert, and a delivery resolves it', async () => {
    const page = track(await app.signedInPage('/inventory'));
    // The header's button (the empty table offers one too).
    await page.getByRole('button', { name: 'Add Item' }).first().click();
    const form = page.getByRole('dialog', { name: 'Add Item' });
    await form.getByLabel('Item Code').fill('GLU-KIT');
    await form.getByLabel('Item Name').fill('Glucose reagent kit');
    await form.getByLabel('Category').fill('Biochemistry');
    await form.getByLabel('Unit', { exact: true }).fill('kit');
    await form.getByLabel('Opening Stock').fill('10');
    await form.getByLabel('Minimum Stock').fill('5');
    await form.getByRole('button', { name: 'Add Item' }).click();
    await form.waitFor({ state: 'hidden' });

    const row = page.getByRole('row').filter({ hasText: 'Glucose reagent kit' });
    await row.getByText('In Stock').waitFor();

    // Six kits used: 4 left, under the minimum of 5.
    await page.getByRole('button', { name: 'Stock of Glucose reagent kit' }).click();
    const stock = page.getByRole('dialog', { name: 'Stock: Glucose reagent kit' });
    await stock.getByLabel('Movement', { exact: true }).selectOption('consume');
    await stock.getByLabel('Quantity (kit)', { exact: true }).fill('6');
    await stock.getByRole('button', { name: 'Record Consume' }).click();
    await page.keyboard.press('Escape');
    await row.getByText('Low Stock').waitFor();
    await screenshot(page, 'inventory-low');

    const [alert] = await rows<{ alert_type: string; status: string; current_stock: number }>(
      app.database,
      'SELECT alert_type, status, current_stock FROM stock_alerts',
    );
    expect(alert).toMatchObject({ alert_type: 'low_stock', status: 'active', current_stock: 4 });
    await page.goto('/stock-alerts');
    await page.getByRole('row').filter({ hasText: 'Glucose reagent kit' }).filter({ hasText: 'Active' }).waitFor();
    await screenshot(page, 'inventory-alerts');

    // A delivery of 20 brings it to 24: the server resolves the alert.
    await page.goto('/inventory');
    await page.getByRole('button', { name: 'Stock of Glucose reagent kit' }).click();
    await stock.getByLabel('Movement', { exact: true }).selectOption('receive');
    await stock.getByLabel('Quantity (kit)', { exact: true }).fill('20');
    await stock.getByLabel('Lot Number', { exact: true }).fill('LOT-2611');
    await stock.getByRole('button', { name: 'Record Receive' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('row').filter({ hasText: 'Glucose reagent kit' }).getByText('In Stock').waitFor();
    const after = await rows<{ status: string }>(app.database, 'SELECT status FROM stock_alerts');
    expect(after).toEqual([{ status: 'resolved' }]);
    const [item] = await rows<{ current_stock: number }>(
      app.database,
      "SELECT current_stock FROM inventory_items WHERE item_code = 'GLU-KIT'",
    );
    expect(item!.current_stock).toBe(24);
  });

  it('two lots of a glucose reagent, used by 30 glucose results earliest expiry first; the low-stock alert rings the bell, is acknowledged and resolved by a delivery', async () => {
    const manager = app.users.inventory_manager!;
    const page = track(await app.signedInPage('/reagents', manager));
    // The reagent itself is not the subject: made through the API (the manager's session).
    const made = await page.request.post('/api/inventory', {
      data: {
        kind: 'reagent',
        item_code: 'GLU-GOD',
        item_name: 'Glucose reagent GOD-POD',
        category: 'Reagents',
        unit: 'tests',
        minimum_stock: 15,
        maximum_stock: 200,
      },
    });
    expect(made.status(), await made.text()).toBe(201);
    const itemId = ((await made.json()) as { item: { id: number } }).item.id;
    const today = localDate('Asia/Kolkata');
    await page.reload();

    // Two deliveries; the later-expiring lot arrives first, so "first in" would take the wrong one.
    await page.getByRole('button', { name: 'Stock of Glucose reagent GOD-POD' }).click();
    const stock = page.getByRole('dialog', { name: 'Stock: Glucose reagent GOD-POD' });
    const receive = async (lot: string, quantity: number, expiry: string) => {
      await stock.getByRole('tab', { name: 'Record Movement' }).click();
      await stock.getByLabel('Movement', { exact: true }).selectOption('receive');
      await stock.getByLabel('Quantity (tests)', { exact: true }).fill(String(quantity));
      await stock.getByLabel('Lot Number', { exact: true }).fill(lot);
      await stock.getByLabel('Expiry Date', { exact: true }).fill(expiry);
      await stock.getByRole('button', { name: 'Record Receive' }).click();
    };
    await receive('LOT-LATE', 25, addDays(today, 200));
    // The dialog's figures follow the ledger (not the row it was opened from).
    await stock.getByText('25 tests on hand, 25 tests usable.').waitFor();
    await receive('LOT-EARLY', 15, addDays(today, 60));
    await stock.getByText('40 tests on hand, 40 tests usable.').waitFor();

    // Used by Tests: one run of the glucose test uses one test's worth.
    await stock.getByRole('tab', { name: 'Used by Tests' }).click();
    await stock.getByRole('button', { name: 'Add Test' }).click();
    await stock.getByLabel('Test 1', { exact: true }).selectOption({ label: 'Fasting Blood Sugar (FBS)' });
    await stock.getByRole('button', { name: 'Save Tests' }).click();
    await page.getByText('Result entry now consumes this item for the tests listed.').waitFor();
    expect(
      await rows(app.database, `SELECT test_id, quantity FROM test_consumption WHERE item_id = ${itemId}`),
    ).toEqual([{ test_id: fbs, quantity: 1 }]);
    await screenshot(page, 'inventory-story-mapped');

    const lots = () =>
      rows<{ lot_number: string; remaining: number }>(
        app.database,
        `SELECT lot_number, remaining FROM inventory_lots WHERE item_id = ${itemId} ORDER BY expiry_date`,
      );
    const alerts = () =>
      rows<{ id: number; alert_type: string; status: string; current_stock: number }>(
        app.database,
        `SELECT id, alert_type, status, current_stock FROM stock_alerts WHERE item_id = ${itemId} AND alert_type = 'low_stock'`,
      );

    // The technician enters two results on the Enter Results sheet, the rest through the same API call.
    const technician = track(await app.signedInPage('/results', app.users.lab_technician!));
    for (const s of samples.slice(0, 2)) {
      await technician.getByRole('button', { name: `Enter result for Fasting Blood Sugar (FBS) on ${s.code}` }).click();
      const sheet = technician.getByRole('dialog', { name: `Enter Results: ${s.code}` });
      await sheet.getByLabel('Fasting Blood Sugar (FBS) result').fill('92');
      await sheet.getByRole('button', { name: 'Save Results' }).click();
      await sheet.waitFor({ state: 'detached' });
    }
    const enter = async (from: number, to: number) => {
      for (const s of samples.slice(from, to)) {
        const r = await technician.request.post('/api/test-results', {
          data: { sample_id: s.id, test_id: fbs, result_value: '95' },
        });
        expect(r.status(), await r.text()).toBe(201);
      }
    };
    await enter(2, 15);
    // 15 results: the earlier-expiring lot is used up, the later one untouched.
    expect(await lots()).toEqual([
      { lot_number: 'LOT-EARLY', remaining: 0 },
      { lot_number: 'LOT-LATE', remaining: 25 },
    ]);
    // The manager looks again: the Reagents row and the lots say the same.
    await page.reload();
    await page.getByRole('row').filter({ hasText: 'Glucose reagent GOD-POD' }).getByText('25 tests').waitFor();
    await page.getByRole('button', { name: 'Stock of Glucose reagent GOD-POD' }).click();
    await stock.getByText('25 tests on hand, 25 tests usable.').waitFor();
    await stock.getByRole('tab', { name: 'Lots' }).click();
    const remaining = async (lot: string) =>
      (await stock.getByRole('row').filter({ hasText: lot }).innerText()).trim().split(/\s+/).at(-1);
    await stock.getByRole('row').filter({ hasText: 'LOT-LATE' }).waitFor();
    expect([await remaining('LOT-EARLY'), await remaining('LOT-LATE')]).toEqual(['0', '25']);
    await screenshot(page, 'inventory-story-early-lot-used');
    expect(await alerts()).toEqual([]);

    // 25 results: 15 left, the minimum: the server raises low stock and tells the inventory staff.
    await enter(15, 25);
    expect(await alerts()).toMatchObject([{ alert_type: 'low_stock', status: 'active', current_stock: 15 }]);
    const toldManager = () =>
      rows<{ title: string; type: string; read: number }>(
        app.database,
        `SELECT n.title, n.type, n.read FROM notifications n JOIN users u ON u.id = n.user_id
         WHERE u.email = '${manager.email}' AND n.title LIKE '%GOD-POD'`,
      );
    expect(await toldManager()).toEqual([{ title: 'Low stock: Glucose reagent GOD-POD', type: 'warning', read: 0 }]);
    // (The first walk-through's kit rang the bell too: the count is the manager's unread rows.)
    const [counted] = await rows<{ unread: number }>(
      app.database,
      `SELECT COUNT(*) AS unread FROM notifications n JOIN users u ON u.id = n.user_id
       WHERE u.email = '${manager.email}' AND n.read = 0`,
    );
    await enter(25, 30);
    expect(await lots()).toEqual([
      { lot_number: 'LOT-EARLY', remaining: 0 },
      { lot_number: 'LOT-LATE', remaining: 10 },
    ]);
    const [low] = await alerts();
    expect(low).toMatchObject({ status: 'active', current_stock: 10 });

    // The manager, on a phone: the bell, the alert, acknowledged without scrolling sideways.
    const phone = track(await app.signedInPage('/reagents', manager, MOBILE));
    const bell = phone.getByRole('banner').getByRole('link', { name: /^Notifications/ });
    await expect
      .poll(async () => bell.getAttribute('aria-label'), { timeout: 10_000 })
      .toBe(`Notifications, ${Number(counted!.unread)} unread`);
    await bell.click();
    await phone.getByText('Low stock: Glucose reagent GOD-POD').waitFor();
    await phone.getByText('Glucose reagent GOD-POD: 15 tests left, at or below the minimum of 15 tests.').waitFor();
    await screenshot(phone, 'inventory-story-bell-phone');
    await phone.goto('/stock-alerts');
    const ack = phone.getByRole('button', { name: 'Acknowledge Low stock of Glucose reagent GOD-POD' });
    const box = await boxOf(ack);
    expect(box.x + box.width).toBeLessThanOrEqual(MOBILE.width);
    await phone.getByText('10 tests left, at or below the minimum of 15 tests').first().waitFor();
    await screenshot(phone, 'inventory-story-alert-phone');
    await ack.click();
    await phone
      .getByRole('row')
      .filter({ hasText: 'Glucose reagent GOD-POD' })
      .getByText('Acknowledged')
      .first()
      .waitFor();
    expect(await alerts()).toMatchObject([{ id: low!.id, status: 'acknowledged' }]);

    // A delivery of 100: the server resolves the alert by itself.
    await receive('LOT-NEW', 100, addDays(today, 300));
    await stock.getByText('110 tests on hand, 110 tests usable.').waitFor();
    expect(await alerts()).toMatchObject([{ id: low!.id, status: 'resolved', current_stock: 110 }]);
    await phone.reload();
    await phone.getByRole('group', { name: 'Acknowledged' }).getByText('0').waitFor();
    expect(await phone.getByRole('button', { name: /^Acknowledge / }).count()).toBe(0);
    await screenshot(phone, 'inventory-story-resolved-phone');
    // Nobody is told twice: still the one notification.
    expect(await toldManager()).toHaveLength(1);
  });
});
