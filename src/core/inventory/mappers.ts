import type { ItemFullRow, MovementRow, LotRow } from './repository.js';
import type { SupplierFullRow } from './supplier-repository.js';
import type { AlertFullRow } from './alert-repository.js';
import type { InventoryItemsTable } from './tables.js';
import {
  DEFAULT_LEAD_TIME_DAYS,
  RATE_WINDOW_DAYS,
  consumableStatus,
  daysOfStock,
  expiryState,
  reagentStatus,
  reorderAdvice,
  stockLevel,
  stockStatus,
  type AlertPriority,
  type AlertStatus,
  type AlertType,
  type ItemKind,
  type ItemStatus,
  type MovementType,
  type StockFigures,
} from '../../shared/inventory.js';
import type { InventoryItem, Lot, Movement, StockAlert, Supplier } from '../../shared/schemas/inventory.js';
import type { LabDateFormat } from '../../shared/time.js';

/** The lab's day and its alert settings, which every computed figure of an item reads. */
export interface InventoryDay {
  today: string;
  timeZone: string;
  /** Start of the consumption-rate window, ISO. */
  since: string;
  expiryWarningDays: number;
  approachingMarginPercent: number;
  /** The lab's date format, for the dates in alert messages. */
  dateFormat: LabDateFormat;
}

export function figuresOf(r: ItemFullRow): StockFigures {
  return {
    current: Number(r.current_stock),
    usable: Number(r.usable_stock),
    minimum: Number(r.minimum_stock),
    maximum: r.maximum_stock === null ? null : Number(r.maximum_stock),
    earliestExpiry: r.earliest_expiry ?? null,
  };
}

const rupees = (paise: number) => Math.round(paise) / 100;

export function toItem(r: ItemFullRow, day: InventoryDay): InventoryItem {
  const f = figuresOf(r);
  const dailyUsage = Math.max(0, Number(r.used_in_window)) / RATE_WINDOW_DAYS;
  const leadTime = r.supplier_lead_time ?? DEFAULT_LEAD_TIME_DAYS;
  const advice =
    r.status === 'active' ? reorderAdvice(f, dailyUsage, leadTime, day.today, day.approachingMarginPercent) : null;
  return {
    id: r.id,
    item_code: r.item_code,
    item_name: r.item_name,
    kind: r.kind as ItemKind,
    category: r.category,
    unit: r.unit,
    current_stock: f.current,
    usable_stock: f.usable,
    minimum_stock: f.minimum,
    maximum_stock: f.maximum,
    unit_cost: rupees(r.unit_cost_paise),
    total_value: rupees(f.current * r.unit_cost_paise),
    supplier_id: r.supplier_id,
    supplier: r.supplier_name ?? null,
    expiry_date: f.earliestExpiry,
    status: r.status as ItemStatus,
    stock_status: stockStatus(f.current, f.minimum, f.maximum),
    reagent_status: reagentStatus(f, day.today),
    consumable_status: consumableStatus(f, day.approachingMarginPercent),
    expiry_state: f.current > 0 ? expiryState(f.earliestExpiry, day.today, day.expiryWarningDays) : 'good',
    stock_level: stockLevel(f.current, f.minimum, f.maximum),
    catalog_number: r.catalog_number,
    storage_temp: r.storage_temp,
    last_used: r.last_used_at,
    daily_usage: Math.round(dailyUsage * 100) / 100,
    days_left: daysOfStock(f.usable, dailyUsage),
    reorder: advice ? { ...advice, supplier: r.supplier_name ?? null, lead_time_days: leadTime } : null,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** What the audit trail keeps of an item: its own fields, not the figures computed from the day. */
export function itemAuditValues(
  r: Pick<
    InventoryItemsTable,
    | 'item_code'
    | 'item_name'
    | 'kind'
    | 'category'
    | 'unit'
    | 'current_stock'
    | 'minimum_stock'
    | 'maximum_stock'
    | 'unit_cost_paise'
    | 'supplier_id'
    | 'status'
    | 'catalog_number'
    | 'storage_temp'
  >,
): Record<string, unknown> {
  return {
    item_code: r.item_code,
    item_name: r.item_name,
    kind: r.kind,
    category: r.category,
    unit: r.unit,
    current_stock: Number(r.current_stock),
    minimum_stock: Number(r.minimum_stock),
    maximum_stock: r.maximum_stock === null ? null : Number(r.maximum_stock),
    unit_cost: rupees(r.unit_cost_paise),
    supplier_id: r.supplier_id,
    status: r.status,
    catalog_number: r.catalog_number,
    storage_temp: r.storage_temp,
  };
}

export function toMovement(r: MovementRow): Movement {
  return {
    id: r.id,
    item_id: r.item_id,
    type: r.type as MovementType,
    quantity: Number(r.quantity),
    balance_after: Number(r.balance_after),
    lot_id: r.lot_id,
    lot_number: r.lot_number ?? null,
    expiry_date: r.expiry_date ?? null,
    unit_cost: r.unit_cost_paise === null ? null : rupees(r.unit_cost_paise),
    reason: r.reason,
    expired_override: Number(r.expired_override) === 1,
    rejected: Number(r.rejected) === 1,
    supplier: r.supplier_name ?? null,
    expected_date: r.expected_date,
    result_id: r.result_id,
    test_name: r.test_name ?? null,
    user_id: r.user_id,
    user_name: r.user_name ?? null,
    created_at: r.created_at,
  };
}

export function toLot(r: LotRow & { supplier_name: string | null }, day: InventoryDay): Lot {
  return {
    id: r.id,
    lot_number: r.lot_number,
    expiry_date: r.expiry_date,
    received_quantity: Number(r.received_quantity),
    remaining: Number(r.remaining),
    unit_cost: rupees(r.unit_cost_paise),
    supplier: r.supplier_name,
    expiry_state: expiryState(r.expiry_date, day.today, day.expiryWarningDays),
    received_at: r.received_at,
  };
}

export function toSupplier(r: SupplierFullRow, onTime: number): Supplier {
  const withDue = Number(r.with_due_date);
  return {
    id: r.id,
    name: r.name,
    contact_person: r.contact_person,
    phone: r.phone,
    email: r.email,
    gstin: r.gstin,
    lead_time_days: r.lead_time_days === null ? null : Number(r.lead_time_days),
    items: Number(r.items),
    deliveries: Number(r.deliveries),
    on_time: onTime,
    with_due_date: withDue,
    on_time_rate: withDue ? Math.round((onTime / withDue) * 1000) / 10 : null,
    rejected: Number(r.rejected),
    last_delivery: r.last_delivery ?? null,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function toAlert(r: AlertFullRow): StockAlert {
  return {
    id: r.id,
    item_id: r.item_id,
    item_name: r.item_name,
    item_code: r.item_code,
    item_type: r.item_type as ItemKind,
    unit: r.unit,
    current_stock: Number(r.current_stock),
    min_threshold: Number(r.minimum_stock),
    max_threshold: r.maximum_stock === null ? null : Number(r.maximum_stock),
    alert_type: r.alert_type as AlertType,
    priority: r.priority as AlertPriority,
    status: r.status as AlertStatus,
    message: r.message,
    note: r.note,
    supplier: r.supplier_name ?? null,
    created_at: r.created_at,
    last_alert: r.last_alert_at,
    acknowledged_by: r.acknowledged_by_name ?? null,
    acknowledged_at: r.acknowledged_at,
    resolved_at: r.resolved_at,
  };
}
