import { z } from 'zod';
import { optionalText, pageQuery, pagedShape } from './common.js';
import { ALERT_PRIORITIES, ALERT_STATUSES, ALERT_TYPES } from '../inventory.js';
import { blankIsAll, DEFAULT_INVENTORY_PAGE_SIZE, itemKind, wholeUnits } from './inventory-fields.js';

/** Stock alerts: low, out of stock, expiring and over the maximum; their list, cards and settings. */

export const alertListQuery = pageQuery.extend({
  limit: pageQuery.shape.limit.default(DEFAULT_INVENTORY_PAGE_SIZE),
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
  status: z.preprocess(
    blankIsAll,
    z.enum(ALERT_STATUSES, { error: `status must be one of ${ALERT_STATUSES.join(', ')}` }).optional(),
  ),
  priority: z.preprocess(
    blankIsAll,
    z.enum(ALERT_PRIORITIES, { error: `priority must be one of ${ALERT_PRIORITIES.join(', ')}` }).optional(),
  ),
  alert_type: z.preprocess(
    blankIsAll,
    z.enum(ALERT_TYPES, { error: `alert_type must be one of ${ALERT_TYPES.join(', ')}` }).optional(),
  ),
  kind: z.preprocess(blankIsAll, itemKind.optional()),
  /** Open: active and acknowledged. */
  open: z.preprocess(blankIsAll, z.enum(['true', 'false'], { error: 'open must be true or false' }).optional()),
});
export type AlertListQuery = z.infer<typeof alertListQuery>;

export const stockAlertSchema = z.object({
  id: z.number().int(),
  item_id: z.number().int(),
  item_name: z.string(),
  item_code: z.string(),
  item_type: itemKind,
  unit: z.string(),
  current_stock: z.number().int(),
  min_threshold: z.number().int(),
  max_threshold: z.number().int().nullable(),
  alert_type: z.enum(ALERT_TYPES),
  priority: z.enum(ALERT_PRIORITIES),
  status: z.enum(ALERT_STATUSES),
  message: z.string(),
  note: z.string().nullable(),
  supplier: z.string().nullable(),
  created_at: z.string(),
  /** When the condition was last confirmed (the spec's lastAlert). */
  last_alert: z.string(),
  acknowledged_by: z.string().nullable(),
  acknowledged_at: z.string().nullable(),
  resolved_at: z.string().nullable(),
});
export type StockAlert = z.infer<typeof stockAlertSchema>;

export const alertPageSchema = z.object({ alerts: z.array(stockAlertSchema), ...pagedShape });
export type AlertPage = z.infer<typeof alertPageSchema>;

export const alertUpdateSchema = z
  .object({
    status: z.enum(ALERT_STATUSES, { error: `status must be one of ${ALERT_STATUSES.join(', ')}` }).optional(),
    note: optionalText(500, 'Note'),
  })
  .refine((v) => v.status !== undefined || v.note !== undefined, {
    path: ['status'],
    message: 'Give a status or a note',
  });
export type AlertUpdate = z.infer<typeof alertUpdateSchema>;

export const alertSummarySchema = z.object({
  active: z.number().int(),
  acknowledged: z.number().int(),
  critical: z.number().int(),
  resolved_last_30_days: z.number().int(),
  by_type: z.array(z.object({ alert_type: z.enum(ALERT_TYPES), open: z.number().int() })),
  /** Alerts raised per week, oldest first (the lab's weeks from Monday), for the last 8 weeks. */
  trend: z.array(z.object({ week_start: z.string(), raised: z.number().int(), resolved: z.number().int() })),
});
export type AlertSummary = z.infer<typeof alertSummarySchema>;

export const alertSettingsSchema = z.object({
  expiry_warning_days: wholeUnits('Expiry warning days', { min: 1, max: 365 }),
  approaching_margin_percent: wholeUnits('Approaching-minimum margin', { max: 100 }),
});
export type AlertSettings = z.infer<typeof alertSettingsSchema>;
export const alertSettingsUpdateSchema = alertSettingsSchema.partial();
