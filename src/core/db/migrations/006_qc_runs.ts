/**
 * Westgard across levels: a QC run is the set of control levels measured together for a
 * test (the rows sharing run_key); a rejected run may be overridden by a supervisor with a reason;
 * each test may choose its Westgard rules. Existing runs become one-level runs.
 */
export const sql = /* sql */ `
ALTER TABLE qc_runs ADD COLUMN run_key TEXT;
ALTER TABLE qc_runs ADD COLUMN test_id INTEGER REFERENCES tests(id);
ALTER TABLE qc_runs ADD COLUMN override_reason TEXT;
ALTER TABLE qc_runs ADD COLUMN overridden_by INTEGER REFERENCES users(id);
ALTER TABLE qc_runs ADD COLUMN overridden_at TEXT;
UPDATE qc_runs SET run_key = 'r' || id, test_id = (SELECT m.test_id FROM qc_materials m WHERE m.id = qc_runs.material_id);
CREATE INDEX qc_runs_test_time ON qc_runs (test_id, performed_at);
CREATE INDEX qc_runs_key ON qc_runs (run_key);

ALTER TABLE tests ADD COLUMN qc_rules TEXT;
`;
