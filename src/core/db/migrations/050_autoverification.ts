/**
 * Autoverification (src/core/autoverify): the lab's rule sets as versioned documents, when each
 * applies and how (shadow or live), the stop switches, and every decision the rules took.
 *
 * - autoverify_rule_sets: one row per version of the lab's rules; `document` is the JSON of the
 *   conditions (defaults, departments, tests, excluded groups, consistency checks). A draft may be
 *   edited; an approved version never changes (a change is a new version).
 * - autoverify_activations: an approved version put to work from a moment, in shadow or live mode;
 *   the one in force at a moment is the latest activation at or before it. Kept as history.
 * - autoverify_stops: a lab-wide stop (test_id NULL) or one test's; removing the row resumes.
 * - autoverify_decisions: what the rules said of a result, with the reasons, whatever the mode, and
 *   the value they judged (a shadow comparison tells a value a person sent back from one they kept).
 * - test_results.autoverified_by: the rule set version (and its approver) that released a result,
 *   as text: no person verified it, so verified_by stays empty. The amendment keeps the earlier one.
 */
export const sql = /* sql */ `
CREATE TABLE autoverify_rule_sets (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  version INTEGER NOT NULL,
  name TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('draft','approved')),
  document TEXT NOT NULL,
  notes TEXT,
  based_on INTEGER REFERENCES autoverify_rule_sets(id),
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  approved_by INTEGER REFERENCES users(id),
  approved_by_name TEXT,
  approved_at TEXT
);
CREATE UNIQUE INDEX autoverify_rule_sets_version ON autoverify_rule_sets (organization_id, version);

CREATE TABLE autoverify_activations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  rule_set_id INTEGER NOT NULL REFERENCES autoverify_rule_sets(id),
  mode TEXT NOT NULL CHECK (mode IN ('shadow','live')),
  active_from TEXT NOT NULL,
  activated_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL
);
CREATE INDEX autoverify_activations_lab ON autoverify_activations (organization_id, active_from);

CREATE TABLE autoverify_stops (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  test_id INTEGER REFERENCES tests(id),
  reason TEXT NOT NULL,
  stopped_by INTEGER REFERENCES users(id),
  stopped_by_name TEXT,
  stopped_at TEXT NOT NULL
);
CREATE INDEX autoverify_stops_lab ON autoverify_stops (organization_id, test_id);

CREATE TABLE autoverify_decisions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  result_id INTEGER NOT NULL REFERENCES test_results(id) ON DELETE CASCADE,
  test_id INTEGER NOT NULL REFERENCES tests(id),
  rule_set_id INTEGER NOT NULL REFERENCES autoverify_rule_sets(id),
  mode TEXT NOT NULL CHECK (mode IN ('shadow','live')),
  decision TEXT NOT NULL CHECK (decision IN ('release','hold')),
  released INTEGER NOT NULL DEFAULT 0,
  result_value TEXT,
  reasons TEXT NOT NULL,
  decided_at TEXT NOT NULL
);
CREATE INDEX autoverify_decisions_result ON autoverify_decisions (result_id, id);
CREATE INDEX autoverify_decisions_lab ON autoverify_decisions (organization_id, decided_at);

ALTER TABLE test_results ADD COLUMN autoverified_by TEXT;
ALTER TABLE result_amendments ADD COLUMN old_autoverified_by TEXT;
`;
