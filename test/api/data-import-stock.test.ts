import { describe, expect, it } from 'vitest';
import { transferLab } from './transfer-support.js';
import { addDays, localDate } from '../../src/shared/time.js';
import type { InventoryItem, Movement } from '../../src/shared/schemas/inventory.js';
import type { Calibration, Equipment } from '../../src/shared/schemas/equipment.js';

/**
 * The stock entities of import and export (suppliers, inventory, equipment, calibration and
 * maintenance records), on both engines: opening stock through the ledger, references by natural
 * key, bad rows reported by row and column with nothing stored, the export shape.
 */

const t = transferLab('lims-import-stock-');
const { importFile, exportRows, messages } = t;

async function count(
  table: 'inventory_items' | 'inventory_movements' | 'suppliers' | 'equipment' | 'equipment_services',
) {
  const r = await t.lab.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', t.lab.organizationId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

const today = () => localDate('Asia/Kolkata');

async function item(code: string): Promise<InventoryItem> {
  const list = (await t.lab.admin.get(`/api/inventory?search=${code}`)).json<{ items: InventoryItem[] }>().items;
  return list.find((i) => i.item_code === code)!;
}

describe('suppliers and inventory', () => {
  it('imports suppliers, then items whose opening stock is a receive movement in the ledger', async () => {
    const s = await importFile(
      'suppliers',
      'suppliers.csv',
      'name,contact_person,phone,email,gstin,lead_time_days\n' +
        'Medisource Diagnostics,Anil,9845011111,orders@medisource.in,27AAPFU0939F1ZV,5\n' +
        'Lab Essentials,,,,,\n',
    );
    expect(s.status, messages(s).join('\n')).toBe('completed');
    expect(s).toMatchObject({ inserted: 2, errors: 0 });

    const expiry = addDays(today(), 200);
    const r = await importFile(
      'inventory',
      'items.csv',
      'item_code,item_name,kind,category,unit,current_stock,minimum_stock,maximum_stock,unit_cost,supplier,expiry_date,lot_number\n' +
        `GLU-R1,Glucose reagent,reagent,Biochemistry,tests,480,100,1000,"1,250.50",Medisource Diagnostics,${expiry},LOT-7\n` +
        'TIPS-200,Pipette tips 200 µL,consumable,Plastics,pcs,0,500,,0.8,Lab Essentials,,\n',
    );
    expect(r.status, messages(r).join('\n')).toBe('completed');
    expect(r).toMatchObject({ rows: 2, inserted: 2, errors: 0 });

    const glu = await item('GLU-R1');
    expect(glu).toMatchObject({
      kind: 'reagent',
      current_stock: 480,
      usable_stock: 480,
      unit_cost: 1250.5,
      supplier: 'Medisource Diagnostics',
      expiry_date: expiry,
      stock_status: 'in_stock',
    });
    const moves = (await t.lab.admin.get(`/api/inventory/${glu.id}/movements`)).json<{ movements: Movement[] }>()
      .movements;
    expect(moves).toHaveLength(1);
    expect(moves[0]).toMatchObject({ type: 'receive', quantity: 480, lot_number: 'LOT-7', reason: 'Opening stock' });
    // Nothing on hand at a minimum of 500: the stock rules hold for imported items too.
    expect((await item('TIPS-200')).stock_status).toBe('low_stock');

    // The export carries what the screen shows; lots are not exported, the stock is one figure.
    const rows = await exportRows('inventory', { kind: 'reagent' });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      item_code: 'GLU-R1',
      current_stock: '480',
      unit_cost: '1250.5',
      supplier: 'Medisource Diagnostics',
      expiry_date: expiry,
      lot_number: '',
      stock_status: 'in_stock',
    });
    const sup = await exportRows('suppliers');
    expect(sup.find((x) => x.name === 'Medisource Diagnostics')).toMatchObject({
      lead_time_days: '5',
      deliveries: '1',
    });
  });

  it('--update: a changed current_stock is an adjust movement with the reason; the ledger explains the stock', async () => {
    const r = await importFile(
      'inventory',
      'count.csv',
      'item_code,current_stock,stock_reason\nglu-r1,450,Year-end stock count\n',
      true,
    );
    expect(r.status, messages(r).join('\n')).toBe('completed');
    expect(r).toMatchObject({ updated: 1, inserted: 0 });
    const glu = await item('GLU-R1');
    expect(glu.current_stock).toBe(450);
    const moves = (await t.lab.admin.get(`/api/inventory/${glu.id}/movements`)).json<{ movements: Movement[] }>()
      .movements;
    expect(moves[0]).toMatchObject({ type: 'adjust', quantity: -30, reason: 'Year-end stock count' });
  });

  it('refuses the whole file for bad rows, naming row and column, and stores nothing', async () => {
    const before = {
      items: await count('inventory_items'),
      moves: await count('inventory_movements'),
      suppliers: await count('suppliers'),
    };
    const r = await importFile(
      'inventory',
      'bad.csv',
      'item_code,item_name,category,unit,current_stock,minimum_stock,maximum_stock,expiry_date\n' +
        'NEW-1,Good item,General,pcs,10,1,20,\n' +
        'NEW-2,Bad stock,General,pcs,ten,1,20,\n' +
        'NEW-3,Max below min,General,pcs,5,10,5,\n' +
        'GLU-R1,Duplicate code,General,pcs,1,0,,\n' +
        `NEW-4,Expired,General,pcs,5,0,,${addDays(today(), -3)}\n`,
    );
    expect(r.status).toBe('failed');
    expect(r.inserted).toBe(0);
    const m = messages(r);
    expect(m[0]).toMatch(/^row 3, column current_stock: /);
    expect(m[1]).toBe('row 4, column maximum_stock: Maximum stock must be more than the minimum (got "5")');
    expect(m[2]).toMatch(/^row 5, column item_code: GLU-R1: a inventory item with this item_code is already stored/);
    expect(m[3]).toMatch(/^row 6, column expiry_date: .* is past: expired stock cannot be received/);
    expect(m).toHaveLength(4);
    expect({
      items: await count('inventory_items'),
      moves: await count('inventory_movements'),
      suppliers: await count('suppliers'),
    }).toEqual(before);
  });
});

