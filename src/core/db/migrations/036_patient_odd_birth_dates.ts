/**
 * PostgreSQL only (issue 17, session 15): the patients whose date of birth is not YYYY-MM-DD, by lab
 * and registration. The Patient Register's demographics (patientDemographics) take these rows out of
 * the age bands in a second pass; without this index PostgreSQL ran the pattern over every patient
 * of the period (about 140-190 ms for a busy year's 109,500, more than the 100 ms target by itself).
 * Through it the pass reads only the odd rows (none on the generated year: about 1 ms). The index's
 * condition is the reader's text exactly, so the planner can prove the query implies it.
 * SQLite's GLOB pass over its (lab, created_at, gender, date_of_birth) index stays as it is.
 */
export const sql = /* sql */ `
-- SQLite: nothing.
SELECT 1;
`;

export const postgres = /* sql */ `
CREATE INDEX patients_org_created_odd_birth ON patients (organization_id, created_at)
  WHERE NOT (date_of_birth ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$');
`;
