import { toPostgres } from '../dialect.js';

/**
 * Referrals by Doctor on a year: live bills per referring doctor read as one
 * range of this index per doctor (count, distinct patients, billed, paid), instead of the period's
 * bills grouped by doctor, which sorted them all first. And migration 28's turnaround rows by
 * verification time: the Analytics histogram reads the partial days at a period's edges from the
 * rows (its whole days from migration 32's summaries), which through the (lab, minutes, verified_at)
 * index meant walking every row of the lab.
 */
export const sql = /* sql */ `
CREATE INDEX bills_org_doctor_created ON bills (organization_id, doctor_id, created_at, cancelled_at, patient_id, final_amount_paise, paid_paise);
CREATE INDEX report_turnaround_verified ON report_turnaround (organization_id, verified_at, minutes);
`;

export const postgres = toPostgres(sql);
