/**
 * Inventory, reagents, consumables and stock alerts. Stock is whole units and moves only
 * through the ledger (inventory_movements): each row is a signed change to one lot with the balance
 * after it; inventory_items.current_stock is the sum of the item's lots, kept in the same
 * transaction, and the CHECKs refuse any balance below zero. Reagents and consumables are items of
 * those kinds. An item with a ledger is archived (archived_at), never erased.
 */
export const sql = /* sql */ `
CREATE TABLE suppliers (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL COLLATE NOCASE,
  contact_person TEXT,
  phone TEXT,
  email TEXT,
  gstin TEXT,
  lead_time_days INTEGER CHECK (lead_time_days IS NULL OR (lead_time_days >= 0 AND lead_time_days <= 365)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX suppliers_name ON suppliers (organization_id, name);

CREATE TABLE inventory_items (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  item_code TEXT NOT NULL COLLATE NOCASE,
  item_name TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'general' CHECK (kind IN ('general','reagent','consumable')),
  category TEXT NOT NULL,
  unit TEXT NOT NULL,
  current_stock INTEGER NOT NULL DEFAULT 0 CHECK (current_stock >= 0),
  minimum_stock INTEGER NOT NULL DEFAULT 0 CHECK (minimum_stock >= 0),
  maximum_stock INTEGER CHECK (maximum_stock IS NULL OR maximum_stock > minimum_stock),
  unit_cost_paise INTEGER NOT NULL DEFAULT 0 CHECK (unit_cost_paise >= 0),
  supplier_id INTEGER REFERENCES suppliers(id),
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','inactive','discontinued')),
  catalog_number TEXT,
  storage_temp TEXT,
  last_used_at TEXT,
  archived_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX inventory_items_code ON inventory_items (organization_id, item_code) WHERE archived_at IS NULL;
CREATE INDEX inventory_items_list ON inventory_items (organization_id, kind, item_name);

CREATE TABLE inventory_lots (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  item_id INTEGER NOT NULL REFERENCES inventory_items(id) ON DELETE CASCADE,
  lot_number TEXT,
  expiry_date TEXT,
  received_quantity INTEGER NOT NULL DEFAULT 0,
  remaining INTEGER NOT NULL DEFAULT 0 CHECK (remaining >= 0),
  unit_cost_paise INTEGER NOT NULL DEFAULT 0,
  supplier_id INTEGER REFERENCES suppliers(id),
  received_at TEXT NOT NULL
);
CREATE UNIQUE INDEX inventory_lots_number ON inventory_lots (item_id, lot_number);
CREATE INDEX inventory_lots_item ON inventory_lots (item_id, expiry_date);

CREATE TABLE inventory_movements (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  item_id INTEGER NOT NULL REFERENCES inventory_items(id),
  lot_id INTEGER REFERENCES inventory_lots(id),
  type TEXT NOT NULL CHECK (type IN ('receive','consume','adjust','waste','return')),
  quantity INTEGER NOT NULL,
  balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
  unit_cost_paise INTEGER,
  reason TEXT,
  expired_override INTEGER NOT NULL DEFAULT 0,
  rejected INTEGER NOT NULL DEFAULT 0,
  supplier_id INTEGER REFERENCES suppliers(id),
  expected_date TEXT,
  result_id INTEGER,
  test_id INTEGER REFERENCES tests(id),
  user_id INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL
);
CREATE INDEX inventory_movements_item ON inventory_movements (item_id, id);
CREATE INDEX inventory_movements_usage ON inventory_movements (organization_id, type, created_at);
CREATE INDEX inventory_movements_result ON inventory_movements (result_id) WHERE result_id IS NOT NULL;
CREATE INDEX inventory_movements_supplier ON inventory_movements (supplier_id) WHERE supplier_id IS NOT NULL;

CREATE TABLE test_consumption (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  test_id INTEGER NOT NULL REFERENCES tests(id) ON DELETE CASCADE,
  item_id INTEGER NOT NULL REFERENCES inventory_items(id) ON DELETE CASCADE,
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  PRIMARY KEY (test_id, item_id)
);
CREATE INDEX test_consumption_item ON test_consumption (item_id);

CREATE TABLE stock_alerts (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  item_id INTEGER NOT NULL REFERENCES inventory_items(id),
  alert_type TEXT NOT NULL CHECK (alert_type IN ('low_stock','out_of_stock','approaching_minimum','expiry_warning','overstock')),
  priority TEXT NOT NULL CHECK (priority IN ('critical','high','medium','low')),
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','acknowledged','resolved')),
  current_stock INTEGER NOT NULL,
  message TEXT NOT NULL,
  note TEXT,
  created_at TEXT NOT NULL,
  last_alert_at TEXT NOT NULL,
  acknowledged_by INTEGER REFERENCES users(id),
  acknowledged_at TEXT,
  resolved_at TEXT
);
CREATE UNIQUE INDEX stock_alerts_open ON stock_alerts (item_id, alert_type) WHERE status <> 'resolved';
CREATE INDEX stock_alerts_list ON stock_alerts (organization_id, status, created_at);

CREATE TABLE stock_alert_settings (
  organization_id INTEGER PRIMARY KEY REFERENCES organizations(id),
  expiry_warning_days INTEGER NOT NULL DEFAULT 30 CHECK (expiry_warning_days BETWEEN 1 AND 365),
  approaching_margin_percent INTEGER NOT NULL DEFAULT 20 CHECK (approaching_margin_percent BETWEEN 0 AND 100),
  swept_on TEXT,
  updated_at TEXT NOT NULL
);
`;