describe('equipment, calibration and maintenance records', () => {
  it('registers equipment, then brings in past and open calibration records naming it by serial number', async () => {
    const e = await importFile(
      'equipment',
      'equipment.csv',
      'serial_number,kind,name,model,type,location,status,installed_on,min_temperature,max_temperature\n' +
        'AU-480-001,machine,Chemistry analyser,AU480,Chemistry Analyzer,Biochemistry,operational,2024-04-01,,\n' +
        'FR-02,instrument,Reagent fridge,,Environmental,Store,operational,,2,8\n',
    );
    expect(e.status, messages(e).join('\n')).toBe('completed');
    expect(e.inserted).toBe(2);
    const fridge = (await t.lab.admin.get('/api/equipment?search=FR-02')).json<{ equipment: Equipment[] }>()
      .equipment[0]!;
    expect(fridge).toMatchObject({ kind: 'instrument', min_temperature: 2, max_temperature: 8, status: 'operational' });
    const history = (await t.lab.admin.get(`/api/equipment/${fridge.id}/history`)).json();
    expect(JSON.stringify(history)).toContain('Registered');

    const c = await importFile(
      'calibrations',
      'calibrations.csv',
      'equipment_serial_number,type,status,due_date,interval_days,performed_by,performed_at,accuracy,description\n' +
        'au-480-001,Routine,completed,2026-03-01,180,Ravi (Beckman),2026-03-02,99.1,Two-point\n' +
        'FR-02,Annual,,2026-01-15,,,,,From the paper register\n',
    );
    expect(c.status, messages(c).join('\n')).toBe('completed');
    expect(c.inserted).toBe(2);
    const cals = (await t.lab.admin.get('/api/calibrations?limit=50')).json<{ calibrations: Calibration[] }>()
      .calibrations;
    const done = cals.find((x) => x.serial_number === 'AU-480-001')!;
    expect(done).toMatchObject({
      status: 'completed',
      performed_by: 'Ravi (Beckman)',
      accuracy: 99.1,
      next_due: '2026-08-29',
    });
    // performed_at is the day's start in the lab (Kolkata): 18:30 UTC the day before.
    expect(done.performed_at).toBe('2026-03-01T18:30:00.000Z');
    // A past due date from paper is overdue at once, and the instrument shows calibration_due.
    expect(cals.find((x) => x.serial_number === 'FR-02')).toMatchObject({ status: 'overdue' });
    const fridgeNow = (await t.lab.admin.get(`/api/equipment/${fridge.id}`)).json<{ equipment: Equipment }>().equipment;
    expect(fridgeNow.status).toBe('calibration_due');

    const m = await importFile(
      'maintenance',
      'maintenance.csv',
      'equipment_serial_number,type,due_date,performed_by,performed_at,cost\nAU-480-001,Preventive,2026-02-01,Service team,2026-02-03,"2,500"\n',
    );
    expect(m.status, messages(m).join('\n')).toBe('completed');
    const maint = (await t.lab.admin.get('/api/maintenance?limit=50')).json().maintenance;
    expect(maint[0]).toMatchObject({ status: 'completed', cost: 2500, performed_by: 'Service team' });

    const out = await exportRows('calibrations');
    expect(out.map((r) => [r.equipment_serial_number, r.status, r.next_due])).toEqual([
      ['AU-480-001', 'completed', '2026-08-29'],
      ['FR-02', 'overdue', ''],
    ]);
    const eqOut = await exportRows('equipment', { kind: 'instrument' });
    expect(eqOut).toMatchObject([{ serial_number: 'FR-02', status: 'operational', min_temperature: '2' }]);
  });

  it('reports bad calibration rows by row and column (unknown equipment, bad type, work without a date), nothing stored', async () => {
    const before = await count('equipment_services');
    const future = addDays(today(), 2);
    const r = await importFile(
      'calibrations',
      'bad-calibrations.csv',
      'equipment_serial_number,type,status,due_date,performed_by,performed_at,accuracy\n' +
        'NOPE-9,Routine,,2026-01-01,,,\n' +
        'FR-02,Monthly,,2026-01-01,,,\n' +
        'FR-02,Routine,completed,2026-01-01,Ravi,,\n' +
        `FR-02,Routine,,2026-01-01,Ravi,${future},101\n` +
        'FR-02,Routine,,31/02/2026,,,\n',
    );
    expect(r.status).toBe('failed');
    expect(messages(r)).toEqual([
      'row 2, column equipment_serial_number: NOPE-9: no equipment with this serial number is registered (import equipment first)',
      'row 3, column type: Type must be one of Routine, Annual, Emergency, Preventive (got "Monthly")',
      'row 4, column performed_at: Performed at is required for completed work (the day it was done)',
      `row 5, column performed_at: Performed at cannot be in the future (got "${new Date(`${future}T00:00:00+05:30`).toISOString()}")`,
      'row 5, column accuracy: Accuracy must be from 0 to 100 (percent) (got "101")',
      "row 6, column due_date: 31/02/2026 is not a date (write YYYY-MM-DD, or DD/MM/YYYY as the lab's dates are set)",
    ]);
    expect(await count('equipment_services')).toBe(before);
    // Records have no natural key: --update is refused.
    await expect(
      importFile('calibrations', 'u.csv', 'equipment_serial_number,type,due_date\nFR-02,Routine,2026-01-01\n', true),
    ).rejects.toThrow(/calibrations cannot be updated by an import/);
  });

  it('refuses a duplicate serial number and an instrument type outside the spec’s four, nothing stored', async () => {
    const before = await count('equipment');
    const r = await importFile(
      'equipment',
      'bad-equipment.csv',
      'serial_number,kind,name,type\nfr-02,instrument,Again,Environmental\nNEW-5,instrument,Scope,Microscope\nNEW-6,robot,Arm,\n',
    );
    expect(r.status).toBe('failed');
    const m = messages(r);
    expect(m[0]).toMatch(/^row 2, column serial_number: fr-02: a equipment with this serial_number is already stored/);
    expect(m[1]).toBe(
      'row 3, column type: Instrument type must be one of Imaging, Analytical, Measurement, Environmental (got "Microscope")',
    );
    expect(m[2]).toMatch(/^row 4, column kind: /);
    expect(await count('equipment')).toBe(before);
  });
});
