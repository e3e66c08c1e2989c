import type { Db } from '../db/connection.js';
import { nowIso, type Actor } from '../context.js';
import { diff, writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { isUniqueViolation } from '../db/dialect.js';
import { rupeesToPaise } from '../../shared/money.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import type {
  InventoryCreate,
  InventoryItem,
  InventoryListQuery,
  InventoryPage,
  InventorySummary,
  InventoryUpdate,
  Lot,
  MovementPage,
  Movement,
  Usage,
  UsageUpdate,
} from '../../shared/schemas/inventory.js';
import type { ItemKind } from '../../shared/inventory.js';
import {
  allItems,
  codeTaken,
  countMovements,
  deleteItemRow,
  distinctCategories,
  findItemFull,
  findItemRow,
  findMovement,
  insertItemRow,
  lotsOf,
  ownTestIds,
  replaceUsage,
  selectItemPage,
  selectMovementPage,
  updateItemRow,
  usageOfItem,
} from './repository.js';
import { findSupplier, findSupplierByName, insertSupplier } from './supplier-repository.js';
import { itemAuditValues, toItem, toLot, toMovement, type InventoryDay } from './mappers.js';
import { evaluateItemAlerts, inventoryDay, sweepIfStale } from './alerts.js';
import { applyMovement, recordMovement } from './ledger.js';

async function requireItem(db: Db, organizationId: number, id: number) {
  const row = await findItemRow(db, organizationId, id);
  if (!row) throw new NotFoundError('Inventory item', id);
  return row;
}

async function itemOf(db: Db, organizationId: number, id: number, day: InventoryDay): Promise<InventoryItem> {
  const row = await findItemFull(db, organizationId, id, day.today, day.since);
  if (!row) throw new NotFoundError('Inventory item', id);
  return toItem(row, day);
}

export async function listInventory(db: Db, organizationId: number, q: InventoryListQuery): Promise<InventoryPage> {
  const day = await inventoryDay(db, organizationId);
  const { rows, total } = await selectItemPage(db, organizationId, day.today, day.since, q);
  return { items: rows.map((r) => toItem(r, day)), ...pageEnvelope(total, q.page, q.limit) };
}

export async function getInventoryItem(db: Db, organizationId: number, id: number): Promise<InventoryItem> {
  return itemOf(db, organizationId, id, await inventoryDay(db, organizationId));
}

/** The cards, from every live item of the lab (of one kind, or all). */
export async function inventorySummary(db: Db, actor: Actor, kind?: ItemKind): Promise<InventorySummary> {
  await sweepIfStale(db, actor);
  const day = await inventoryDay(db, actor.organizationId);
  const items = (await allItems(db, actor.organizationId, day.today, day.since, kind)).map((r) => toItem(r, day));
  return {
    total_items: items.length,
    // One meaning on every screen (src/shared/figures.ts): low at or below the minimum, out of stock
    // (nothing usable, expired lots left aside) included; out of stock is a part of it.
    low_stock: items.filter((i) => i.stock_status === 'low_stock' || i.usable_stock <= 0).length,
    out_of_stock: items.filter((i) => i.usable_stock <= 0).length,
    active_items: items.filter((i) => i.status === 'active').length,
    total_value: Math.round(items.reduce((n, i) => n + i.total_value * 100, 0)) / 100,
    expiring_soon: items.filter((i) => i.expiry_state === 'expiring_soon').length,
    expired: items.filter((i) => i.expiry_state === 'expired').length,
    reorder_due: items.filter((i) => i.reorder !== null).length,
    categories: await distinctCategories(db, actor.organizationId, kind),
  };
}

/** The supplier an item names: by id (of this lab), else by name (added to the register when new). */
async function resolveSupplier(
  trx: Db,
  actor: Actor,
  input: { supplier_id?: number | null; supplier?: string | null },
): Promise<number | null | undefined> {
  if (input.supplier_id != null) {
    if (!(await findSupplier(trx, actor.organizationId, input.supplier_id)))
      throw ValidationError.field('supplier_id', `Unknown supplier ${input.supplier_id}`);
    return input.supplier_id;
  }
  if (input.supplier_id === null) return null;
  if (input.supplier === undefined) return undefined;
  if (input.supplier === null) return null;
  const found = await findSupplierByName(trx, actor.organizationId, input.supplier);
  if (found) return found.id;
  const now = nowIso();
  const created = await insertSupplier(trx, {
    organization_id: actor.organizationId,
    name: input.supplier,
    contact_person: null,
    phone: null,
    email: null,
    gstin: null,
    lead_time_days: null,
    created_at: now,
    updated_at: now,
  });
  await writeAudit(trx, actor, { action: 'create', entity: 'supplier', entityId: created.id, newValues: created });
  return created.id;
}

const codeConflict = (code: string) =>
  new ConflictError(`An inventory item with code ${code} already exists`, 'ITEM_CODE_TAKEN');

