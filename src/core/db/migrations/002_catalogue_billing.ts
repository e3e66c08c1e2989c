/** Test catalogue (tests, profiles, packages, price history) and outpatient billing (bills, lines, payments). */
export const sql = /* sql */ `
CREATE TABLE tests (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  code TEXT NOT NULL COLLATE NOCASE,
  description TEXT,
  category TEXT,
  price_paise INTEGER NOT NULL CHECK (price_paise >= 0),
  base_price_paise INTEGER NOT NULL CHECK (base_price_paise >= 0),
  unit TEXT,
  normal_range TEXT,
  reference_ranges TEXT,
  sample_type TEXT,
  turnaround_hours INTEGER CHECK (turnaround_hours IS NULL OR turnaround_hours >= 0),
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','inactive')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX tests_org_code ON tests (organization_id, code);
CREATE INDEX tests_org_name ON tests (organization_id, name COLLATE NOCASE);

CREATE TABLE test_profiles (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  code TEXT NOT NULL COLLATE NOCASE,
  description TEXT,
  category TEXT,
  price_paise INTEGER NOT NULL CHECK (price_paise >= 0),
  base_price_paise INTEGER NOT NULL CHECK (base_price_paise >= 0),
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','inactive')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX test_profiles_org_code ON test_profiles (organization_id, code);

CREATE TABLE profile_tests (
  profile_id INTEGER NOT NULL REFERENCES test_profiles(id) ON DELETE CASCADE,
  test_id INTEGER NOT NULL REFERENCES tests(id) ON DELETE RESTRICT,
  position INTEGER NOT NULL,
  PRIMARY KEY (profile_id, test_id)
);
CREATE INDEX profile_tests_test ON profile_tests (test_id);

CREATE TABLE test_packages (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  code TEXT NOT NULL COLLATE NOCASE,
  description TEXT,
  category TEXT,
  price_paise INTEGER NOT NULL CHECK (price_paise >= 0),
  base_price_paise INTEGER NOT NULL CHECK (base_price_paise >= 0),
  duration TEXT,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','inactive')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX test_packages_org_code ON test_packages (organization_id, code);

CREATE TABLE package_tests (
  package_id INTEGER NOT NULL REFERENCES test_packages(id) ON DELETE CASCADE,
  test_id INTEGER NOT NULL REFERENCES tests(id) ON DELETE RESTRICT,
  position INTEGER NOT NULL,
  PRIMARY KEY (package_id, test_id)
);
CREATE INDEX package_tests_test ON package_tests (test_id);

CREATE TABLE package_profiles (
  package_id INTEGER NOT NULL REFERENCES test_packages(id) ON DELETE CASCADE,
  profile_id INTEGER NOT NULL REFERENCES test_profiles(id) ON DELETE RESTRICT,
  position INTEGER NOT NULL,
  PRIMARY KEY (package_id, profile_id)
);
CREATE INDEX package_profiles_profile ON package_profiles (profile_id);

CREATE TABLE price_history (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  item_type TEXT NOT NULL CHECK (item_type IN ('test','profile','package')),
  item_id INTEGER NOT NULL,
  old_price_paise INTEGER,
  new_price_paise INTEGER NOT NULL,
  old_base_price_paise INTEGER,
  new_base_price_paise INTEGER NOT NULL,
  changed_by INTEGER REFERENCES users(id),
  changed_by_email TEXT,
  changed_at TEXT NOT NULL
);
CREATE INDEX price_history_item ON price_history (organization_id, item_type, item_id, id);

CREATE TABLE bills (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  bill_number TEXT NOT NULL,
  patient_id INTEGER NOT NULL REFERENCES patients(id) ON DELETE RESTRICT,
  doctor_id INTEGER REFERENCES users(id),
  visit_type TEXT NOT NULL DEFAULT 'doctor_visit' CHECK (visit_type IN ('doctor_visit','lab_only')),
  subtotal_paise INTEGER NOT NULL,
  consultation_fee_paise INTEGER NOT NULL,
  total_before_discount_paise INTEGER NOT NULL,
  discount_percentage REAL NOT NULL CHECK (discount_percentage >= 0 AND discount_percentage <= 100),
  discount_amount_paise INTEGER NOT NULL,
  tax_percentage REAL NOT NULL CHECK (tax_percentage >= 0 AND tax_percentage <= 100),
  tax_amount_paise INTEGER NOT NULL,
  final_amount_paise INTEGER NOT NULL CHECK (final_amount_paise >= 0),
  paid_paise INTEGER NOT NULL DEFAULT 0,
  payment_method TEXT NOT NULL DEFAULT 'cash',
  due_date TEXT NOT NULL,
  notes TEXT,
  cancelled_at TEXT,
  cancel_reason TEXT,
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK (paid_paise >= 0 AND paid_paise <= final_amount_paise)
);
CREATE UNIQUE INDEX bills_org_number ON bills (organization_id, bill_number);
CREATE INDEX bills_org_created ON bills (organization_id, created_at);
CREATE INDEX bills_patient ON bills (patient_id);
CREATE INDEX bills_doctor ON bills (doctor_id);

CREATE TABLE bill_items (
  id INTEGER PRIMARY KEY,
  bill_id INTEGER NOT NULL REFERENCES bills(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  item_type TEXT NOT NULL CHECK (item_type IN ('test','profile','package')),
  test_id INTEGER REFERENCES tests(id) ON DELETE RESTRICT,
  profile_id INTEGER REFERENCES test_profiles(id) ON DELETE RESTRICT,
  package_id INTEGER REFERENCES test_packages(id) ON DELETE RESTRICT,
  name TEXT NOT NULL,
  code TEXT,
  qty INTEGER NOT NULL CHECK (qty >= 1),
  list_price_paise INTEGER NOT NULL,
  unit_price_paise INTEGER NOT NULL CHECK (unit_price_paise >= 0),
  gst_percent REAL NOT NULL CHECK (gst_percent >= 0 AND gst_percent <= 100),
  discount_percent REAL NOT NULL CHECK (discount_percent >= 0 AND discount_percent <= 100),
  discount_amount_paise INTEGER NOT NULL,
  total_paise INTEGER NOT NULL
);
CREATE INDEX bill_items_bill ON bill_items (bill_id, position);
CREATE INDEX bill_items_test ON bill_items (test_id);
CREATE INDEX bill_items_profile ON bill_items (profile_id);
CREATE INDEX bill_items_package ON bill_items (package_id);

CREATE TABLE payments (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  bill_id INTEGER NOT NULL REFERENCES bills(id) ON DELETE RESTRICT,
  amount_paise INTEGER NOT NULL CHECK (amount_paise <> 0),
  method TEXT NOT NULL CHECK (method IN ('cash','card','upi','netbanking','cheque')),
  reference TEXT,
  reason TEXT,
  received_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL
);
CREATE INDEX payments_bill ON payments (bill_id, id);
CREATE INDEX payments_org_created ON payments (organization_id, created_at);
`;
