import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import type {
  InventoryItemsTable,
  InventoryLotsTable,
  InventoryMovementsTable,
  TestConsumptionTable,
} from './tables.js';
import type { InventoryListQuery } from '../../shared/schemas/inventory.js';
import { labRows } from '../db/joins.js';
import { labTable, labDelete } from '../db/lab-tables.js';
import { onPage, type RowsPage } from '../db/paging.js';

/**
 * Items, lots, the ledger and consumption per test, always filtered by the lab. Suppliers are in
 * supplier-repository.ts, alerts and their settings in alert-repository.ts.
 */

export type ItemRow = Selectable<InventoryItemsTable>;
export type LotRow = Selectable<InventoryLotsTable>;

/** An item with what its lots and ledger say on `today` (the lab's date) since `since` (ISO). */
function itemsQuery(db: Db, organizationId: number, today: string, since: string) {
  return db
    .selectFrom('inventory_items as i')
    .leftJoin('suppliers as s', 's.id', 'i.supplier_id')
    .where('i.organization_id', '=', organizationId)
    .where('i.archived_at', 'is', null)
    .selectAll('i')
    .select([
      's.name as supplier_name',
      's.lead_time_days as supplier_lead_time',
      sql<number>`coalesce((SELECT sum(l.remaining) FROM inventory_lots l WHERE l.item_id = i.id
        AND (l.expiry_date IS NULL OR l.expiry_date >= ${today})), 0)`.as('usable_stock'),
      sql<
        string | null
      >`(SELECT min(l.expiry_date) FROM inventory_lots l WHERE l.item_id = i.id AND l.remaining > 0)`.as(
        'earliest_expiry',
      ),
      sql<number>`coalesce((SELECT sum(-m.quantity)
        FROM inventory_movements m WHERE m.item_id = i.id AND m.created_at >= ${since}
        AND (m.type = 'consume' OR (m.type = 'return' AND m.result_id IS NOT NULL))), 0)`.as('used_in_window'),
    ]);
}

export type ItemFullRow = Awaited<ReturnType<ReturnType<typeof itemsQuery>['executeTakeFirstOrThrow']>>;

const STOCK_STATUS_SQL = sql<string>`CASE WHEN i.current_stock <= i.minimum_stock THEN 'low_stock'
  WHEN i.maximum_stock IS NOT NULL AND i.current_stock >= i.maximum_stock THEN 'overstocked' ELSE 'in_stock' END`;

function filtered(db: Db, organizationId: number, today: string, since: string, q: Partial<InventoryListQuery>) {
  let out = itemsQuery(db, organizationId, today, since);
  if (q.search) {
    const s = `%${q.search.toLowerCase()}%`;
    out = out.where((eb) =>
      eb.or([
        eb(sql`lower(i.item_name)`, 'like', s),
        eb(sql`lower(i.item_code)`, 'like', s),
        eb(sql`lower(i.category)`, 'like', s),
        eb(sql`lower(coalesce(i.catalog_number, ''))`, 'like', s),
        eb(sql`lower(coalesce(s.name, ''))`, 'like', s),
      ]),
    );
  }
  if (q.category) out = out.where(sql`lower(i.category)`, '=', q.category.toLowerCase());
  if (q.status) out = out.where('i.status', '=', q.status);
  if (q.kind) out = out.where('i.kind', '=', q.kind);
  if (q.stock_status) out = out.where(sql`${STOCK_STATUS_SQL}`, '=', q.stock_status);
  return out;
}

