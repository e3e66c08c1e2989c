import type Database from 'better-sqlite3';
import { rebuildTable } from '../rebuild.js';

/**
 * Structured results: a test may be entered parameter by parameter from a result template
 * (src/shared/templates): urine and stool routine, semen analysis, culture and sensitivity.
 * tests.result_template names the template of a 'structured' test; the entered parameters (or
 * the culture's organisms and antibiogram) are kept as JSON beside the one-line summary in
 * result_value, and an amendment keeps the earlier parameters too. The starter catalogue's
 * free-text urine routine, stool routine and culture tests of existing labs become structured
 * (their results entered so far stay as typed).
 */
export const sql = /* sql */ `
ALTER TABLE tests ADD COLUMN result_template TEXT;
ALTER TABLE test_results ADD COLUMN structured_value TEXT;
ALTER TABLE result_amendments ADD COLUMN old_structured TEXT;
`;

const TYPE_OLD = /CHECK \(result_type IN \('numeric','text','choice','calculated'\)\)/;
const TYPE_NEW = "CHECK (result_type IN ('numeric','text','choice','calculated','structured'))";

const STARTER = /* sql */ `
UPDATE tests SET result_type = 'structured', result_template = CASE upper(code)
    WHEN 'URM' THEN 'urine_routine'
    WHEN 'STOOL' THEN 'stool_routine'
    ELSE 'culture' END
  WHERE result_type = 'text' AND upper(code) IN ('URM', 'STOOL', 'UCS', 'BCS');
`;

export function sqliteSteps(sqlite: Database.Database): void {
  rebuildTable(sqlite, 'tests', (create) => {
    if (!TYPE_OLD.test(create)) throw new Error('043: tests result_type CHECK not found');
    return create.replace(TYPE_OLD, TYPE_NEW);
  });
  sqlite.exec(STARTER);
}

export const postgres = /* sql */ `
${sql}
ALTER TABLE tests DROP CONSTRAINT tests_result_type_check;
ALTER TABLE tests ADD CONSTRAINT tests_result_type_check ${TYPE_NEW};
${STARTER}
`;
