import type { Insertable } from 'kysely';
import type { Db } from '../db/connection.js';
import { nowIso, type Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { rupeesToPaise } from '../../shared/money.js';
import { chooseLots, chooseLotsForRemoval, type LotTake, type MovementType } from '../../shared/inventory.js';
import type { MovementCreate } from '../../shared/schemas/inventory.js';
import {
  findItemRow,
  findLot,
  findLotByNumber,
  insertLot,
  insertMovement,
  lotsOf,
  outstandingForResult,
  shiftItemStock,
  shiftLot,
  updateItemRow,
  usageOfTest,
  type ItemRow,
} from './repository.js';
import { findSupplier } from './supplier-repository.js';
import { evaluateItemAlerts, inventoryDay } from './alerts.js';
import type { InventoryDay } from './mappers.js';
import type { InventoryMovementsTable } from './tables.js';

/**
 * The ledger: the only way stock moves. Every movement is one row per lot with the signed change
 * and the item's balance after it, written with the lot and item totals in one transaction; the
 * conditional updates (and the tables' CHECKs) refuse any balance below zero, so two consumptions
 * racing for the last units cannot both succeed. The item's alerts are evaluated afterwards in the
 * same transaction.
 */

interface MovementContext {
  resultId?: number | null;
  testId?: number | null;
}

const insufficient = (item: ItemRow, usable: number, wanted: number, expiredToo: boolean) =>
  new ConflictError(
    `${item.item_name}: only ${usable} ${item.unit} ${expiredToo ? 'on hand' : 'usable'}; ${wanted} needed. Stock never goes below zero`,
    'INSUFFICIENT_STOCK',
  );

async function moveLot(
  trx: Db,
  actor: Actor,
  item: ItemRow,
  lotId: number,
  delta: number,
  type: MovementType,
  extra: {
    reason?: string | null;
    expiredOverride?: boolean;
    received?: number;
    unitCostPaise?: number | null;
    supplierId?: number | null;
    expectedDate?: string | null;
  } & MovementContext,
): Promise<number> {
  const now = nowIso();
  if (!(await shiftLot(trx, lotId, delta, extra.received ?? 0)))
    throw new ConflictError(`${item.item_name}: that lot does not hold enough stock`, 'INSUFFICIENT_STOCK');
  if (!(await shiftItemStock(trx, item.id, delta, now)))
    throw new ConflictError(`${item.item_name}: stock never goes below zero`, 'INSUFFICIENT_STOCK');
  const after = (await findItemRow(trx, actor.organizationId, item.id))!;
  return insertAuditedMovement(
    trx,
    actor,
    now,
    {
      item_id: item.id,
      lot_id: lotId,
      type,
      quantity: delta,
      balance_after: after.current_stock,
      unit_cost_paise: extra.unitCostPaise ?? null,
      reason: extra.reason ?? null,
      expired_override: extra.expiredOverride ? 1 : 0,
      rejected: 0,
      supplier_id: extra.supplierId ?? null,
      expected_date: extra.expectedDate ?? null,
      result_id: extra.resultId ?? null,
      test_id: extra.testId ?? null,
    },
    {
      item_id: item.id,
      item_code: item.item_code,
      type,
      quantity: delta,
      lot_id: lotId,
      balance_after: after.current_stock,
      reason: extra.reason ?? null,
      ...(extra.expiredOverride ? { expired_override: true } : {}),
      ...(extra.resultId ? { result_id: extra.resultId } : {}),
    },
  );
}

/** One movement row, by the actor at `now`, and its audit row showing `audited` of it. */
async function insertAuditedMovement(
  trx: Db,
  actor: Actor,
  now: string,
  values: Omit<Insertable<InventoryMovementsTable>, 'organization_id' | 'user_id' | 'created_at'>,
  audited: Record<string, unknown>,
): Promise<number> {
  const row = await insertMovement(trx, {
    organization_id: actor.organizationId,
    ...values,
    user_id: actor.userId,
    created_at: now,
  });
  await writeAudit(trx, actor, {
    action: 'create',
    entity: 'inventory_movement',
    entityId: row.id,
    newValues: audited,
  });
  return row.id;
}

/** The lot stock without an expiry or number goes into when none is named (an adjustment up). */
async function unlottedLot(trx: Db, actor: Actor, item: ItemRow): Promise<number> {
  const existing = await findLotByNumber(trx, item.id, null);
  if (existing && existing.expiry_date === null) return existing.id;
  const lot = await insertLot(trx, {
    organization_id: actor.organizationId,
    item_id: item.id,
    lot_number: null,
    expiry_date: null,
    received_quantity: 0,
    remaining: 0,
    unit_cost_paise: item.unit_cost_paise,
    supplier_id: item.supplier_id,
    received_at: nowIso(),
  });
  return lot.id;
}

async function namedLot(trx: Db, item: ItemRow, lotId: number) {
  const lot = await findLot(trx, item.id, lotId);
  if (!lot) throw ValidationError.field('lot_id', `Lot ${lotId} is not a lot of ${item.item_name}`);
  return lot;
}

async function receive(trx: Db, actor: Actor, item: ItemRow, m: MovementCreate, day: InventoryDay): Promise<number[]> {
  const supplierId = m.supplier_id ?? item.supplier_id;
  if (m.supplier_id != null && !(await findSupplier(trx, actor.organizationId, m.supplier_id)))
    throw ValidationError.field('supplier_id', `Unknown supplier ${m.supplier_id}`);
  const unitCostPaise = m.unit_cost === undefined ? item.unit_cost_paise : rupeesToPaise(m.unit_cost);
  const now = nowIso();
  if (m.rejected) {
    const id = await insertAuditedMovement(
      trx,
      actor,
      now,
      {
        item_id: item.id,
        lot_id: null,
        type: 'receive',
        quantity: 0,
        balance_after: item.current_stock,
        unit_cost_paise: unitCostPaise,
        reason: `Rejected delivery of ${m.quantity} ${item.unit}${m.lot_number ? ` (lot ${m.lot_number})` : ''}: ${m.reason}`,
        expired_override: 0,
        rejected: 1,
        supplier_id: supplierId,
        expected_date: m.expected_date ?? null,
        result_id: null,
        test_id: null,
      },
      { item_id: item.id, type: 'receive', rejected: true, quantity: m.quantity, reason: m.reason },
    );
    return [id];
  }
  if (m.expiry_date && m.expiry_date < day.today)
    throw ValidationError.field('expiry_date', 'This lot has already expired; record it as rejected instead');
  const lotNumber = m.lot_number ?? null;
  let lot = await findLotByNumber(trx, item.id, lotNumber);
  if (lot && (m.expiry_date ?? null) !== lot.expiry_date) {
    if (lotNumber === null) lot = undefined;
    else
      throw ValidationError.field(
        'expiry_date',
        `Lot ${lotNumber} was received with expiry ${lot.expiry_date ?? 'none'}; one lot has one expiry date`,
      );
  }
  const lotId =
    lot?.id ??
    (
      await insertLot(trx, {
        organization_id: actor.organizationId,
        item_id: item.id,
        lot_number: lotNumber,
        expiry_date: m.expiry_date ?? null,
        received_quantity: 0,
        remaining: 0,
        unit_cost_paise: unitCostPaise,
        supplier_id: supplierId,
        received_at: now,
      })
    ).id;
  return [
    await moveLot(trx, actor, item, lotId, m.quantity, 'receive', {
      reason: m.reason,
      received: m.quantity,
      unitCostPaise,
      supplierId,
      expectedDate: m.expected_date ?? null,
    }),
  ];
}

/** Takes `quantity` out: from the named lot, or the lots the rule chooses. */
async function takeOut(
  trx: Db,
  actor: Actor,
  item: ItemRow,
  type: MovementType,
  quantity: number,
  m: Pick<MovementCreate, 'lot_id' | 'allow_expired' | 'reason'>,
  day: InventoryDay,
  ctx: MovementContext,
): Promise<number[]> {
  let takes: LotTake[] | null;
  if (m.lot_id != null) {
    const lot = await namedLot(trx, item, m.lot_id);
    const expired = !!lot.expiry_date && lot.expiry_date < day.today;
    if (type === 'consume' && expired && !m.allow_expired)
      throw new ConflictError(
        `Lot ${lot.lot_number ?? lot.id} of ${item.item_name} expired on ${lot.expiry_date}; it is not used without an override (allow_expired with a reason)`,
        'LOT_EXPIRED',
      );
    if (lot.remaining < quantity) throw insufficient(item, lot.remaining, quantity, true);
    takes = [{ lotId: lot.id, quantity, expired }];
  } else {
    const lots = (await lotsOf(trx, item.id)).map((l) => ({
      id: l.id,
      expiry_date: l.expiry_date,
      remaining: Number(l.remaining),
    }));
    takes =
      type === 'consume'
        ? chooseLots(lots, quantity, day.today, m.allow_expired)
        : chooseLotsForRemoval(lots, quantity, day.today);
    if (!takes) {
      const usable = lots
        .filter((l) => !l.expiry_date || l.expiry_date >= day.today)
        .reduce((n, l) => n + l.remaining, 0);
      const all = lots.reduce((n, l) => n + l.remaining, 0);
      if (type === 'consume' && !m.allow_expired && all >= quantity)
        throw new ConflictError(
          `${item.item_name}: only ${usable} ${item.unit} usable; the rest has expired and is not used without an override`,
          'LOT_EXPIRED',
        );
      throw insufficient(item, type === 'consume' && !m.allow_expired ? usable : all, quantity, type !== 'consume');
    }
  }
  const ids: number[] = [];
  for (const t of takes)
    ids.push(
      await moveLot(trx, actor, item, t.lotId, -t.quantity, type, {
        reason: m.reason,
        expiredOverride: type === 'consume' && t.expired,
        ...ctx,
      }),
    );
  if (type === 'consume') await updateItemRow(trx, item.id, { last_used_at: nowIso() });
  return ids;
}

/** Puts `quantity` back: into the named lot, else the item's unlotted stock. */
async function putIn(
  trx: Db,
  actor: Actor,
  item: ItemRow,
  type: MovementType,
  quantity: number,
  m: Pick<MovementCreate, 'lot_id' | 'reason'>,
  ctx: MovementContext,
): Promise<number[]> {
  const lotId = m.lot_id != null ? (await namedLot(trx, item, m.lot_id)).id : await unlottedLot(trx, actor, item);
  return [await moveLot(trx, actor, item, lotId, quantity, type, { reason: m.reason, ...ctx })];
}

/**
 * Records one movement of an item inside the caller's transaction and evaluates its alerts.
 * Answers the ledger rows written (a consumption spanning two lots writes two).
 */
export async function applyMovement(
  trx: Db,
  actor: Actor,
  itemId: number,
  m: MovementCreate,
  day: InventoryDay,
  ctx: MovementContext = {},
): Promise<number[]> {
  const item = await findItemRow(trx, actor.organizationId, itemId);
  if (!item) throw new NotFoundError('Inventory item', itemId);
  let ids: number[];
  if (m.type === 'receive') ids = await receive(trx, actor, item, m, day);
  else if (m.type === 'consume' || m.type === 'waste' || (m.type === 'adjust' && m.quantity < 0))
    ids = await takeOut(trx, actor, item, m.type, Math.abs(m.quantity), m, day, ctx);
  else ids = await putIn(trx, actor, item, m.type, m.quantity, m, ctx);
  await evaluateItemAlerts(trx, actor, itemId, day);
  return ids;
}

/** POST /api/inventory/{id}/movements: one movement in its own transaction. */
export async function recordMovement(db: Db, actor: Actor, itemId: number, m: MovementCreate): Promise<number[]> {
  const day = await inventoryDay(db, actor.organizationId);
  return db.transaction().execute((trx) => applyMovement(trx, actor, itemId, m, day));
}

/**
 * A result was entered: each item its test uses (Consumption per test) is consumed through the
 * ledger, earliest-expiring usable lot first, in the result's transaction. Not enough usable stock
 * refuses the entry (409) so the ledger never claims stock the lab did not have.
 */
export async function consumeForResult(trx: Db, actor: Actor, resultId: number, testId: number): Promise<void> {
  const uses = await usageOfTest(trx, actor.organizationId, testId);
  if (!uses.length) return;
  if ((await outstandingForResult(trx, actor.organizationId, resultId)).length) return;
  const day = await inventoryDay(trx, actor.organizationId);
  for (const u of uses) {
    await applyMovement(
      trx,
      actor,
      u.item_id,
      { type: 'consume', quantity: u.quantity, allow_expired: false, rejected: false, reason: null },
      day,
      { resultId, testId },
    );
  }
}

/** A result was deleted: what its entry consumed goes back into the lots it came from. */
export async function returnForResult(trx: Db, actor: Actor, resultId: number, why: string): Promise<void> {
  const outstanding = await outstandingForResult(trx, actor.organizationId, resultId);
  if (!outstanding.length) return;
  const day = await inventoryDay(trx, actor.organizationId);
  const touched = new Set<number>();
  for (const o of outstanding) {
    const item = await findItemRow(trx, actor.organizationId, o.itemId);
    if (!item || o.lotId === null) continue; // archived since: its ledger is closed
    await moveLot(trx, actor, item, o.lotId, o.taken, 'return', { reason: why, resultId, testId: o.testId });
    touched.add(item.id);
  }
  for (const id of touched) await evaluateItemAlerts(trx, actor, id, day);
}
