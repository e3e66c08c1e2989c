/** Foundation: organisations, users, sessions, patients (+ search index and counters), audit trail. */
export const sql = /* sql */ `
CREATE TABLE organizations (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  address TEXT,
  phone TEXT,
  email TEXT,
  timezone TEXT NOT NULL DEFAULT 'Asia/Kolkata',
  currency TEXT NOT NULL DEFAULT 'INR',
  date_format TEXT NOT NULL DEFAULT 'DD/MM/YYYY',
  settings TEXT NOT NULL DEFAULT '{}',
  is_demo INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  email TEXT NOT NULL COLLATE NOCASE UNIQUE,
  password_hash TEXT NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('superadmin','admin','lab_manager','doctor','lab_technician','technician','receptionist','billing_staff','collector','validator','inventory_manager','user')),
  department TEXT,
  phone TEXT,
  specialization TEXT,
  consultation_fee_paise INTEGER NOT NULL DEFAULT 0 CHECK (consultation_fee_paise >= 0),
  is_active INTEGER NOT NULL DEFAULT 1,
  last_login TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX users_org_role ON users (organization_id, role);

CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  created_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  ip_address TEXT,
  user_agent TEXT
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE sequences (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  value INTEGER NOT NULL,
  PRIMARY KEY (organization_id, name)
);

CREATE TABLE entity_counts (
  organization_id INTEGER NOT NULL,
  entity TEXT NOT NULL,
  n INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, entity)
);

CREATE TABLE patients (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  patient_code TEXT NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  date_of_birth TEXT NOT NULL,
  gender TEXT CHECK (gender IN ('Male','Female','Other')),
  phone TEXT,
  email TEXT,
  address TEXT,
  city TEXT,
  state TEXT,
  pincode TEXT,
  emergency_contact TEXT,
  emergency_phone TEXT,
  emergency_relation TEXT,
  blood_group TEXT,
  allergies TEXT,
  medical_history TEXT,
  insurance_provider TEXT,
  insurance_number TEXT,
  membership_type TEXT NOT NULL DEFAULT 'none' CHECK (membership_type IN ('none','basic','premium','corporate')),
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX patients_org_code ON patients (organization_id, patient_code);
CREATE INDEX patients_org_id ON patients (organization_id, id);
CREATE INDEX patients_org_gender ON patients (organization_id, gender, id);
CREATE INDEX patients_org_membership ON patients (organization_id, membership_type, id);

-- Prefix search over name, code, phone and email. Contentless: it holds tokens, the rows stay in patients.
-- The "org" column carries the tenant so a search never crosses organisations.
CREATE VIRTUAL TABLE patients_fts USING fts5(
  org, first_name, last_name, patient_code, phone, email,
  content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2', prefix='2 3 4'
);

CREATE TRIGGER patients_ai AFTER INSERT ON patients BEGIN
  INSERT INTO patients_fts (rowid, org, first_name, last_name, patient_code, phone, email)
  VALUES (new.id, 'org' || new.organization_id, new.first_name, new.last_name, new.patient_code,
          replace(replace(replace(replace(coalesce(new.phone, ''), ' ', ''), '-', ''), '+', ''), '.', '') || ' ' ||
          substr(replace(replace(replace(coalesce(new.phone, ''), ' ', ''), '-', ''), '+', ''), -10),
          new.email);
  INSERT INTO entity_counts (organization_id, entity, n) VALUES (new.organization_id, 'patients', 1)
    ON CONFLICT (organization_id, entity) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER patients_au AFTER UPDATE ON patients BEGIN
  DELETE FROM patients_fts WHERE rowid = old.id;
  INSERT INTO patients_fts (rowid, org, first_name, last_name, patient_code, phone, email)
  VALUES (new.id, 'org' || new.organization_id, new.first_name, new.last_name, new.patient_code,
          replace(replace(replace(replace(coalesce(new.phone, ''), ' ', ''), '-', ''), '+', ''), '.', '') || ' ' ||
          substr(replace(replace(replace(coalesce(new.phone, ''), ' ', ''), '-', ''), '+', ''), -10),
          new.email);
END;

CREATE TRIGGER patients_ad AFTER DELETE ON patients BEGIN
  DELETE FROM patients_fts WHERE rowid = old.id;
  UPDATE entity_counts SET n = n - 1 WHERE organization_id = old.organization_id AND entity = 'patients';
END;

CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER,
  user_id INTEGER,
  user_email TEXT,
  action TEXT NOT NULL,
  entity TEXT NOT NULL,
  entity_id TEXT,
  old_values TEXT,
  new_values TEXT,
  ip_address TEXT,
  user_agent TEXT,
  status TEXT NOT NULL DEFAULT 'success',
  created_at TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE INDEX audit_org_id ON audit_log (organization_id, id);
CREATE INDEX audit_org_entity ON audit_log (organization_id, entity, id);
CREATE INDEX audit_org_user ON audit_log (organization_id, user_id, id);
CREATE INDEX audit_org_action ON audit_log (organization_id, action, id);

-- The audit trail is append-only: the database itself refuses to change or remove a row.
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
`;
