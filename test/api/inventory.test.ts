import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import { auditRowsFor, badFields, lastAuditId, localDate, otherLabAdmin, uniqueWord } from './support.js';
import { rows } from '../db.js';
import { inventoryApi, stockAlertsApi, suppliersApi } from '../../src/shared/api/inventory.js';
import type {
  InventoryItem,
  InventoryPage,
  InventorySummary,
  Lot,
  Movement,
  MovementPage,
  StockAlert,
  AlertPage,
  Supplier,
} from '../../src/shared/schemas/inventory.js';

let lab: TestLab;
let manager: Client;

beforeAll(async () => {
  lab = await makeLab();
  manager = await lab.as('inventory_manager');
});
afterAll(() => lab.close());

const code = () => uniqueWord('IT').toUpperCase();
const inDays = (n: number) => localDate(0, n);

async function createItem(body: Record<string, unknown> = {}, as: Client = manager): Promise<InventoryItem> {
  const res = await as.post('/api/inventory', {
    item_code: code(),
    item_name: `Glucose reagent ${uniqueWord()}`,
    category: 'Biochemistry',
    unit: 'tests',
    minimum_stock: 10,
    maximum_stock: 1000,
    unit_cost: 2.5,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ item: InventoryItem }>().item;
}

async function move(id: number, body: Record<string, unknown>, as: Client = manager) {
  return as.post(`/api/inventory/${id}/movements`, body);
}

async function receive(id: number, quantity: number, lot_number: string, expiry_date: string | null, extra = {}) {
  const res = await move(id, { type: 'receive', quantity, lot_number, expiry_date, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ movements: Movement[]; item: InventoryItem }>();
}

async function getItem(id: number): Promise<InventoryItem> {
  const res = await manager.get(`/api/inventory/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ item: InventoryItem }>().item;
}

async function lots(id: number): Promise<Lot[]> {
  return (await manager.get(`/api/inventory/${id}/lots`)).json<{ lots: Lot[] }>().lots;
}

async function alertsOf(itemId: number, status = 'all'): Promise<StockAlert[]> {
  const res = await manager.get(`/api/stock-alerts?limit=200&status=${status}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AlertPage>().alerts.filter((a) => a.item_id === itemId);
}

describe('Inventory Management: the spec contract', () => {
  it('creates an item (201 {item}) with the computed stock_status; opening stock is the first ledger line', async () => {
    const item = await createItem({ current_stock: 50, expiry_date: inDays(200), lot_number: 'L-OPEN' });
    expect(item).toMatchObject({
      current_stock: 50,
      usable_stock: 50,
      stock_status: 'in_stock',
      unit_cost: 2.5,
      total_value: 125,
      expiry_date: inDays(200),
      status: 'active',
      kind: 'general',
    });
    const ledger = (await manager.get(`/api/inventory/${item.id}/movements`)).json<MovementPage>();
    expect(ledger.movements).toHaveLength(1);
    expect(ledger.movements[0]).toMatchObject({
      type: 'receive',
      quantity: 50,
      balance_after: 50,
      lot_number: 'L-OPEN',
    });
    expect((await auditRowsFor(lab, 'inventory_item', item.id)).map((r) => r.action)).toEqual(['create']);
  });

  it('lists with the spec envelope, default page size 50, search, category and status filters', async () => {
    const tag = uniqueWord('Srch');
    const a = await createItem({ item_name: `${tag} tubes`, category: `Cat${tag}` });
    await createItem({ item_name: `${tag} gloves`, status: 'discontinued' });
    const all = (await manager.get(`/api/inventory?search=${tag}`)).json<InventoryPage>();
    expect(all).toMatchObject({ total: 2, totalPages: 1, currentPage: 1, hasNextPage: false, hasPrevPage: false });
    const byCat = (await manager.get(`/api/inventory?search=${tag}&category=cat${tag}`)).json<InventoryPage>();
    expect(byCat.items.map((i) => i.id)).toEqual([a.id]);
    const disc = (await manager.get(`/api/inventory?search=${tag}&status=discontinued`)).json<InventoryPage>();
    expect(disc.items.map((i) => i.item_name)).toEqual([`${tag} gloves`]);
    const paged = (await manager.get(`/api/inventory?search=${tag}&limit=1&page=2`)).json<InventoryPage>();
    expect(paged).toMatchObject({ total: 2, totalPages: 2, currentPage: 2, hasPrevPage: true, hasNextPage: false });
  });

  it('item_code is unique in the lab (409, any case)', async () => {
    const item = await createItem();
    const res = await manager.post('/api/inventory', {
      item_code: item.item_code.toLowerCase(),
      item_name: 'Dup',
      category: 'X',
      unit: 'pcs',
    });
    expect(res.statusCode).toBe(409);
  });

  it('refuses bad numbers with 400 naming the field (not 0 as the spec client did); nothing saved', async () => {
    const before = (await manager.get('/api/inventory?limit=1')).json<InventoryPage>().total;
    const base = { item_code: code(), item_name: 'Bad', category: 'X', unit: 'pcs' };
    const cases: [Record<string, unknown>, string][] = [
      [{ current_stock: 'abc' }, 'current_stock'],
      [{ current_stock: -1 }, 'current_stock'],
      [{ current_stock: 1.5 }, 'current_stock'],
      [{ minimum_stock: '' }, 'minimum_stock'],
      [{ minimum_stock: 10, maximum_stock: 5 }, 'maximum_stock'],
      [{ unit_cost: -2 }, 'unit_cost'],
      [{ unit_cost: 1.234 }, 'unit_cost'],
      [{ unit_cost: 'ten' }, 'unit_cost'],
      [{ expiry_date: '2026-02-30', current_stock: 5 }, 'expiry_date'],
      [{ status: 'gone' }, 'status'],
      [{ kind: 'drug' }, 'kind'],
      [{ item_code: '' }, 'item_code'],
      [{ item_name: '   ' }, 'item_name'],
      [{ unit: undefined }, 'unit'],
      [{ supplier_id: 999999 }, 'supplier_id'],
    ];
    for (const [over, field] of cases) {
      const res = await manager.post('/api/inventory', { ...base, ...over });
      expect(badFields(res), JSON.stringify(over)).toContain(field);
    }
    expect((await manager.get('/api/inventory?limit=1')).json<InventoryPage>().total).toBe(before);
    for (const q of ['page=0', 'limit=500', 'status=gone', 'stock_status=x', 'kind=drug']) {
      expect((await manager.get(`/api/inventory?${q}`)).statusCode, q).toBe(400);
    }
  });

  it('editing current_stock records an adjust movement with the difference and its reason', async () => {
    const item = await createItem({ current_stock: 40 });
    const noReason = await manager.put(`/api/inventory/${item.id}`, { current_stock: 35 });
    expect(badFields(noReason)).toEqual(['stock_reason']);
    // PUT what GET returned (computed fields included) with a new stock and a reason.
    const res = await manager.put(`/api/inventory/${item.id}`, {
      ...item,
      current_stock: 35,
      stock_reason: 'Counted on the shelf',
      item_name: 'Renamed reagent',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ item: InventoryItem }>().item).toMatchObject({ current_stock: 35, item_name: 'Renamed reagent' });
    const ledger = (await manager.get(`/api/inventory/${item.id}/movements`)).json<MovementPage>().movements;
    expect(ledger[0]).toMatchObject({
      type: 'adjust',
      quantity: -5,
      balance_after: 35,
      reason: 'Counted on the shelf',
    });
    const up = await manager.put(`/api/inventory/${item.id}`, { current_stock: 45, stock_reason: 'Found a box' });
    expect(up.json<{ item: InventoryItem }>().item.current_stock).toBe(45);
  });

  it('deletes an item without a ledger; archives one with movements (404 after, ledger kept)', async () => {
    const fresh = await createItem();
    expect((await manager.delete(`/api/inventory/${fresh.id}`)).statusCode).toBe(200);
    expect((await manager.get(`/api/inventory/${fresh.id}`)).statusCode).toBe(404);
    const used = await createItem({ current_stock: 5 });
    expect((await manager.delete(`/api/inventory/${used.id}`)).statusCode).toBe(200);
    expect((await manager.get(`/api/inventory/${used.id}`)).statusCode).toBe(404);
    expect((await manager.get(`/api/inventory?search=${used.item_code}`)).json<InventoryPage>().total).toBe(0);
    const kept = await rows<{ n: number }>(
      lab.database,
      'SELECT count(*) AS n FROM inventory_movements WHERE item_id = ?',
      used.id,
    );
    expect(Number(kept[0]!.n)).toBe(1);
    // Its code is free again for a new item.
    await createItem({ item_code: used.item_code });
  });

  it('the cards come from the server: total, low stock, active, total value', async () => {
    const kind = 'consumable';
    const before = (await manager.get(`/api/inventory/summary?kind=${kind}`)).json<{ summary: InventorySummary }>()
      .summary;
    await createItem({ kind, current_stock: 5, minimum_stock: 10, unit_cost: 10 });
    await createItem({ kind, current_stock: 20, minimum_stock: 10, unit_cost: 1.5, status: 'inactive' });
    const after = (await manager.get(`/api/inventory/summary?kind=${kind}`)).json<{ summary: InventorySummary }>()
      .summary;
    expect(after.total_items - before.total_items).toBe(2);
    expect(after.low_stock - before.low_stock).toBe(1);
    expect(after.active_items - before.active_items).toBe(1);
    expect(Math.round((after.total_value - before.total_value) * 100)).toBe(5000 + 3000);
  });
});

describe('the ledger: lots, lot choice, never below zero', () => {
  it('receiving creates or tops up a lot; consumption takes the earliest-expiring usable lot', async () => {
    const item = await createItem({ minimum_stock: 0, maximum_stock: null });
    await receive(item.id, 10, 'LATE', inDays(300));
    await receive(item.id, 4, 'EARLY', inDays(40));
    await receive(item.id, 2, 'EARLY', inDays(40));
    const mismatch = await move(item.id, {
      type: 'receive',
      quantity: 1,
      lot_number: 'EARLY',
      expiry_date: inDays(41),
    });
    expect(badFields(mismatch)).toEqual(['expiry_date']);
    const l = await lots(item.id);
    expect(l.map((x) => [x.lot_number, x.remaining, x.received_quantity])).toEqual([
      ['EARLY', 6, 6],
      ['LATE', 10, 10],
    ]);
    const res = await move(item.id, { type: 'consume', quantity: 8 });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<{ movements: Movement[]; item: InventoryItem }>();
    expect(body.movements.map((m) => [m.lot_number, m.quantity])).toEqual([
      ['EARLY', -6],
      ['LATE', -2],
    ]);
    expect(body.item.current_stock).toBe(8);
    expect(body.item.last_used).not.toBeNull();
  });

  // Each step: a movement, then the item's stock and every lot's remaining (lots by expiry, unlotted last).
  it.each<{ name: string; steps: [Record<string, unknown>, number, [string | null, number][]][] }>([
    {
      name: 'receive, top up, consume across lots',
      steps: [
        [{ type: 'receive', quantity: 10, lot_number: 'L2', expiry_date: inDays(200) }, 10, [['L2', 10]]],
        [
          { type: 'receive', quantity: 3, lot_number: 'L1', expiry_date: inDays(50) },
          13,
          [
            ['L1', 3],
            ['L2', 10],
          ],
        ],
        [
          { type: 'receive', quantity: 2, lot_number: 'L1', expiry_date: inDays(50) },
          15,
          [
            ['L1', 5],
            ['L2', 10],
          ],
        ],
        [
          { type: 'consume', quantity: 4 },
          11,
          [
            ['L1', 1],
            ['L2', 10],
          ],
        ],
        [
          { type: 'consume', quantity: 3 },
          8,
          [
            ['L1', 0],
            ['L2', 8],
          ],
        ],
      ],
    },
    {
      name: 'adjust up and down, waste, return',
      steps: [
        [{ type: 'receive', quantity: 6, lot_number: 'A', expiry_date: inDays(30) }, 6, [['A', 6]]],
        [{ type: 'adjust', quantity: -2, reason: 'Count' }, 4, [['A', 4]]],
        [
          { type: 'adjust', quantity: 3, reason: 'Count' },
          7,
          [
            ['A', 4],
            [null, 3],
          ],
        ],
        [
          { type: 'waste', quantity: 1, reason: 'Broken vial' },
          6,
          [
            ['A', 3],
            [null, 3],
          ],
        ],
        [
          { type: 'return', quantity: 2, reason: 'Unused, sealed' },
          8,
          [
            ['A', 3],
            [null, 5],
          ],
        ],
        [
          { type: 'consume', quantity: 8 },
          0,
          [
            ['A', 0],
            [null, 0],
          ],
        ],
      ],
    },
    {
      name: 'a named lot is consumed as named, a rejected delivery adds nothing',
      steps: [
        [{ type: 'receive', quantity: 4, lot_number: 'E', expiry_date: inDays(20) }, 4, [['E', 4]]],
        [
          { type: 'receive', quantity: 4, lot_number: 'F', expiry_date: inDays(90) },
          8,
          [
            ['E', 4],
            ['F', 4],
          ],
        ],
        [
          { type: 'consume', quantity: 1, lot: 'F' },
          7,
          [
            ['E', 4],
            ['F', 3],
          ],
        ],
        [
          { type: 'receive', quantity: 9, lot_number: 'G', expiry_date: inDays(90), rejected: true, reason: 'Warm' },
          7,
          [
            ['E', 4],
            ['F', 3],
          ],
        ],
      ],
    },
  ])('stock arithmetic: $name', async ({ steps }) => {
    const item = await createItem({ minimum_stock: 0, maximum_stock: null });
    for (const [body, stock, expected] of steps) {
      const { lot, ...rest } = body as { lot?: string };
      const lotId = lot ? (await lots(item.id)).find((l) => l.lot_number === lot)!.id : undefined;
      const res = await move(item.id, lotId ? { ...rest, lot_id: lotId } : rest);
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(201);
      expect((await getItem(item.id)).current_stock, JSON.stringify(body)).toBe(stock);
      expect(
        (await lots(item.id)).map((l) => [l.lot_number, l.remaining]),
        JSON.stringify(body),
      ).toEqual(expected);
    }
  });

  it('stock never goes below zero (409), nothing written', async () => {
    const item = await createItem({ current_stock: 3 });
    const res = await move(item.id, { type: 'consume', quantity: 4 });
    expect(res.statusCode).toBe(409);
    expect((await move(item.id, { type: 'waste', quantity: 4, reason: 'Spilt' })).statusCode).toBe(409);
    expect((await move(item.id, { type: 'adjust', quantity: -4, reason: 'Count' })).statusCode).toBe(409);
    expect((await getItem(item.id)).current_stock).toBe(3);
    expect((await manager.get(`/api/inventory/${item.id}/movements`)).json<MovementPage>().total).toBe(1);
  });

  it('concurrent consumption never takes the stock below zero', async () => {
    const item = await createItem({ current_stock: 20, minimum_stock: 0, maximum_stock: null });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => move(item.id, { type: 'consume', quantity: 3 })),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(6);
    expect(codes.filter((c) => c === 409)).toHaveLength(4);
    const after = await getItem(item.id);
    expect(after.current_stock).toBe(2);
    expect((await lots(item.id)).reduce((n, l) => n + l.remaining, 0)).toBe(2);
  });

  it('an expired lot is never consumed without an audited override', async () => {
    const item = await createItem({ minimum_stock: 0, maximum_stock: null });
    await receive(item.id, 5, 'OLD', inDays(10));
    // Make the lot expired (a lot cannot be received already expired).
    await lab.database.db
      .updateTable('inventory_lots')
      .set({ expiry_date: inDays(-1) })
      .where('item_id', '=', item.id)
      .execute();
    await receive(item.id, 2, 'NEW', inDays(90));
    const lotsNow = await lots(item.id);
    const old = lotsNow.find((l) => l.lot_number === 'OLD')!;
    expect(old.expiry_state).toBe('expired');
    expect((await getItem(item.id)).reagent_status).toBe('expired');
    expect((await move(item.id, { type: 'consume', quantity: 3 })).statusCode).toBe(409);
    expect((await move(item.id, { type: 'consume', quantity: 1, lot_id: old.id })).statusCode).toBe(409);
    expect(badFields(await move(item.id, { type: 'consume', quantity: 3, allow_expired: true }))).toEqual(['reason']);
    const res = await move(item.id, {
      type: 'consume',
      quantity: 3,
      allow_expired: true,
      reason: 'Supply delayed, QC passed',
    });
    expect(res.statusCode, res.body).toBe(201);
    const ms = res.json<{ movements: Movement[] }>().movements;
    expect(ms.map((m) => [m.lot_number, m.quantity, m.expired_override])).toEqual([
      ['NEW', -2, false],
      ['OLD', -1, true],
    ]);
    const audit = await auditRowsFor(lab, 'inventory_movement', ms[1]!.id);
    expect(JSON.parse(audit[0]!.new_values!)).toMatchObject({
      expired_override: true,
      reason: 'Supply delayed, QC passed',
    });
    // Waste takes the expired lot first.
    const w = await move(item.id, { type: 'waste', quantity: 4, reason: 'Expired' });
    expect(w.json<{ movements: Movement[] }>().movements.map((m) => m.lot_number)).toEqual(['OLD']);
  });

  it('refuses bad movements with 400 naming the field', async () => {
    const item = await createItem({ current_stock: 5 });
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'steal', quantity: 1 }, 'type'],
      [{ type: 'consume', quantity: 0 }, 'quantity'],
      [{ type: 'consume', quantity: -2 }, 'quantity'],
      [{ type: 'consume', quantity: 'x' }, 'quantity'],
      [{ type: 'consume', quantity: 1.5 }, 'quantity'],
      [{ type: 'adjust', quantity: 2 }, 'reason'],
      [{ type: 'waste', quantity: 1 }, 'reason'],
      [{ type: 'receive', quantity: 1, expiry_date: '31/12/2026' }, 'expiry_date'],
      [{ type: 'receive', quantity: 1, expiry_date: inDays(-1) }, 'expiry_date'],
      [{ type: 'receive', quantity: 1, unit_cost: -1 }, 'unit_cost'],
      [{ type: 'receive', quantity: 1, rejected: true }, 'reason'],
      [{ type: 'consume', quantity: 1, expiry_date: inDays(5) }, 'expiry_date'],
      [{ type: 'consume', quantity: 1, lot_id: 999999 }, 'lot_id'],
      [{ type: 'receive', quantity: 1, supplier_id: 999999 }, 'supplier_id'],
    ];
    for (const [body, field] of cases)
      expect(badFields(await move(item.id, body)), JSON.stringify(body)).toContain(field);
    expect((await getItem(item.id)).current_stock).toBe(5);
    expect((await move(999999, { type: 'consume', quantity: 1 })).statusCode).toBe(404);
    expect((await manager.get(`/api/inventory/${item.id}/movements?type=x`)).statusCode).toBe(400);
  });
});

