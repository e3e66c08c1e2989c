import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPackage } from '../../src/core/catalogue/packages.js';
import { systemActor } from '../../src/core/context.js';
import type { TestCreate } from '../../src/shared/schemas/catalogue.js';
import { MOBILE, screenshot, startApp, type E2eApp } from './harness.js';

let app: E2eApp;

beforeAll(async () => {
  app = await startApp({ roles: ['user'] });
});

afterAll(async () => {
  await app?.close();
});

async function seedTest(t: Partial<TestCreate> & Pick<TestCreate, 'name' | 'code' | 'price'>): Promise<void> {
  await createTest(app.database.db, systemActor(app.organizationId!), {
    status: 'active',
    category: 'Biochemistry',
    ...t,
  });
}

/** Opens a protected page, signs in on the in-place form and waits for the page heading. */
async function open(
  path: string,
  heading: string,
  opts: { viewport?: { width: number; height: number }; as?: 'admin' | 'user' } = {},
): Promise<Page> {
  const page = await app.signedInPage(path, opts.as === 'user' ? app.users.user! : app.admin, opts.viewport);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return page;
}

const row = (page: Page, table: string, text: string) =>
  page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: text });

async function fillCommon(d: Locator, v: { name: string; code: string; category?: string; price: string }) {
  await d.getByLabel('Name', { exact: true }).fill(v.name);
  await d.getByLabel('Code', { exact: true }).fill(v.code);
  if (v.category) await d.getByLabel('Category', { exact: true }).fill(v.category);
  await d.getByLabel('Price (₹)', { exact: true }).fill(v.price);
}

/** Ticks an item in an ItemPicker after narrowing it with the picker's search box. */
async function pick(d: Locator, group: 'tests' | 'profiles', name: string) {
  await d.getByRole('searchbox', { name: `Search ${group}` }).fill(name);
  await d
    .getByRole('group', { name: `Available ${group}` })
    .getByRole('checkbox', { name: new RegExp(name) })
    .check();
}

