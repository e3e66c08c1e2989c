/**
 * A new lab's first import keeps what its old system knew:
 * - patients.legacy_id: the patient's number in the lab's earlier system (a file's old patient ID
 *   column), kept instead of refused, found by the front desk's search, exported and imported
 *   again. One patient per old ID in a lab.
 * - data_jobs.error_groups: a refused import's problems counted by kind (JSON [{column, count,
 *   rows, message}]), so the screens show "gender: 2,056 rows, e.g. rows 2, 3, 5: ..." as the
 *   terminal does, not the first thousand rows one by one.
 */
export const sql = /* sql */ `
ALTER TABLE patients ADD COLUMN legacy_id TEXT;
CREATE UNIQUE INDEX patients_org_legacy_id ON patients (organization_id, legacy_id) WHERE legacy_id IS NOT NULL;
ALTER TABLE data_jobs ADD COLUMN error_groups TEXT;
`;