describe('suppliers: register and performance from real receipts', () => {
  it('creates, lists with performance, refuses bad input and duplicates, keeps a supplier in use', async () => {
    const name = `Acme ${uniqueWord()}`;
    const res = await manager.post('/api/suppliers', {
      name,
      contact_person: 'Ravi',
      phone: '9876543210',
      email: 'orders@acme.test',
      gstin: '27aapfu0939f1zv',
      lead_time_days: 5,
    });
    expect(res.statusCode, res.body).toBe(201);
    const s = res.json<{ supplier: Supplier }>().supplier;
    expect(s.gstin).toBe('27AAPFU0939F1ZV');
    expect((await manager.post('/api/suppliers', { name: name.toUpperCase() })).statusCode).toBe(409);
    for (const [body, field] of [
      [{ name: '' }, 'name'],
      [{ name: 'X', gstin: '1234' }, 'gstin'],
      [{ name: 'X', email: 'not-mail' }, 'email'],
      [{ name: 'X', lead_time_days: -1 }, 'lead_time_days'],
      [{ name: 'X', phone: 'call me' }, 'phone'],
    ] as const)
      expect(badFields(await manager.post('/api/suppliers', body))).toContain(field);

    const item = await createItem({ supplier_id: s.id });
    expect(item.supplier).toBe(name);
    await receive(item.id, 10, 'S1', inDays(100), { expected_date: inDays(1) });
    await receive(item.id, 10, 'S2', inDays(100), { expected_date: inDays(-2) });
    const rej = await move(item.id, { type: 'receive', quantity: 10, rejected: true, reason: 'Cold chain broken' });
    expect(rej.statusCode, rej.body).toBe(201);
    expect(rej.json<{ item: InventoryItem }>().item.current_stock).toBe(20);
    const got = (await manager.get(`/api/suppliers/${s.id}`)).json<{ supplier: Supplier }>().supplier;
    expect(got).toMatchObject({ items: 1, deliveries: 3, with_due_date: 2, on_time: 1, on_time_rate: 50, rejected: 1 });
    expect((await manager.delete(`/api/suppliers/${s.id}`)).statusCode).toBe(409);
    const spare = (await manager.post('/api/suppliers', { name: `Spare ${uniqueWord()}` })).json<{
      supplier: Supplier;
    }>().supplier;
    expect((await manager.delete(`/api/suppliers/${spare.id}`)).statusCode).toBe(200);
  });

  it('an item naming a new supplier by name adds it to the register', async () => {
    const name = `Named ${uniqueWord()}`;
    const item = await createItem({ supplier: name });
    const list = (await manager.get('/api/suppliers')).json<{ suppliers: Supplier[] }>().suppliers;
    expect(list.find((x) => x.name === name)?.id).toBe(item.supplier_id);
  });
});

