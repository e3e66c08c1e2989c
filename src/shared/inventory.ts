/**
 * Inventory's pure rules (spec 001, sections 4 and 5): the computed statuses of items, reagents and
 * consumables, the alert conditions and the lot a consumption takes. Shared by the server (which
 * answers them) and the UI (which only shows what the server answered). Quantities are whole units
 * (the spec parses stock values as integers); dates are YYYY-MM-DD in the lab's time zone.
 */
import { addDays } from './time.js';

export const ITEM_KINDS = ['general', 'reagent', 'consumable'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

export const ITEM_STATUSES = ['active', 'inactive', 'discontinued'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

export const STOCK_STATUSES = ['in_stock', 'low_stock', 'overstocked'] as const;
export type StockStatus = (typeof STOCK_STATUSES)[number];

export const REAGENT_STATUSES = ['in_stock', 'low_stock', 'out_of_stock', 'expired'] as const;
export type ReagentStatus = (typeof REAGENT_STATUSES)[number];

export const CONSUMABLE_STATUSES = ['in_stock', 'low_stock', 'out_of_stock', 'reorder'] as const;
export type ConsumableStatus = (typeof CONSUMABLE_STATUSES)[number];

export const EXPIRY_STATES = ['expired', 'expiring_soon', 'good'] as const;
export type ExpiryState = (typeof EXPIRY_STATES)[number];

export const STOCK_LEVELS = ['low', 'normal', 'high'] as const;
export type StockLevel = (typeof STOCK_LEVELS)[number];

export const MOVEMENT_TYPES = ['receive', 'consume', 'adjust', 'waste', 'return'] as const;
export type MovementType = (typeof MOVEMENT_TYPES)[number];

export const ALERT_TYPES = ['low_stock', 'out_of_stock', 'approaching_minimum', 'expiry_warning', 'overstock'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export const ALERT_PRIORITIES = ['critical', 'high', 'medium', 'low'] as const;
export type AlertPriority = (typeof ALERT_PRIORITIES)[number];

export const ALERT_STATUSES = ['active', 'acknowledged', 'resolved'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** The spec's "expiring soon within 30 days": the default of the lab's expiry warning days. */
export const DEFAULT_EXPIRY_WARNING_DAYS = 30;
/** Approaching minimum: stock above the minimum by at most this percentage of it (default). */
export const DEFAULT_APPROACHING_MARGIN_PERCENT = 20;
/** The spec's consumable level "high at 80% of maximum". */
export const HIGH_LEVEL_FRACTION = 0.8;
/** Days of consumption the rate is measured over (days of stock left, reorder recommendations). */
export const RATE_WINDOW_DAYS = 30;
/** Lead time assumed for an item without a supplier (or a supplier without one). */
export const DEFAULT_LEAD_TIME_DAYS = 7;

/** Inventory Management's stock status: low at or below minimum, overstocked at or above maximum. */
export function stockStatus(current: number, minimum: number, maximum: number | null): StockStatus {
  if (current <= minimum) return 'low_stock';
  if (maximum !== null && current >= maximum) return 'overstocked';
  return 'in_stock';
}

/** Expired once the date is past (the expiry day itself is still usable); expiring soon within `warnDays`. */
export function expiryState(expiry: string | null, today: string, warnDays = DEFAULT_EXPIRY_WARNING_DAYS): ExpiryState {
  if (!expiry) return 'good';
  if (expiry < today) return 'expired';
  if (expiry <= addDays(today, warnDays)) return 'expiring_soon';
  return 'good';
}

export interface StockFigures {
  /** Every unit on hand, expired lots included. */
  current: number;
  /** Units in lots that are not expired. */
  usable: number;
  minimum: number;
  maximum: number | null;
  /** The earliest expiry of the lots that hold stock. */
  earliestExpiry: string | null;
}

/** Reagent status: nothing on hand, else stock past its expiry, else at or below minimum. */
export function reagentStatus(f: StockFigures, today: string): ReagentStatus {
  if (f.current <= 0) return 'out_of_stock';
  if (expiryState(f.earliestExpiry, today) === 'expired') return 'expired';
  if (f.usable <= f.minimum) return 'low_stock';
  return 'in_stock';
}

/** The stock at or below which an item is "approaching minimum" (and a consumable is due for reorder). */
export function reorderPoint(minimum: number, marginPercent = DEFAULT_APPROACHING_MARGIN_PERCENT): number {
  return minimum + Math.ceil((minimum * marginPercent) / 100);
}

/** Consumable status: out of stock, low at or below minimum, reorder up to the reorder point. */
export function consumableStatus(
  f: Pick<StockFigures, 'usable' | 'minimum'>,
  marginPercent = DEFAULT_APPROACHING_MARGIN_PERCENT,
): ConsumableStatus {
  if (f.usable <= 0) return 'out_of_stock';
  if (f.usable <= f.minimum) return 'low_stock';
  if (f.usable <= reorderPoint(f.minimum, marginPercent)) return 'reorder';
  return 'in_stock';
}

/** Consumable level: low at or below minStock, high at 80% of maxStock or more, else normal. */
export function stockLevel(quantity: number, minimum: number, maximum: number | null): StockLevel {
  if (quantity <= minimum) return 'low';
  if (maximum !== null && maximum > 0 && quantity >= HIGH_LEVEL_FRACTION * maximum) return 'high';
  return 'normal';
}

export interface AlertCondition {
  type: AlertType;
  priority: AlertPriority;
  message: string;
}

/**
 * The alerts an item's stock and dates call for now (at most one per type). Stock alerts read the
 * usable stock (expired lots cannot be used): out of stock at 0 (critical), low at or below the
 * minimum (high), approaching up to the reorder point (medium), overstock at or above the maximum
 * (low). Expiry: stock already past its date is critical, stock expiring within the warning days medium.
 */
export function alertConditions(
  f: StockFigures & { unit: string },
  today: string,
  settings: {
    expiryWarningDays: number;
    approachingMarginPercent: number;
    /** An expiry day as the lab writes dates (DD/MM/YYYY by default); the message is read by people. */
    formatDay?: (ymd: string) => string;
  },
): AlertCondition[] {
  const out: AlertCondition[] = [];
  const u = (n: number) => `${n} ${f.unit}`;
  if (f.usable <= 0) out.push({ type: 'out_of_stock', priority: 'critical', message: 'No usable stock left' });
  else if (f.usable <= f.minimum)
    out.push({
      type: 'low_stock',
      priority: 'high',
      message: `${u(f.usable)} left, at or below the minimum of ${u(f.minimum)}`,
    });
  else if (f.usable <= reorderPoint(f.minimum, settings.approachingMarginPercent))
    out.push({
      type: 'approaching_minimum',
      priority: 'medium',
      message: `${u(f.usable)} left, approaching the minimum of ${u(f.minimum)}`,
    });
  if (f.maximum !== null && f.current >= f.maximum)
    out.push({
      type: 'overstock',
      priority: 'low',
      message: `${u(f.current)} on hand, at or above the maximum of ${u(f.maximum)}`,
    });
  const expiry = expiryState(f.earliestExpiry, today, settings.expiryWarningDays);
  const day = settings.formatDay ?? ((ymd: string) => ymd);
  if (f.current > 0 && expiry === 'expired')
    out.push({ type: 'expiry_warning', priority: 'critical', message: `Stock expired on ${day(f.earliestExpiry!)}` });
  else if (f.current > 0 && expiry === 'expiring_soon')
    out.push({ type: 'expiry_warning', priority: 'medium', message: `Stock expires on ${day(f.earliestExpiry!)}` });
  return out;
}

export interface LotStock {
  id: number;
  expiry_date: string | null;
  remaining: number;
}

export interface LotTake {
  lotId: number;
  quantity: number;
  expired: boolean;
}

/**
 * Which lots a consumption of `quantity` takes: the earliest-expiring usable lots first (a lot
 * without an expiry last, older lots before newer on a tie); expired lots only with `allowExpired`,
 * and then after every usable lot. Null when the lots cannot cover the quantity.
 */
export function chooseLots(
  lots: readonly LotStock[],
  quantity: number,
  today: string,
  allowExpired = false,
): LotTake[] | null {
  const order = (a: LotStock, b: LotStock) =>
    (a.expiry_date ?? '9999-12-31').localeCompare(b.expiry_date ?? '9999-12-31') || a.id - b.id;
  const withStock = lots.filter((l) => l.remaining > 0);
  const usable = withStock.filter((l) => !l.expiry_date || l.expiry_date >= today).sort(order);
  const expired = allowExpired ? withStock.filter((l) => l.expiry_date && l.expiry_date < today).sort(order) : [];
  const takes: LotTake[] = [];
  let left = quantity;
  for (const lot of [...usable, ...expired]) {
    if (left <= 0) break;
    const q = Math.min(left, lot.remaining);
    takes.push({ lotId: lot.id, quantity: q, expired: !!lot.expiry_date && lot.expiry_date < today });
    left -= q;
  }
  return left > 0 ? null : takes;
}

/** Days the usable stock lasts at a daily rate; null when nothing is being used. */
export function daysOfStock(usable: number, dailyRate: number): number | null {
  if (dailyRate <= 0) return null;
  return Math.floor(usable / dailyRate);
}

export interface ReorderAdvice {
  quantity: number;
  order_by: string;
}

/**
 * How much to order and by when, from the consumption rate and the supplier's lead time: order by
 * the day the stock would reach the minimum less the lead time (today when already there), enough to
 * fill up to the maximum (or twice the minimum) plus what the lead time consumes. Null when no
 * order is due within the lead time.
 */
export function reorderAdvice(
  f: Pick<StockFigures, 'usable' | 'minimum' | 'maximum'>,
  dailyRate: number,
  leadTimeDays: number,
  today: string,
  marginPercent = DEFAULT_APPROACHING_MARGIN_PERCENT,
): ReorderAdvice | null {
  const target = f.maximum ?? Math.max(2 * f.minimum, f.minimum + 1);
  const duringLead = Math.ceil(dailyRate * leadTimeDays);
  const quantity = Math.max(0, target - f.usable + duringLead);
  const atPoint = f.usable <= reorderPoint(f.minimum, marginPercent);
  if (dailyRate <= 0) return atPoint && quantity > 0 ? { quantity, order_by: today } : null;
  const daysToMinimum = Math.max(0, Math.floor((f.usable - f.minimum) / dailyRate));
  const slack = daysToMinimum - leadTimeDays;
  if (!atPoint && slack > leadTimeDays) return null;
  if (quantity <= 0) return null;
  return { quantity, order_by: addDays(today, Math.max(0, slack)) };
}

/**
 * Which lots a removal (waste, an adjustment down) takes when no lot is named: the earliest expiry
 * first, expired lots included (they are what a lab throws away). Null when the lots cannot cover it.
 */
export function chooseLotsForRemoval(lots: readonly LotStock[], quantity: number, today: string): LotTake[] | null {
  const sorted = lots
    .filter((l) => l.remaining > 0)
    .sort((a, b) => (a.expiry_date ?? '9999-12-31').localeCompare(b.expiry_date ?? '9999-12-31') || a.id - b.id);
  const takes: LotTake[] = [];
  let left = quantity;
  for (const lot of sorted) {
    if (left <= 0) break;
    const q = Math.min(left, lot.remaining);
    takes.push({ lotId: lot.id, quantity: q, expired: !!lot.expiry_date && lot.expiry_date < today });
    left -= q;
  }
  return left > 0 ? null : takes;
}
