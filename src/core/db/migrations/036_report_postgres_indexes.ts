/**
 * PostgreSQL only: three indexes the report readers need there on a
 * busy year (bench: `BENCH_ONLY=reports BENCH_REPORT_ENGINES=postgres`). SQLite's plans for the
 * same statements meet the targets and stay as they are.
 * - Patients whose date of birth is not YYYY-MM-DD, by lab and registration: the Patient Register's
 *   demographics (patientDemographics) take them out of the age bands in a second pass, which ran
 *   the pattern over every patient of the period (140-190 ms for a year's 109,500); through this
 *   index it reads only the odd rows (about 1 ms). The condition is the reader's text exactly, so
 *   the planner can prove the query implies it.
 * - Live bills by lab and patient: the distinct patients billed in a period (/revenue's daily table
 *   and cards, billedPatients) counted in patient order from the index, without a sort or a heap
 *   visit (a year: 38 -> 14 ms).
 * - Samples by lab and patient: the same for the distinct patients collected (Analytics' card,
 *   distinctPatientsCollected; a year: 27 -> 13 ms).
 */
export const sql = /* sql */ `
-- SQLite: nothing.
SELECT 1;
`;

export const postgres = /* sql */ `
CREATE INDEX patients_org_created_odd_birth ON patients (organization_id, created_at)
  WHERE NOT (date_of_birth ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$');
CREATE INDEX bills_org_patient_live ON bills (organization_id, patient_id, created_at) WHERE cancelled_at IS NULL;
CREATE INDEX samples_org_patient_collected ON samples (organization_id, patient_id, collection_date);
`;