describe('stock alerts: raised and resolved by the server', () => {
  it('low stock raises an alert; acknowledge; receiving resolves it by itself', async () => {
    const item = await createItem({ current_stock: 30, minimum_stock: 10, maximum_stock: 100 });
    expect(await alertsOf(item.id)).toEqual([]);
    await move(item.id, { type: 'consume', quantity: 18 }); // 12: approaching (reorder point 12)
    expect((await alertsOf(item.id, 'active')).map((a) => a.alert_type)).toEqual(['approaching_minimum']);
    await move(item.id, { type: 'consume', quantity: 2 }); // 10: low
    const open = await alertsOf(item.id, 'active');
    expect(open.map((a) => [a.alert_type, a.priority, a.current_stock])).toEqual([['low_stock', 'high', 10]]);
    const low = open[0]!;
    expect(badFields(await manager.put(`/api/stock-alerts/${low.id}`, { status: 'closed' }))).toEqual(['status']);
    expect(badFields(await manager.put(`/api/stock-alerts/${low.id}`, {}))).toEqual(['status']);
    expect((await manager.put(`/api/stock-alerts/${low.id}`, { status: 'resolved' })).statusCode).toBe(409);
    const ack = await manager.put(`/api/stock-alerts/${low.id}`, { status: 'acknowledged', note: 'Ordered 2 kits' });
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json<{ alert: StockAlert }>().alert).toMatchObject({ status: 'acknowledged', note: 'Ordered 2 kits' });
    await receive(item.id, 50, 'R1', inDays(200));
    const all = await alertsOf(item.id);
    expect(all.every((a) => a.status === 'resolved')).toBe(true);
    expect(all.map((a) => a.alert_type).sort()).toEqual(['approaching_minimum', 'low_stock']);
    // The approaching alert ended because the item fell lower, not because stock came: it says so.
    expect(all.find((a) => a.alert_type === 'approaching_minimum')).toMatchObject({
      current_stock: 10,
      note: 'Became low stock',
    });
    expect(all.find((a) => a.alert_type === 'low_stock')?.note).toBe('Ordered 2 kits');
  });

  it('out of stock is critical and tells the inventory staff (a notification)', async () => {
    const other = await lab.as('inventory_manager');
    const item = await createItem({ current_stock: 2, minimum_stock: 1 });
    await move(item.id, { type: 'consume', quantity: 2 });
    const alerts = await alertsOf(item.id, 'active');
    expect(alerts.map((a) => [a.alert_type, a.priority])).toEqual([['out_of_stock', 'critical']]);
    const inbox = (await other.get('/api/notifications?limit=50')).json<{ notifications: { title: string }[] }>();
    expect(inbox.notifications.map((n) => n.title)).toContain(`Out of stock: ${item.item_name}`);
  });

  it('falling to the minimum rings the bell of the inventory staff (a warning); approaching it does not', async () => {
    const other = await lab.as('inventory_manager');
    const tech = await lab.as('technician');
    const item = await createItem({ current_stock: 30, minimum_stock: 10, maximum_stock: 100 });
    const told = async (who: Client) =>
      (await who.get('/api/notifications?limit=100'))
        .json<{ notifications: { title: string; type: string; priority: string; message: string }[] }>()
        .notifications.filter((n) => n.title.endsWith(item.item_name));
    await move(item.id, { type: 'consume', quantity: 18 }); // 12: approaching, screen only
    expect(await told(other)).toEqual([]);
    await move(item.id, { type: 'consume', quantity: 2 }); // 10: at the minimum
    const expected = {
      title: `Low stock: ${item.item_name}`,
      type: 'warning',
      priority: 'high',
      message: `${item.item_name}: 10 tests left, at or below the minimum of 10 tests.`,
    };
    expect(await told(other)).toMatchObject([expected]);
    // The manager who recorded the movement is told too (the server raised it, not them); a technician is not.
    expect(await told(manager)).toMatchObject([expected]);
    expect(await told(tech)).toEqual([]);
    // Still low after another use: the open alert is refreshed, nobody is told twice.
    await move(item.id, { type: 'consume', quantity: 1 });
    expect(await told(other)).toHaveLength(1);
  });

  it('expiry warning by the lab setting; settings are validated and re-evaluate alerts', async () => {
    const item = await createItem({ current_stock: 50, minimum_stock: 5, expiry_date: inDays(20), lot_number: 'EXP' });
    const [warning] = await alertsOf(item.id, 'active');
    expect(warning).toMatchObject({ alert_type: 'expiry_warning', priority: 'medium' });
    // The message is read by people: the day in the lab's date format (DD/MM/YYYY), not ISO.
    expect(warning!.message).toBe(`Stock expires on ${inDays(20).split('-').reverse().join('/')}`);
    for (const [body, field] of [
      [{ expiry_warning_days: 0 }, 'expiry_warning_days'],
      [{ expiry_warning_days: 'x' }, 'expiry_warning_days'],
      [{ approaching_margin_percent: 101 }, 'approaching_margin_percent'],
    ] as const)
      expect(badFields(await manager.put('/api/stock-alerts/settings', body))).toEqual([field]);
    const res = await manager.put('/api/stock-alerts/settings', { expiry_warning_days: 10 });
    expect(res.json()).toEqual({ settings: { expiry_warning_days: 10, approaching_margin_percent: 20 } });
    expect(await alertsOf(item.id, 'active')).toEqual([]);
    await manager.put('/api/stock-alerts/settings', { expiry_warning_days: 30 });
    expect((await alertsOf(item.id, 'active')).map((a) => a.alert_type)).toEqual(['expiry_warning']);
    const summary = (await manager.get('/api/stock-alerts/summary')).json<{ summary: { trend: unknown[] } }>().summary;
    expect(summary.trend).toHaveLength(8);
    expect((await manager.get('/api/stock-alerts?priority=urgent')).statusCode).toBe(400);
  });
});

