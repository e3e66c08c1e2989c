import { describe, expect, it } from 'vitest';
import type { Payer } from '../../src/shared/schemas/payers.js';
import { transferLab } from './transfer-support.js';

/**
 * Payers in import and export (corporate clients, insurers, hospitals), on both engines: stored through
 * the payers feature's own functions (audited, name unique in the lab), keyed by name for --update,
 * bad rows named by row and column with nothing stored, computed figures exported and ignored on
 * import, and the entity's permissions on the server.
 */

const t = transferLab('lims-import-payers-');
const { importFile, exportRows, messages } = t;

async function payers(): Promise<Payer[]> {
  return (await t.lab.admin.get('/api/payers?limit=200')).json<{ payers: Payer[] }>().payers;
}

const HEADER =
  'name,type,gstin,address,state_code,contact_person,phone,email,credit_limit,payment_terms_days,discount_percent,status,balance,bills\n';

describe('payers', () => {
  it('imports payers through the payers feature: state from the GSTIN, rupees, defaults, one audit entry each', async () => {
    const r = await importFile(
      'payers',
      'payers.csv',
      HEADER +
        'Sunrise Corporate Health,corporate,29aaacs1234f1z5,"12 MG Road, Bengaluru",,Kavya Rao,9845022222,accounts@sunrise.example.in,"50,000",45,10,active,999,7\n' +
        'Star Health TPA,insurance,,,,,,,,,,,,\n',
    );
    expect(r.status, messages(r).join('\n')).toBe('completed');
    expect(r).toMatchObject({ rows: 2, inserted: 2, updated: 0, errors: 0 });
    const all = await payers();
    expect(all.find((p) => p.name === 'Sunrise Corporate Health')).toMatchObject({
      type: 'corporate',
      gstin: '29AAACS1234F1Z5',
      state_code: '29',
      state: 'Karnataka',
      credit_limit: 50000,
      payment_terms_days: 45,
      discount_percent: 10,
      status: 'active',
      // Computed from bills: the file's 999 and 7 are ignored.
      balance: 0,
      bills: 0,
    });
    expect(all.find((p) => p.name === 'Star Health TPA')).toMatchObject({
      type: 'insurance',
      credit_limit: null,
      payment_terms_days: 30,
      discount_percent: 0,
      status: 'active',
    });
    const audit = await t.lab.database.db
      .selectFrom('audit_log')
      .select(['action', 'entity'])
      .where('organization_id', '=', t.lab.organizationId)
      .where('entity', '=', 'payer')
      .execute();
    expect(audit.filter((a) => a.action === 'create')).toHaveLength(2);
  });

  it('--update matches by name without case, keeps the stored spelling and changes only the given cells', async () => {
    const r = await importFile(
      'payers',
      'terms.csv',
      'name,type,discount_percent,status\nsunrise corporate health,corporate,12.5,inactive\n',
      true,
    );
    expect(r.status, messages(r).join('\n')).toBe('completed');
    expect(r).toMatchObject({ inserted: 0, updated: 1 });
    const sunrise = (await payers()).find((p) => p.gstin === '29AAACS1234F1Z5')!;
    expect(sunrise).toMatchObject({
      name: 'Sunrise Corporate Health',
      discount_percent: 12.5,
      status: 'inactive',
      credit_limit: 50000,
      payment_terms_days: 45,
    });
    // Without --update the same name is a duplicate.
    const dup = await importFile('payers', 'dup.csv', 'name,type\nSUNRISE CORPORATE HEALTH,corporate\n');
    expect(dup.status).toBe('failed');
    expect(messages(dup)[0]).toMatch(
      /^row 2, column name: SUNRISE CORPORATE HEALTH: a payer with this name is already stored/,
    );
  });

  it('refuses the whole file for bad rows, naming row and column, and stores nothing', async () => {
    const before = (await payers()).length;
    const r = await importFile(
      'payers',
      'bad.csv',
      'name,type,gstin,state_code,credit_limit,payment_terms_days,discount_percent\n' +
        'Good Hospital,hospital,,,,,\n' +
        'Bad Type,government,,,,,\n' +
        'Bad GSTIN,corporate,29ABC,,,,\n' +
        'Wrong State,corporate,29AAACS1234F1Z5,27,,,\n' +
        'Bad Numbers,collection_centre,,,-5,400,101\n' +
        ',corporate,,,,,\n',
    );
    expect(r.status).toBe('failed');
    expect(r.inserted).toBe(0);
    const m = messages(r);
    expect(m[0]).toMatch(/^row 3, column type: Type must be one of corporate, insurance, hospital, collection_centre/);
    expect(m[1]).toMatch(/^row 4, column gstin: GSTIN must be 15 characters/);
    expect(m[2]).toMatch(/^row 5, column state_code: State must match the first two digits of the GSTIN/);
    expect(m.slice(3, 6).map((x) => x.split(':')[0])).toEqual([
      'row 6, column credit_limit',
      'row 6, column payment_terms_days',
      'row 6, column discount_percent',
    ]);
    expect(m[6]).toMatch(/^row 7, column name: /);
    expect(m).toHaveLength(7);
    expect((await payers()).length).toBe(before);
  });

  it('exports what the screen shows, filtered by type and status', async () => {
    const rows = await exportRows('payers');
    expect(rows.map((p) => p.name)).toEqual(['Star Health TPA', 'Sunrise Corporate Health']);
    expect(rows[1]).toMatchObject({
      type: 'corporate',
      gstin: '29AAACS1234F1Z5',
      address: '12 MG Road, Bengaluru',
      state_code: '29',
      credit_limit: '50000',
      payment_terms_days: '45',
      discount_percent: '12.5',
      status: 'inactive',
      balance: '0',
      bills: '0',
    });
    expect((await exportRows('payers', { status: 'active' })).map((p) => p.name)).toEqual(['Star Health TPA']);
    expect((await exportRows('payers', { type: 'corporate' })).map((p) => p.name)).toEqual([
      'Sunrise Corporate Health',
    ]);
  });

  it('who may move payers: the server refuses a technician (import and export) and a receptionist (import)', async () => {
    const can = async (role: 'billing_staff' | 'lab_technician' | 'receptionist') => {
      const client = await t.lab.as(role);
      const ents = (await client.get('/api/data-jobs/entities')).json<{
        entities: { name: string; can_import: boolean; can_export: boolean }[];
      }>().entities;
      return ents.find((e) => e.name === 'payers');
    };
    expect(await can('lab_technician')).toMatchObject({ can_import: false, can_export: false });
    expect(await can('receptionist')).toMatchObject({ can_import: false });
    const tech = await t.lab.as('lab_technician');
    const res = await tech.post('/api/data-jobs/exports', { entity: 'payers', format: 'csv' });
    expect(res.statusCode).toBe(403);
  });
});

