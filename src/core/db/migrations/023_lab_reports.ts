/**
 * Lab Reports (docs/decisions.md "Lab Reports"): the report templates and authorised
 * signatories per department, the lab's report settings (accreditation, the public address the
 * report's QR code opens) and the lab's secret that signs verification links. Tests may name their
 * method and samples their condition on receipt, both printed on the report.
 */
export const sql = /* sql */ `
ALTER TABLE tests ADD COLUMN method TEXT;
ALTER TABLE samples ADD COLUMN receipt_condition TEXT;

CREATE TABLE report_templates (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  department TEXT NOT NULL CHECK (department IN ('hematology','biochemistry','microbiology','pathology','immunology','custom')),
  group_by TEXT NOT NULL DEFAULT 'category' CHECK (group_by IN ('category','none')),
  header_text TEXT,
  footer_text TEXT,
  interpretation_notes TEXT,
  signatory_name TEXT,
  signatory_qualification TEXT,
  signatory_registration TEXT,
  signature_type TEXT CHECK (signature_type IS NULL OR signature_type IN ('image/png','image/jpeg')),
  signature_base64 TEXT,
  updated_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((signature_type IS NULL) = (signature_base64 IS NULL))
);
CREATE UNIQUE INDEX report_templates_org_department ON report_templates (organization_id, department);

CREATE TABLE report_settings (
  organization_id INTEGER PRIMARY KEY REFERENCES organizations(id),
  accreditation_body TEXT,
  accreditation_number TEXT,
  public_url TEXT,
  verify_secret TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX lab_reports_results_verified ON test_results (organization_id, verified_at);
CREATE INDEX lab_reports_samples_created ON samples (organization_id, created_at);
`;