describe('consumption per test: result entry consumes, deletion returns', () => {
  it('maps a reagent to a test; each result takes from the earlier lot; deleting returns it; short stock refuses', async () => {
    const a = lab.admin;
    const testId = (
      await a.post('/api/tests', { name: `Glucose ${uniqueWord()}`, code: code(), price: 100, normal_range: '70-110' })
    ).json<{ test: { id: number } }>().test.id;
    const item = await createItem({ kind: 'reagent', minimum_stock: 2, maximum_stock: 100 });
    await receive(item.id, 3, 'A-EARLY', inDays(60));
    await receive(item.id, 10, 'B-LATE', inDays(200));
    expect(
      badFields(await manager.put(`/api/inventory/${item.id}/usage`, { usage: [{ test_id: testId, quantity: 0 }] })),
    ).toEqual(['usage.0.quantity']);
    expect(
      badFields(await manager.put(`/api/inventory/${item.id}/usage`, { usage: [{ test_id: 999999, quantity: 1 }] })),
    ).toEqual(['usage.0.test_id']);
    const map = await manager.put(`/api/inventory/${item.id}/usage`, { usage: [{ test_id: testId, quantity: 2 }] });
    expect(map.statusCode, map.body).toBe(200);

    const tech = await lab.as('lab_technician');
    const patient = (
      await a.post('/api/patients', {
        first_name: 'Gita',
        last_name: uniqueWord('Ra'),
        date_of_birth: '1980-01-01',
        gender: 'Female',
      })
    ).json<{ patient: { id: number } }>().patient.id;
    const resultIds: number[] = [];
    for (let i = 0; i < 2; i++) {
      const sample = (
        await a.post('/api/samples', { patient_id: patient, sample_type: 'Blood', test_ids: [testId] })
      ).json<{
        sample: { id: number };
      }>().sample;
      const r = await tech.post('/api/test-results', { sample_id: sample.id, test_id: testId, result_value: '95' });
      expect(r.statusCode, r.body).toBe(201);
      resultIds.push(r.json<{ result: { id: number } }>().result.id);
    }
    expect((await lots(item.id)).map((l) => [l.lot_number, l.remaining])).toEqual([
      ['A-EARLY', 0],
      ['B-LATE', 9],
    ]);
    const ledger = (await manager.get(`/api/inventory/${item.id}/movements?type=consume`)).json<MovementPage>()
      .movements;
    expect(ledger.every((m) => m.result_id !== null && m.test_name !== null)).toBe(true);

    const del = await tech.delete(`/api/test-results/${resultIds[1]}`);
    expect(del.statusCode, del.body).toBe(200);
    expect((await lots(item.id)).map((l) => [l.lot_number, l.remaining])).toEqual([
      ['A-EARLY', 1],
      ['B-LATE', 10],
    ]);
    expect((await getItem(item.id)).current_stock).toBe(11);

    // Too little stock refuses the entry and stores nothing.
    await move(item.id, { type: 'waste', quantity: 10, reason: 'Broken vial' });
    const sample = (
      await a.post('/api/samples', { patient_id: patient, sample_type: 'Blood', test_ids: [testId] })
    ).json<{
      sample: { id: number };
    }>().sample;
    const short = await tech.post('/api/test-results', { sample_id: sample.id, test_id: testId, result_value: '90' });
    expect(short.statusCode).toBe(409);
    const stored = (await a.get(`/api/test-results?sample_id=${sample.id}`)).json<{
      results: { id: number | null }[];
    }>();
    expect(stored.results.filter((r) => r.id !== null)).toHaveLength(0);
    expect((await getItem(item.id)).current_stock).toBe(1);
  });
});

