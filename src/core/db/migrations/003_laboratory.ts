/**
 * Laboratory operations: collection locations, samples (ordered tests, chain of custody), results
 * (with amendments), quality control, visits/appointments and the patient portal.
 */
export const sql = /* sql */ `
CREATE TABLE collection_locations (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL COLLATE NOCASE,
  kind TEXT NOT NULL DEFAULT 'other' CHECK (kind IN ('home','lab','centre','external','other')),
  position INTEGER NOT NULL DEFAULT 0,
  is_active INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX collection_locations_org_name ON collection_locations (organization_id, name);

CREATE TABLE samples (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  sample_code TEXT NOT NULL,
  barcode TEXT,
  patient_id INTEGER NOT NULL REFERENCES patients(id) ON DELETE RESTRICT,
  bill_id INTEGER REFERENCES bills(id) ON DELETE SET NULL,
  sample_type TEXT NOT NULL CHECK (sample_type IN ('Blood','Urine','Stool','Sputum','Tissue','Other')),
  collector_id INTEGER REFERENCES users(id),
  location TEXT,
  priority TEXT NOT NULL DEFAULT 'normal' CHECK (priority IN ('urgent','high','normal','low')),
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','collected','processing','completed','rejected')),
  notes TEXT,
  rejection_reason TEXT,
  collection_date TEXT,
  completed_at TEXT,
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX samples_org_code ON samples (organization_id, sample_code);
CREATE UNIQUE INDEX samples_org_barcode ON samples (organization_id, barcode) WHERE barcode IS NOT NULL;
CREATE INDEX samples_org_status ON samples (organization_id, status, id);
CREATE INDEX samples_patient ON samples (patient_id);

CREATE TABLE sample_tests (
  sample_id INTEGER NOT NULL REFERENCES samples(id) ON DELETE CASCADE,
  test_id INTEGER NOT NULL REFERENCES tests(id) ON DELETE RESTRICT,
  position INTEGER NOT NULL,
  PRIMARY KEY (sample_id, test_id)
);
CREATE INDEX sample_tests_test ON sample_tests (test_id);

CREATE TABLE sample_status_history (
  id INTEGER PRIMARY KEY,
  sample_id INTEGER NOT NULL REFERENCES samples(id) ON DELETE CASCADE,
  from_status TEXT,
  to_status TEXT NOT NULL,
  changed_by INTEGER REFERENCES users(id),
  changed_by_name TEXT,
  location TEXT,
  notes TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX sample_status_history_sample ON sample_status_history (sample_id, id);

CREATE TABLE test_results (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  sample_id INTEGER NOT NULL REFERENCES samples(id) ON DELETE RESTRICT,
  test_id INTEGER NOT NULL REFERENCES tests(id) ON DELETE RESTRICT,
  patient_id INTEGER NOT NULL REFERENCES patients(id) ON DELETE RESTRICT,
  result_value TEXT,
  unit TEXT,
  normal_range TEXT,
  flag TEXT CHECK (flag IS NULL OR flag IN ('normal','low','high','abnormal')),
  is_critical INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','completed','verified','rejected')),
  review_required INTEGER NOT NULL DEFAULT 0,
  notes TEXT,
  rejection_reason TEXT,
  technician_id INTEGER REFERENCES users(id),
  entered_at TEXT,
  verified_by INTEGER REFERENCES users(id),
  verified_at TEXT,
  amended INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX test_results_sample_test ON test_results (sample_id, test_id);
CREATE INDEX test_results_org_status ON test_results (organization_id, status, id);
CREATE INDEX test_results_patient ON test_results (patient_id, id);

CREATE TABLE result_amendments (
  id INTEGER PRIMARY KEY,
  result_id INTEGER NOT NULL REFERENCES test_results(id) ON DELETE CASCADE,
  old_value TEXT,
  old_unit TEXT,
  old_flag TEXT,
  old_status TEXT NOT NULL,
  old_verified_by INTEGER,
  old_verified_at TEXT,
  reason TEXT NOT NULL,
  amended_by INTEGER REFERENCES users(id),
  amended_at TEXT NOT NULL
);
CREATE INDEX result_amendments_result ON result_amendments (result_id, id);

CREATE TABLE qc_materials (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  control_id TEXT NOT NULL,
  name TEXT NOT NULL,
  test_id INTEGER NOT NULL REFERENCES tests(id) ON DELETE RESTRICT,
  level TEXT,
  control_type TEXT NOT NULL DEFAULT 'Internal' CHECK (control_type IN ('Internal','External')),
  lot_number TEXT NOT NULL,
  expiry_date TEXT NOT NULL,
  target_mean REAL NOT NULL,
  target_sd REAL NOT NULL CHECK (target_sd > 0),
  unit TEXT,
  is_active INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX qc_materials_org_control ON qc_materials (organization_id, control_id);

CREATE TABLE qc_runs (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  material_id INTEGER NOT NULL REFERENCES qc_materials(id) ON DELETE RESTRICT,
  value REAL NOT NULL,
  z_score REAL NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('passed','warning','failed')),
  rules TEXT NOT NULL DEFAULT '[]',
  comments TEXT,
  performed_by INTEGER REFERENCES users(id),
  performed_at TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX qc_runs_material ON qc_runs (material_id, performed_at, id);

CREATE TABLE visits (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  patient_id INTEGER NOT NULL REFERENCES patients(id) ON DELETE RESTRICT,
  doctor_id INTEGER REFERENCES users(id),
  bill_id INTEGER REFERENCES bills(id) ON DELETE SET NULL,
  visit_type TEXT NOT NULL DEFAULT 'consultation',
  status TEXT NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled','completed','cancelled')),
  visit_date TEXT NOT NULL,
  visit_time TEXT,
  chief_complaint TEXT,
  diagnosis TEXT,
  treatment TEXT,
  follow_up_date TEXT,
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX visits_patient ON visits (patient_id, visit_date);

CREATE TABLE patient_portal_access (
  patient_id INTEGER PRIMARY KEY REFERENCES patients(id) ON DELETE CASCADE,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  pin_hash TEXT NOT NULL,
  issued_by INTEGER REFERENCES users(id),
  issued_at TEXT NOT NULL
);

CREATE TABLE portal_sessions (
  id TEXT PRIMARY KEY,
  patient_id INTEGER NOT NULL REFERENCES patients(id) ON DELETE CASCADE,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  created_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX portal_sessions_patient ON portal_sessions (patient_id);
-- The spec's 15 collection locations for labs that exist already; new labs get them at setup.
INSERT INTO collection_locations (organization_id, name, kind, position, is_active, created_at, updated_at)
SELECT o.id, l.column1, l.column2, l.column3, 1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM organizations o CROSS JOIN (VALUES
  ('Home Collection', 'home', 0),
  ('Main Lab', 'lab', 1),
  ('Downtown Collection Centre', 'centre', 2),
  ('Mall Road Collection Centre', 'centre', 3),
  ('Dr Lal PathLabs', 'external', 4),
  ('SRL Diagnostics', 'external', 5),
  ('Metropolis Healthcare', 'external', 6),
  ('Thyrocare', 'external', 7),
  ('Apollo Diagnostics', 'external', 8),
  ('Neuberg Diagnostics', 'external', 9),
  ('Vijaya Diagnostic Centre', 'external', 10),
  ('Redcliffe Labs', 'external', 11),
  ('Healthians', 'external', 12),
  ('Suburban Diagnostics', 'external', 13),
  ('Other', 'other', 14)
) AS l;
`;
