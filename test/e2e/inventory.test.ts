import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../db.js';
import { screenshot, startApp, type E2eApp } from './harness.js';

/**
 * Stock as the lab's store keeper runs it (issue 15): an item added with its opening stock, stock
 * used until it falls under the minimum, the alert the server raises, and a delivery that clears it.
 */
let app: E2eApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.close();
});

describe('inventory', () => {
  it('adds an item, uses stock under the minimum, sees the alert, and a delivery resolves it', async () => {
    const page = await app.signedInPage('/inventory');
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
});