describe('every route', () => {
  /** Row counts of everything inventory keeps, and the audit trail's last id: a refused request changes none. */
  async function stored() {
    const counts: Record<string, number> = {};
    for (const t of [
      'inventory_items',
      'inventory_lots',
      'inventory_movements',
      'suppliers',
      'stock_alerts',
      'test_consumption',
      'stock_alert_settings',
    ])
      counts[t] = Number((await rows<{ n: number }>(lab.database, `SELECT COUNT(*) AS n FROM ${t}`))[0]!.n);
    return { counts, audit: await lastAuditId(lab) };
  }

  it('refuses bad input with 400 naming the field; nothing is stored', async () => {
    const item = await createItem({ current_stock: 20, minimum_stock: 5, maximum_stock: 50 });
    const supplier = (await manager.post('/api/suppliers', { name: `Bad Input ${uniqueWord()}` })).json<{
      supplier: Supplier;
    }>().supplier;
    await move(item.id, { type: 'consume', quantity: 16 }); // 4: a low-stock alert to send bad updates to
    const alert = (await alertsOf(item.id, 'active'))[0]!;
    const i = `/api/inventory/${item.id}`;
    const cases: [string, string, Record<string, unknown> | null, string][] = [
      ['GET', '/api/inventory?page=0', null, 'page'],
      ['GET', '/api/inventory?limit=x', null, 'limit'],
      ['GET', '/api/inventory?status=lost', null, 'status'],
      ['GET', '/api/inventory/summary?kind=food', null, 'kind'],
      ['GET', '/api/inventory/abc', null, 'id'],
      ['POST', '/api/inventory', { item_code: '', item_name: 'X', category: 'X', unit: 'pcs' }, 'item_code'],
      [
        'POST',
        '/api/inventory',
        { item_code: code(), item_name: 'X', category: 'X', unit: 'pcs', minimum_stock: 'x' },
        'minimum_stock',
      ],
      ['PUT', i, { minimum_stock: -1 }, 'minimum_stock'],
      ['PUT', i, { unit_cost: 'free' }, 'unit_cost'],
      ['PUT', i, { current_stock: 9 }, 'stock_reason'],
      ['PUT', '/api/inventory/0', { item_name: 'X' }, 'id'],
      ['DELETE', '/api/inventory/abc', null, 'id'],
      ['GET', '/api/inventory/abc/lots', null, 'id'],
      ['GET', `${i}/movements?type=steal`, null, 'type'],
      ['POST', `${i}/movements`, { type: 'consume', quantity: 0 }, 'quantity'],
      ['GET', '/api/inventory/-1/usage', null, 'id'],
      ['PUT', `${i}/usage`, { usage: [{ test_id: 'x', quantity: 1 }] }, 'usage.0.test_id'],
      ['PUT', `${i}/usage`, {}, 'usage'],
      ['GET', '/api/suppliers/abc', null, 'id'],
      ['POST', '/api/suppliers', { name: '' }, 'name'],
      ['POST', '/api/suppliers', { name: `S ${uniqueWord()}`, email: 'not-an-email' }, 'email'],
      ['PUT', `/api/suppliers/${supplier.id}`, { lead_time_days: -3 }, 'lead_time_days'],
      ['DELETE', '/api/suppliers/abc', null, 'id'],
      ['GET', '/api/stock-alerts?status=closed', null, 'status'],
      ['GET', '/api/stock-alerts?priority=urgent', null, 'priority'],
      ['PUT', '/api/stock-alerts/settings', { expiry_warning_days: 366 }, 'expiry_warning_days'],
      ['PUT', '/api/stock-alerts/settings', { approaching_margin_percent: -1 }, 'approaching_margin_percent'],
      ['PUT', `/api/stock-alerts/${alert.id}`, { status: 'closed' }, 'status'],
      ['PUT', `/api/stock-alerts/${alert.id}`, { note: 'x'.repeat(2001) }, 'note'],
      ['PUT', '/api/stock-alerts/abc', { status: 'acknowledged' }, 'id'],
    ];
    const before = await stored();
    const itemBefore = await getItem(item.id);
    for (const [method, url, body, field] of cases) {
      const res =
        method === 'GET'
          ? await manager.get(url)
          : method === 'DELETE'
            ? await manager.delete(url)
            : method === 'POST'
              ? await manager.post(url, body!)
              : await manager.put(url, body!);
      expect(badFields(res), `${method} ${url} ${JSON.stringify(body)}`).toContain(field);
    }
    expect(await stored()).toEqual(before);
    expect(await getItem(item.id)).toEqual(itemBefore);
    expect((await alertsOf(item.id, 'active')).map((a) => [a.id, a.status, a.note])).toEqual([
      [alert.id, 'active', null],
    ]);
  });
});

