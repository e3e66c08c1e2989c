/**
 * Collection centres (src/core/centres): a centre is a payer of type collection_centre (its name,
 * contact, address, GSTIN, % off, price list and credit days = payment terms live there, so billing
 * prices and dates its bills as any payer's) plus what only a centre has:
 *
 * - centres: the payer it bills through (one centre per payer), its credit limit (kept here, not on
 *   the payer, so that a lab that lets an approver pass a breach is not refused by billing's own
 *   limit first), and how its share is worked out: the centre's commission or the lab's share, in
 *   basis points (1% = 100) so the share of a line is exact in paise.
 * - centre_share_rules: the same, for one test or one catalogue category (a test's rule wins over its
 *   category's, which wins over the centre's default).
 * - centre_patients: the patients registered by or billed against a centre.
 * - centre_settings: per lab, what a breach of limit or credit days does to a new bill: refuse, or
 *   let it through once a manager approved it (centre_approvals, one approval per bill).
 * - centre_receipts and centre_receipt_allocations: money a centre paid against its statement and
 *   the bills it settled (each allocation is a payment row on that bill).
 */
export const sql = /* sql */ `
CREATE TABLE centres (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  payer_id INTEGER NOT NULL REFERENCES payers(id),
  credit_limit_paise INTEGER CHECK (credit_limit_paise IS NULL OR credit_limit_paise >= 0),
  share_basis TEXT NOT NULL DEFAULT 'centre_commission' CHECK (share_basis IN ('centre_commission','lab_share')),
  share_bp INTEGER NOT NULL DEFAULT 0 CHECK (share_bp >= 0 AND share_bp <= 10000),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX centres_payer ON centres (organization_id, payer_id);

CREATE TABLE centre_share_rules (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  centre_id INTEGER NOT NULL REFERENCES centres(id) ON DELETE CASCADE,
  test_id INTEGER REFERENCES tests(id),
  category TEXT,
  share_bp INTEGER NOT NULL CHECK (share_bp >= 0 AND share_bp <= 10000),
  created_at TEXT NOT NULL,
  CHECK ((test_id IS NULL) <> (category IS NULL))
);
CREATE UNIQUE INDEX centre_share_rules_test ON centre_share_rules (centre_id, test_id) WHERE test_id IS NOT NULL;
CREATE UNIQUE INDEX centre_share_rules_category ON centre_share_rules (centre_id, category) WHERE category IS NOT NULL;

CREATE TABLE centre_patients (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  centre_id INTEGER NOT NULL REFERENCES centres(id) ON DELETE CASCADE,
  patient_id INTEGER NOT NULL REFERENCES patients(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (centre_id, patient_id)
);
CREATE INDEX centre_patients_patient ON centre_patients (organization_id, patient_id);

CREATE TABLE centre_settings (
  organization_id INTEGER PRIMARY KEY REFERENCES organizations(id),
  on_breach TEXT NOT NULL DEFAULT 'refuse' CHECK (on_breach IN ('refuse','approver')),
  updated_at TEXT NOT NULL
);

CREATE TABLE centre_approvals (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  centre_id INTEGER NOT NULL REFERENCES centres(id) ON DELETE CASCADE,
  reason TEXT NOT NULL,
  approved_by INTEGER REFERENCES users(id),
  approved_at TEXT NOT NULL,
  bill_id INTEGER REFERENCES bills(id) ON DELETE SET NULL,
  used_at TEXT
);
CREATE INDEX centre_approvals_open ON centre_approvals (centre_id, used_at);

CREATE TABLE centre_receipts (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  centre_id INTEGER NOT NULL REFERENCES centres(id),
  amount_paise INTEGER NOT NULL CHECK (amount_paise > 0),
  method TEXT NOT NULL,
  reference TEXT,
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL
);
CREATE INDEX centre_receipts_centre ON centre_receipts (organization_id, centre_id, created_at);

CREATE TABLE centre_receipt_allocations (
  id INTEGER PRIMARY KEY,
  receipt_id INTEGER NOT NULL REFERENCES centre_receipts(id),
  bill_id INTEGER NOT NULL REFERENCES bills(id),
  payment_id INTEGER NOT NULL REFERENCES payments(id),
  amount_paise INTEGER NOT NULL CHECK (amount_paise > 0)
);
CREATE INDEX centre_receipt_allocations_receipt ON centre_receipt_allocations (receipt_id);
`;
