/** Kysely table types of this feature. Timestamps are ISO-8601 UTC strings; money is integer paise. */

export interface PatientPortalAccessTable {
  patient_id: number;
  organization_id: number;
  pin_hash: string;
  issued_by: number | null;
  issued_at: string;
}

export interface PortalSessionsTable {
  id: string;
  patient_id: number;
  organization_id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/** Merged into the database type (src/core/db/schema.ts) wherever this module is compiled. */
declare module '../db/schema.js' {
  interface DB {
    patient_portal_access: PatientPortalAccessTable;
    portal_sessions: PortalSessionsTable;
  }
}