export async function selectItemPage(
  db: Db,
  organizationId: number,
  today: string,
  since: string,
  q: InventoryListQuery,
): Promise<RowsPage<ItemFullRow>> {
  const f = filtered(db, organizationId, today, since, q);
  const { n } = await db
    .selectFrom(f.as('x'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await f.orderBy('i.item_name').orderBy('i.id').$call(onPage(q)).execute();
  return { rows, total: Number(n) };
}

/** Every live item of the lab (of one kind), for the cards and the alert sweep. */
export function allItems(db: Db, organizationId: number, today: string, since: string, kind?: string) {
  return filtered(db, organizationId, today, since, { kind: kind as InventoryListQuery['kind'] })
    .orderBy('i.id')
    .execute();
}

export function findItemFull(db: Db, organizationId: number, id: number, today: string, since: string) {
  return itemsQuery(db, organizationId, today, since).where('i.id', '=', id).executeTakeFirst();
}

export function findItemRow(db: Db, organizationId: number, id: number): Promise<ItemRow | undefined> {
  return labRows(db, 'inventory_items', organizationId)
    .where('id', '=', id)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
}

export async function codeTaken(db: Db, organizationId: number, code: string, exceptId?: number): Promise<boolean> {
  let q = labTable(db, 'inventory_items', organizationId)
    .select('id')
    .where('archived_at', 'is', null)
    .where(sql`lower(item_code)`, '=', code.toLowerCase());
  if (exceptId) q = q.where('id', '<>', exceptId);
  return !!(await q.executeTakeFirst());
}

export async function distinctCategories(db: Db, organizationId: number, kind?: string): Promise<string[]> {
  let q = labTable(db, 'inventory_items', organizationId)
    .select('category')
    .distinct()
    .where('archived_at', 'is', null);
  if (kind) q = q.where('kind', '=', kind);
  return (await q.orderBy('category').execute()).map((r) => r.category);
}

export function insertItemRow(trx: Db, values: Insertable<InventoryItemsTable>): Promise<ItemRow> {
  return trx.insertInto('inventory_items').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateItemRow(trx: Db, id: number, patch: Updateable<InventoryItemsTable>): Promise<void> {
  await trx.updateTable('inventory_items').set(patch).where('id', '=', id).execute();
}

/** Changes the item's stock by `delta` unless that takes it below zero: false when refused. */
export async function shiftItemStock(trx: Db, id: number, delta: number, at: string): Promise<boolean> {
  const r = await trx
    .updateTable('inventory_items')
    .set({ current_stock: sql`current_stock + ${delta}`, updated_at: at })
    .where('id', '=', id)
    .where(sql<boolean>`current_stock + ${delta} >= 0`)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function deleteItemRow(trx: Db, id: number): Promise<void> {
  await trx.deleteFrom('inventory_items').where('id', '=', id).execute();
}

// ---- Lots ----

export function lotsOf(db: Db, itemId: number): Promise<(LotRow & { supplier_name: string | null })[]> {
  return db
    .selectFrom('inventory_lots as l')
    .leftJoin('suppliers as s', 's.id', 'l.supplier_id')
    .selectAll('l')
    .select('s.name as supplier_name')
    .where('l.item_id', '=', itemId)
    .orderBy(sql`coalesce(l.expiry_date, '9999-12-31')`)
    .orderBy('l.id')
    .execute();
}

export function findLot(db: Db, itemId: number, id: number): Promise<LotRow | undefined> {
  return db
    .selectFrom('inventory_lots')
    .selectAll()
    .where('item_id', '=', itemId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findLotByNumber(db: Db, itemId: number, lotNumber: string | null): Promise<LotRow | undefined> {
  return db
    .selectFrom('inventory_lots')
    .selectAll()
    .where('item_id', '=', itemId)
    .where('lot_number', lotNumber === null ? 'is' : '=', lotNumber)
    .orderBy('id')
    .executeTakeFirst();
}

export function insertLot(trx: Db, values: Insertable<InventoryLotsTable>): Promise<LotRow> {
  return trx.insertInto('inventory_lots').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Changes a lot's remaining units by `delta` unless below zero (false when refused); a receipt adds to received too. */
export async function shiftLot(trx: Db, id: number, delta: number, received = 0): Promise<boolean> {
  const r = await trx
    .updateTable('inventory_lots')
    .set({ remaining: sql`remaining + ${delta}`, received_quantity: sql`received_quantity + ${received}` })
    .where('id', '=', id)
    .where(sql<boolean>`remaining + ${delta} >= 0`)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

// ---- Movements ----

export function insertMovement(trx: Db, values: Insertable<InventoryMovementsTable>) {
  return trx.insertInto('inventory_movements').values(values).returningAll().executeTakeFirstOrThrow();
}

function movementsQuery(db: Db, organizationId: number) {
  return db
    .selectFrom('inventory_movements as m')
    .leftJoin('inventory_lots as l', 'l.id', 'm.lot_id')
    .leftJoin('suppliers as s', 's.id', 'm.supplier_id')
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .leftJoin('tests as t', 't.id', 'm.test_id')
    .where('m.organization_id', '=', organizationId)
    .selectAll('m')
    .select([
      'l.lot_number',
      'l.expiry_date',
      's.name as supplier_name',
      't.name as test_name',
      sql<string | null>`CASE WHEN u.id IS NULL THEN NULL ELSE u.first_name || ' ' || u.last_name END`.as('user_name'),
    ]);
}

export type MovementRow = Awaited<ReturnType<ReturnType<typeof movementsQuery>['executeTakeFirstOrThrow']>>;

export async function selectMovementPage(
  db: Db,
  organizationId: number,
  itemId: number,
  q: { page: number; limit: number; type?: string },
): Promise<RowsPage<MovementRow>> {
  let base = labTable(db, 'inventory_movements', organizationId).where('item_id', '=', itemId);
  if (q.type) base = base.where('type', '=', q.type);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  let rows = movementsQuery(db, organizationId).where('m.item_id', '=', itemId);
  if (q.type) rows = rows.where('m.type', '=', q.type);
  return {
    rows: await rows.orderBy('m.id', 'desc').$call(onPage(q)).execute(),
    total: Number(n),
  };
}

export function findMovement(db: Db, organizationId: number, id: number) {
  return movementsQuery(db, organizationId).where('m.id', '=', id).executeTakeFirstOrThrow();
}

export async function countMovements(db: Db, itemId: number): Promise<number> {
  const { n } = await db
    .selectFrom('inventory_movements')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('item_id', '=', itemId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** What a result's entry took from each lot and has not yet been given back, per item and lot. */
export async function outstandingForResult(trx: Db, organizationId: number, resultId: number) {
  const rows = await labTable(trx, 'inventory_movements', organizationId)
    .select(['item_id', 'lot_id', 'test_id', sql<number>`sum(quantity)`.as('net')])
    .where('result_id', '=', resultId)
    .where('type', 'in', ['consume', 'return'])
    .groupBy(['item_id', 'lot_id', 'test_id'])
    .execute();
  return rows
    .map((r) => ({ itemId: r.item_id, lotId: r.lot_id, testId: r.test_id, taken: -Number(r.net) }))
    .filter((r) => r.taken > 0);
}

// ---- Consumption per test ----

/** The lab's consumption per test (`c`): where both of its readers, by item and by test, start. */
function consumption(db: Db, organizationId: number) {
  return db.selectFrom('test_consumption as c').where('c.organization_id', '=', organizationId);
}

export function usageOfItem(db: Db, organizationId: number, itemId: number) {
  return consumption(db, organizationId)
    .innerJoin('tests as t', 't.id', 'c.test_id')
    .select(['c.test_id', 't.code as test_code', 't.name as test_name', 'c.quantity'])
    .where('c.item_id', '=', itemId)
    .orderBy('t.name')
    .execute();
}

/** The live items one run of a test uses. */
export function usageOfTest(db: Db, organizationId: number, testId: number) {
  return consumption(db, organizationId)
    .innerJoin('inventory_items as i', 'i.id', 'c.item_id')
    .select(['c.item_id', 'c.quantity', 'i.item_name', 'i.unit'])
    .where('c.test_id', '=', testId)
    .where('i.archived_at', 'is', null)
    .orderBy('c.item_id')
    .execute();
}

export async function replaceUsage(
  trx: Db,
  organizationId: number,
  itemId: number,
  rows: Insertable<TestConsumptionTable>[],
): Promise<void> {
  await labDelete(trx, 'test_consumption', organizationId).where('item_id', '=', itemId).execute();
  if (rows.length) await trx.insertInto('test_consumption').values(rows).execute();
}

/** The ids among `ids` that are tests of this lab. */
export async function ownTestIds(db: Db, organizationId: number, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await labTable(db, 'tests', organizationId).select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** A page of live items in id order, with their lots' figures: the export's read (constant memory). */
export function itemFullRowsAfter(
  db: Db,
  organizationId: number,
  today: string,
  since: string,
  offset: number,
  limit: number,
) {
  return itemsQuery(db, organizationId, today, since).orderBy('i.id').limit(limit).offset(offset).execute();
}

/** Live items by code (compared case-insensitively, as codeTaken does), keyed by the upper-case code. */
export async function itemRowsByCodes(db: Db, organizationId: number, codes: string[]): Promise<Map<string, ItemRow>> {
  if (!codes.length) return new Map();
  const rows = await labRows(db, 'inventory_items', organizationId)
    .where('archived_at', 'is', null)
    .where(
      sql<string>`upper(item_code)`,
      'in',
      codes.map((c) => c.toUpperCase()),
    )
    .execute();
  return new Map(rows.map((r) => [r.item_code.toUpperCase(), r]));
}
