import type { Generated } from 'kysely';

/** Kysely table types of Inventory (migration 017). Timestamps are ISO-8601 UTC strings; dates YYYY-MM-DD. */

export interface SuppliersTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  contact_person: string | null;
  phone: string | null;
  email: string | null;
  gstin: string | null;
  lead_time_days: number | null;
  created_at: string;
  updated_at: string;
}

export interface InventoryItemsTable {
  id: Generated<number>;
  organization_id: number;
  item_code: string;
  item_name: string;
  kind: string;
  category: string;
  unit: string;
  /** The sum of the item's lots' remaining units, kept by the ledger. */
  current_stock: number;
  minimum_stock: number;
  maximum_stock: number | null;
  unit_cost_paise: number;
  supplier_id: number | null;
  status: string;
  catalog_number: string | null;
  storage_temp: string | null;
  last_used_at: string | null;
  /** Set when an item with a ledger is deleted: it leaves every list and GET answers 404. */
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface InventoryLotsTable {
  id: Generated<number>;
  organization_id: number;
  item_id: number;
  /** null: stock recorded without a lot (an adjustment up, opening stock without a lot number). */
  lot_number: string | null;
  expiry_date: string | null;
  received_quantity: number;
  remaining: number;
  unit_cost_paise: number;
  supplier_id: number | null;
  received_at: string;
}

export interface InventoryMovementsTable {
  id: Generated<number>;
  organization_id: number;
  item_id: number;
  lot_id: number | null;
  type: string;
  /** Signed change to the stock. */
  quantity: number;
  /** The item's stock after this movement. */
  balance_after: number;
  unit_cost_paise: number | null;
  reason: string | null;
  expired_override: number;
  rejected: number;
  supplier_id: number | null;
  expected_date: string | null;
  result_id: number | null;
  test_id: number | null;
  user_id: number | null;
  created_at: string;
}

export interface TestConsumptionTable {
  organization_id: number;
  test_id: number;
  item_id: number;
  quantity: number;
}

export interface StockAlertsTable {
  id: Generated<number>;
  organization_id: number;
  item_id: number;
  alert_type: string;
  priority: string;
  status: string;
  current_stock: number;
  message: string;
  note: string | null;
  created_at: string;
  last_alert_at: string;
  acknowledged_by: number | null;
  acknowledged_at: string | null;
  resolved_at: string | null;
}

export interface StockAlertSettingsTable {
  organization_id: number;
  expiry_warning_days: number;
  approaching_margin_percent: number;
  /** The lab day the date-driven alerts (expiry) were last brought up to date. */
  swept_on: string | null;
  updated_at: string;
}

/** Merged into the database type (src/core/db/schema.ts) wherever this module is compiled. */
declare module '../db/schema.js' {
  interface DB {
    suppliers: SuppliersTable;
    inventory_items: InventoryItemsTable;
    inventory_lots: InventoryLotsTable;
    inventory_movements: InventoryMovementsTable;
    test_consumption: TestConsumptionTable;
    stock_alerts: StockAlertsTable;
    stock_alert_settings: StockAlertSettingsTable;
  }
}
