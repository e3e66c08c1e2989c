/**
 * PostgreSQL only: the lab's patient count (entity_counts) kept once per statement instead of once per
 * row. A row trigger updated the same entity_counts row for every patient of a statement; in one
 * transaction each update adds a version of that row that cannot be pruned until it commits, and
 * each next update walks them all, so `lims import patients` of 1,000,000 rows (one transaction)
 * grew quadratic: the bench's raw insert of a million patients ran 23 CPU minutes unfinished. Now a
 * statement of N patients adds N once, from its transition table. SQLite's row triggers (migration 1)
 * update in place and stay as they are.
 */
export const sql = /* sql */ `
-- SQLite: nothing (its patients_ai / patients_ad triggers keep the count in place).
SELECT 1;
`;

export const postgres = /* sql */ `
DROP TRIGGER patients_count_ai ON patients;
DROP TRIGGER patients_count_ad ON patients;
DROP FUNCTION lims_patients_count();

CREATE FUNCTION lims_patients_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO entity_counts (organization_id, entity, n)
    SELECT organization_id, 'patients', count(*) FROM new_patients GROUP BY organization_id
    ON CONFLICT (organization_id, entity) DO UPDATE SET n = entity_counts.n + excluded.n;
  RETURN NULL;
END $$;

CREATE FUNCTION lims_patients_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE entity_counts e SET n = e.n - d.n
    FROM (SELECT organization_id, count(*) AS n FROM old_patients GROUP BY organization_id) d
    WHERE e.organization_id = d.organization_id AND e.entity = 'patients';
  RETURN NULL;
END $$;

CREATE TRIGGER patients_count_ai AFTER INSERT ON patients
  REFERENCING NEW TABLE AS new_patients FOR EACH STATEMENT EXECUTE FUNCTION lims_patients_count_insert();
CREATE TRIGGER patients_count_ad AFTER DELETE ON patients
  REFERENCING OLD TABLE AS old_patients FOR EACH STATEMENT EXECUTE FUNCTION lims_patients_count_delete();
`;
