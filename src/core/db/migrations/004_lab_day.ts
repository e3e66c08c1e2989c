/**
 * The lab's day, safely: result types and tubes in the catalogue, delta checks, the
 * critical-value call log, and the report's release (reported time fixed across reprints).
 * Existing tests get a type and a tube from what they already say (see docs/decisions.md).
 */
export const sql = /* sql */ `
ALTER TABLE tests ADD COLUMN result_type TEXT NOT NULL DEFAULT 'numeric'
  CHECK (result_type IN ('numeric','text','choice','calculated'));
ALTER TABLE tests ADD COLUMN decimals INTEGER CHECK (decimals IS NULL OR (decimals >= 0 AND decimals <= 4));
ALTER TABLE tests ADD COLUMN plausible_low REAL;
ALTER TABLE tests ADD COLUMN plausible_high REAL;
ALTER TABLE tests ADD COLUMN critical_low REAL;
ALTER TABLE tests ADD COLUMN critical_high REAL;
ALTER TABLE tests ADD COLUMN choices TEXT;
ALTER TABLE tests ADD COLUMN formula TEXT;
ALTER TABLE tests ADD COLUMN container TEXT;
ALTER TABLE tests ADD COLUMN delta_limit REAL CHECK (delta_limit IS NULL OR delta_limit > 0);
ALTER TABLE tests ADD COLUMN delta_kind TEXT CHECK (delta_kind IS NULL OR delta_kind IN ('absolute','percent'));
ALTER TABLE tests ADD COLUMN delta_window_days INTEGER CHECK (delta_window_days IS NULL OR delta_window_days > 0);
ALTER TABLE tests ADD COLUMN aliases TEXT;

UPDATE tests SET result_type = CASE
  WHEN normal_range GLOB '[0-9<>+-]*' OR normal_range LIKE '≤%' OR normal_range LIKE '≥%' THEN 'numeric'
  WHEN normal_range IS NULL AND unit IS NOT NULL AND unit <> '' THEN 'numeric'
  ELSE 'text' END;
UPDATE tests SET container = CASE
  WHEN sample_type = 'Blood' AND upper(code) IN ('FBS','PPBS','RBS','GLU','GTT') THEN 'fluoride'
  WHEN sample_type = 'Blood' AND upper(code) IN ('PT','INR','APTT','DDIMER','FIB') THEN 'citrate'
  WHEN sample_type = 'Blood' AND upper(code) IN ('BCS') THEN 'blood-culture'
  WHEN sample_type = 'Blood' AND (category = 'Haematology' OR upper(code) IN ('HBA1C')) THEN 'edta'
  WHEN sample_type = 'Blood' THEN 'serum'
  WHEN sample_type = 'Urine' AND upper(code) IN ('UCS') THEN 'sterile-urine'
  WHEN sample_type = 'Urine' THEN 'urine'
  WHEN sample_type = 'Stool' THEN 'stool'
  WHEN sample_type = 'Sputum' THEN 'sputum'
  WHEN sample_type IS NULL THEN NULL
  ELSE 'other' END;

ALTER TABLE test_results ADD COLUMN delta_failed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE test_results ADD COLUMN previous_value TEXT;
ALTER TABLE test_results ADD COLUMN previous_at TEXT;
ALTER TABLE test_results ADD COLUMN calculated INTEGER NOT NULL DEFAULT 0;

CREATE TABLE critical_calls (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  result_id INTEGER NOT NULL REFERENCES test_results(id) ON DELETE CASCADE,
  called_to TEXT NOT NULL,
  called_at TEXT NOT NULL,
  read_back INTEGER NOT NULL CHECK (read_back IN (0,1)),
  notes TEXT,
  recorded_by INTEGER REFERENCES users(id),
  recorded_by_name TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX critical_calls_result ON critical_calls (result_id);

ALTER TABLE samples ADD COLUMN container TEXT;
ALTER TABLE samples ADD COLUMN reported_at TEXT;
ALTER TABLE samples ADD COLUMN report_print_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE samples ADD COLUMN release_reason TEXT;
ALTER TABLE samples ADD COLUMN released_by INTEGER REFERENCES users(id);
ALTER TABLE samples ADD COLUMN released_at TEXT;
CREATE INDEX samples_bill ON samples (bill_id);

UPDATE samples SET reported_at = (
  SELECT max(r.verified_at) FROM test_results r WHERE r.sample_id = samples.id
) WHERE status = 'completed';
`;
