import type { Generated } from 'kysely';

/** Kysely table types of this feature (the patients table itself is in ../db/schema.ts). */

/** The code and old id of a patient merged into another; `patient_id` is the patient kept. */
export interface PatientAliasesTable {
  id: Generated<number>;
  organization_id: number;
  patient_code: string;
  merged_patient_id: number;
  patient_id: number;
  merged_by: number | null;
  merged_at: string;
}

/** Merged into the database type (src/core/db/schema.ts) wherever this module is compiled. */
declare module '../db/schema.js' {
  interface DB {
    patient_aliases: PatientAliasesTable;
  }
}
