import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { badFields, createPatient } from './support.js';
import { localDate } from '../../src/shared/time.js';
import { tallyExport } from '../../src/core/accounts/tally.js';
import { gstr1 } from '../../src/core/accounts/gstr1.js';
import { gstr1Csv } from '../../src/core/accounts/gstr1-csv.js';
import { accountsApi } from '../../src/shared/api/accounts.js';
import { ROLE_PERMISSIONS } from '../../src/shared/roles.js';

/**
 * The accountant's files over HTTP: each route answers the same file `lims export` writes, a bad
 * month or section is a 400 naming it, and only a user whose role holds export_accounts (in the
 * lab's own permission table) gets them.
 */
let lab: TestLab;
const month = localDate('Asia/Kolkata').slice(0, 7);
const urls = [
  `/api/accounts/tally/export?month=${month}`,
  `/api/accounts/gstr1/export?month=${month}`,
  `/api/accounts/gstr1/csv?month=${month}&section=b2cs`,
  `/api/accounts/einvoice/export?month=${month}`,
];

beforeAll(async () => {
  lab = await makeLab();
  const a = lab.admin;
  await a.put('/api/settings', { labAddress: '12 MG Road, Bengaluru, Karnataka 560001' });
  await a.put('/api/billing-settings', { gstin: '29AABCL1234M1Z5' });
  const test = await a.post('/api/tests', {
    name: 'Skin analysis',
    code: 'SKNR',
    price: 308.74,
    tax_category: 'gst_12',
    sac_code: '999722',
  });
  const res = await a.post('/api/bills', {
    patient_id: (await createPatient(a)).id,
    items: [{ item_type: 'test', item_id: test.json<{ test: { id: number } }>().test.id, qty: 2 }],
    payment_method: 'cash',
  });
  expect(res.statusCode, res.body).toBe(201);
}, 60_000);
afterAll(() => lab.close());

describe('accounts routes', () => {
  it('answers the Tally XML, GSTR-1 JSON and a CSV sheet that lims export writes, and records the export', async () => {
    const db = lab.database.db;
    const tally = await lab.admin.get(urls[0]!);
    expect(tally.statusCode, tally.body).toBe(200);
    expect(tally.headers['content-type']).toContain('application/xml');
    expect(tally.headers['content-disposition']).toBe(`attachment; filename="tally-${month}.xml"`);
    expect(tally.body).toBe((await tallyExport(db, lab.organizationId, month)).xml);
    expect(tally.body).toContain('VCHTYPE="Sales"');

    const g = await lab.admin.get(urls[1]!);
    expect(g.statusCode, g.body).toBe(200);
    expect(g.headers['content-type']).toContain('application/json');
    expect(g.json()).toEqual(await gstr1(db, lab.organizationId, month));

    const csv = await lab.admin.get(urls[2]!);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="gstr1-${month}-b2cs.csv"`);
    expect(csv.body).toBe(gstr1Csv(await gstr1(db, lab.organizationId, month)).b2cs);
    expect(csv.body).toContain('29-Karnataka');

    const audit = await db
      .selectFrom('audit_log')
      .select(['entity_id'])
      .where('organization_id', '=', lab.organizationId)
      .where('entity', '=', 'accounts')
      .where('action', '=', 'export')
      .execute();
    expect(audit.map((r) => r.entity_id).sort()).toEqual([`gstr1-csv:${month}`, `gstr1:${month}`, `tally:${month}`]);
  });

  it('refuses the e-invoice file for a lab below the threshold (409), as the CLI does', async () => {
    const res = await lab.admin.get(urls[3]!);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json<{ code: string }>().code).toBe('EINVOICE_NOT_REQUIRED');
  });

  it('answers 400 naming month for a bad or missing month, and section for a bad sheet', async () => {
    for (const path of Object.values(accountsApi)
      .filter((c) => 'query' in c)
      .map((c) => c.path)) {
      const section = path.endsWith('/csv') ? 'section=b2b&' : '';
      for (const q of ['month=2026-13', 'month=26-11', 'month=2026-11-01', '', 'month=1999-12'])
        expect(badFields(await lab.admin.get(`${path}?${section}${q}`)), `${path} ${q}`).toEqual(['month']);
    }
    expect(badFields(await lab.admin.get(`/api/accounts/gstr1/csv?month=${month}&section=b2x`))).toEqual(['section']);
    expect(badFields(await lab.admin.get(`/api/accounts/gstr1/csv?month=${month}`))).toEqual(['section']);
  });

  it('gives the files to a role holding export_accounts and 403 to one without it', async () => {
    expect(ROLE_PERMISSIONS.billing_staff).toContain('export_accounts');
    expect(ROLE_PERMISSIONS.receptionist).not.toContain('export_accounts');
    const billing = await lab.as('billing_staff');
    const reception = await lab.as('receptionist');
    for (const url of urls.slice(0, 3)) {
      expect((await billing.get(url)).statusCode, url).toBe(200);
      const res = await reception.get(url);
      expect(res.statusCode, url).toBe(403);
      expect(res.body).not.toContain('VOUCHER');
    }
    // A bad month from someone without the permission is still a 403: access is checked first.
    expect((await reception.get('/api/accounts/tally/export?month=nope')).statusCode).toBe(403);
  });

  it("reads the lab's own permission table: an accountant role with only export_accounts, billing staff without it", async () => {
    const set = (role: string, permissions: string[]) =>
      lab.admin.put('/api/permissions', { roles: [{ role, permissions }] });
    expect((await set('user', ['export_accounts'])).statusCode).toBe(200);
    const accountant = await lab.as('user');
    for (const url of urls.slice(0, 3)) expect((await accountant.get(url)).statusCode, url).toBe(200);
    expect((await accountant.get('/api/bills')).statusCode).toBe(403);

    const billing = await lab.as('billing_staff');
    expect(
      (
        await set(
          'billing_staff',
          ROLE_PERMISSIONS.billing_staff.filter((p) => p !== 'export_accounts'),
        )
      ).statusCode,
    ).toBe(200);
    expect((await billing.get(urls[0]!)).statusCode).toBe(403);
    expect((await lab.admin.post('/api/permissions/reset', {})).statusCode).toBe(200);
    expect((await billing.get(urls[0]!)).statusCode).toBe(200);
  });
});
