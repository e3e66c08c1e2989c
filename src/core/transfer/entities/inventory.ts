import { z } from 'zod';
import { ITEM_KINDS, ITEM_STATUSES } from '../../../shared/inventory.js';
import {
  inventoryCreateSchema,
  inventoryUpdateSchema,
  type InventoryCreate,
  type InventoryUpdate,
} from '../../../shared/schemas/inventory.js';
import { applyInventoryUpdate, insertInventoryItem, inventoryDay, toItem } from '../../inventory/service.js';
import { itemFullRowsAfter, itemRowsByCodes, type ItemRow } from '../../inventory/repository.js';
import type { TransferColumn, TransferEntity } from '../entity.js';
import { keepKey, oneOf, upperKey } from './common.js';

/**
 * Inventory items, reagents and consumables, keyed by item code. A new item's
 * current_stock is received as its opening lot (a `receive` movement, the ledger's first line),
 * with the row's expiry_date and lot_number, exactly as creating the item on the screen does; a
 * changed current_stock on --update is an `adjust` movement of the difference, with the row's
 * stock_reason or "Stock count imported". The supplier is named (a new name joins the register).
 * An export row carries the item's whole stock as one figure and the earliest expiry of its lots:
 * imported elsewhere, that stock is one lot with that expiry (the safe side).
 */

const columns: TransferColumn[] = [
  { name: 'item_code' },
  { name: 'item_name' },
  { name: 'kind' },
  { name: 'category' },
  { name: 'unit' },
  { name: 'current_stock', kind: 'number' },
  { name: 'minimum_stock', kind: 'number' },
  { name: 'maximum_stock', kind: 'number' },
  { name: 'unit_cost', kind: 'number' },
  { name: 'supplier' },
  { name: 'status' },
  { name: 'catalog_number' },
  { name: 'storage_temp' },
  { name: 'expiry_date', kind: 'date' },
  { name: 'lot_number' },
  { name: 'stock_reason' },
  { name: 'usable_stock', kind: 'number', readOnly: true },
  { name: 'total_value', kind: 'number', readOnly: true },
  { name: 'stock_status', readOnly: true },
];

const createSchema = inventoryCreateSchema as unknown as z.ZodType<InventoryCreate>;
const updateSchema = inventoryUpdateSchema as unknown as z.ZodType<Partial<InventoryCreate>>;

type Plan = { row: number; id: number | null; input: InventoryCreate | InventoryUpdate };

export const inventory: TransferEntity<InventoryCreate, ItemRow, Plan> = {
  name: 'inventory',
  label: 'inventory item',
  auditEntity: 'inventory_item',
  columns,
  key: 'item_code',
  normalizeKey: upperKey,
  requiredColumns: ['item_code', 'item_name', 'category', 'unit'],
  createSchema,
  updateSchema,
  batchSize: 200,

  findExisting: (ctx, keys) => itemRowsByCodes(ctx.db, ctx.organizationId, keys),

  // What the ledger would refuse on storing, said for every row at once (not only after the rest is good).
  plan: async (ctx, rows) =>
    rows.map((r) => {
      const i = r.input;
      if (!r.existing && i.expiry_date && i.current_stock > 0 && i.expiry_date < ctx.today)
        return {
          row: r.row,
          errors: [
            {
              column: 'expiry_date',
              message: `${i.expiry_date} is past: expired stock cannot be received (write it off, or leave it out of the file)`,
            },
          ],
        };
      return {
        row: r.row,
        plan: { row: r.row, id: r.existing?.id ?? null, input: keepKey(i, r.existing, 'item_code') },
      };
    }),

  async write(ctx, plans) {
    const day = await inventoryDay(ctx.db, ctx.organizationId);
    let inserted = 0;
    let updated = 0;
    for (const p of plans) {
      const done = await ctx.attempt(p.row, async () => {
        if (p.id === null) await insertInventoryItem(ctx.db, ctx.actor, p.input as InventoryCreate, day);
        else {
          const input = p.input as InventoryUpdate;
          await applyInventoryUpdate(
            ctx.db,
            ctx.actor,
            p.id,
            { ...input, stock_reason: input.stock_reason ?? 'Stock count imported' },
            day,
          );
        }
        return true;
      });
      if (done && p.id === null) inserted += 1;
      else if (done) updated += 1;
    }
    return { inserted, updated };
  },

  filters: {
    kind: oneOf(ITEM_KINDS),
    status: oneOf(ITEM_STATUSES),
    category: z.string().trim().min(1).max(100),
  },
  async *exportPages(db, organizationId, q) {
    const day = await inventoryDay(db, organizationId);
    for (let offset = 0; ; offset += 500) {
      const rows = await itemFullRowsAfter(db, organizationId, day.today, day.since, offset, 500);
      const page = rows
        .map((r) => toItem(r, day))
        .filter((i) => !q.where.kind || i.kind === q.where.kind)
        .filter((i) => !q.where.status || i.status === q.where.status)
        .filter((i) => !q.where.category || i.category.toLowerCase() === String(q.where.category).toLowerCase())
        .map((i) =>
          Object.fromEntries(
            columns.map((c) => [
              c.name,
              c.name === 'lot_number' || c.name === 'stock_reason' ? null : i[c.name as keyof typeof i],
            ]),
          ),
        );
      if (page.length) yield page;
      if (rows.length < 500) return;
    }
  },
};
