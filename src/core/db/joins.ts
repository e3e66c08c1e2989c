import type { Db } from './connection.js';

/**
 * Query bases that several features start from. They live here, below the features, because the
 * features that read them (samples, results, lab reports) would otherwise import each other in a
 * cycle; each base holds only the joins and the lab filter, never a feature's rule.
 */

/**
 * A lab's samples, each joined to its patient (`s`, `p`): where every reader that shows a sample
 * with whose it is starts, so the lab filter and the patient join are written once.
 */
export function samplesWithPatient(db: Db, organizationId: number) {
  return db
    .selectFrom('samples as s')
    .innerJoin('patients as p', 'p.id', 's.patient_id')
    .where('s.organization_id', '=', organizationId);
}

/** The patient's columns a sample's head shows (result entry, the report). */
export const PATIENT_OF_SAMPLE = [
  'p.first_name',
  'p.last_name',
  'p.patient_code',
  'p.gender',
  'p.date_of_birth',
] as const;
