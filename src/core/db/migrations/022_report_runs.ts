/**
 * Reports: every run of a report is recorded (who, which report, the period, the format
 * and how many rows it gave), so the Reports screen's cards and "last generated" come from real
 * runs. Custom reports (an entity, its columns, filters and a default period) are saved per lab and
 * listed in the catalogue beside the built-in ones. Three indexes serve the reports' date ranges.
 */
export const sql = /* sql */ `
CREATE TABLE custom_reports (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  description TEXT,
  entity TEXT NOT NULL CHECK (entity IN ('patients','bills','samples','results')),
  columns TEXT NOT NULL,
  filters TEXT NOT NULL,
  range_days INTEGER NOT NULL DEFAULT 30,
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX custom_reports_org ON custom_reports (organization_id, name);

CREATE TABLE report_runs (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  report_id TEXT NOT NULL,
  format TEXT NOT NULL CHECK (format IN ('json','csv','xlsx','pdf')),
  from_date TEXT NOT NULL,
  to_date TEXT NOT NULL,
  row_count INTEGER NOT NULL,
  user_id INTEGER REFERENCES users(id),
  lab_date TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX report_runs_report ON report_runs (organization_id, report_id, created_at);
CREATE INDEX report_runs_day ON report_runs (organization_id, lab_date);

-- The reports' periods: patients by registration, samples by their lab day (collected, else ordered),
-- results by entry.
CREATE INDEX patients_org_created ON patients (organization_id, created_at);
CREATE INDEX samples_org_day ON samples (organization_id, (COALESCE(collection_date, created_at)));
CREATE INDEX test_results_org_entered ON test_results (organization_id, entered_at);
`;
