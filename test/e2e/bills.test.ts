import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createUser } from '../../src/core/users/service.js';
import { createBill } from '../../src/core/billing/service.js';
import { systemActor } from '../../src/core/context.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { userCreateSchema } from '../../src/shared/schemas/users.js';
import { billCreateSchema, type Bill } from '../../src/shared/schemas/bills.js';
import { MOBILE, login, screenshot, startApp, type E2eApp, screenshotFailures } from './harness.js';

let app: E2eApp;
/** Paid in two halves in the browser. */
let billA: Bill;
/** Cancelled in the browser. */
let billB: Bill;
let cbcId: number;
let meeraId: number;

beforeAll(async () => {
  app = await startApp({ roles: ['receptionist', 'user'] });
  const db = app.database.db;
  const actor = systemActor(app.organizationId!);
  const cbc = await createTest(
    db,
    actor,
    testCreateSchema.parse({ name: 'Complete Blood Count', code: 'CBC', price: 400, category: 'Haematology' }),
  );
  const doctor = await createUser(
    db,
    actor,
    userCreateSchema.parse({
      first_name: 'Priya',
      last_name: 'Menon',
      email: 'priya@lab.test',
      role: 'doctor',
      password: 'correct-horse-9',
      consultation_fee: 200,
    }),
  );
  const meera = await createPatient(
    db,
    actor,
    patientCreateSchema.parse({
      first_name: 'Meera',
      last_name: 'Iyer',
      date_of_birth: '1990-05-01',
      gender: 'Female',
    }),
  );
  const arjun = await createPatient(
    db,
    actor,
    patientCreateSchema.parse({ first_name: 'Arjun', last_name: 'Das', date_of_birth: '1982-11-20', gender: 'Male' }),
  );
  // 400 + 200 consultation = 600, 10% off = 540; CBC and the fee are GST-exempt (src/shared/gst.ts).
  cbcId = cbc.id;
  meeraId = meera.id;
  billA = await createBill(
    db,
    actor,
    billCreateSchema.parse({
      patient_id: meera.id,
      doctor_id: doctor.id,
      items: [{ item_type: 'test', item_id: cbc.id }],
      discount_percentage: 10,
    }),
  );
  // Lab-only: no doctor, no fee; 2 × 400 = 800.
  billB = await createBill(
    db,
    actor,
    billCreateSchema.parse({ patient_id: arjun.id, items: [{ item_type: 'test', item_id: cbc.id, qty: 2 }] }),
  );
});

afterAll(async () => {
  await app?.close();
});

const track = screenshotFailures();

async function open(
  path: string,
  heading: string,
  opts: { viewport?: { width: number; height: number }; as?: 'admin' | 'receptionist' | 'user' } = {},
): Promise<Page> {
  const who = opts.as === 'receptionist' ? app.users.receptionist! : opts.as === 'user' ? app.users.user! : app.admin;
  const page = await app.signedInPage(path, who, opts.viewport);
  track(page);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return page;
}

const bills = (page: Page) => page.getByRole('table', { name: 'Bills' });
const row = (page: Page, bill: Bill) =>
  bills(page)
    .getByRole('row')
    .filter({ has: page.getByText(bill.bill_number, { exact: true }) });
/** A row action of the table ("View bill OPB...": exact, as OPB...-2 starts the same way). */
const act = (page: Page, verb: 'View' | 'Edit' | 'Print' | 'Download', bill: Bill) =>
  bills(page).getByRole('button', { name: `${verb} bill ${bill.bill_number}`, exact: true });
const card = (page: Page, label: string) => page.getByRole('group', { name: label });

async function expectText(l: Locator, text: string | RegExp): Promise<void> {
  await expect.poll(() => l.textContent(), { timeout: 10_000 }).toMatch(text);
}