describe('payer price lists', () => {
  const PRICES = 'payer_name,item_type,item_code,price,effective_from,effective_to\n';
  const priceRows = async () =>
    t.lab.database.db
      .selectFrom('payer_prices')
      .select(['id', 'price_paise', 'effective_from', 'effective_to'])
      .where('organization_id', '=', t.lab.organizationId)
      .orderBy('id')
      .execute();

  it('imports entries naming the payer, the item by type and code, and the day they start; audited per row', async () => {
    const menu = await importFile('tests', 'menu.csv', 'code,name,price\nPHB,Haemoglobin,150\nPFBS,Fasting sugar,90\n');
    expect(menu.status, messages(menu).join('\n')).toBe('completed');
    const prof = await importFile(
      'profiles',
      'prof.csv',
      'code,name,price,test_codes\nPDIAB,Diabetes panel,200,"PHB, PFBS"\n',
    );
    expect(prof.status, messages(prof).join('\n')).toBe('completed');
    const r = await importFile(
      'payer_prices',
      'prices.csv',
      PRICES +
        'sunrise corporate health,,phb,120,2026-01-01,\n' +
        'Sunrise Corporate Health,test,PHB,140,01/01/2025,31/12/2025\n' +
        'Star Health TPA,profile,PDIAB,"1,250.50",2026-04-01,\n',
    );
    expect(r.status, messages(r).join('\n')).toBe('completed');
    expect(r).toMatchObject({ rows: 3, inserted: 3, updated: 0, errors: 0 });
    const sunrise = (await payers()).find((p) => p.name === 'Sunrise Corporate Health')!;
    const list = (await t.lab.admin.get(`/api/payers/${sunrise.id}/prices`)).json<{
      prices: {
        item_code: string;
        price: number;
        lab_price: number;
        effective_from: string;
        effective_to: string | null;
      }[];
    }>().prices;
    expect(list.map((p) => [p.item_code, p.price, p.lab_price, p.effective_from, p.effective_to])).toEqual([
      ['PHB', 120, 150, '2026-01-01', null],
      ['PHB', 140, 150, '2025-01-01', '2025-12-31'],
    ]);
    const audit = await t.lab.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('organization_id', '=', t.lab.organizationId)
      .where('entity', '=', 'payer_price')
      .execute();
    // Each entry's own, and the import's one entry with the counts.
    expect(audit.map((a) => a.action).sort()).toEqual(['create', 'create', 'create', 'import']);
  });

  it('exports the lists by payer name and item code, and --update changes a price and its end', async () => {
    const rows = await exportRows('payer_prices');
    expect(
      rows.map((p) => [
        p.payer_name,
        p.item_type,
        p.item_code,
        p.item_name,
        p.lab_price,
        p.price,
        p.effective_from,
        p.effective_to,
      ]),
    ).toEqual([
      ['Star Health TPA', 'profile', 'PDIAB', 'Diabetes panel', '200', '1250.5', '2026-04-01', ''],
      ['Sunrise Corporate Health', 'test', 'PHB', 'Haemoglobin', '150', '140', '2025-01-01', '2025-12-31'],
      ['Sunrise Corporate Health', 'test', 'PHB', 'Haemoglobin', '150', '120', '2026-01-01', ''],
    ]);
    expect((await exportRows('payer_prices', { item_type: 'profile' })).map((p) => p.item_code)).toEqual(['PDIAB']);
    expect((await exportRows('payer_prices', { payer_name: 'star health tpa' })).map((p) => p.price)).toEqual([
      '1250.5',
    ]);
    const dup = await importFile(
      'payer_prices',
      'again.csv',
      PRICES + 'Sunrise Corporate Health,test,PHB,99,2026-01-01,\n',
    );
    expect(dup.status).toBe('failed');
    expect(messages(dup)[0]).toMatch(/^row 2, column item_code: .*a payer price with this key is already stored/);
    const up = await importFile(
      'payer_prices',
      'update.csv',
      PRICES + 'Sunrise Corporate Health,test,PHB,99,2026-01-01,2026-12-31\n',
      true,
    );
    expect(up.status, messages(up).join('\n')).toBe('completed');
    expect(up).toMatchObject({ inserted: 0, updated: 1 });
    const after = await exportRows('payer_prices', { payer_name: 'Sunrise Corporate Health' });
    expect(after.map((p) => `${p.price} ${p.effective_from} ${p.effective_to}`)).toEqual([
      '140 2025-01-01 2025-12-31',
      '99 2026-01-01 2026-12-31',
    ]);
  });

  it('refuses unknown payers, items and bad cells by row and column, and stores nothing', async () => {
    const before = await priceRows();
    const r = await importFile(
      'payer_prices',
      'bad.csv',
      PRICES +
        'Sunrise Corporate Health,test,PFBS,80,2026-02-01,\n' +
        'Moonrise Insurance,test,PFBS,80,2026-02-01,\n' +
        'Star Health TPA,test,NOPE9,80,2026-02-01,\n' +
        'Star Health TPA,panel,PFBS,80,2026-02-01,\n' +
        'Star Health TPA,test,PFBS,-3,2026-02-02,\n' +
        'Star Health TPA,test,PFBS,70,2026-02-30,\n' +
        'Star Health TPA,test,PFBS,70,2026-02-01,2026-01-01\n' +
        'sunrise corporate health,test,pfbs,81,2026-02-01,\n',
    );
    expect(r.status).toBe('failed');
    expect(r.inserted).toBe(0);
    expect(messages(r)).toEqual([
      'row 3, column payer_name: no payer named Moonrise Insurance in this lab (import the payers first)',
      'row 4, column item_code: no test with code NOPE9 in the catalogue',
      expect.stringMatching(/^row 5, column item_type: item_type must be test, profile or package/),
      expect.stringMatching(/^row 6, column price: /),
      'row 7, column effective_from: effective_from is not a real calendar date (got "2026-02-30")',
      'row 8, column effective_to: effective_to must be on or after effective_from (got "2026-01-01")',
      expect.stringMatching(
        /^row 9, column item_code: .* is also on row 2; each payer price may appear once in a file$/,
      ),
    ]);
    expect(await priceRows()).toEqual(before);
  });

  it('who may move price lists: as the payer screens (import manage_bills; export view_bills + export_data)', async () => {
    const ents = async (role: 'billing_staff' | 'lab_technician') =>
      (await (await t.lab.as(role)).get('/api/data-jobs/entities'))
        .json<{ entities: { name: string; can_import: boolean; can_export: boolean }[] }>()
        .entities.find((e) => e.name === 'payer_prices');
    expect(await ents('lab_technician')).toMatchObject({ can_import: false, can_export: false });
    const billing = await ents('billing_staff');
    expect(billing?.can_import).toBe(true);
    const tech = await t.lab.as('lab_technician');
    expect((await tech.post('/api/data-jobs/exports', { entity: 'payer_prices', format: 'csv' })).statusCode).toBe(403);
  });
});