describe('test catalogue', () => {
  it('starts empty with the spec texts, and shows the error panel when the server cannot answer', async () => {
    const page = await open('/test-packages', 'Test Packages');
    await page.getByText('No test packages found').waitFor();
    await screenshot(page, 'catalogue-packages-empty');

    await page.route('**/api/test-profiles*', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Database is locked' }),
      }),
    );
    await page.goto('/test-profiles');
    await page.getByText('Database Connection Error').waitFor();
    await page.getByText('Database is locked').waitFor();
    await page.unroute('**/api/test-profiles*');
    await page.getByRole('button', { name: 'Retry Connection' }).click();
    await page.getByText('No test profiles found').waitFor();
  });

  it('creates a test, a profile with it and a package with both; prices, history and delete rules', async () => {
    await seedTest({
      name: 'Thyroid Stimulating Hormone',
      code: 'TSH',
      price: 350,
      category: 'Thyroid',
      unit: 'µIU/mL',
      sample_type: 'Blood',
    });
    await seedTest({
      name: 'Vitamin D (25-OH)',
      code: 'VITD',
      price: 1200,
      category: 'Vitamins',
      sample_type: 'Blood',
    });
    await seedTest({
      name: 'Serum Creatinine',
      code: 'CREAT',
      price: 200,
      category: 'Kidney',
      unit: 'mg/dL',
      normal_range: '0.6-1.2',
    });
    const page = await open('/individual-tests', 'Individual Tests');

    // Add Individual Test: the shared schema's messages, then a real save.
    await page.getByRole('button', { name: 'Add Test' }).click();
    const add = page.getByRole('dialog', { name: 'Add Individual Test' });
    await add.getByRole('button', { name: 'Save' }).click();
    await add.getByText('Name is required').waitFor();
    await add.getByText('Price is required').waitFor();
    await fillCommon(add, { name: 'Fasting Blood Sugar', code: 'fbs', category: 'Diabetes', price: '120' });
    await add.getByLabel('Sample Type').selectOption('Blood');
    await add.getByLabel('Turnaround Time (hours)').fill('6');
    await add.getByLabel('Unit').fill('mg/dL');
    await add.getByLabel('Normal Range').fill('70-100');
    await screenshot(page, 'catalogue-test-add-dialog');
    await add.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Individual test created successfully').waitFor();
    await add.waitFor({ state: 'hidden' });
    const fbs = row(page, 'Individual Tests', 'Fasting Blood Sugar');
    await expect(fbs.textContent()).resolves.toMatch(/FBS.*Diabetes.*₹120\.00.*70-100.*mg\/dL.*Blood.*Active/);

    // A taken code is refused by the server (409) and said under the Code field.
    await page.getByRole('button', { name: 'Add Test' }).click();
    await fillCommon(add, { name: 'Glucose again', code: 'FBS', price: '90' });
    await add.getByRole('button', { name: 'Save' }).click();
    await add.getByText('A test with code FBS already exists').waitFor();
    await page.keyboard.press('Escape');
    await add.waitFor({ state: 'hidden' });

    // Category filter: All Categories plus the categories present.
    const categories = await page.getByRole('combobox', { name: 'Category' }).locator('option').allTextContents();
    expect(categories).toEqual(['All Categories', 'Diabetes', 'Kidney', 'Thyroid', 'Vitamins']);
    await page.getByRole('combobox', { name: 'Category' }).selectOption('Kidney');
    await page.waitForURL(/category=Kidney/);
    await fbs.waitFor({ state: 'detached' });
    await expect(page.getByRole('table', { name: 'Individual Tests' }).getByRole('row').count()).resolves.toBe(2);
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await fbs.waitFor();

    // Test Profiles: a profile containing the new test.
    await page.goto('/test-profiles');
    await page.getByRole('button', { name: 'Add Profile' }).click();
    const addProfile = page.getByRole('dialog', { name: 'Add Test Profile' });
    await fillCommon(addProfile, { name: 'Diabetes Profile', code: 'DIAB', category: 'Diabetes', price: '300' });
    await pick(addProfile, 'tests', 'Fasting Blood Sugar');
    await addProfile.getByText('Billed separately: ₹120.00').waitFor();
    await screenshot(page, 'catalogue-profile-add-dialog');
    await addProfile.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Test profile created successfully').waitFor();
    await expect(row(page, 'Test Profiles', 'Diabetes Profile').textContent()).resolves.toMatch(
      /Diabetes.*₹300\.00.*Fasting Blood Sugar.*Active/,
    );

    // Test Packages: the profile and three tests; the table shows two names and "+2 more".
    await createPackage(app.database.db, systemActor(app.organizationId!), {
      name: 'Walk-in Consultation',
      code: 'WALKIN',
      price: 0,
      status: 'active',
      test_ids: [],
      profile_ids: [],
    });
    await page.goto('/test-packages');
    await page.getByRole('button', { name: 'Add Package' }).click();
    const addPackage = page.getByRole('dialog', { name: 'Add Test Package' });
    await fillCommon(addPackage, { name: 'Basic Health Checkup', code: 'BHC', price: '1499' });
    await addPackage.getByLabel('Description').fill('Yearly check for adults');
    await addPackage.getByLabel('Duration').fill('Same day');
    await pick(addPackage, 'profiles', 'Diabetes Profile');
    for (const t of ['Fasting Blood Sugar', 'Thyroid Stimulating Hormone', 'Vitamin D'])
      await pick(addPackage, 'tests', t);
    await addPackage.getByText('this price saves the patient ₹471.00').waitFor();
    await addPackage
      .getByText('Also in a chosen profile: Fasting Blood Sugar (in Diabetes Profile).', { exact: false })
      .waitFor();
    await screenshot(page, 'catalogue-package-add-dialog');
    await addPackage.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Test package created successfully').waitFor();
    const bhc = row(page, 'Test Packages', 'Basic Health Checkup');
    await expect(bhc.textContent()).resolves.toMatch(
      /Yearly check for adults.*₹1,499\.00.*Diabetes Profile.*Fasting Blood Sugar.*\+2 more.*Same day.*Active/,
    );
    await expect(row(page, 'Test Packages', 'Walk-in Consultation').textContent()).resolves.toMatch(
      /No tests defined.*N\/A/,
    );
    await screenshot(page, 'catalogue-packages');

    // Search by description on the server.
    await page.getByRole('searchbox', { name: /Search packages/ }).fill('yearly');
    await page.waitForURL(/search=yearly/);
    await row(page, 'Test Packages', 'Walk-in Consultation').waitFor({ state: 'detached' });
    await expect(page.getByRole('table', { name: 'Test Packages' }).getByRole('row').count()).resolves.toBe(2);

    // View shows everything the package includes.
    await page.getByRole('button', { name: 'View Basic Health Checkup' }).click();
    const view = page.getByRole('dialog', { name: 'Basic Health Checkup' });
    await view.getByText('Tests (3)').waitFor();
    await view.getByText('Profiles (1)').waitFor();
    await screenshot(page, 'catalogue-package-view');
    await page.keyboard.press('Escape');

    // Edit the test's price; Test Pricing shows it with its history.
    await page.goto('/individual-tests?search=fasting');
    await page.getByRole('button', { name: 'Edit Fasting Blood Sugar' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Test: Fasting Blood Sugar' });
    await expect(edit.getByLabel('Price (₹)', { exact: true }).inputValue()).resolves.toBe('120');
    await edit.getByLabel('Price (₹)', { exact: true }).fill('150');
    await screenshot(page, 'catalogue-test-edit-dialog');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Individual test updated successfully').waitFor();
    await row(page, 'Individual Tests', 'Fasting Blood Sugar').getByText('₹150.00').waitFor();

    await page.goto('/test-pricing');
    await page.getByRole('heading', { name: 'Test Pricing Management', level: 1 }).waitFor();
    const priced = row(page, 'Catalogue prices', 'Fasting Blood Sugar');
    await expect(priced.textContent()).resolves.toMatch(/Diabetes.*Test.*₹120\.00.*₹150\.00.*25\.0%.*Active/);
    await expect(row(page, 'Catalogue prices', 'Walk-in Consultation').textContent()).resolves.toContain('—');
    await page.getByRole('group', { name: 'Catalogue Items' }).getByText('7').waitFor();
    await screenshot(page, 'catalogue-pricing');

    await page.getByRole('button', { name: 'Price history of Fasting Blood Sugar' }).click();
    const history = page.getByRole('dialog', { name: 'Price History: Fasting Blood Sugar' });
    const entries = history.getByRole('table', { name: 'Price history' }).getByRole('row');
    await entries.nth(2).waitFor(); // header + two changes, once loaded
    await expect(entries.count()).resolves.toBe(3);
    await expect(entries.nth(1).textContent()).resolves.toMatch(new RegExp(`${app.admin.email}.*₹120\\.00.*₹150\\.00`));
    await screenshot(page, 'catalogue-pricing-history');
    await page.keyboard.press('Escape');

    // Edit price on the pricing screen: base and current, markup follows, history grows.
    await page.getByRole('combobox', { name: 'Type' }).selectOption('test');
    await page.getByRole('button', { name: 'Edit price of Fasting Blood Sugar' }).click();
    const editPrice = page.getByRole('dialog', { name: 'Edit Price: Fasting Blood Sugar' });
    await editPrice.getByLabel('Base Price (₹)').fill('100');
    await editPrice.getByLabel('Current Price (₹)').fill('160');
    await editPrice.getByText('60.0%').waitFor();
    await screenshot(page, 'catalogue-pricing-edit-dialog');
    await editPrice.getByRole('button', { name: 'Save Price' }).click();
    await page.getByText('Price updated successfully').waitFor();
    // The row shows the new prices once the list has been fetched again.
    await expect.poll(() => priced.textContent(), { timeout: 5000 }).toMatch(/₹100\.00.*₹160\.00.*60\.0%/);
    await page.getByRole('button', { name: 'Price history of Fasting Blood Sugar' }).click();
    // The dialog may first show the history it loaded before; wait for the new entry's row.
    await entries.nth(3).waitFor();
    await expect(entries.count()).resolves.toBe(4);
    await page.keyboard.press('Escape');

    // A test used by a profile and a package cannot be deleted: the spec's failure toast says why.
    await page.goto('/individual-tests');
    await page.getByRole('button', { name: 'Delete Fasting Blood Sugar' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete individual test' });
    await confirm.getByText('Are you sure you want to delete Fasting Blood Sugar?').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Failed to delete individual test').waitFor();
    await page.getByText(/used by 1 profile and 1 package; deactivate it/).waitFor();
    await page.waitForTimeout(500); // the toast slides in; let it settle for the screenshot
    await screenshot(page, 'catalogue-test-delete-refused');
    await row(page, 'Individual Tests', 'Fasting Blood Sugar').waitFor();

    // ...but it can be deactivated, and an unused test is deleted.
    await page.getByRole('button', { name: 'View Fasting Blood Sugar' }).click();
    await page.getByRole('dialog', { name: 'Fasting Blood Sugar' }).getByRole('button', { name: 'Deactivate' }).click();
    await page.getByText('Individual test deactivated').waitFor();
    await row(page, 'Individual Tests', 'Fasting Blood Sugar')
      .getByText('Inactive')
      .filter({ visible: true })
      .waitFor();
    await page.getByRole('button', { name: 'Delete Serum Creatinine' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Individual test deleted successfully').waitFor();
    await row(page, 'Individual Tests', 'Serum Creatinine').waitFor({ state: 'detached' });
    const left = await page.request.get('/api/tests');
    expect(((await left.json()) as { tests: { code: string }[] }).tests.map((t) => t.code).sort()).toEqual([
      'FBS',
      'TSH',
      'VITD',
    ]);
  });

  it('lets a user without manage_tests read the catalogue but not change it', async () => {
    const page = await open('/test-profiles', 'Test Profiles', { as: 'user' });
    await row(page, 'Test Profiles', 'Diabetes Profile').waitFor();
    await page.getByRole('button', { name: 'View Diabetes Profile' }).waitFor();
    expect(await page.getByRole('button', { name: 'Add Profile' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Edit|Delete|Deactivate) / }).count()).toBe(0);
    await page.goto('/test-pricing');
    await page.getByRole('button', { name: 'Price history of Diabetes Profile' }).waitFor();
    expect(await page.getByRole('button', { name: /^Edit price/ }).count()).toBe(0);
  });

  it('works on a phone: every screen and dialog fits 390 px', async () => {
    const page = await open('/test-packages', 'Test Packages', { viewport: MOBILE });
    await row(page, 'Test Packages', 'Basic Health Checkup').waitFor();
    await screenshot(page, 'catalogue-packages-mobile');
    await page.getByRole('button', { name: 'Edit Basic Health Checkup' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Package: Basic Health Checkup' });
    await expect(edit.getByRole('list', { name: 'Selected tests' }).getByRole('listitem').count()).resolves.toBe(3);
    await screenshot(page, 'catalogue-package-edit-mobile');
    await edit.getByRole('group', { name: 'Available tests' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'catalogue-package-edit-mobile-pickers');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'View Basic Health Checkup' }).click();
    await page.getByRole('dialog', { name: 'Basic Health Checkup' }).getByText('Tests (3)').waitFor();
    await screenshot(page, 'catalogue-package-view-mobile');
    await page.keyboard.press('Escape');

    for (const [path, heading, name, add, dialog] of [
      ['/test-profiles', 'Test Profiles', 'profiles', 'Add Profile', 'Add Test Profile'],
      ['/individual-tests', 'Individual Tests', 'tests', 'Add Test', 'Add Individual Test'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.getByRole('table').getByRole('row').nth(1).waitFor();
      await screenshot(page, `catalogue-${name}-mobile`);
      await page.getByRole('button', { name: add }).click();
      await page.getByRole('dialog', { name: dialog }).getByRole('button', { name: 'Save' }).click();
      await page.getByText('Name is required').waitFor();
      await screenshot(page, `catalogue-${name}-add-mobile`);
      await page.keyboard.press('Escape');
    }

    await page.goto('/test-pricing');
    await page.getByRole('heading', { name: 'Test Pricing Management', level: 1 }).waitFor();
    await row(page, 'Catalogue prices', 'Basic Health Checkup').waitFor();
    await screenshot(page, 'catalogue-pricing-mobile');
    await page.getByRole('button', { name: 'Edit price of Basic Health Checkup' }).click();
    await screenshot(page, 'catalogue-pricing-edit-mobile');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Price history of Fasting Blood Sugar' }).click();
    await page.getByRole('table', { name: 'Price history' }).getByRole('row').nth(3).waitFor();
    await screenshot(page, 'catalogue-pricing-history-mobile');
  });
});
