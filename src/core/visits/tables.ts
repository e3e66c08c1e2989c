import type { Generated } from 'kysely';

/** Kysely table types of this feature. Timestamps are ISO-8601 UTC strings; money is integer paise. */

export interface VisitsTable {
  id: Generated<number>;
  organization_id: number;
  patient_id: number;
  doctor_id: number | null;
  bill_id: number | null;
  visit_type: string;
  status: string;
  visit_date: string;
  visit_time: string | null;
  chief_complaint: string | null;
  diagnosis: string | null;
  treatment: string | null;
  follow_up_date: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

/** Merged into the database type (src/core/db/schema.ts) wherever this module is compiled. */
declare module '../db/schema.js' {
  interface DB {
    visits: VisitsTable;
  }
}
