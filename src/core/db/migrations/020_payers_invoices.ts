/**
 * Payers, their price lists, GST invoices and the tax rule (docs/decisions.md "Payers,
 * invoices and GST"). Tests carry a tax category (exempt by default: diagnostic services are
 * GST-exempt) and may name their SAC; every bill line keeps the category, taxable value and tax it
 * was billed with. A bill may be charged to a payer (corporate client, insurer/TPA, referring
 * hospital, collection centre), whose price list (effective dates) sets the bill's prices. An
 * invoice takes a number only when issued: a series per financial year, unique per lab.
 */
export const sql = /* sql */ `
ALTER TABLE tests ADD COLUMN tax_category TEXT NOT NULL DEFAULT 'exempt' CHECK (tax_category IN ('exempt','gst_5','gst_12','gst_18'));
ALTER TABLE tests ADD COLUMN sac_code TEXT;

ALTER TABLE bill_items ADD COLUMN tax_category TEXT NOT NULL DEFAULT 'exempt';
ALTER TABLE bill_items ADD COLUMN sac_code TEXT NOT NULL DEFAULT '9993';
ALTER TABLE bill_items ADD COLUMN taxable_paise INTEGER NOT NULL DEFAULT 0;
ALTER TABLE bill_items ADD COLUMN tax_paise INTEGER NOT NULL DEFAULT 0;

CREATE TABLE payers (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('corporate','insurance','hospital','collection_centre')),
  gstin TEXT,
  address TEXT,
  state_code TEXT,
  contact_person TEXT,
  phone TEXT,
  email TEXT,
  credit_limit_paise INTEGER CHECK (credit_limit_paise IS NULL OR credit_limit_paise >= 0),
  payment_terms_days INTEGER NOT NULL DEFAULT 30 CHECK (payment_terms_days >= 0),
  discount_percent REAL NOT NULL DEFAULT 0 CHECK (discount_percent >= 0 AND discount_percent <= 100),
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','inactive')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX payers_org_name ON payers (organization_id, name);

CREATE TABLE payer_prices (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  payer_id INTEGER NOT NULL REFERENCES payers(id),
  item_type TEXT NOT NULL CHECK (item_type IN ('test','profile','package')),
  item_id INTEGER NOT NULL,
  price_paise INTEGER NOT NULL CHECK (price_paise >= 0),
  effective_from TEXT NOT NULL,
  effective_to TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX payer_prices_lookup ON payer_prices (payer_id, item_type, item_id, effective_from);

ALTER TABLE bills ADD COLUMN payer_id INTEGER REFERENCES payers(id);
ALTER TABLE bills ADD COLUMN invoice_id INTEGER;
CREATE INDEX bills_org_payer ON bills (organization_id, payer_id, created_at);

CREATE TABLE invoices (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  invoice_number TEXT,
  status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft','pending','paid','cancelled')),
  payer_id INTEGER REFERENCES payers(id),
  patient_id INTEGER REFERENCES patients(id),
  period_from TEXT,
  period_to TEXT,
  recipient_name TEXT NOT NULL,
  recipient_gstin TEXT,
  recipient_address TEXT,
  recipient_state_code TEXT,
  lab_gstin TEXT,
  lab_state_code TEXT,
  place_of_supply TEXT,
  taxable_paise INTEGER NOT NULL DEFAULT 0,
  exempt_paise INTEGER NOT NULL DEFAULT 0,
  cgst_paise INTEGER NOT NULL DEFAULT 0,
  sgst_paise INTEGER NOT NULL DEFAULT 0,
  igst_paise INTEGER NOT NULL DEFAULT 0,
  total_paise INTEGER NOT NULL DEFAULT 0,
  invoice_date TEXT,
  due_date TEXT,
  notes TEXT,
  issued_at TEXT,
  issued_by INTEGER REFERENCES users(id),
  paid_at TEXT,
  payment_method TEXT,
  payment_reference TEXT,
  cancelled_at TEXT,
  cancel_reason TEXT,
  credit_note_number TEXT,
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX invoices_org_number ON invoices (organization_id, invoice_number);
CREATE UNIQUE INDEX invoices_org_credit_note ON invoices (organization_id, credit_note_number);
CREATE INDEX invoices_org_status ON invoices (organization_id, status, id);

CREATE TABLE invoice_lines (
  id INTEGER PRIMARY KEY,
  invoice_id INTEGER NOT NULL REFERENCES invoices(id),
  position INTEGER NOT NULL,
  bill_id INTEGER NOT NULL REFERENCES bills(id),
  description TEXT NOT NULL,
  sac_code TEXT NOT NULL,
  qty INTEGER NOT NULL,
  rate_percent REAL NOT NULL,
  taxable_paise INTEGER NOT NULL,
  cgst_paise INTEGER NOT NULL,
  sgst_paise INTEGER NOT NULL,
  igst_paise INTEGER NOT NULL,
  total_paise INTEGER NOT NULL
);
CREATE INDEX invoice_lines_invoice ON invoice_lines (invoice_id, position);
`;