describe('Bills List', () => {
  it('lists the bills with server figures, records half then the rest, and the figures follow', async () => {
    const page = await open('/bills-list', 'Bills List');
    await page.getByRole('heading', { name: 'Bills List (2)' }).waitFor();
    await expectText(row(page, billA), /Meera Iyer/);
    await expectText(row(page, billA), /Pending/);
    await expectText(row(page, billA), /Unpaid/);
    await expectText(row(page, billA), /₹540\.00/);
    await expectText(row(page, billA), /Priya Menon/);
    await expectText(row(page, billB), /No doctor/);
    await expectText(card(page, 'Total Bills'), /2/);
    await expectText(card(page, 'Total Revenue'), /₹1,340\.00/);
    await expectText(card(page, 'Paid'), /0/);
    await expectText(card(page, 'Pending'), /2/);
    await page.getByRole('list', { name: 'Recent bills' }).getByRole('listitem').first().waitFor();
    expect(await page.getByRole('list', { name: 'Recent bills' }).getByRole('listitem').count()).toBe(2);
    await screenshot(page, 'bills-list-desktop');
    await page.getByRole('heading', { name: 'Quick Actions' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'bills-list-desktop-panels');
    // Filter Bills takes the keyboard to the search box.
    await page.getByRole('button', { name: 'Filter Bills' }).click();
    await expect.poll(() => page.evaluate("document.activeElement?.getAttribute('aria-label')")).toBe('Search bills');

    await act(page, 'View', billA).click();
    const d = page.getByRole('dialog', { name: `Bill Details: ${billA.bill_number}` });
    await d.getByRole('table', { name: 'Bill items' }).getByText('Complete Blood Count (Test)').waitFor();
    await expectText(d.getByTestId('detail-final'), '₹540.00');
    const amount = d.getByLabel('Amount (₹)');
    expect(await amount.inputValue()).toBe('540.00');
    await screenshot(page, 'bills-details-dialog-desktop');

    // More than the balance: the field says so and nothing is sent.
    await amount.fill('600');
    await d.getByRole('button', { name: 'Record Payment' }).click();
    await d.getByText('Amount exceeds the balance of ₹540.00').waitFor();

    await amount.fill('270.00');
    await d.getByLabel('Method').selectOption('upi');
    await d.getByLabel('Reference').fill('UPI-7781');
    await d.getByRole('button', { name: 'Record Payment' }).click();
    await page.getByText('Payment recorded').first().waitFor();
    await expectText(d.getByTestId('detail-payment-status'), 'Partial');
    await expectText(d.getByTestId('detail-balance'), '₹270.00');
    expect(await d.getByLabel('Amount (₹)').inputValue()).toBe('270.00');
    await screenshot(page, 'bills-details-partial-desktop');
    await d.getByRole('button', { name: 'Close' }).first().click();
    await expectText(row(page, billA), /Partial/);
    await expectText(page.getByTestId('count-partial'), '1');

    await act(page, 'View', billA).click();
    await expectText(d.getByTestId('detail-balance'), '₹270.00');

    await d.getByRole('button', { name: 'Record Payment' }).click();
    await expectText(d.getByTestId('detail-payment-status'), 'Paid');
    await expectText(d.getByTestId('detail-balance'), '₹0.00');
    expect(await d.getByRole('button', { name: 'Record Payment' }).count()).toBe(0);
    await expect.poll(() => d.getByRole('list', { name: 'Payments' }).getByRole('listitem').count()).toBe(2);
    await d.getByRole('button', { name: 'Close' }).first().click();

    await expectText(row(page, billA), /Paid/);
    await expectText(card(page, 'Paid'), /^Paid1/);
    await expectText(card(page, 'Paid'), /Collection rate 50\.0%/);
    await expectText(page.getByTestId('collection-rate'), '50.0%');
    await expectText(card(page, 'Pending'), /^Pending1/);

    // Payment status "paid" narrows the table and stays in the address.
    await page.getByLabel('Payment Status', { exact: true }).selectOption('paid');
    await page.waitForURL(/payment_status=paid/);
    await page.getByRole('heading', { name: 'Bills List (1)' }).waitFor();
    await expect.poll(() => row(page, billB).count()).toBe(0);
    await expectText(row(page, billA), /Paid/);
    await screenshot(page, 'bills-list-filtered-desktop');

    // Search that matches nothing: the spec's empty texts.
    await page.getByRole('searchbox', { name: 'Search bills' }).fill('no-such-bill');
    await bills(page).getByText('No bills found').waitFor();
    await bills(page).getByText('Try adjusting your search or filter criteria').waitFor();
    await page.getByRole('button', { name: 'Clear Filters' }).first().click();
    await page.getByRole('heading', { name: 'Bills List (2)' }).waitFor();

    // Search by patient code finds the bill.
    await page.getByRole('searchbox', { name: 'Search bills' }).fill('Arjun');
    await page.getByRole('heading', { name: 'Bills List (1)' }).waitFor();
    await expectText(row(page, billB), /Arjun Das/);
  });

  it('downloads the bill PDF and the CSV of the current filters; prints in a new window', async () => {
    const page = await open('/bills-list', 'Bills List');
    await row(page, billA).waitFor();

    const [pdf] = await Promise.all([page.waitForEvent('download'), act(page, 'Download', billA).click()]);
    expect(pdf.suggestedFilename()).toBe(`${billA.bill_number}.pdf`);
    expect(
      readFileSync((await pdf.path())!)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const res = await page.request.get(`/api/bills/${billA.id}/pdf?download=1`);
    expect(res.headers()['content-type']).toBe('application/pdf');
    await page.getByText('Download Started').first().waitFor();

    await page.getByLabel('Status', { exact: true }).selectOption('pending');
    await page.getByRole('heading', { name: 'Bills List (1)' }).waitFor();
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export', exact: true }).click(),
    ]);
    expect(csv.suggestedFilename()).toMatch(/^bills-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync((await csv.path())!, 'utf8');
    expect(text).toContain(billB.bill_number);
    expect(text).not.toMatch(new RegExp(`^${billA.bill_number},`, 'm'));

    // Print opens the server's PDF in a new window.
    const [popup] = await Promise.all([page.context().waitForEvent('page'), act(page, 'Print', billB).click()]);
    await expect.poll(() => popup.title()).toBe(`Bill ${billB.bill_number}`);
    expect(await popup.locator('iframe').getAttribute('src')).toContain(`/api/bills/${billB.id}/pdf`);
    await popup.close();

    // Print Bills (Quick Actions): the filtered list (status pending) with totals, in a new window.
    const [list] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('button', { name: 'Print Bills' }).click(),
    ]);
    await list.getByRole('heading', { name: 'Bills List (1)' }).waitFor();
    expect(await list.getByText('Filters: status pending').count()).toBe(1);
    expect(await list.getByRole('cell', { name: billB.bill_number, exact: true }).count()).toBe(1);
    expect(await list.getByRole('cell', { name: billA.bill_number, exact: true }).count()).toBe(0);
    await expect.poll(() => list.locator('tfoot').textContent(), { timeout: 5000 }).toContain('₹800.00');
    await screenshot(list, 'bills-print-list');
    await list.close();

    // A popup blocker: the spec's error toast.
    await page.evaluate('window.open = () => null;');
    await act(page, 'Print', billB).click();
    await page.getByText('Unable to open print window').waitFor();

    // Refresh refetches and says so.
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByText('Bills data has been refreshed').waitFor();
  });

  it('shows Error Loading Bills with the message, and Retry loads the list', async () => {
    const page = await app.newPage();
    track(page);
    await page.route('**/api/bills?*', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Database is locked' }),
      }),
    );
    await page.goto('/bills-list');
    await login(page, app.admin.email, app.admin.password);
    await page.getByText('Error Loading Bills').waitFor();
    await page.getByText('Database is locked').waitFor();
    await screenshot(page, 'bills-list-error');
    await page.unroute('**/api/bills?*');
    await page.getByRole('button', { name: 'Retry', exact: true }).click();
    await row(page, billA).waitFor();
  });

  it('cancels a bill with a reason, deletes an unpaid one; a receptionist cannot edit or cancel', async () => {
    // A bill entered by mistake, deleted below (an admin may delete a bill with no payments).
    const billC = await createBill(
      app.database.db,
      systemActor(app.organizationId!),
      billCreateSchema.parse({ patient_id: meeraId, items: [{ item_type: 'test', item_id: cbcId, qty: 3 }] }),
    );
    const page = await open('/bills-list', 'Bills List');
    await act(page, 'Edit', billC).click();
    const editC = page.getByRole('dialog', { name: `Edit Bill ${billC.bill_number}` });
    await editC.getByRole('button', { name: 'Delete Bill' }).click();
    const del = page.getByRole('dialog', { name: 'Delete Bill' });
    await del.getByText(`Are you sure you want to delete bill ${billC.bill_number}?`).waitFor();
    await del.getByRole('button', { name: 'Delete' }).click();
    await page.getByText(`Bill ${billC.bill_number} has been deleted`).waitFor();
    await expect.poll(() => row(page, billC).count()).toBe(0);
    // A paid bill offers no delete.
    await act(page, 'Edit', billA).click();
    const editA = page.getByRole('dialog', { name: `Edit Bill ${billA.bill_number}` });
    await editA.getByText('A bill with payments recorded cannot be deleted').waitFor();
    expect(await editA.getByRole('button', { name: 'Delete Bill' }).count()).toBe(0);
    await editA.getByRole('button', { name: 'Close' }).first().click();

    await act(page, 'Edit', billB).click();
    const edit = page.getByRole('dialog', { name: `Edit Bill ${billB.bill_number}` });
    await edit.getByLabel('Notes').fill('Patient asked for a printed copy');
    await screenshot(page, 'bills-edit-dialog-desktop');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText(`Bill ${billB.bill_number} has been updated`).waitFor();

    await act(page, 'Edit', billB).click();
    await edit.getByRole('button', { name: 'Cancel Bill' }).click();
    await edit.getByText('A reason is required to cancel a bill').waitFor();
    await edit.getByLabel('Reason for cancelling').fill('Duplicate bill');
    await edit.getByRole('button', { name: 'Cancel Bill' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel Bill' });
    await confirm
      .getByText(`Are you sure you want to cancel bill ${billB.bill_number}? Reason: Duplicate bill`)
      .waitFor();
    await confirm.getByRole('button', { name: 'Cancel Bill' }).click();
    await page.getByText(`Bill ${billB.bill_number} has been cancelled`).waitFor();
    await expectText(row(page, billB), /Cancelled/);
    expect(await act(page, 'Edit', billB).isDisabled()).toBe(true);

    await page.getByLabel('Status', { exact: true }).selectOption('cancelled');
    await page.getByRole('heading', { name: 'Bills List (1)' }).waitFor();
    await act(page, 'View', billB).click();
    const d = page.getByRole('dialog', { name: `Bill Details: ${billB.bill_number}` });
    await d.getByText('Duplicate bill').waitFor();
    expect(await d.getByRole('button', { name: 'Record Payment' }).count()).toBe(0);

    const rec = await open('/bills-list', 'Bills List', { as: 'receptionist' });
    await row(rec, billA).waitFor();
    expect(await act(rec, 'View', billA).count()).toBe(1);
    expect(await rec.getByRole('button', { name: /^Edit bill/ }).count()).toBe(0);
    expect(await rec.getByRole('link', { name: 'Create Bill' }).count()).toBe(1);
    await act(rec, 'View', billA).click();
    const rd = rec.getByRole('dialog', { name: `Bill Details: ${billA.bill_number}` });
    // A refund of part of the money: negative payment with a reason; the bill is partly paid again.
    await rd.getByRole('button', { name: 'Refund' }).click();
    await rd.getByLabel('Refund amount (₹)').fill('67');
    await rd.getByRole('button', { name: 'Record Refund' }).click();
    await rd.getByText('A refund needs a reason').waitFor();
    await rd.getByLabel('Reason').fill('Consultation fee waived');
    await screenshot(rec, 'bills-refund-form-desktop');
    await rd.getByRole('button', { name: 'Record Refund' }).click();
    await rec.getByText('Refund recorded').first().waitFor();
    await expectText(rd.getByTestId('detail-payment-status'), 'Partial');
    await expectText(rd.getByTestId('detail-balance'), '₹67.00');
    await rd.getByText('Reason: Consultation fee waived').waitFor();
    await screenshot(rec, 'bills-receptionist-details');
  });
});

