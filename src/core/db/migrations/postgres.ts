/**
 * PostgreSQL counterparts of the SQLite-only parts of migrations 1-6: extensions, the
 * patient search words, the patient counter and the append-only audit trail. The rest of each
 * migration is translated from its SQLite text (see toPostgres in ../dialect.ts).
 */

/** Before migration 1's tables: CITEXT is the type of the COLLATE NOCASE columns. */
export const foundationBefore = /* sql */ `
CREATE EXTENSION IF NOT EXISTS citext;
`;

export const foundationAfter = /* sql */ `
-- Patient search: the words of each patient's name, code, phone and email (tokenised by lims, as
-- SQLite's FTS5 index does), one row each; a prefix is a range of this index.
CREATE TABLE patient_search_words (
  organization_id BIGINT NOT NULL,
  word TEXT COLLATE "C" NOT NULL,
  patient_id BIGINT NOT NULL REFERENCES patients(id) ON DELETE CASCADE,
  PRIMARY KEY (organization_id, word, patient_id)
);
CREATE INDEX patient_search_words_patient ON patient_search_words (patient_id);

CREATE FUNCTION lims_patients_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO entity_counts (organization_id, entity, n) VALUES (NEW.organization_id, 'patients', 1)
      ON CONFLICT (organization_id, entity) DO UPDATE SET n = entity_counts.n + 1;
    RETURN NEW;
  END IF;
  UPDATE entity_counts SET n = n - 1 WHERE organization_id = OLD.organization_id AND entity = 'patients';
  RETURN OLD;
END $$;
CREATE TRIGGER patients_count_ai AFTER INSERT ON patients FOR EACH ROW EXECUTE FUNCTION lims_patients_count();
CREATE TRIGGER patients_count_ad AFTER DELETE ON patients FOR EACH ROW EXECUTE FUNCTION lims_patients_count();

-- The audit trail is append-only: the database itself refuses to change or remove a row.
CREATE FUNCTION lims_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END $$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log FOR EACH ROW EXECUTE FUNCTION lims_audit_append_only();
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION lims_audit_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION lims_audit_append_only();
`;

/**
 * On PostgreSQL, the number of patients having a word that starts with each prefix of up to this
 * many characters is kept in patient_search_prefix_counts (migration 7; used by ../patient-search.ts), so that counting a short,
 * common prefix ("ram": 68,181 of a million) is one row instead of a distinct count over its range.
 * Longer prefixes match few enough patients to count from the words themselves.
 */
export const COUNTED_PREFIX = 6;

/** The same counts computed from the words in the database (migration 7 and `lims db copy`). */
export const REBUILD_PREFIX_COUNTS = /* sql */ `
INSERT INTO patient_search_prefix_counts (organization_id, prefix, n)
SELECT organization_id, prefix, count(DISTINCT patient_id) FROM (
  SELECT w.organization_id, w.patient_id, left(w.word, l) AS prefix
  FROM patient_search_words w, generate_series(1, ${COUNTED_PREFIX}) AS l
  WHERE length(w.word) >= l
) x GROUP BY organization_id, prefix`;

/**
 * Migration 7: patients per search prefix of up to COUNTED_PREFIX characters, kept by lims beside
 * the words (indexPatientWords), filled here from the words a lab already has.
 */
export const searchPrefixCounts = /* sql */ `
CREATE TABLE patient_search_prefix_counts (
  organization_id BIGINT NOT NULL,
  prefix TEXT COLLATE "C" NOT NULL,
  n BIGINT NOT NULL,
  PRIMARY KEY (organization_id, prefix)
);
${REBUILD_PREFIX_COUNTS};
`;

/** Migration 5's phone clean-up, with PostgreSQL's string functions (SQLite's substr(x, -10) is right(x, 10)). */
export const walkInPhones = /* sql */ `
UPDATE patients SET phone = right(x.d, 10) FROM (
  SELECT id AS pid, replace(replace(replace(phone, ' ', ''), '-', ''), '+', '') AS d FROM patients WHERE phone IS NOT NULL
) AS x WHERE patients.id = x.pid
  AND x.d ~ '^[0-9]*$'
  AND (length(x.d) = 10 OR (length(x.d) = 12 AND substr(x.d, 1, 2) = '91'))
  AND substr(right(x.d, 10), 1, 1) IN ('6', '7', '8', '9')
  AND patients.phone <> right(x.d, 10);
`;
