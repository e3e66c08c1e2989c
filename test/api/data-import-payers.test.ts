import { describe, expect, it } from 'vitest';
import type { Payer } from '../../src/shared/schemas/payers.js';
import { transferLab } from './transfer-support.js';

/**
 * Payers in import and export (issue 14, the payers of issue 16), on both engines: stored through
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