describe('Billing Management and small screens', () => {
  it('searches by patient ID and status, opens Bill Details; /billing is the same live screen', async () => {
    const page = await open('/billing-management', 'Billing Management');
    await expectText(card(page, 'Total Revenue'), /₹540\.00/);
    await expectText(card(page, 'Paid'), /₹473\.00/);
    await expectText(card(page, 'Pending'), /₹67\.00/);
    await row(page, billA).waitFor();
    await screenshot(page, 'billing-management-desktop');
    await page.getByRole('searchbox', { name: 'Search bills' }).fill(billA.patient_patient_id);
    await expect.poll(() => bills(page).getByRole('row').count()).toBe(2);
    await page.getByLabel('Status', { exact: true }).selectOption('overdue');
    await bills(page).getByText('No bills found').waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('paid');
    await bills(page).getByText('No bills found').waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('all');
    await act(page, 'View', billA).click();
    await page.getByRole('dialog', { name: `Bill Details: ${billA.bill_number}` }).waitFor();

    await page.goto('/billing');
    await page.getByRole('heading', { name: 'Billing Management', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Bills List' }).last().waitFor();

    // A role without view_bills is told so once, with the permission named, instead of two failed loads.
    const user = await open('/bills-list', 'Bills List', { as: 'user' });
    await user.getByText('You do not have permission to view bills').waitFor();
    expect(await user.getByText('Error Loading Bills').count()).toBe(0);
  });

  it('works on a 390 px phone', async () => {
    const page = await open('/bills-list', 'Bills List', { viewport: MOBILE });
    await row(page, billA).waitFor();
    await screenshot(page, 'bills-list-mobile');
    // Nothing sticks out sideways on a phone (the table scrolls inside its card if it must).
    expect(Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'))).toBeLessThanOrEqual(
      0,
    );
    await page.getByRole('heading', { name: 'Quick Actions' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'bills-list-mobile-panels');
    await act(page, 'View', billA).click();
    await page
      .getByRole('dialog', { name: `Bill Details: ${billA.bill_number}` })
      .getByRole('table', { name: 'Bill items' })
      .waitFor();
    await screenshot(page, 'bills-details-dialog-mobile');
    await page.keyboard.press('Escape');
    await act(page, 'Edit', billA).click();
    await page.getByRole('dialog', { name: `Edit Bill ${billA.bill_number}` }).waitFor();
    await screenshot(page, 'bills-edit-dialog-mobile');
    await page.keyboard.press('Escape');
    await page.goto('/billing-management');
    await row(page, billA).waitFor();
    await screenshot(page, 'billing-management-mobile');
    await page.getByRole('heading', { name: 'Billing Tools' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'billing-management-mobile-panels');
  });
});
