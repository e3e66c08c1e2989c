import { z } from 'zod';
import { isoDate, optionalText, pageQuery, pagedShape, requiredText, rupeeAmount, strictNumber } from './common.js';
import {
  CONSUMABLE_STATUSES,
  EXPIRY_STATES,
  ITEM_STATUSES,
  MOVEMENT_TYPES,
  REAGENT_STATUSES,
  STOCK_LEVELS,
  STOCK_STATUSES,
} from '../inventory.js';
import { blankIsAll, blankIsNull, DEFAULT_INVENTORY_PAGE_SIZE, itemKind, wholeUnits } from './inventory-fields.js';

/**
 * Inventory Management, reagents, consumables and stock alerts (spec 001 sections 3, 4,
 * 5 and 7): items, the ledger and consumption per test here; suppliers.ts and stock-alerts.ts
 * are re-exported. Stock is whole units of the item's unit; money is rupees. See
 * docs/decisions.md, "Inventory and stock alerts".
 */
export { DEFAULT_INVENTORY_PAGE_SIZE, INVENTORY_PAGE_SIZES } from './inventory-fields.js';
export * from './suppliers.js';
export * from './stock-alerts.js';

const itemStatus = z.enum(ITEM_STATUSES, { error: `status must be one of ${ITEM_STATUSES.join(', ')}` });
const positiveId = (label: string) =>
  strictNumber(
    z
      .number({ error: `${label} must be a number` })
      .int(`${label} must be a whole number`)
      .positive(`${label} must be positive`),
  );

const codeText = requiredText('Item code', 40).refine(
  (v) => /^[A-Za-z0-9][A-Za-z0-9 ._/-]*$/.test(v),
  'Item code may contain only letters, digits, spaces, dots, slashes, underscores and hyphens',
);

const itemFields = {
  item_code: codeText,
  item_name: requiredText('Item name', 200),
  kind: itemKind,
  category: requiredText('Category', 100),
  unit: requiredText('Unit', 30),
  minimum_stock: wholeUnits('Minimum stock'),
  maximum_stock: z.preprocess(blankIsNull, wholeUnits('Maximum stock').nullable()),
  unit_cost: rupeeAmount('Unit cost', 10_000_000),
  /** The supplier by its register id, or (the spec's field) by name: a new name is added to the register. */
  supplier_id: z.preprocess(blankIsNull, positiveId('supplier_id').nullable()),
  supplier: optionalText(200, 'Supplier'),
  status: itemStatus,
  catalog_number: optionalText(60, 'Catalogue number'),
  storage_temp: optionalText(60, 'Storage temperature'),
};

function maxOverMin(v: { minimum_stock?: number; maximum_stock?: number | null }, ctx: z.RefinementCtx) {
  if (v.maximum_stock != null && v.minimum_stock !== undefined && v.maximum_stock <= v.minimum_stock)
    ctx.addIssue({ code: 'custom', path: ['maximum_stock'], message: 'Maximum stock must be more than the minimum' });
}

/** The create body: the spec's full field set. Opening stock is received as a first lot (the ledger's first line). */
export const inventoryCreateFields = z.object({
  ...itemFields,
  kind: itemKind.default('general'),
  minimum_stock: itemFields.minimum_stock.default(0),
  maximum_stock: itemFields.maximum_stock.optional(),
  unit_cost: itemFields.unit_cost.default(0),
  supplier_id: itemFields.supplier_id.optional(),
  status: itemStatus.default('active'),
  current_stock: wholeUnits('Current stock').default(0),
  /** The opening lot's expiry (and lot number), when there is opening stock. */
  expiry_date: z.preprocess(blankIsNull, isoDate('Expiry date').nullable().optional()),
  lot_number: optionalText(60, 'Lot number'),
});
export const inventoryCreateSchema = inventoryCreateFields.superRefine(maxOverMin);
export type InventoryCreate = z.infer<typeof inventoryCreateSchema>;
export type InventoryCreateInput = z.input<typeof inventoryCreateSchema>;

/**
 * PUT takes any subset; what GET returned is accepted (computed fields are dropped). A new
 * current_stock is recorded as an adjust movement of the difference, with `stock_reason`.
 */
export const inventoryUpdateSchema = z
  .object({
    ...itemFields,
    current_stock: wholeUnits('Current stock'),
    stock_reason: optionalText(300, 'Reason'),
  })
  .partial()
  .superRefine(maxOverMin);
export type InventoryUpdate = z.infer<typeof inventoryUpdateSchema>;
export type InventoryUpdateInput = z.input<typeof inventoryUpdateSchema>;