describe('permissions and labs', () => {
  it('receptionists see nothing; technicians read but do not change; inventory managers manage', async () => {
    const item = await createItem({ current_stock: 5 });
    const reception = await lab.as('receptionist');
    for (const url of [
      '/api/inventory',
      `/api/inventory/${item.id}`,
      '/api/stock-alerts',
      '/api/suppliers',
      '/api/inventory/summary',
    ])
      expect((await reception.get(url)).statusCode, url).toBe(403);
    const tech = await lab.as('technician');
    expect((await tech.get(`/api/inventory/${item.id}`)).statusCode).toBe(200);
    expect((await tech.post(`/api/inventory/${item.id}/movements`, { type: 'consume', quantity: 1 })).statusCode).toBe(
      403,
    );
    expect((await tech.put(`/api/inventory/${item.id}`, { item_name: 'x' })).statusCode).toBe(403);
    expect((await tech.post('/api/suppliers', { name: 'x' })).statusCode).toBe(403);
    expect((await tech.put('/api/stock-alerts/settings', { expiry_warning_days: 5 })).statusCode).toBe(403);
    expect((await tech.delete(`/api/inventory/${item.id}`)).statusCode).toBe(403);
  });

  it('on every route: receptionists get 403, technicians read and only consume through result entry', async () => {
    const item = await createItem({ kind: 'reagent', current_stock: 10, minimum_stock: 8, maximum_stock: 100 });
    const supplier = (await manager.post('/api/suppliers', { name: `Perm ${uniqueWord()}` })).json<{
      supplier: Supplier;
    }>().supplier;
    await move(item.id, { type: 'consume', quantity: 3 }); // 7: a low-stock alert
    const alert = (await alertsOf(item.id, 'active'))[0]!;
    const routes = [...Object.values(inventoryApi), ...Object.values(suppliersApi), ...Object.values(stockAlertsApi)];
    const url = (path: string) =>
      path
        .replace('/api/suppliers/:id', `/api/suppliers/${supplier.id}`)
        .replace('/api/stock-alerts/:id', `/api/stock-alerts/${alert.id}`)
        .replace(':id', String(item.id));
    const bodies: Record<string, Record<string, unknown>> = {
      'POST /api/inventory': { item_code: code(), item_name: 'X', category: 'X', unit: 'pcs' },
      'PUT /api/inventory/:id': { item_name: 'Renamed' },
      'POST /api/inventory/:id/movements': { type: 'consume', quantity: 1 },
      'PUT /api/inventory/:id/usage': { usage: [] },
      'POST /api/suppliers': { name: `Other ${uniqueWord()}` },
      'PUT /api/suppliers/:id': { phone: '9876543210' },
      'PUT /api/stock-alerts/settings': { expiry_warning_days: 10 },
      'PUT /api/stock-alerts/:id': { status: 'acknowledged' },
    };
    const send = (who: Client, r: (typeof routes)[number]) => {
      const u = url(r.path);
      const body = bodies[`${r.method} ${r.path}`] ?? {};
      return r.method === 'GET'
        ? who.get(u)
        : r.method === 'DELETE'
          ? who.delete(u)
          : r.method === 'POST'
            ? who.post(u, body)
            : who.put(u, body);
    };
    const reception = await lab.as('receptionist');
    const tech = await lab.as('technician');
    const before = await lastAuditId(lab);
    for (const r of routes) {
      expect((await send(reception, r)).statusCode, `receptionist ${r.method} ${r.path}`).toBe(403);
      expect((await send(tech, r)).statusCode, `technician ${r.method} ${r.path}`).toBe(r.method === 'GET' ? 200 : 403);
    }
    expect(await lastAuditId(lab)).toBe(before);
    expect((await getItem(item.id)).current_stock).toBe(7);

    // The technician consumes by entering a result of a test that uses the reagent.
    const testId = (
      await lab.admin.post('/api/tests', {
        name: `Urea ${uniqueWord()}`,
        code: code(),
        price: 90,
        normal_range: '15-40',
      })
    ).json<{ test: { id: number } }>().test.id;
    expect(
      (await manager.put(`/api/inventory/${item.id}/usage`, { usage: [{ test_id: testId, quantity: 2 }] })).statusCode,
    ).toBe(200);
    const patient = (
      await lab.admin.post('/api/patients', {
        first_name: 'Mohan',
        last_name: uniqueWord('Ra'),
        date_of_birth: '1975-03-04',
        gender: 'Male',
      })
    ).json<{ patient: { id: number } }>().patient.id;
    const sample = (
      await lab.admin.post('/api/samples', { patient_id: patient, sample_type: 'Blood', test_ids: [testId] })
    ).json<{ sample: { id: number } }>().sample;
    const r = await tech.post('/api/test-results', { sample_id: sample.id, test_id: testId, result_value: '30' });
    expect(r.statusCode, r.body).toBe(201);
    expect((await getItem(item.id)).current_stock).toBe(5);
    expect(
      (await reception.post('/api/test-results', { sample_id: sample.id, test_id: testId, result_value: '31' }))
        .statusCode,
    ).toBe(403);
  });

  it("another lab's items, suppliers and alerts are invisible", async () => {
    const item = await createItem({ current_stock: 1, minimum_stock: 5 });
    const { admin: other } = await otherLabAdmin(lab);
    expect((await other.get(`/api/inventory/${item.id}`)).statusCode).toBe(404);
    expect((await other.get(`/api/inventory/${item.id}/movements`)).statusCode).toBe(404);
    expect((await other.post(`/api/inventory/${item.id}/movements`, { type: 'consume', quantity: 1 })).statusCode).toBe(
      404,
    );
    expect((await other.delete(`/api/inventory/${item.id}`)).statusCode).toBe(404);
    expect((await other.get('/api/inventory')).json<InventoryPage>().total).toBe(0);
    expect((await other.get('/api/stock-alerts')).json<AlertPage>().total).toBe(0);
    expect((await other.get('/api/suppliers')).json<{ suppliers: unknown[] }>().suppliers).toEqual([]);
    const alert = (await alertsOf(item.id, 'active'))[0]!;
    expect((await other.put(`/api/stock-alerts/${alert.id}`, { status: 'acknowledged' })).statusCode).toBe(404);
    // The same code is free in the other lab.
    const res = await other.post('/api/inventory', {
      item_code: item.item_code,
      item_name: 'Theirs',
      category: 'X',
      unit: 'pcs',
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});
