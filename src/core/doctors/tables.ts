/** Kysely table types of Doctor Management. Timestamps are ISO-8601 UTC strings. */

export interface DoctorProfilesTable {
  user_id: number;
  organization_id: number;
  qualification: string | null;
  experience_years: number | null;
  registration_number: string | null;
  /** active, inactive, suspended or pending; users.is_active is 1 exactly when this is active. */
  status: string;
  created_at: string;
  updated_at: string;
}

/** Merged into the database type (src/core/db/schema.ts) wherever this module is compiled. */
declare module '../db/schema.js' {
  interface DB {
    doctor_profiles: DoctorProfilesTable;
  }
}