export const inventoryListQuery = pageQuery.extend({
  limit: pageQuery.shape.limit.default(DEFAULT_INVENTORY_PAGE_SIZE),
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
  category: z.preprocess(blankIsAll, z.string().trim().max(100, 'category must be at most 100 characters').optional()),
  status: z.preprocess(blankIsAll, itemStatus.optional()),
  stock_status: z.preprocess(
    blankIsAll,
    z.enum(STOCK_STATUSES, { error: `stock_status must be one of ${STOCK_STATUSES.join(', ')}` }).optional(),
  ),
  kind: z.preprocess(blankIsAll, itemKind.optional()),
});
export type InventoryListQuery = z.infer<typeof inventoryListQuery>;

export const reorderSchema = z.object({
  quantity: z.number().int(),
  order_by: z.string(),
  supplier: z.string().nullable(),
  lead_time_days: z.number().int(),
});

export const inventoryItemSchema = z.object({
  id: z.number().int(),
  item_code: z.string(),
  item_name: z.string(),
  kind: itemKind,
  category: z.string(),
  unit: z.string(),
  /** Every unit on hand (the sum of the lots), expired lots included. */
  current_stock: z.number().int(),
  /** Units in lots that have not expired: what consumption can take. */
  usable_stock: z.number().int(),
  minimum_stock: z.number().int(),
  maximum_stock: z.number().int().nullable(),
  unit_cost: z.number(),
  /** current_stock x unit_cost, rupees. */
  total_value: z.number(),
  supplier_id: z.number().int().nullable(),
  supplier: z.string().nullable(),
  /** The earliest expiry of the lots that hold stock. */
  expiry_date: z.string().nullable(),
  status: itemStatus,
  stock_status: z.enum(STOCK_STATUSES),
  reagent_status: z.enum(REAGENT_STATUSES),
  consumable_status: z.enum(CONSUMABLE_STATUSES),
  expiry_state: z.enum(EXPIRY_STATES),
  stock_level: z.enum(STOCK_LEVELS),
  catalog_number: z.string().nullable(),
  storage_temp: z.string().nullable(),
  last_used: z.string().nullable(),
  /** Units consumed per day over the last 30 days. */
  daily_usage: z.number(),
  /** Days the usable stock lasts at that rate; null when nothing was used. */
  days_left: z.number().int().nullable(),
  /** What to order, from whom and by when; null when no order is due. */
  reorder: reorderSchema.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type InventoryItem = z.infer<typeof inventoryItemSchema>;

export const inventoryPageSchema = z.object({ items: z.array(inventoryItemSchema), ...pagedShape });
export type InventoryPage = z.infer<typeof inventoryPageSchema>;

export const inventorySummaryQuery = z.object({ kind: z.preprocess(blankIsAll, itemKind.optional()) });

/** The cards: counts and value of the lab's items (of one kind, or all), from the server. */
export const inventorySummarySchema = z.object({
  total_items: z.number().int(),
  low_stock: z.number().int(),
  out_of_stock: z.number().int(),
  active_items: z.number().int(),
  /** Sum of current_stock x unit_cost, rupees. */
  total_value: z.number(),
  expiring_soon: z.number().int(),
  expired: z.number().int(),
  reorder_due: z.number().int(),
  categories: z.array(z.string()),
});
export type InventorySummary = z.infer<typeof inventorySummarySchema>;

// ---- The ledger ----

export const movementCreateSchema = z
  .object({
    type: z.enum(MOVEMENT_TYPES, { error: `type must be one of ${MOVEMENT_TYPES.join(', ')}` }),
    /** Units; negative only for an adjust that lowers the stock. */
    quantity: strictNumber(
      z
        .number({ error: 'quantity must be a number' })
        .int('quantity must be a whole number')
        .refine((n) => n !== 0, 'quantity cannot be 0')
        .refine((n) => Math.abs(n) <= 1_000_000_000, 'quantity is too large'),
    ),
    lot_number: optionalText(60, 'Lot number'),
    /** A receipt's expiry date. */
    expiry_date: z.preprocess(blankIsNull, isoDate('Expiry date').nullable().optional()),
    /** A receipt's cost per unit (default the item's). */
    unit_cost: rupeeAmount('Unit cost', 10_000_000).optional(),
    /** The lot to take from or put back into (default: earliest-expiring usable lot). */
    lot_id: z.preprocess(blankIsNull, positiveId('lot_id').nullable().optional()),
    reason: optionalText(300, 'Reason'),
    /** Consume from expired lots too (audited; needs a reason). */
    allow_expired: z.boolean({ error: 'allow_expired must be true or false' }).default(false),
    /** A receipt: the supplier (default the item's) and the day the delivery was due, for supplier performance. */
    supplier_id: z.preprocess(blankIsNull, positiveId('supplier_id').nullable().optional()),
    expected_date: z.preprocess(blankIsNull, isoDate('Expected date').nullable().optional()),
    /** A receipt refused at the door (damaged, wrong lot): recorded for the supplier, no stock added. */
    rejected: z.boolean({ error: 'rejected must be true or false' }).default(false),
  })
  .superRefine((v, ctx) => {
    if (v.quantity < 0 && v.type !== 'adjust')
      ctx.addIssue({
        code: 'custom',
        path: ['quantity'],
        message: 'quantity must be positive (only an adjust may be negative)',
      });
    if (['adjust', 'waste', 'return'].includes(v.type) && !v.reason)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: `A reason is required for ${v.type}` });
    if (v.allow_expired && !v.reason)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'A reason is required to use an expired lot' });
    if (v.allow_expired && v.type !== 'consume')
      ctx.addIssue({ code: 'custom', path: ['allow_expired'], message: 'allow_expired applies to consume only' });
    if (v.type !== 'receive') {
      for (const f of ['expiry_date', 'expected_date', 'unit_cost', 'supplier_id'] as const)
        if (v[f] != null) ctx.addIssue({ code: 'custom', path: [f], message: `${f} applies to receive only` });
      if (v.rejected) ctx.addIssue({ code: 'custom', path: ['rejected'], message: 'rejected applies to receive only' });
    }
    if (v.type === 'receive' && v.lot_id != null)
      ctx.addIssue({ code: 'custom', path: ['lot_id'], message: 'A receipt names its lot by lot_number' });
    if (v.rejected && !v.reason)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'A reason is required for a rejected delivery' });
  });