/** Inside an open transaction: the item, its opening stock received as a first lot, audited. Answers the id. */
export async function insertInventoryItem(
  trx: Db,
  actor: Actor,
  input: InventoryCreate,
  day: InventoryDay,
): Promise<number> {
  if (await codeTaken(trx, actor.organizationId, input.item_code)) throw codeConflict(input.item_code);
  if (input.expiry_date && input.current_stock === 0)
    throw ValidationError.field(
      'expiry_date',
      'An expiry date belongs to stock: enter the opening stock too, or receive a lot later',
    );
  const supplierId = (await resolveSupplier(trx, actor, input)) ?? null;
  const now = nowIso();
  const row = await insertItemRow(trx, {
    organization_id: actor.organizationId,
    item_code: input.item_code,
    item_name: input.item_name,
    kind: input.kind,
    category: input.category,
    unit: input.unit,
    current_stock: 0,
    minimum_stock: input.minimum_stock,
    maximum_stock: input.maximum_stock ?? null,
    unit_cost_paise: rupeesToPaise(input.unit_cost),
    supplier_id: supplierId,
    status: input.status,
    catalog_number: input.catalog_number ?? null,
    storage_temp: input.storage_temp ?? null,
    last_used_at: null,
    archived_at: null,
    created_at: now,
    updated_at: now,
  });
  await writeAudit(trx, actor, {
    action: 'create',
    entity: 'inventory_item',
    entityId: row.id,
    newValues: itemAuditValues({ ...row, current_stock: input.current_stock }),
  });
  if (input.current_stock > 0) {
    await applyMovement(
      trx,
      actor,
      row.id,
      {
        type: 'receive',
        quantity: input.current_stock,
        lot_number: input.lot_number ?? null,
        expiry_date: input.expiry_date ?? null,
        reason: 'Opening stock',
        allow_expired: false,
        rejected: false,
      },
      day,
    );
  } else {
    await evaluateItemAlerts(trx, actor, row.id, day);
  }
  return row.id;
}

export async function createInventoryItem(db: Db, actor: Actor, input: InventoryCreate): Promise<InventoryItem> {
  const day = await inventoryDay(db, actor.organizationId);
  try {
    const id = await db.transaction().execute((trx) => insertInventoryItem(trx, actor, input, day));
    return itemOf(db, actor.organizationId, id, day);
  } catch (err) {
    if (isUniqueViolation(err)) throw codeConflict(input.item_code);
    throw err;
  }
}

/**
 * Inside an open transaction: changes the given fields. A new current_stock is an adjust movement
 * of the difference with its reason (the ledger explains every unit); expiry is the lots' and is
 * not edited here.
 */
export async function applyInventoryUpdate(
  trx: Db,
  actor: Actor,
  id: number,
  input: InventoryUpdate,
  day: InventoryDay,
): Promise<void> {
  const before = await requireItem(trx, actor.organizationId, id);
  if (input.item_code !== undefined && (await codeTaken(trx, actor.organizationId, input.item_code, id)))
    throw codeConflict(input.item_code);
  const minimum = input.minimum_stock ?? before.minimum_stock;
  const maximum = input.maximum_stock === undefined ? before.maximum_stock : input.maximum_stock;
  if (maximum !== null && maximum <= minimum)
    throw ValidationError.field('maximum_stock', 'Maximum stock must be more than the minimum');
  const change = input.current_stock === undefined ? 0 : input.current_stock - before.current_stock;
  if (change !== 0 && !input.stock_reason)
    throw ValidationError.field(
      'stock_reason',
      'A reason is required to change the stock (it is recorded as an adjustment)',
    );
  const supplierId = await resolveSupplier(trx, actor, input);
  await updateItemRow(trx, id, {
    ...(input.item_code !== undefined && { item_code: input.item_code }),
    ...(input.item_name !== undefined && { item_name: input.item_name }),
    ...(input.kind !== undefined && { kind: input.kind }),
    ...(input.category !== undefined && { category: input.category }),
    ...(input.unit !== undefined && { unit: input.unit }),
    minimum_stock: minimum,
    maximum_stock: maximum,
    ...(input.unit_cost !== undefined && { unit_cost_paise: rupeesToPaise(input.unit_cost) }),
    ...(supplierId !== undefined && { supplier_id: supplierId }),
    ...(input.status !== undefined && { status: input.status }),
    ...(input.catalog_number !== undefined && { catalog_number: input.catalog_number ?? null }),
    ...(input.storage_temp !== undefined && { storage_temp: input.storage_temp ?? null }),
    updated_at: nowIso(),
  });
  const mid = (await findItemRow(trx, actor.organizationId, id))!;
  const { oldValues, newValues } = diff(itemAuditValues(before), itemAuditValues(mid));
  if (Object.keys(newValues).length)
    await writeAudit(trx, actor, { action: 'update', entity: 'inventory_item', entityId: id, oldValues, newValues });
  if (change !== 0) {
    await applyMovement(
      trx,
      actor,
      id,
      { type: 'adjust', quantity: change, reason: input.stock_reason, allow_expired: false, rejected: false },
      day,
    );
  } else {
    await evaluateItemAlerts(trx, actor, id, day);
  }
}

