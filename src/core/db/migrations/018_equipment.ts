import { toPostgres } from '../dialect.js';

/**
 * Equipment: one register of the lab's machines (analysers) and instruments, their
 * status history, environment readings, calibration and maintenance work, and certificates.
 *
 * - `equipment.status` is what staff set (operational, maintenance, error, offline); an instrument's
 *   calibration_due is computed from its calibrations' due dates in the lab's time zone, never stored.
 * - The serial number is unique among the lab's current equipment (case-insensitive); an archived
 *   row (deleted while records name it) keeps its serial and frees it.
 * - `equipment_services` holds calibration and maintenance work alike (kind), each with its
 *   schedule (due date, interval) and, once done, who did it, when, accuracy or cost, and notes.
 *   Overdue is computed from the due date, never stored.
 * - Certificates are stored in the database (`equipment_files.data`), checked by their content.
 * - Results and QC runs may name the equipment that produced them, and keep the warning it carried
 *   when they were entered (a calibration past due).
 */
export const sql = /* sql */ `
CREATE TABLE equipment (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  kind TEXT NOT NULL CHECK (kind IN ('machine','instrument')),
  name TEXT NOT NULL,
  model TEXT,
  serial_number TEXT NOT NULL COLLATE NOCASE,
  type TEXT,
  location TEXT,
  status TEXT NOT NULL DEFAULT 'operational' CHECK (status IN ('operational','maintenance','error','offline')),
  installed_on TEXT,
  supplier TEXT,
  warranty_end TEXT,
  min_temperature REAL,
  max_temperature REAL,
  min_humidity REAL,
  max_humidity REAL,
  notes TEXT,
  archived_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX equipment_serial ON equipment (organization_id, serial_number) WHERE archived_at IS NULL;
CREATE INDEX equipment_org ON equipment (organization_id, kind, name);

CREATE TABLE equipment_status_history (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  equipment_id INTEGER NOT NULL REFERENCES equipment(id),
  status TEXT NOT NULL,
  previous_status TEXT,
  reason TEXT,
  changed_by INTEGER REFERENCES users(id),
  changed_at TEXT NOT NULL
);
CREATE INDEX equipment_status_history_eq ON equipment_status_history (equipment_id, changed_at);

CREATE TABLE equipment_readings (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  equipment_id INTEGER NOT NULL REFERENCES equipment(id),
  temperature REAL,
  humidity REAL,
  out_of_range INTEGER NOT NULL DEFAULT 0 CHECK (out_of_range IN (0,1)),
  notes TEXT,
  recorded_by INTEGER REFERENCES users(id),
  recorded_at TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX equipment_readings_eq ON equipment_readings (equipment_id, recorded_at);

CREATE TABLE equipment_files (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  file_name TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  data BLOB NOT NULL,
  uploaded_by INTEGER REFERENCES users(id),
  uploaded_at TEXT NOT NULL
);

CREATE TABLE equipment_services (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  equipment_id INTEGER NOT NULL REFERENCES equipment(id),
  kind TEXT NOT NULL CHECK (kind IN ('calibration','maintenance')),
  type TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled','in_progress','completed','cancelled')),
  due_date TEXT NOT NULL,
  interval_days INTEGER CHECK (interval_days IS NULL OR (interval_days >= 1 AND interval_days <= 3660)),
  performed_by TEXT,
  performed_at TEXT,
  accuracy REAL,
  cost_paise INTEGER CHECK (cost_paise IS NULL OR cost_paise >= 0),
  description TEXT,
  next_due TEXT,
  certificate_id INTEGER REFERENCES equipment_files(id),
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX equipment_services_org ON equipment_services (organization_id, kind, due_date);
CREATE INDEX equipment_services_eq ON equipment_services (equipment_id, kind, due_date);

ALTER TABLE test_results ADD COLUMN equipment_id INTEGER REFERENCES equipment(id);
ALTER TABLE test_results ADD COLUMN equipment_warning TEXT;
CREATE INDEX test_results_equipment ON test_results (equipment_id, entered_at);
ALTER TABLE qc_runs ADD COLUMN equipment_id INTEGER REFERENCES equipment(id);
ALTER TABLE qc_runs ADD COLUMN equipment_warning TEXT;
CREATE INDEX qc_runs_equipment ON qc_runs (equipment_id, performed_at);
`;

/** PostgreSQL keeps the certificate bytes as BYTEA. */
export const postgres = toPostgres(sql).replace(/\bBLOB\b/g, 'BYTEA');