export type MovementCreate = z.infer<typeof movementCreateSchema>;
export type MovementCreateInput = z.input<typeof movementCreateSchema>;

export const movementSchema = z.object({
  id: z.number().int(),
  item_id: z.number().int(),
  type: z.enum(MOVEMENT_TYPES),
  /** The change to the stock: positive in, negative out (0 for a rejected delivery). */
  quantity: z.number().int(),
  balance_after: z.number().int(),
  lot_id: z.number().int().nullable(),
  lot_number: z.string().nullable(),
  expiry_date: z.string().nullable(),
  unit_cost: z.number().nullable(),
  reason: z.string().nullable(),
  expired_override: z.boolean(),
  rejected: z.boolean(),
  supplier: z.string().nullable(),
  expected_date: z.string().nullable(),
  /** The result whose entry consumed it (or whose deletion returned it). */
  result_id: z.number().int().nullable(),
  test_name: z.string().nullable(),
  user_id: z.number().int().nullable(),
  user_name: z.string().nullable(),
  created_at: z.string(),
});
export type Movement = z.infer<typeof movementSchema>;

export const movementPageSchema = z.object({ movements: z.array(movementSchema), ...pagedShape });
export type MovementPage = z.infer<typeof movementPageSchema>;

export const movementListQuery = pageQuery.extend({
  type: z.preprocess(
    blankIsAll,
    z.enum(MOVEMENT_TYPES, { error: `type must be one of ${MOVEMENT_TYPES.join(', ')}` }).optional(),
  ),
});

export const lotSchema = z.object({
  id: z.number().int(),
  lot_number: z.string().nullable(),
  expiry_date: z.string().nullable(),
  received_quantity: z.number().int(),
  remaining: z.number().int(),
  unit_cost: z.number(),
  supplier: z.string().nullable(),
  expiry_state: z.enum(EXPIRY_STATES),
  received_at: z.string(),
});
export type Lot = z.infer<typeof lotSchema>;

// ---- Consumption per test ----

export const usageUpdateSchema = z
  .object({
    usage: z
      .array(
        z.object({
          test_id: positiveId('test_id'),
          quantity: wholeUnits('quantity', { min: 1, max: 1_000_000 }),
        }),
        { error: 'usage must be a list' },
      )
      .max(200, 'usage may list at most 200 tests'),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<number>();
    v.usage.forEach((u, i) => {
      if (seen.has(u.test_id))
        ctx.addIssue({ code: 'custom', path: ['usage', i, 'test_id'], message: 'A test is listed twice' });
      seen.add(u.test_id);
    });
  });
export type UsageUpdate = z.infer<typeof usageUpdateSchema>;

export const usageSchema = z.object({
  test_id: z.number().int(),
  test_code: z.string(),
  test_name: z.string(),
  /** Units of the item one run of the test uses. */
  quantity: z.number().int(),
});
export type Usage = z.infer<typeof usageSchema>;