export async function updateInventoryItem(
  db: Db,
  actor: Actor,
  id: number,
  input: InventoryUpdate,
): Promise<InventoryItem> {
  const day = await inventoryDay(db, actor.organizationId);
  try {
    await db.transaction().execute((trx) => applyInventoryUpdate(trx, actor, id, input, day));
  } catch (err) {
    if (isUniqueViolation(err) && input.item_code) throw codeConflict(input.item_code);
    throw err;
  }
  return itemOf(db, actor.organizationId, id, day);
}

/**
 * Deletes an item. One with a ledger is archived: it leaves every list and GET answers 404, its
 * open alerts resolve and its test mappings go, while its movements stay for the audit trail.
 */
export async function deleteInventoryItem(db: Db, actor: Actor, id: number): Promise<InventoryItem> {
  const day = await inventoryDay(db, actor.organizationId);
  const item = await itemOf(db, actor.organizationId, id, day);
  await db.transaction().execute(async (trx) => {
    const row = await requireItem(trx, actor.organizationId, id);
    await replaceUsage(trx, actor.organizationId, id, []);
    const archived = (await countMovements(trx, id)) > 0;
    // Its open alerts resolve (an item that leaves the lists has nothing to warn of).
    await updateItemRow(trx, id, { status: 'inactive' });
    await evaluateItemAlerts(trx, actor, id, day);
    if (archived) await updateItemRow(trx, id, { status: row.status, archived_at: nowIso(), updated_at: nowIso() });
    else await deleteItemRow(trx, id);
    await writeAudit(trx, actor, {
      action: 'delete',
      entity: 'inventory_item',
      entityId: id,
      oldValues: itemAuditValues(row),
      newValues: archived ? { archived: true } : null,
    });
  });
  return item;
}

export async function listLots(db: Db, organizationId: number, id: number): Promise<Lot[]> {
  await requireItem(db, organizationId, id);
  const day = await inventoryDay(db, organizationId);
  return (await lotsOf(db, id)).map((l) => toLot(l, day));
}

export async function listMovements(
  db: Db,
  organizationId: number,
  id: number,
  q: { page: number; limit: number; type?: string },
): Promise<MovementPage> {
  await requireItem(db, organizationId, id);
  const { rows, total } = await selectMovementPage(db, organizationId, id, q);
  return { movements: rows.map(toMovement), ...pageEnvelope(total, q.page, q.limit) };
}

export async function postMovement(
  db: Db,
  actor: Actor,
  id: number,
  input: Parameters<typeof recordMovement>[3],
): Promise<{ movements: Movement[]; item: InventoryItem }> {
  const ids = await recordMovement(db, actor, id, input);
  const movements: Movement[] = [];
  for (const m of ids) movements.push(toMovement(await findMovement(db, actor.organizationId, m)));
  return { movements, item: await getInventoryItem(db, actor.organizationId, id) };
}

export async function itemUsage(db: Db, organizationId: number, id: number): Promise<Usage[]> {
  await requireItem(db, organizationId, id);
  return (await usageOfItem(db, organizationId, id)).map((u) => ({ ...u, quantity: Number(u.quantity) }));
}

/** Replaces the tests that use this item and how much one run of each takes. */
export async function setItemUsage(db: Db, actor: Actor, id: number, input: UsageUpdate): Promise<Usage[]> {
  await db.transaction().execute(async (trx) => {
    await requireItem(trx, actor.organizationId, id);
    const own = await ownTestIds(
      trx,
      actor.organizationId,
      input.usage.map((u) => u.test_id),
    );
    input.usage.forEach((u, i) => {
      if (!own.has(u.test_id)) throw ValidationError.field(`usage.${i}.test_id`, `Unknown test ${u.test_id}`);
    });
    const before = await usageOfItem(trx, actor.organizationId, id);
    await replaceUsage(
      trx,
      actor.organizationId,
      id,
      input.usage.map((u) => ({
        organization_id: actor.organizationId,
        test_id: u.test_id,
        item_id: id,
        quantity: u.quantity,
      })),
    );
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'inventory_item',
      entityId: id,
      oldValues: { test_usage: before.map((u) => ({ test_id: u.test_id, quantity: Number(u.quantity) })) },
      newValues: { test_usage: input.usage },
    });
  });
  return itemUsage(db, actor.organizationId, id);
}

export { consumeForResult, returnForResult } from './ledger.js';

/** What the import and export engine (transfer/) writes and reads through. */
export { applySupplierUpdate, insertSupplierRecord, listSuppliers } from './suppliers.js';
export { inventoryDay } from './alerts.js';
export { toItem } from './mappers.js';
