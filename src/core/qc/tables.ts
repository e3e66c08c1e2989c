import type { Generated } from 'kysely';

/** Kysely table types of this feature. Timestamps are ISO-8601 UTC strings; money is integer paise. */

export interface QcMaterialsTable {
  id: Generated<number>;
  organization_id: number;
  control_id: string;
  name: string;
  test_id: number;
  level: string | null;
  control_type: string;
  lot_number: string;
  expiry_date: string;
  target_mean: number;
  target_sd: number;
  unit: string | null;
  is_active: number;
  created_at: string;
  updated_at: string;
}

export interface QcRunsTable {
  id: Generated<number>;
  organization_id: number;
  material_id: number;
  value: number;
  z_score: number;
  status: string;
  rules: string;
  comments: string | null;
  performed_by: number | null;
  performed_at: string;
  created_at: string;
  /** The levels measured together for a test share it: one QC run. */
  run_key: string | null;
  test_id: number | null;
  override_reason: string | null;
  overridden_by: number | null;
  overridden_at: string | null;
  /** The machine the controls ran on, and the warning it carried then. */
  equipment_id: number | null;
  equipment_warning: string | null;
}

/** Merged into the database type (src/core/db/schema.ts) wherever this module is compiled. */
declare module '../db/schema.js' {
  interface DB {
    qc_materials: QcMaterialsTable;
    qc_runs: QcRunsTable;
  }
}
