import { toPostgres } from '../dialect.js';

/**
 * Referrals by Doctor on a year (issue 17, session 14): live bills per referring doctor read as one
 * range of this index per doctor (count, distinct patients, billed, paid), instead of the period's
 * bills grouped by doctor, which sorted them all first.
 */
export const sql = /* sql */ `
CREATE INDEX bills_org_doctor_created ON bills (organization_id, doctor_id, created_at, cancelled_at, patient_id, final_amount_paise, paid_paise);
`;

export const postgres = toPostgres(sql);
